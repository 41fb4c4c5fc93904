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
