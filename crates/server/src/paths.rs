//! Where things are, from the environment: the user's folder, a project's path.

use idea_application::{AppError, AppResult};
use idea_domain::ProjectPath;
use std::path::{Path, PathBuf};

/// Where user-level state lives: `$IDEA_USER_DIR`, else `~/.ideai`.
pub fn user_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("IDEA_USER_DIR") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("/"), PathBuf::from);
    home.join(".ideai")
}

/// Resolves a `--project`/`DIR` argument to an absolute project path.
///
/// # Errors
/// When the folder does not exist or is not a folder.
pub fn project_path(dir: &Path) -> AppResult<ProjectPath> {
    let absolute = dir.canonicalize().map_err(|e| {
        AppError::Store(idea_domain::ports::StoreError::Io {
            action: "open",
            path: dir.to_path_buf(),
            source: e,
        })
    })?;
    if !absolute.is_dir() {
        return Err(AppError::Store(
            idea_domain::ports::StoreError::NotAProject(absolute),
        ));
    }
    ProjectPath::new(absolute).map_err(|e| AppError::Internal(e.to_string()))
}
