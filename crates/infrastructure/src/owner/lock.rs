//! The project lock: one process at a time works on a project's `.ideai/`.

use super::OwnerError;
use super::files::open_regular;
use super::info::{OwnerInfo, read_owner, remove_owner, write_owner};
use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The lock file's name inside `.ideai/`.
const LOCK_FILE: &str = ".lock";

/// An exclusive `flock` on `<project>/.ideai/.lock`, held for as long as this value lives.
///
/// The kernel releases it when the holder dies, however it dies (even SIGKILL), so a crashed
/// owner never blocks the project. `flock` belongs to an open file description: a second
/// [`acquire`](Self::acquire), even in the same process, is refused.
///
/// Two kinds of holders take it with the same call:
/// - the **owner** (a desktop window or `idea serve`), which then [`publish`](Self::publish)es
///   who it is and keeps the lock while the project is open;
/// - a **CLI command** that found no owner and works on the project directly: it holds the lock
///   briefly, without publishing, so no owner starts under its feet (contenders get
///   [`OwnerError::Busy`]).
///
/// Dropping it removes `.owner.json` (best effort), then releases the lock.
#[derive(Debug)]
pub struct ProjectLock {
    ideai_dir: PathBuf,
    // Held for its Drop (LOCK_UN, then close).
    _lock: Flock<File>,
}

impl ProjectLock {
    /// Takes the lock of the project whose `.ideai/` folder is `ideai_dir` (which must exist),
    /// without waiting. The lock file is created mode 0600 and never followed if a symlink.
    ///
    /// Any `.owner.json` found once the lock is ours is stale (its writer died) and is removed.
    ///
    /// # Errors
    /// [`OwnerError::Owned`] when another holder published who it is, [`OwnerError::Busy`] when
    /// it did not, [`OwnerError::UnsafePath`] when `.lock` is a symlink or not a regular file,
    /// [`OwnerError::Io`] otherwise (e.g. `ideai_dir` missing).
    pub fn acquire(ideai_dir: &Path) -> Result<Self, OwnerError> {
        let path = ideai_dir.join(LOCK_FILE);
        let file = open_regular(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600),
        )?;
        match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(lock) => {
                remove_owner(ideai_dir);
                Ok(Self {
                    ideai_dir: ideai_dir.to_path_buf(),
                    _lock: lock,
                })
            }
            Err((_, errno)) if errno == Errno::EWOULDBLOCK => {
                Err(read_owner(ideai_dir).map_or(OwnerError::Busy, OwnerError::Owned))
            }
            Err((_, errno)) => Err(OwnerError::Io(io::Error::from(errno))),
        }
    }

    /// Writes `.owner.json` next to the lock (atomically, mode 0600). Call it again to update it,
    /// e.g. once `idea serve` knows its URL.
    ///
    /// # Errors
    /// An I/O error, or [`OwnerError::UnsafePath`] if the temp file's name was taken by a symlink.
    pub fn publish(&self, info: &OwnerInfo) -> Result<(), OwnerError> {
        write_owner(&self.ideai_dir, info)
    }

    /// The `.ideai/` folder this lock guards.
    #[must_use]
    pub fn ideai_dir(&self) -> &Path {
        &self.ideai_dir
    }
}

impl Drop for ProjectLock {
    fn drop(&mut self) {
        // Before the fields drop, so no new holder's file is ever removed.
        remove_owner(&self.ideai_dir);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    fn info(pid: u32) -> OwnerInfo {
        OwnerInfo {
            pid,
            url: None,
            socket: "/tmp/x.sock".into(),
            started_at: 1,
        }
    }

    #[test]
    fn held_by_a_silent_holder_is_busy_then_free_after_drop() {
        let dir = tempfile::tempdir().unwrap();
        let first = ProjectLock::acquire(dir.path()).unwrap();
        let mode = fs::metadata(dir.path().join(LOCK_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(matches!(
            ProjectLock::acquire(dir.path()),
            Err(OwnerError::Busy)
        ));
        drop(first);
        assert!(ProjectLock::acquire(dir.path()).is_ok());
    }

    #[test]
    fn a_stale_owner_file_is_removed_on_acquire_and_ours_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        write_owner(dir.path(), &info(1)).unwrap();
        let lock = ProjectLock::acquire(dir.path()).unwrap();
        assert_eq!(read_owner(dir.path()), None);
        lock.publish(&info(2)).unwrap();
        assert_eq!(read_owner(dir.path()), Some(info(2)));
        drop(lock);
        assert_eq!(read_owner(dir.path()), None);
    }
}
