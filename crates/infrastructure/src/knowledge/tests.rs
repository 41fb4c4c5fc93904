#![allow(clippy::unwrap_used)]

use super::*;
use idea_domain::memory::{MemoryEntry, MemoryType};
use std::fs;
use std::os::unix::fs::PermissionsExt;

struct World {
    _dir: tempfile::TempDir,
    root: PathBuf,
    user: PathBuf,
    store: FsKnowledgeStore,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    let user = dir.path().join("home/.ideai");
    fs::create_dir_all(root.join(".ideai")).unwrap();
    fs::create_dir_all(&user).unwrap();
    let store = FsKnowledgeStore::new(&root, Some(user.clone()));
    World {
        _dir: dir,
        root,
        user,
        store,
    }
}

fn skill(dir: &Path, name: &str, text: &str) {
    fs::create_dir_all(dir.join(name)).unwrap();
    fs::write(dir.join(name).join("SKILL.md"), text).unwrap();
}

fn names(listing: &SkillListing) -> Vec<(String, SkillSource)> {
    listing
        .skills
        .iter()
        .map(|s| (s.name.clone(), s.source))
        .collect()
}

#[test]
fn skills_come_from_every_folder_and_the_project_wins_a_clash() {
    let w = world();
    let ok = "---\ndescription: Checks a change before review\n---\nRead the diff.\n";
    skill(&w.root.join(".ideai/skills"), "review", ok);
    skill(
        &w.user.join("skills"),
        "review",
        "---\ndescription: the user's\n---\n",
    );
    skill(&w.user.join("skills"), "mine", ok);
    skill(&w.root.join(".claude/skills"), "pdf", ok);
    skill(&w.root.join(".agents/skills"), "lint", ok);
    let listing = w.store.skills();
    assert_eq!(
        names(&listing),
        [
            ("review".into(), SkillSource::Project),
            ("mine".into(), SkillSource::User),
            ("pdf".into(), SkillSource::ClaudeFolder),
            ("lint".into(), SkillSource::AgentsFolder),
        ]
    );
    assert_eq!(
        listing.skills[0].description,
        "Checks a change before review"
    );
    assert!(listing.problems.is_empty(), "{:?}", listing.problems);
}

#[test]
fn a_broken_skill_is_reported_and_the_others_still_load() {
    let w = world();
    let skills = w.root.join(".ideai/skills");
    skill(&skills, "good", "---\ndescription: Fine\n---\nBody\n");
    skill(
        &skills,
        "no-description",
        "---\nname: no-description\n---\nBody\n",
    );
    skill(&skills, "Bad_Name", "---\ndescription: x\n---\n");
    fs::create_dir_all(skills.join("huge")).unwrap();
    fs::write(skills.join("huge/SKILL.md"), "x".repeat(300 * 1024)).unwrap();
    let listing = w.store.skills();
    assert_eq!(names(&listing), [("good".into(), SkillSource::Project)]);
    let mut paths: Vec<_> = listing.problems.iter().map(|p| p.path.clone()).collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            ".ideai/skills/Bad_Name/SKILL.md",
            ".ideai/skills/huge/SKILL.md",
            ".ideai/skills/no-description/SKILL.md"
        ]
    );
}

#[test]
fn a_linked_skill_in_the_project_is_refused_but_the_users_own_link_is_followed() {
    let w = world();
    let elsewhere = w.root.parent().unwrap().join("elsewhere");
    skill(&elsewhere, "secret", "---\ndescription: outside\n---\n");
    fs::create_dir_all(w.root.join(".ideai/skills")).unwrap();
    std::os::unix::fs::symlink(
        elsewhere.join("secret"),
        w.root.join(".ideai/skills/secret"),
    )
    .unwrap();
    fs::create_dir_all(w.user.join("skills")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("secret"), w.user.join("skills/linked")).unwrap();
    let listing = w.store.skills();
    assert_eq!(names(&listing), [("linked".into(), SkillSource::User)]);
    assert!(
        listing
            .problems
            .iter()
            .any(|p| p.path == ".ideai/skills/secret" && p.reason.contains("link")),
        "{:?}",
        listing.problems
    );
}

#[test]
fn a_linked_skills_folder_in_the_project_is_not_read() {
    let w = world();
    let elsewhere = w.root.parent().unwrap().join("elsewhere");
    skill(&elsewhere, "secret", "---\ndescription: outside\n---\n");
    fs::create_dir_all(w.root.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, w.root.join(".claude/skills")).unwrap();
    let listing = w.store.skills();
    assert!(listing.skills.is_empty());
    assert_eq!(listing.problems.len(), 1, "{:?}", listing.problems);
}

#[test]
fn delivery_places_exactly_the_chosen_skills_with_their_name_written() {
    let w = world();
    let skills = w.root.join(".ideai/skills");
    skill(
        &skills,
        "review",
        "---\ndescription: Review\n---\nRead it.\n",
    );
    fs::create_dir_all(skills.join("review/scripts")).unwrap();
    fs::write(skills.join("review/scripts/run.sh"), "#!/bin/sh\necho hi\n").unwrap();
    fs::set_permissions(
        skills.join("review/scripts/run.sh"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    skill(
        &skills,
        "other",
        "---\nname: wrong\ndescription: Other\n---\n",
    );
    let run = w.root.join(".ideai/run/agent");
    fs::create_dir_all(run.join(".claude/skills/stale")).unwrap();
    let listing = w.store.skills();
    let chosen: Vec<_> = listing.skills.to_vec();
    let problems = w
        .store
        .deliver_skills(&run, ".claude/skills", &chosen)
        .unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let delivered = run.join(".claude/skills");
    let mut present: Vec<_> = fs::read_dir(&delivered)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    present.sort();
    assert_eq!(present, ["other", "review"]);
    let text = fs::read_to_string(delivered.join("review/SKILL.md")).unwrap();
    assert!(text.contains("name: review"), "{text}");
    let other = fs::read_to_string(delivered.join("other/SKILL.md")).unwrap();
    assert!(
        other.contains("name: other") && !other.contains("wrong"),
        "{other}"
    );
    let mode = fs::metadata(delivered.join("review/scripts/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_ne!(mode & 0o111, 0);
    // The next start with one skill fewer removes it.
    w.store
        .deliver_skills(&run, ".claude/skills", &chosen[..1])
        .unwrap();
    assert!(!delivered.join("review").exists() || !delivered.join("other").exists());
}

#[test]
fn a_skill_with_too_many_files_is_not_delivered_and_is_reported() {
    let w = world();
    let skills = w.root.join(".ideai/skills");
    skill(&skills, "big", "---\ndescription: Big\n---\n");
    for i in 0..250 {
        fs::write(skills.join(format!("big/f{i}")), "x").unwrap();
    }
    let run = w.root.join(".ideai/run/agent");
    let listing = w.store.skills();
    assert!(listing.skills.is_empty(), "listed although too big");
    assert_eq!(listing.problems.len(), 1);
    assert!(!run.join(".agents/skills/big").exists());
}

#[test]
fn memory_entries_and_their_index_agree() {
    let w = world();
    let entry = |slug: &str, title: &str| MemoryEntry {
        slug: slug.into(),
        title: title.into(),
        hook: "when indenting".into(),
        kind: MemoryType::Project,
        writer: Some("Ada".into()),
        updated_at: Some(1),
        body: "We use tabs.".into(),
    };
    w.store.write_memory(&entry("tabs", "We use tabs")).unwrap();
    w.store
        .write_memory(&entry("ci", "CI runs as root"))
        .unwrap();
    let listing = w.store.memory();
    assert_eq!(listing.entries.len(), 2);
    assert_eq!(listing.entries[1], entry("tabs", "We use tabs"));
    let index = fs::read_to_string(w.root.join(".ideai/memory/MEMORY.md")).unwrap();
    assert!(
        index.contains("(tabs.md)") && index.contains("(ci.md)"),
        "{index}"
    );
    assert!(w.store.delete_memory("tabs").unwrap());
    assert!(!w.store.delete_memory("tabs").unwrap());
    let index = fs::read_to_string(w.root.join(".ideai/memory/MEMORY.md")).unwrap();
    assert!(!index.contains("tabs.md"), "{index}");
}

#[test]
fn an_unreadable_memory_entry_is_reported_and_skipped() {
    let w = world();
    let dir = w.root.join(".ideai/memory");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("broken.md"), "no front matter").unwrap();
    fs::write(dir.join("Not A Slug.md"), "---\ntitle: x\n---\n").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd.md")).unwrap();
    let listing = w.store.memory();
    assert!(listing.entries.is_empty());
    assert_eq!(listing.problems.len(), 3, "{:?}", listing.problems);
}

#[test]
fn tools_are_listed_with_the_projects_winning_and_broken_ones_reported() {
    let w = world();
    let tool = |dir: &Path, name: &str, json: &str| {
        fs::create_dir_all(dir.join(name)).unwrap();
        fs::write(dir.join(name).join("TOOL.json"), json).unwrap();
    };
    let ok = r#"{"description": "Runs the tests", "command": {"run": "sh ./t.sh"},}"#;
    tool(&w.root.join(".ideai/tools"), "run_tests", ok);
    tool(&w.user.join("tools"), "run_tests", ok);
    tool(
        &w.root.join(".ideai/tools"),
        "broken",
        "{\"command\": {\"run\": \"x\"}}",
    );
    let listing = w.store.tools();
    assert_eq!(listing.tools.len(), 1);
    assert_eq!(listing.tools[0].source, ToolSource::Project);
    assert_eq!(
        w.store.tool_dir(&listing.tools[0]),
        w.root.join(".ideai/tools/run_tests")
    );
    assert_eq!(listing.problems.len(), 2, "{:?}", listing.problems);
}

#[test]
fn templates_carry_their_skills_and_the_context_file_can_be_removed() {
    let w = world();
    let dir = w.root.join(".ideai/templates");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("security.md"),
        "---\ntitle: Security reviewer\nsummary: Looks for holes\nskills: review, threat-model\n---\n# {name}\n",
    )
    .unwrap();
    let (templates, problems) = w.store.templates();
    assert!(problems.is_empty());
    assert_eq!(templates[0].title, "Security reviewer");
    assert_eq!(templates[0].skills, ["review", "threat-model"]);
    assert_eq!(templates[0].body, "# {name}\n");
    w.store.write_context("We ship on Fridays.\n").unwrap();
    assert!(w.root.join(".ideai/CONTEXT.md").exists());
    w.store.write_context("  \n").unwrap();
    assert!(!w.root.join(".ideai/CONTEXT.md").exists());
}
