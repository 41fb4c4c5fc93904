//! Skills, as in the Agent Skills standard: a folder `<name>/SKILL.md` whose front matter
//! gives `name` (equal to the folder) and `description`, then a Markdown body, next to the
//! skill's other files. IdeA keeps them in `.ideai/skills/` and `~/.ideai/skills/`, finds
//! the project's own `.claude/skills/` and `.agents/skills/`, and delivers the assigned ones
//! where each CLI loads skills natively.

mod markdown;
mod name;
mod native;

pub use markdown::{parse_skill, render_skill_md, skill_md_with_name};
pub use name::{MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, valid_skill_name};
pub use native::{native_skills_folder, skill_invocation};

use serde::{Deserialize, Serialize};

/// Where a skill IdeA manages lives (what an agent's manifest refers to).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum SkillScope {
    /// `<project>/.ideai/skills/`.
    Project,
    /// `~/.ideai/skills/`: the user's, for every project. Was `global` in older manifests.
    #[serde(alias = "global")]
    User,
}

/// An agent's reference to a skill, in manifest order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillRef {
    pub scope: SkillScope,
    /// The skill's name (its folder).
    pub skill_id: String,
}

/// Where a skill was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum SkillSource {
    /// The project's `.ideai/skills/`.
    Project,
    /// The user's `~/.ideai/skills/`.
    User,
    /// The project's own `.claude/skills/`, read in place (Claude Code's folder).
    ClaudeFolder,
    /// The project's own `.agents/skills/`, read in place (Codex's and Gemini CLI's folder).
    AgentsFolder,
}

impl SkillSource {
    /// The scope an agent's manifest can refer to; `None` for skills found in the CLIs'
    /// folders, which must be adopted into `.ideai/skills` first.
    pub const fn scope(self) -> Option<SkillScope> {
        match self {
            Self::Project => Some(SkillScope::Project),
            Self::User => Some(SkillScope::User),
            Self::ClaudeFolder | Self::AgentsFolder => None,
        }
    }

    /// The folder the skills are read from, for display (`~` is the user's home).
    pub const fn folder(self) -> &'static str {
        match self {
            Self::Project => ".ideai/skills",
            Self::User => "~/.ideai/skills",
            Self::ClaudeFolder => ".claude/skills",
            Self::AgentsFolder => ".agents/skills",
        }
    }
}

impl From<SkillScope> for SkillSource {
    fn from(scope: SkillScope) -> Self {
        match scope {
            SkillScope::Project => Self::Project,
            SkillScope::User => Self::User,
        }
    }
}

/// A skill as read from its `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Skill {
    /// Its folder's name (which wins over the front matter's `name`).
    pub name: String,
    pub source: SkillSource,
    /// When to use it: what a CLI shows the model to decide.
    pub description: String,
    /// The Markdown after the front matter, leading blank lines and trailing space removed.
    pub body: String,
    /// Other files of the skill, relative to its folder, sorted ("scripts/run.sh").
    pub files: Vec<String>,
    /// Non-fatal problems (name differed from the folder, YAML read line by line).
    pub warnings: Vec<String>,
}

/// A skill that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillProblem {
    /// Its folder or file, as the user would find it (`.ideai/skills/pdf/SKILL.md`).
    pub path: String,
    pub reason: String,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
