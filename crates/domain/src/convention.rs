//! The convention file (`CLAUDE.md`, `AGENTS.md`, …) an agent's CLI reads at start: a pure
//! composition of everything the agent should know, in the order `docs/design.md` gives
//! under "Convention file".

use crate::memory::MemoryIndexEntry;
use crate::skill::Skill;
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
        sections.push(skills_section(inputs.skills));
    }
    if let Some(text) = memory_section(inputs.memory, inputs.memory_token_budget) {
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

fn skills_section(skills: &[Skill]) -> String {
    let mut text = String::from("# Skills");
    for skill in skills {
        let _ = write!(text, "\n\n## {}\n", skill.name.trim());
        if !skill.description.trim().is_empty() {
            let _ = write!(text, "\n{}\n", skill.description.trim());
        }
        if !skill.body.trim().is_empty() {
            let _ = write!(text, "\n{}\n", skill.body.trim());
        }
    }
    text.trim_end().to_owned()
}

fn memory_section(entries: &[MemoryIndexEntry], token_budget: usize) -> Option<String> {
    let header = "# Project memory\n\nNotes kept by the team in `.ideai/memory/`; open one when its hook fits.\n";
    let mut budget = token_budget
        .saturating_mul(CHARS_PER_TOKEN)
        .checked_sub(header.len())?;
    let mut lines = String::new();
    for entry in entries {
        let line = format!(
            "\n- **{}** ({}): {} — `.ideai/memory/{}.md`",
            entry.title,
            entry.kind.as_str(),
            entry.hook,
            entry.slug
        );
        if line.len() > budget {
            break;
        }
        budget -= line.len();
        lines.push_str(&line);
    }
    (!lines.is_empty()).then(|| format!("{header}{lines}"))
}

#[cfg(test)]
mod tests;
