use super::*;
use crate::memory::MemoryType;
use crate::skill::SkillSource;
use std::path::PathBuf;

fn base<'a>(root: &'a Path, persona: &'a str) -> ConventionInputs<'a> {
    ConventionInputs {
        agent_name: "Ada",
        project_root: root,
        run_dir: None,
        orchestration: None,
        project_context: None,
        persona,
        skills: &[],
        skill_home: None,
        memory: &[],
        memory_token_budget: 500,
        handoff: None,
    }
}

fn skill(name: &str, description: &str, body: &str) -> Skill {
    Skill {
        name: name.into(),
        source: SkillSource::Project,
        description: description.into(),
        body: body.into(),
        files: Vec::new(),
        warnings: Vec::new(),
    }
}

fn memory(slug: &str, title: &str, hook: &str, kind: MemoryType) -> MemoryIndexEntry {
    MemoryIndexEntry {
        slug: slug.into(),
        title: title.into(),
        hook: hook.into(),
        kind,
    }
}

const MCP_NOTE: &str = "To keep a lasting note for the team, use the MCP tool `idea_memory_write`. Notes written into this file are lost: IdeA rewrites it at each launch.";
const FILE_NOTE: &str = "To keep a lasting note for the team, write it to the project's `.ideai/memory/<slug>.md` (front matter `title`, `hook` and `type`: user, feedback, project or reference). Notes written into this file are lost: IdeA rewrites it at each launch.";

#[test]
fn minimal_file_has_only_the_project_section() {
    let root = PathBuf::from("/work/proj");
    let text = compose_convention_file(&base(&root, "  \n"));
    assert_eq!(
        text,
        "# Project\n\nYou are Ada, an agent working on the project at `/work/proj`.\n"
    );
}

#[test]
fn full_file_has_every_section_in_order() {
    let root = PathBuf::from("/work/proj");
    let run = PathBuf::from("/work/proj/.ideai/run/1");
    let skills = [
        skill(
            "rust-style",
            "How we write Rust.",
            "Use thiserror in libraries.",
        ),
        skill("pdf", "Use when: a PDF\nis read.", "Body not shown."),
    ];
    let memory = [
        memory("ci", "CI", "when CI fails", MemoryType::Project),
        memory("tone", "Tone", "when writing docs", MemoryType::Feedback),
    ];
    let handoff = Handoff {
        objective: "Ship the store".into(),
        summary: "Reads done; writes left.".into(),
    };
    let inputs = ConventionInputs {
        run_dir: Some(&run),
        orchestration: Some("Use the idea_ask_agent tool."),
        project_context: Some("A Rust IDE.\n"),
        skills: &skills,
        skill_home: Some(CliHome::Codex),
        memory: &memory,
        handoff: Some(&handoff),
        ..base(&root, "# Ada\n\nReviews code.\n")
    };
    let expected = "\
# Project

You are Ada, an agent working on the project at `/work/proj`.

Your working directory (`/work/proj/.ideai/run/1`) is your private run directory, not the project: read and change the project's files under `/work/proj`, by absolute path.

# Working with the other agents

Use the idea_ask_agent tool.

# Project context

A Rust IDE.

# Your persona: Ada

# Ada

Reviews code.

# Skills

These skills are installed where your CLI loads them: use one when its description fits the task.

- `$rust-style` — How we write Rust.
- `$pdf` — Use when: a PDF is read.

# Project memory

Notes kept by the team in `.ideai/memory/`; open one when its hook fits.

- **CI** (project): when CI fails — `.ideai/memory/ci.md`
- **Tone** (feedback): when writing docs — `.ideai/memory/tone.md`

To keep a lasting note for the team, use the MCP tool `idea_memory_write`. Notes written into this file are lost: IdeA rewrites it at each launch.

# Conversation resume

Objective: Ship the store

Where it stands:

Reads done; writes left.
";
    assert_eq!(compose_convention_file(&inputs), expected);
}

#[test]
fn native_skills_are_invoked_the_way_the_cli_does() {
    let root = PathBuf::from("/p");
    let skills = [skill("pdf", "Reads PDFs.", "Secret body.")];
    for (home, invocation) in [
        (CliHome::ClaudeCode, "`/pdf`"),
        (CliHome::Gemini, "`/pdf`"),
        (CliHome::Codex, "`$pdf`"),
    ] {
        let text = compose_convention_file(&ConventionInputs {
            skills: &skills,
            skill_home: Some(home),
            ..base(&root, "")
        });
        assert!(
            text.contains(&format!("- {invocation} — Reads PDFs.")),
            "{text}"
        );
        assert!(!text.contains("Secret body."));
    }
}

#[test]
fn skills_of_a_cli_without_skill_support_are_written_in_full() {
    let root = PathBuf::from("/p");
    let skills = [
        skill(
            "rust-style",
            "How we write Rust.",
            "Use thiserror in libraries.\n",
        ),
        skill("empty", " ", ""),
    ];
    let text = compose_convention_file(&ConventionInputs {
        skills: &skills,
        ..base(&root, "")
    });
    assert!(text.ends_with(
        "# Skills\n\n## rust-style\n\nHow we write Rust.\n\nUse thiserror in libraries.\n\n## empty\n"
    ), "{text}");
}

#[test]
fn no_skills_no_skills_section() {
    let root = PathBuf::from("/p");
    let text = compose_convention_file(&ConventionInputs {
        skill_home: Some(CliHome::ClaudeCode),
        ..base(&root, "")
    });
    assert!(!text.contains("# Skills"));
}

#[test]
fn blank_parts_are_left_out() {
    let root = PathBuf::from("/p");
    let handoff = Handoff {
        objective: " ".into(),
        summary: "\n".into(),
    };
    let text = compose_convention_file(&ConventionInputs {
        orchestration: Some("  "),
        project_context: Some("\n\n"),
        handoff: Some(&handoff),
        ..base(&root, " ")
    });
    assert_eq!(
        text,
        "# Project\n\nYou are Ada, an agent working on the project at `/p`.\n"
    );
}

#[test]
fn a_resume_with_only_an_objective_or_a_summary() {
    let root = PathBuf::from("/p");
    let objective = Handoff {
        objective: "Ship".into(),
        summary: String::new(),
    };
    let text = compose_convention_file(&ConventionInputs {
        handoff: Some(&objective),
        ..base(&root, "")
    });
    assert!(
        text.ends_with("# Conversation resume\n\nObjective: Ship\n"),
        "{text}"
    );
    let summary = Handoff {
        objective: String::new(),
        summary: "Half done.".into(),
    };
    let text = compose_convention_file(&ConventionInputs {
        handoff: Some(&summary),
        ..base(&root, "")
    });
    assert!(
        text.ends_with("# Conversation resume\n\nWhere it stands:\n\nHalf done.\n"),
        "{text}"
    );
}

#[test]
fn without_a_run_dir_there_is_no_run_dir_sentence() {
    let root = PathBuf::from("/p");
    let text = compose_convention_file(&base(&root, ""));
    assert!(!text.contains("working directory"));
}

#[test]
fn with_mcp_and_no_entries_memory_only_says_how_to_keep_notes() {
    let root = PathBuf::from("/p");
    let text = compose_convention_file(&ConventionInputs {
        orchestration: Some("Use the MCP tools."),
        ..base(&root, "")
    });
    assert!(
        text.ends_with(&format!("\n\n# Project memory\n\n{MCP_NOTE}\n")),
        "{text}"
    );
}

#[test]
fn without_mcp_notes_are_kept_as_files() {
    let root = PathBuf::from("/p");
    let memory = [memory("ci", "CI", "when CI fails", MemoryType::Project)];
    let text = compose_convention_file(&ConventionInputs {
        memory: &memory,
        ..base(&root, "")
    });
    assert!(
        text.ends_with(&format!(
            "# Project memory\n\nNotes kept by the team in `.ideai/memory/`; open one when its hook fits.\n\n- **CI** (project): when CI fails — `.ideai/memory/ci.md`\n\n{FILE_NOTE}\n"
        )),
        "{text}"
    );
}

#[test]
fn without_mcp_nor_entries_there_is_no_memory_section() {
    let root = PathBuf::from("/p");
    let text = compose_convention_file(&base(&root, ""));
    assert!(!text.contains("# Project memory"));
}

#[test]
fn memory_lines_stay_on_one_line() {
    let root = PathBuf::from("/p");
    let memory = [memory("x", "Two\nlines", "a\n\nhook", MemoryType::User)];
    let text = compose_convention_file(&ConventionInputs {
        memory: &memory,
        ..base(&root, "")
    });
    assert!(text.contains("- **Two lines** (user): a hook — `.ideai/memory/x.md`"));
}

#[test]
fn memory_recall_stops_at_the_budget() {
    let root = PathBuf::from("/p");
    let memory: Vec<_> = (0..100)
        .map(|i| {
            memory(
                &format!("m{i}"),
                &format!("Memory {i}"),
                &"x".repeat(40),
                MemoryType::Reference,
            )
        })
        .collect();
    for orchestration in [None, Some("MCP")] {
        for budget in [150, 250, 1000] {
            let inputs = ConventionInputs {
                orchestration,
                memory: &memory,
                memory_token_budget: budget,
                ..base(&root, "")
            };
            let section = memory_section(&inputs).unwrap_or_default();
            assert!(
                section.len() <= budget * CHARS_PER_TOKEN,
                "{} chars for a {budget}-token budget",
                section.len()
            );
            let lines = section.lines().filter(|l| l.starts_with("- **")).count();
            assert!(
                lines > 0 && lines < 100,
                "{lines} lines for {budget} tokens"
            );
            assert!(section.contains("Notes written into this file are lost"));
        }
    }
    let none = compose_convention_file(&ConventionInputs {
        memory: &memory,
        memory_token_budget: 0,
        ..base(&root, "")
    });
    assert!(!none.contains("# Project memory"));
}

#[test]
fn a_budget_too_small_for_any_entry_keeps_the_note_alone() {
    let root = PathBuf::from("/p");
    let memory = [memory("m", "M", &"x".repeat(400), MemoryType::User)];
    let inputs = ConventionInputs {
        orchestration: Some("MCP"),
        memory: &memory,
        memory_token_budget: 60,
        ..base(&root, "")
    };
    assert_eq!(
        memory_section(&inputs),
        Some(format!("# Project memory\n\n{MCP_NOTE}"))
    );
    let tiny = ConventionInputs {
        memory_token_budget: 10,
        ..inputs
    };
    assert_eq!(memory_section(&tiny), None);
}
