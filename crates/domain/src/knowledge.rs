//! What a project shares with every agent, written once (`docs/skills-memory-tools.md`):
//! skills, memory entries, project tools, templates and the shared context, in the project's
//! `.ideai/` (untrusted: a repository's content) and the user's `~/.ideai/`.

use crate::memory::MemoryEntry;
use crate::ports::StoreError;
use crate::project_tool::{ProjectTool, ToolProblem};
use crate::skill::{Skill, SkillProblem, SkillScope, SkillSource};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Every skill IdeA can see, and those it skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillListing {
    /// Project skills first, then the user's a project skill does not shadow, then the
    /// project's own `.claude/skills` and `.agents/skills`; by name within each.
    pub skills: Vec<Skill>,
    pub problems: Vec<SkillProblem>,
}

/// Every memory entry, and those that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryListing {
    pub entries: Vec<MemoryEntry>,
    pub problems: Vec<SkillProblem>,
}

/// Every project tool, and those skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolListing {
    /// Project tools, then the user's a project tool does not shadow; by name.
    pub tools: Vec<ProjectTool>,
    pub problems: Vec<ToolProblem>,
}

/// A project's own persona template, `.ideai/templates/<id>.md`: front matter `title`,
/// `summary`, `skills` (names, comma-separated), then the persona.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ProjectTemplate {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// Markdown; `{name}` is replaced by the agent's name.
    pub body: String,
    /// Skills an agent made from it is assigned, in order.
    pub skills: Vec<String>,
}

/// The project's and the user's shared knowledge on disk. Reads are bounded (sizes, counts,
/// depth) and never follow a link out of the project's `.ideai/`.
pub trait KnowledgeStore: Send + Sync {
    /// Every skill: `.ideai/skills`, `~/.ideai/skills`, `.claude/skills`, `.agents/skills`.
    fn skills(&self) -> SkillListing;
    /// Writes `<scope>/skills/<name>/SKILL.md` (making the folder).
    ///
    /// # Errors
    /// Store errors; an unsafe path.
    fn write_skill(&self, scope: SkillScope, name: &str, skill_md: &str) -> Result<(), StoreError>;
    /// The `SKILL.md` text of a skill, `None` when there is none.
    ///
    /// # Errors
    /// Store errors (a link, a file too big).
    fn skill_text(&self, source: SkillSource, name: &str) -> Result<Option<String>, StoreError>;
    /// Removes the skill's folder; `false` when there was none.
    ///
    /// # Errors
    /// Store errors.
    fn delete_skill(&self, scope: SkillScope, name: &str) -> Result<bool, StoreError>;
    /// Copies a found skill (from `.claude/skills` or `.agents/skills`) into `.ideai/skills`.
    ///
    /// # Errors
    /// Store errors; the skill missing, too big, or holding links.
    fn adopt_skill(&self, from: SkillSource, name: &str) -> Result<(), StoreError>;
    /// Makes `<run_dir>/<folder>` hold exactly `skills` (copies, each `SKILL.md` with `name`
    /// equal to its folder); a skill that cannot be copied is skipped and reported.
    ///
    /// # Errors
    /// Store errors on the run dir itself.
    fn deliver_skills(
        &self,
        run_dir: &Path,
        folder: &str,
        skills: &[Skill],
    ) -> Result<Vec<SkillProblem>, StoreError>;

    /// Every entry of `.ideai/memory/`.
    fn memory(&self) -> MemoryListing;
    /// Writes `.ideai/memory/<slug>.md` and the index.
    ///
    /// # Errors
    /// Store errors.
    fn write_memory(&self, entry: &MemoryEntry) -> Result<(), StoreError>;
    /// Removes the entry and rewrites the index; `false` when there was none.
    ///
    /// # Errors
    /// Store errors.
    fn delete_memory(&self, slug: &str) -> Result<bool, StoreError>;

    /// Every project tool: `.ideai/tools`, `~/.ideai/tools`.
    fn tools(&self) -> ToolListing;
    /// The folder of `tool`: its working directory.
    fn tool_dir(&self, tool: &ProjectTool) -> PathBuf;
    /// The folders tools are read from (watched for changes).
    fn tool_roots(&self) -> Vec<PathBuf>;

    /// The project's templates, `.ideai/templates/*.md`; broken ones reported.
    fn templates(&self) -> (Vec<ProjectTemplate>, Vec<SkillProblem>);

    /// Replaces `.ideai/CONTEXT.md` (an empty text removes it).
    ///
    /// # Errors
    /// Store errors.
    fn write_context(&self, text: &str) -> Result<(), StoreError>;
}
