//! The convention file (`CLAUDE.md`, `AGENTS.md`, …) an agent's CLI reads at start: a pure
//! composition of everything the agent should know, in the order `docs/design.md` gives
//! under "Convention file".

use crate::memory::MemoryIndexEntry;
use crate::profile::CliHome;
use crate::skill::{Skill, skill_invocation};
use std::fmt::Write as _;
use std::path::Path;

/// Approximate characters per token, to keep memory recall within a token budget without a
/// tokenizer (a budget, not an exact count).
const CHARS_PER_TOKEN: usize = 4;

pub use crate::handoff::Handoff;

/// Everything the convention file is made of. Empty parts are left out entirely.
#[derive(Debug, Clone, Copy)]
pub struct ConventionInputs<'a> {
    pub agent_name: &'a str,
    /// The project root (absolute).
    pub project_root: &'a Path,
    /// The agent's cwd when it is a run dir rather than the project root.
    pub run_dir: Option<&'a Path>,
    /// How to reach the other agents (MCP tools or the file-drop fallback); `None` when
    /// orchestration is not available.
    pub orchestration: Option<&'a str>,
    /// `.ideai/CONTEXT.md`.
    pub project_context: Option<&'a str>,
    /// The agent's persona Markdown.
    pub persona: &'a str,
    /// Assigned skills, in manifest order.
    pub skills: &'a [Skill],
    /// The CLI that loads the assigned skills natively from its run dir (they are delivered
    /// there): the file then only lists them. `None` for a CLI without skills: their bodies
    /// are written out in full.
    pub skill_home: Option<CliHome>,
    /// Project memory index, most relevant first.
    pub memory: &'a [MemoryIndexEntry],
    /// Token budget for the memory recall section.
    pub memory_token_budget: usize,
    pub handoff: Option<&'a Handoff>,
}

/// Composes the convention file.
pub fn compose_convention_file(inputs: &ConventionInputs<'_>) -> String {
    let mut sections: Vec<String> = Vec::new();
    sections.push(project_section(inputs));
    if let Some(text) = non_empty(inputs.orchestration) {
        sections.push(format!("# Working with the other agents\n\n{text}"));
    }
    if let Some(text) = non_empty(inputs.project_context) {
        sections.push(format!("# Project context\n\n{text}"));
    }
    if let Some(text) = non_empty(Some(inputs.persona)) {
        sections.push(format!("# Your persona: {}\n\n{text}", inputs.agent_name));
    }
    if !inputs.skills.is_empty() {
        sections.push(match inputs.skill_home {
            Some(home) => native_skills_section(inputs.skills, home),
            None => skills_section(inputs.skills),
        });
    }
    if let Some(text) = memory_section(inputs) {
        sections.push(text);
    }
    if let Some(h) = inputs
        .handoff
        .filter(|h| !h.objective.trim().is_empty() || !h.summary.trim().is_empty())
    {
        let mut text = String::from("# Conversation resume\n");
        if !h.objective.trim().is_empty() {
            let _ = write!(text, "\nObjective: {}\n", h.objective.trim());
        }
        if !h.summary.trim().is_empty() {
            let _ = write!(text, "\nWhere it stands:\n\n{}\n", h.summary.trim());
        }
        sections.push(text.trim_end().to_owned());
    }
    let mut out = sections.join("\n\n");
    out.push('\n');
    out
}

fn non_empty(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|t| !t.is_empty())
}

fn project_section(inputs: &ConventionInputs<'_>) -> String {
    let root = inputs.project_root.display();
    let mut text = format!(
        "# Project\n\nYou are {}, an agent working on the project at `{root}`.",
        inputs.agent_name
    );
    if let Some(run_dir) = inputs.run_dir {
        let _ = write!(
            text,
            "\n\nYour working directory (`{}`) is your private run directory, not the project: \
             read and change the project's files under `{root}`, by absolute path.",
            run_dir.display()
        );
    }
    text
}

/// Skills the CLI loads itself: what they are for and how to invoke them, no bodies (the
/// CLI reads a body when the skill is used).
fn native_skills_section(skills: &[Skill], home: CliHome) -> String {
    let mut text = String::from(
        "# Skills\n\nThese skills are installed where your CLI loads them: use one when its \
         description fits the task.\n",
    );
    for skill in skills {
        let name = skill.name.trim();
        let invocation = skill_invocation(Some(home), name).unwrap_or_else(|| name.to_owned());
        let _ = write!(
            text,
            "\n- `{invocation}` — {}",
            one_line(&skill.description)
        );
    }
    text
}

/// Skills for a CLI without skill support: each in full.
fn skills_section(skills: &[Skill]) -> String {
    let mut text = String::from("# Skills");
    for skill in skills {
        let _ = write!(text, "\n\n## {}", skill.name.trim());
        for part in [skill.description.trim(), skill.body.trim()] {
            if !part.is_empty() {
                let _ = write!(text, "\n\n{part}");
            }
        }
    }
    text
}

/// The memory index within the token budget (the whole section counts), and how to keep a
/// note. Left out when there is nothing to recall and no MCP tool to write with, or when
/// the budget cannot hold even the heading and that sentence.
fn memory_section(inputs: &ConventionInputs<'_>) -> Option<String> {
    const HEADER: &str = "# Project memory\n\n";
    const INTRO: &str =
        "Notes kept by the team in `.ideai/memory/`; open one when its hook fits.\n";
    let entries = inputs.memory;
    let mcp = non_empty(inputs.orchestration).is_some();
    if entries.is_empty() && !mcp {
        return None;
    }
    let how_to = if mcp {
        "To keep a lasting note for the team, use the MCP tool `idea_memory_write`."
    } else {
        "To keep a lasting note for the team, write it to the project's \
         `.ideai/memory/<slug>.md` (front matter `title`, `hook` and `type`: user, feedback, \
         project or reference)."
    };
    let note =
        format!("{how_to} Notes written into this file are lost: IdeA rewrites it at each launch.");
    let total = inputs.memory_token_budget.saturating_mul(CHARS_PER_TOKEN);
    let mut budget = total.saturating_sub(HEADER.len() + INTRO.len() + "\n\n".len() + note.len());
    let mut lines = String::new();
    for entry in entries {
        let line = format!(
            "\n- **{}** ({}): {} — `.ideai/memory/{}.md`",
            one_line(&entry.title),
            entry.kind.as_str(),
            one_line(&entry.hook),
            entry.slug
        );
        if line.len() > budget {
            break;
        }
        budget -= line.len();
        lines.push_str(&line);
    }
    if !lines.is_empty() {
        return Some(format!("{HEADER}{INTRO}{lines}\n\n{note}"));
    }
    let short = format!("{HEADER}{note}");
    (short.len() <= total).then_some(short)
}

/// The text on one line, runs of white space as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
