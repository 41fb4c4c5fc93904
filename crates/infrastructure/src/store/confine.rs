//! Reading and writing inside a project without following links out of it.
//!
//! A repository can commit symlinks anywhere in `.ideai/` (a run dir pointing at `~/.claude`,
//! a persona pointing at a private key). Every folder between the project root (which the
//! user chose, so it is trusted) and a file is checked with `lstat` and must be a real folder;
//! files are opened with `O_NOFOLLOW` and must be regular; writes refuse a link in the file's
//! place and then replace the file by rename, which never follows one. The attacker here is
//! the repository's content, not a process racing IdeA, so checking then acting is enough.

use crate::atomic::write_atomic;
use idea_domain::ports::StoreError;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

pub(crate) const LINK: &str = "a symbolic link";

pub(crate) fn unsafe_path(path: &Path, reason: &'static str) -> StoreError {
    StoreError::UnsafePath {
        path: path.to_path_buf(),
        reason,
    }
}

pub(crate) fn io_error(action: &'static str, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Refuses `path` if it is a link; fine when it is absent or anything else.
pub(crate) fn refuse_link(path: &Path) -> Result<(), StoreError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(unsafe_path(path, LINK)),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error("inspect", path, e)),
    }
}

/// Checks that every folder from `base` (exclusive) down to `dir` (inclusive) is a real folder,
/// creating missing ones when `create`. `Ok(false)`: one is missing and was not created.
pub(crate) fn real_dir(base: &Path, dir: &Path, create: bool) -> Result<bool, StoreError> {
    let relative = dir
        .strip_prefix(base)
        .ok()
        .filter(|r| r.components().all(|c| matches!(c, Component::Normal(_))))
        .ok_or_else(|| unsafe_path(dir, "outside the project"))?;
    let mut current = base.to_path_buf();
    for part in relative {
        current.push(part);
        if !step(&current, create)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One folder of [`real_dir`]'s walk.
fn step(dir: &Path, create: bool) -> Result<bool, StoreError> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(unsafe_path(dir, LINK)),
        Ok(meta) if meta.is_dir() => Ok(true),
        Ok(_) => Err(io_error(
            "open",
            dir,
            io::Error::new(io::ErrorKind::NotADirectory, "not a folder"),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
            match fs::create_dir(dir) {
                // Someone made it meanwhile: check what they made.
                Ok(()) => Ok(true),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => step(dir, false),
                Err(e) => Err(io_error("create", dir, e)),
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error("open", dir, e)),
    }
}

/// The bytes of the regular file `path`, `None` when absent; a link is refused.
pub(crate) fn read(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    read_at_most(path, u64::MAX)
}

/// As [`read`], refusing a file of more than `limit` bytes as corrupt.
pub(crate) fn read_at_most(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, StoreError> {
    let file = match open_no_follow(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        // `O_NOFOLLOW` fails with ELOOP (EMLINK on some systems): name the cause portably.
        Err(e) => {
            refuse_link(path)?;
            return Err(io_error("read", path, e));
        }
    };
    let meta = file.metadata().map_err(|e| io_error("read", path, e))?;
    if !meta.is_file() {
        return Err(unsafe_path(path, "not a regular file"));
    }
    let mut bytes = Vec::new();
    // One byte past the limit tells "too big" from "exactly the limit".
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_error("read", path, e))?;
    if bytes.len() as u64 > limit {
        return Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("larger than {limit} bytes"),
        });
    }
    Ok(Some(bytes))
}

/// Replaces `path` with `bytes` atomically, refusing a link in its place.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    refuse_link(path)?;
    write_atomic(path, bytes).map_err(|e| io_error("write", path, e))
}

#[cfg(unix)]
pub(crate) fn open_no_follow(path: &Path) -> io::Result<File> {
    use nix::fcntl::OFlag;
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a FIFO planted in place of a file must not hang the open.
    OpenOptions::new()
        .read(true)
        .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits())
        .open(path)
}

#[cfg(not(unix))]
pub(crate) fn open_no_follow(path: &Path) -> io::Result<File> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::other("a symbolic link"));
    }
    OpenOptions::new().read(true).open(path)
}

/// `path`'s folder (`.` for a bare name).
pub(crate) fn parent(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
