//! The project's `.ideai/permissions.json`, under the same confinement as every other state
//! file: no link followed, a regular file only, at most [`MAX_PERMISSIONS_BYTES`].

use super::{FsProjectStore, confine};
use idea_domain::ports::StoreError;
use std::path::PathBuf;

/// A permissions file is a few lists of short rules; anything bigger is not one.
pub const MAX_PERMISSIONS_BYTES: u64 = 1024 * 1024;

impl FsProjectStore {
    /// `<root>/.ideai/permissions.json`.
    pub fn permissions_path(&self) -> PathBuf {
        self.file("permissions.json")
    }

    /// The project's permissions file as text, `None` when absent.
    ///
    /// # Errors
    /// A link in the way, not a regular file, too big, not UTF-8, I/O failure.
    pub fn read_permissions(&self) -> Result<Option<String>, StoreError> {
        let path = self.permissions_path();
        self.check_layout()?;
        if !confine::real_dir(&self.root, &confine::parent(&path), false)? {
            return Ok(None);
        }
        confine::read_at_most(&path, MAX_PERMISSIONS_BYTES)?
            .map(|bytes| {
                String::from_utf8(bytes).map_err(|_| StoreError::Corrupt {
                    path: path.clone(),
                    reason: "not valid UTF-8 text".into(),
                })
            })
            .transpose()
    }

    /// Replaces the project's permissions file atomically.
    ///
    /// # Errors
    /// A link in the way, I/O failure.
    pub fn write_permissions(&self, text: &str) -> Result<(), StoreError> {
        self.write(&self.permissions_path(), text.as_bytes())
    }
}
