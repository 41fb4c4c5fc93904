//! Turns a [`Layout`] into opened hierarchies to grant. Granting less is always safe, so an
//! entry of a split folder that vanished or cannot be opened is simply not granted, nor is a
//! write root that does not exist; a root that exists but cannot be opened is an error (the
//! plan would silently lose a place the agent needs).

use super::SandboxError;
use idea_domain::sandbox::Layout;
use landlock::{AccessFs, BitFlags};
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// What one kind of access grants.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rights {
    /// To a hierarchy granted whole (a directory, or a file masked with `file`).
    pub hierarchy: BitFlags<AccessFs>,
    /// To a split folder itself (its listing on the read side, nothing on the write side).
    pub split_folder: BitFlags<AccessFs>,
    /// What a rule on a non-directory may hold.
    pub file: BitFlags<AccessFs>,
}

/// Opens `path` for a rule without reading it (`O_PATH`); `follow` decides whether a final
/// symlink is followed.
fn open_path(path: &Path, follow: bool) -> std::io::Result<File> {
    let flags = if follow {
        libc::O_PATH
    } else {
        libc::O_PATH | libc::O_NOFOLLOW
    };
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Calls `add` with every hierarchy `layout` grants and the rights it gets.
///
/// # Errors
/// A path granted whole that exists but cannot be opened (`add`'s own errors pass through).
pub(super) fn visit(
    layout: &Layout,
    rights: Rights,
    mut add: impl FnMut(File, BitFlags<AccessFs>) -> Result<(), SandboxError>,
) -> Result<(), SandboxError> {
    let mut grant = |file: File, access: BitFlags<AccessFs>| -> Result<(), SandboxError> {
        let Ok(meta) = file.metadata() else {
            return Ok(());
        };
        let access = if meta.is_dir() {
            access
        } else {
            access & rights.file
        };
        if access.is_empty() || meta.file_type().is_symlink() {
            return Ok(());
        }
        add(file, access)
    };
    for path in &layout.whole {
        // Roots come from IdeA and are resolved already: a symlink among them is followed.
        match open_path(path, true) {
            Ok(file) => grant(file, rights.hierarchy)?,
            // A CLI's state folder that does not exist yet, a missing `$TMPDIR`.
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {}
            Err(source) => {
                return Err(SandboxError::Path {
                    path: path.clone(),
                    source,
                });
            }
        }
    }
    for dir in &layout.split {
        if let Ok(file) = open_path(dir, false) {
            grant(file, rights.split_folder)?;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if layout.skip.contains(&path) {
                continue;
            }
            // Never through a symlink: its target is governed where it lives (a link in the
            // project to `~/.ssh` must not grant `~/.ssh`).
            if let Ok(file) = open_path(&path, false) {
                grant(file, rights.hierarchy)?;
            }
        }
    }
    Ok(())
}
