use super::*;
use crate::memory::MemoryType;
use crate::skill::SkillScope;
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
        memory: &[],
        memory_token_budget: 500,
        handoff: None,
    }
}

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
    let skills = [Skill {
        id: "rust".into(),
        scope: SkillScope::Project,
        name: "Rust style".into(),
        description: "How we write Rust.".into(),
        body: "Use thiserror in libraries.".into(),
    }];
    let memory = [
        MemoryIndexEntry {
            slug: "ci".into(),
            title: "CI".into(),
            hook: "when CI fails".into(),
            kind: MemoryType::Project,
        },
        MemoryIndexEntry {
            slug: "tone".into(),
            title: "Tone".into(),
            hook: "when writing docs".into(),
            kind: MemoryType::Feedback,
        },
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

## Rust style

How we write Rust.

Use thiserror in libraries.

# Project memory

Notes kept by the team in `.ideai/memory/`; open one when its hook fits.

- **CI** (project): when CI fails — `.ideai/memory/ci.md`
- **Tone** (feedback): when writing docs — `.ideai/memory/tone.md`

# Conversation resume

Objective: Ship the store

Where it stands:

Reads done; writes left.
";
    assert_eq!(compose_convention_file(&inputs), expected);
}

#[test]
fn memory_recall_stops_at_the_budget() {
    let root = PathBuf::from("/p");
    let memory: Vec<_> = (0..100)
        .map(|i| MemoryIndexEntry {
            slug: format!("m{i}"),
            title: format!("Memory {i}"),
            hook: "x".repeat(40),
            kind: MemoryType::Reference,
        })
        .collect();
    let text = compose_convention_file(&ConventionInputs {
        memory: &memory,
        memory_token_budget: 100,
        ..base(&root, "")
    });
    let lines = text.lines().filter(|l| l.starts_with("- **")).count();
    assert!(
        lines > 0 && lines < 10,
        "{lines} memory lines for a 100-token budget"
    );
    assert!(text.len() <= 100 * 4 + 200);
    let none = compose_convention_file(&ConventionInputs {
        memory: &memory,
        memory_token_budget: 0,
        ..base(&root, "")
    });
    assert!(!none.contains("# Project memory"));
}
