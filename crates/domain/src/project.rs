//! The project: a folder with an `.ideai/` directory.

use crate::ids::ProjectId;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Schema version of `project.json` written by this build.
pub const PROJECT_VERSION: u32 = 1;

/// `.ideai/project.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Project {
    pub version: u32,
    pub id: ProjectId,
    pub name: String,
    /// What IdeA types to an agent whose usage limit has reset; the built-in nudge when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub resume_nudge: Option<String>,
    /// How agents' own worktrees are made (`docs/worktrees.md`).
    #[serde(default, skip_serializing_if = "WorktreeSettings::is_default")]
    #[cfg_attr(feature = "ts", ts(as = "Option<WorktreeSettings>", optional))]
    pub worktrees: WorktreeSettings,
}

/// The project's settings for agents' worktrees.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct WorktreeSettings {
    /// The agents' branch prefix; `idea/` when unset, and it may be empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub branch_prefix: Option<String>,
    /// Folders of the project linked into each worktree instead of copied (`node_modules`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub link_folders: Vec<String>,
    /// A command line run by the user's shell in a new worktree, in a cell of its own (the
    /// user sees it and can stop it), with `IDEA_WORKTREE_ROOT`, `IDEA_MAIN_ROOT`,
    /// `IDEA_BASE_REF` and `IDEA_PORT` set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub setup_script: Option<String>,
}

impl WorktreeSettings {
    #[must_use]
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// The longest nudge a project may set.
pub const NUDGE_MAX_CHARS: usize = 2_000;

/// A nudge as a project may set it: one line (it is typed, then Enter), no control characters,
/// not empty, at most [`NUDGE_MAX_CHARS`]. Runs of whitespace become one space.
///
/// # Errors
/// Why the text cannot be typed as a nudge.
pub fn nudge_text(raw: &str) -> Result<String, String> {
    if raw
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err("the nudge cannot hold control characters".into());
    }
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Err("the nudge is empty".into());
    }
    if text.chars().count() > NUDGE_MAX_CHARS {
        return Err(format!(
            "the nudge is longer than {NUDGE_MAX_CHARS} characters"
        ));
    }
    Ok(text)
}

/// Why a path cannot be a project root.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidProjectPath {
    #[error("a project path must be absolute: {0}")]
    NotAbsolute(PathBuf),
    #[error("a project path cannot contain '..': {0}")]
    ParentComponent(PathBuf),
}

/// The absolute, `..`-free root folder of a project.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(try_from = "PathBuf", into = "PathBuf")]
pub struct ProjectPath(PathBuf);

impl ProjectPath {
    /// # Errors
    /// When `path` is relative or has a `..` component.
    pub fn new(path: impl Into<PathBuf>) -> Result<Self, InvalidProjectPath> {
        let path = path.into();
        if !path.is_absolute() {
            return Err(InvalidProjectPath::NotAbsolute(path));
        }
        if path
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
        {
            return Err(InvalidProjectPath::ParentComponent(path));
        }
        Ok(Self(path))
    }

    pub fn as_path(&self) -> &Path {
        &self.0
    }

    /// `<root>/.ideai`.
    pub fn ideai_dir(&self) -> PathBuf {
        self.0.join(".ideai")
    }

    /// The folder's own name, used as the default project name.
    pub fn folder_name(&self) -> String {
        self.0.file_name().map_or_else(
            || "project".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

impl TryFrom<PathBuf> for ProjectPath {
    type Error = InvalidProjectPath;
    fn try_from(value: PathBuf) -> Result<Self, Self::Error> {
        Self::new(value)
    }
}

impl From<ProjectPath> for PathBuf {
    fn from(value: ProjectPath) -> Self {
        value.0
    }
}
