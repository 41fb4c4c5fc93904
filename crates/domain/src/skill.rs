//! Skills (planned; `docs/design.md`, "Project and `.ideai/`"): `.ideai/skills/<name>/SKILL.md`,
//! global ones in `~/.ideai/skills/`.

use serde::{Deserialize, Serialize};

/// Where a skill lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum SkillScope {
    /// `<project>/.ideai/skills/`.
    Project,
    /// `~/.ideai/skills/`.
    Global,
}

/// An agent's reference to a skill, in manifest order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillRef {
    pub scope: SkillScope,
    pub skill_id: String,
}

/// A skill as read from its `SKILL.md`: front matter `name`, `description`, then a Markdown body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Skill {
    pub id: String,
    pub scope: SkillScope,
    pub name: String,
    pub description: String,
    pub body: String,
}
