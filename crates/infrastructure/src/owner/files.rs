//! Opening files in `.ideai/` without trusting it: a cloned repository may plant symlinks there.

use super::OwnerError;
use nix::errno::Errno;
use nix::fcntl::OFlag;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Opens `path` with `O_NOFOLLOW` and checks it is a regular file: a symlink would let a
/// repository point our writes (or our lock) anywhere; a FIFO or device has no place here.
/// `options` says how to open (read, write, create, mode).
pub(super) fn open_regular(path: &Path, options: &mut OpenOptions) -> Result<File, OwnerError> {
    let file = options
        .custom_flags(OFlag::O_NOFOLLOW.bits())
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(Errno::ELOOP as i32) {
                unsafe_path(path, "it is a symlink")
            } else {
                OwnerError::Io(e)
            }
        })?;
    if !file.metadata()?.is_file() {
        return Err(unsafe_path(path, "it is not a regular file"));
    }
    Ok(file)
}

/// Opens an existing regular file for reading.
pub(super) fn open_read(path: &Path) -> Result<File, OwnerError> {
    open_regular(path, OpenOptions::new().read(true))
}

/// Creates a new file, mode 0600; `create_new` (O_EXCL) never follows a planted symlink.
pub(super) fn create_private(path: &Path) -> Result<File, OwnerError> {
    open_regular(
        path,
        OpenOptions::new().write(true).create_new(true).mode(0o600),
    )
}

pub(super) fn unsafe_path(path: &Path, reason: &'static str) -> OwnerError {
    OwnerError::UnsafePath {
        path: path.to_path_buf(),
        reason,
    }
}
