//! [`PermissionFiles`] on the file system: the user's `<user dir>/permissions.json` and the
//! project's `.ideai/permissions.json`.
//!
//! The project's file comes with a cloned repository, so it is read like every `.ideai/`
//! file ([`FsProjectStore::read_permissions`]: no link followed). The user's file lives in the
//! user's own folder and may be a link (into a dotfiles repository, say); both must be regular
//! files of at most [`MAX_PERMISSIONS_BYTES`], so a FIFO or a huge file cannot hang or flood
//! IdeA.

use crate::store::{FsProjectStore, MAX_PERMISSIONS_BYTES};
use idea_domain::permissions::PermissionScope;
use idea_domain::ports::{PermissionFiles, PermissionText, StoreError};
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The user permissions file inside the user state folder `user_dir` (`~/.ideai`, or
/// `$IDEA_USER_DIR`).
pub fn user_permissions_path(user_dir: &Path) -> PathBuf {
    user_dir.join("permissions.json")
}

/// Both files of one project.
#[derive(Debug, Clone)]
pub struct FsPermissionFiles {
    project: FsProjectStore,
    user_file: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl FsPermissionFiles {
    /// `user_file`: see [`user_permissions_path`] (`None`: no user file); `home` expands `~/`
    /// in rules.
    pub fn new(project: FsProjectStore, user_file: Option<PathBuf>, home: Option<PathBuf>) -> Self {
        Self {
            project,
            user_file,
            home,
        }
    }
}

impl PermissionFiles for FsPermissionFiles {
    fn read(&self) -> Vec<PermissionText> {
        let mut files = Vec::with_capacity(2);
        if let Some(path) = &self.user_file {
            files.push(PermissionText {
                scope: PermissionScope::User,
                path: path.clone(),
                text: read_user_file(path),
            });
        }
        files.push(PermissionText {
            scope: PermissionScope::Project,
            path: self.project.permissions_path(),
            text: self.project.read_permissions(),
        });
        files
    }

    fn write_project(&self, text: &str) -> Result<(), StoreError> {
        self.project.write_permissions(text)
    }

    fn home(&self) -> Option<PathBuf> {
        self.home.clone()
    }
}

/// The user's file as text, `None` when absent.
fn read_user_file(path: &Path) -> Result<Option<String>, StoreError> {
    let io_error = |source: io::Error| StoreError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    };
    let corrupt = |reason: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(e)),
    };
    if !meta.is_file() {
        return Err(StoreError::UnsafePath {
            path: path.to_path_buf(),
            reason: "not a regular file",
        });
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(MAX_PERMISSIONS_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io_error)?;
    if bytes.len() as u64 > MAX_PERMISSIONS_BYTES {
        return Err(corrupt(format!(
            "larger than {MAX_PERMISSIONS_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| corrupt("not valid UTF-8 text".into()))
}

#[cfg(test)]
mod tests;
