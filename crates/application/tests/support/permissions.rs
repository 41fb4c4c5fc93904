//! The permissions files in memory.

use idea_domain::permissions::PermissionScope;
use idea_domain::ports::{PermissionFiles, PermissionText, StoreError};
use std::path::PathBuf;
use std::sync::Mutex;

/// The user's and the project's files as text (`None`: absent).
#[derive(Default)]
pub struct MemoryPermissions {
    pub user: Mutex<Option<String>>,
    pub project: Mutex<Option<String>>,
}

impl PermissionFiles for MemoryPermissions {
    fn read(&self) -> Vec<PermissionText> {
        vec![
            PermissionText {
                scope: PermissionScope::User,
                path: PathBuf::from("/home/u/.ideai/permissions.json"),
                text: Ok(self.user.lock().unwrap().clone()),
            },
            PermissionText {
                scope: PermissionScope::Project,
                path: PathBuf::from("/project/.ideai/permissions.json"),
                text: Ok(self.project.lock().unwrap().clone()),
            },
        ]
    }

    fn write_project(&self, text: &str) -> Result<(), StoreError> {
        *self.project.lock().unwrap() = Some(text.to_owned());
        Ok(())
    }

    fn home(&self) -> Option<PathBuf> {
        Some(PathBuf::from("/home/u"))
    }
}
