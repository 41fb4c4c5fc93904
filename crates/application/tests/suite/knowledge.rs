//! Skills, memory, templates and project tools over the real store: written once, delivered
//! to each agent's CLI at its launch, recalled in its convention file.

use crate::support::{GitWorld, git_world};
use idea_application::agents::{self, NewAgent};
use idea_application::knowledge::memory::{self, MemoryWrite};
use idea_application::knowledge::skills::{self, SkillDraft, SkillEdit};
use idea_application::knowledge::tools::{self, ToolCaller};
use idea_application::sessions::{self, LaunchAgent};
use idea_application::{ErrorCode, layouts};
use idea_domain::memory::MemoryType;
use idea_domain::skill::{SkillScope, SkillSource};
use idea_domain::{Agent, CellRef, ProfileId};
use serde_json::json;
use std::path::PathBuf;

fn agent(w: &GitWorld, name: &str, profile: &str) -> Agent {
    agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: name.into(),
            profile_id: ProfileId::new(profile),
        },
    )
    .unwrap()
}

fn code(e: &idea_application::AppError) -> &'static str {
    ErrorCode::from(&e.kind()).as_str()
}

fn draft(name: &str, description: &str, body: &str) -> SkillDraft {
    SkillDraft {
        scope: SkillScope::Project,
        name: name.into(),
        description: description.into(),
        body: body.into(),
    }
}

/// Launches `agent` in the active layout's first cell; its spawned cwd.
fn launch(w: &GitWorld, agent: &Agent) -> PathBuf {
    let l = layouts::get(&w.deps).unwrap();
    let cell = CellRef::new(l.active, l.layouts[0].tree.leaves()[0].id);
    sessions::launch_agent(
        &w.deps,
        LaunchAgent {
            agent_id: agent.agent_id,
            cell,
            size: idea_domain::terminal::TerminalSize { rows: 24, cols: 80 },
            fresh: false,
        },
    )
    .unwrap();
    let spawned = w.terminals.spawned.lock().unwrap();
    spawned.last().unwrap().cwd.clone()
}

#[test]
fn a_skill_is_created_assigned_in_order_and_unassigned_everywhere_when_deleted() {
    let w = git_world();
    let ada = agent(&w, "Ada", "tracked");
    skills::create(
        &w.deps,
        &draft("review", "Checks a change", "Read the diff."),
    )
    .unwrap();
    skills::create(&w.deps, &draft("tabs", "How we indent", "Tabs.")).unwrap();
    let taken = skills::create(&w.deps, &draft("review", "again", "")).unwrap_err();
    assert_eq!(code(&taken), "SKILL_EXISTS");
    skills::assign(&w.deps, "Ada", "tabs").unwrap();
    let ada = skills::assign(&w.deps, &ada.agent_id.to_string(), "review").unwrap();
    let names: Vec<_> = ada.skills.iter().map(|r| r.skill_id.as_str()).collect();
    assert_eq!(names, ["tabs", "review"]);
    // Assigning again changes nothing; unassigning keeps the others' order.
    skills::assign(&w.deps, "Ada", "tabs").unwrap();
    skills::create(&w.deps, &draft("third", "Third", "")).unwrap();
    skills::assign(&w.deps, "Ada", "third").unwrap();
    let ada = skills::unassign(&w.deps, "Ada", "review").unwrap();
    let names: Vec<_> = ada.skills.iter().map(|r| r.skill_id.as_str()).collect();
    assert_eq!(names, ["tabs", "third"]);
    skills::delete(&w.deps, SkillScope::Project, "tabs").unwrap();
    let ada = agents::find(&w.deps, "Ada").unwrap();
    assert_eq!(ada.skills.len(), 1);
    assert!(!w.dir.path().join(".ideai/skills/tabs").exists());
}

#[test]
fn bad_skill_names_and_descriptions_are_refused_before_any_file_is_touched() {
    let w = git_world();
    for name in ["../escape", "a/b", "Upper", "", "-x", "x--y"] {
        let refused = skills::create(&w.deps, &draft(name, "fine", "")).unwrap_err();
        assert_eq!(code(&refused), "INVALID_SKILL", "{name}");
    }
    let none = skills::create(&w.deps, &draft("ok", "  ", "")).unwrap_err();
    assert_eq!(code(&none), "INVALID_SKILL");
    let long = skills::create(&w.deps, &draft("ok", &"x".repeat(1025), "")).unwrap_err();
    assert_eq!(code(&long), "INVALID_SKILL");
    let traversal = skills::delete(&w.deps, SkillScope::Project, "../../x").unwrap_err();
    assert_eq!(code(&traversal), "INVALID_SKILL");
    let traversal = skills::text(&w.deps, SkillSource::Project, "../agents").unwrap_err();
    assert_eq!(code(&traversal), "INVALID_SKILL");
    assert!(!w.dir.path().join(".ideai/skills").exists());
    // An edit that does not read as a skill writes nothing.
    skills::create(&w.deps, &draft("ok", "Fine", "Body")).unwrap();
    let before = std::fs::read_to_string(w.dir.path().join(".ideai/skills/ok/SKILL.md")).unwrap();
    let edit = SkillEdit {
        scope: SkillScope::Project,
        name: "ok".into(),
        text: "no front matter".into(),
    };
    assert_eq!(
        code(&skills::update(&w.deps, &edit).unwrap_err()),
        "INVALID_SKILL"
    );
    let after = std::fs::read_to_string(w.dir.path().join(".ideai/skills/ok/SKILL.md")).unwrap();
    assert_eq!(before, after);
}

#[test]
fn a_found_skill_is_listed_in_place_and_assigned_only_once_adopted() {
    let w = git_world();
    let found = w.dir.path().join(".claude/skills/pdf");
    std::fs::create_dir_all(&found).unwrap();
    std::fs::write(
        found.join("SKILL.md"),
        "---\ndescription: Use when: reading PDFs\n---\nUse pdftotext.\n",
    )
    .unwrap();
    agent(&w, "Ada", "codex");
    let listing = skills::list(&w.deps);
    assert_eq!(listing.skills[0].source, SkillSource::ClaudeFolder);
    assert_eq!(listing.skills[0].description, "Use when: reading PDFs");
    let refused = skills::assign(&w.deps, "Ada", "pdf").unwrap_err();
    assert_eq!(code(&refused), "SKILL_NOT_FOUND");
    let adopted = skills::adopt(&w.deps, SkillSource::ClaudeFolder, "pdf").unwrap();
    assert_eq!(adopted.source, SkillSource::Project);
    let copy = std::fs::read_to_string(w.dir.path().join(".ideai/skills/pdf/SKILL.md")).unwrap();
    assert!(copy.contains("name: pdf"), "{copy}");
    skills::assign(&w.deps, "Ada", "pdf").unwrap();
    let again = skills::adopt(&w.deps, SkillSource::ClaudeFolder, "pdf").unwrap_err();
    assert_eq!(code(&again), "SKILL_EXISTS");
}

#[test]
fn each_cli_gets_exactly_its_skills_where_it_loads_them_and_the_convention_file_lists_them() {
    let w = git_world();
    skills::create(
        &w.deps,
        &draft(
            "review",
            "Checks a change before review",
            "Read the whole diff.",
        ),
    )
    .unwrap();
    skills::create(&w.deps, &draft("unused", "Nobody has it", "")).unwrap();
    let claude = agent(&w, "Claude", "tracked");
    let codex = agent(&w, "Codex", "codex");
    let plain = agent(&w, "Plain", "fake");
    for name in ["Claude", "Codex", "Plain"] {
        skills::assign(&w.deps, name, "review").unwrap();
    }
    let cwd = launch(&w, &claude);
    let delivered = cwd.join(".claude/skills");
    assert!(delivered.join("review/SKILL.md").is_file());
    assert!(!delivered.join("unused").exists());
    let convention = std::fs::read_to_string(cwd.join("AGENTS.md")).unwrap();
    assert!(convention.contains("`/review`"), "{convention}");
    assert!(!convention.contains("Read the whole diff."), "{convention}");

    w.terminals.sessions.lock().unwrap()[0].finish(0);

    let cwd = launch(&w, &codex);
    assert!(cwd.join(".agents/skills/review/SKILL.md").is_file());
    let convention = std::fs::read_to_string(cwd.join("AGENTS.md")).unwrap();
    assert!(convention.contains("`$review`"), "{convention}");
    w.terminals.sessions.lock().unwrap()[1].finish(0);

    // A CLI without skills of its own reads them whole in its convention file.
    let cwd = launch(&w, &plain);
    assert!(!cwd.join(".claude/skills").exists() && !cwd.join(".agents/skills").exists());
    let convention = std::fs::read_to_string(cwd.join("AGENTS.md")).unwrap();
    assert!(convention.contains("Read the whole diff."), "{convention}");
    w.terminals.sessions.lock().unwrap()[2].finish(0);

    // Unassigned, it is gone from the run dir at the next launch.
    skills::unassign(&w.deps, "Claude", "review").unwrap();
    let cwd = launch(&w, &claude);
    assert!(!cwd.join(".claude/skills/review").exists());
}

#[test]
fn memory_entries_are_written_with_their_writer_searched_and_recalled_at_a_launch() {
    let w = git_world();
    let write = |title: &str, kind: MemoryType| MemoryWrite {
        slug: None,
        title: title.into(),
        hook: format!("when {title}"),
        kind,
        body: "We use tabs, width 4.".into(),
    };
    let tabs = memory::write(&w.deps, &write("We use tabs", MemoryType::Project), "Codex").unwrap();
    assert_eq!(tabs.slug, "we-use-tabs");
    assert_eq!(tabs.writer.as_deref(), Some("Codex"));
    // The same title again is a new entry, not a silent overwrite.
    let again =
        memory::write(&w.deps, &write("We use tabs", MemoryType::Feedback), "user").unwrap();
    assert_eq!(again.slug, "we-use-tabs-2");
    let replaced = memory::write(
        &w.deps,
        &MemoryWrite {
            slug: Some("we-use-tabs-2".into()),
            ..write("Ask before pushing", MemoryType::Feedback)
        },
        "user",
    )
    .unwrap();
    assert_eq!(replaced.title, "Ask before pushing");
    let hits = memory::search(&w.deps, "tabs width", 10);
    assert_eq!(hits[0].slug, "we-use-tabs");
    let missing = memory::write(
        &w.deps,
        &MemoryWrite {
            slug: Some("../../etc".into()),
            ..write("x", MemoryType::User)
        },
        "user",
    )
    .unwrap_err();
    assert_eq!(code(&missing), "INVALID_PARAMS");

    let ada = agent(&w, "Ada", "tracked");
    let cwd = launch(&w, &ada);
    let convention = std::fs::read_to_string(cwd.join("AGENTS.md")).unwrap();
    let feedback = convention.find("Ask before pushing").expect("recalled");
    let project = convention.find("We use tabs").expect("recalled");
    assert!(feedback < project, "feedback first: {convention}");
    memory::delete(&w.deps, "we-use-tabs").unwrap();
    assert_eq!(
        code(&memory::delete(&w.deps, "we-use-tabs").unwrap_err()),
        "MEMORY_NOT_FOUND"
    );
}

#[test]
fn a_project_template_makes_an_agent_with_its_persona_and_skills() {
    let w = git_world();
    skills::create(&w.deps, &draft("review", "Checks a change", "")).unwrap();
    let dir = w.dir.path().join(".ideai/templates");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("security.md"),
        "---\ntitle: Security reviewer\nskills: review, missing-skill\n---\n# {name}\n\nLook for holes.\n",
    )
    .unwrap();
    let all = agents::templates::all(&w.deps);
    assert_eq!(all[0].id, "security");
    assert!(all[0].project);
    assert!(all.iter().any(|t| t.id == "architect" && !t.project));
    let sam = agents::create_from_template(
        &w.deps,
        NewAgent {
            name: "Sam".into(),
            profile_id: ProfileId::new("fake"),
        },
        "security",
    )
    .unwrap();
    let names: Vec<_> = sam.skills.iter().map(|r| r.skill_id.as_str()).collect();
    assert_eq!(names, ["review"]);
    let persona = agents::read_context(&w.deps, sam.agent_id).unwrap();
    assert_eq!(persona, "# Sam\n\nLook for holes.\n");
}

#[test]
fn a_project_tool_refuses_bad_arguments_and_runs_for_the_user() {
    let w = git_world();
    let dir = w.dir.path().join(".ideai/tools/greet");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("TOOL.json"),
        r#"{"description": "Greets", "command": {"parameters": [{"name": "who", "type": "string"}], "run": "printf 'hi %s' {{who}}"}}"#,
    )
    .unwrap();
    let args = |v: serde_json::Value| v.as_object().unwrap().clone();
    let ran = tools::call(
        &w.deps,
        &ToolCaller::User,
        "greet",
        &args(json!({"who": "a; b"})),
    )
    .unwrap();
    assert!(ran.ok);
    assert_eq!(ran.stdout, "hi a; b");
    let missing = tools::call(&w.deps, &ToolCaller::User, "greet", &args(json!({}))).unwrap_err();
    assert_eq!(code(&missing), "INVALID_TOOL_ARGS");
    let unknown = tools::call(&w.deps, &ToolCaller::User, "nope", &args(json!({}))).unwrap_err();
    assert_eq!(code(&unknown), "TOOL_NOT_FOUND");
    let view = tools::list(&w.deps);
    assert_eq!(view.recent[0].outcome, "refused");
    assert_eq!(view.recent[1].outcome, "allowed");
}
