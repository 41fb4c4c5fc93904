//! Where owners put their sockets: a folder only our user can enter.

use super::{OwnerError, own_uid};
use std::fs::{self, DirBuilder};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// `sun_path` holds 108 bytes on Linux, 104 on the BSDs and macOS, terminating NUL included.
#[cfg(any(target_os = "linux", target_os = "android"))]
const MAX_SOCKET_PATH: usize = 107;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const MAX_SOCKET_PATH: usize = 103;

/// The folder for owner sockets, created (0700) if missing: `$XDG_RUNTIME_DIR/ideai/` when that
/// variable names an absolute folder of ours, else `ideai-<uid>` in the temp folder.
///
/// # Errors
/// I/O errors, and `PermissionDenied` when the folder exists but is a symlink, is not ours or
/// is open to group or others (another user could then swap our sockets).
pub fn socket_dir() -> io::Result<PathBuf> {
    let uid = own_uid();
    let dir = match runtime_dir(uid) {
        Some(base) => base.join("ideai"),
        None => std::env::temp_dir().join(format!("ideai-{uid}")),
    };
    ensure_private_dir(&dir)?;
    Ok(dir)
}

fn runtime_dir(uid: u32) -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("XDG_RUNTIME_DIR")?);
    let meta = fs::metadata(&dir).ok()?;
    (dir.is_absolute() && meta.is_dir() && meta.uid() == uid).then_some(dir)
}

/// Creates `dir` with mode 0700 if missing, then checks that it is a real folder (not a
/// symlink), owned by our uid and closed to group and others. [`socket_dir`] uses it; it is
/// public so the checks can be exercised on any folder.
///
/// # Errors
/// I/O errors; `PermissionDenied` with the reason when an existing `dir` is refused.
pub fn ensure_private_dir(dir: &Path) -> io::Result<()> {
    match DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let meta = fs::symlink_metadata(dir)?;
    let refuse = |why: String| {
        io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("refusing socket folder {}: {why}", dir.display()),
        )
    };
    if meta.file_type().is_symlink() {
        return Err(refuse("it is a symlink".into()));
    }
    if !meta.is_dir() {
        return Err(refuse("it is not a folder".into()));
    }
    let uid = own_uid();
    if meta.uid() != uid {
        return Err(refuse(format!("owned by uid {}, not {uid}", meta.uid())));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(refuse(format!(
            "mode {:o} lets group or others in; expected 700",
            meta.mode() & 0o777
        )));
    }
    Ok(())
}

/// `<dir>/<project_id>.sock`.
///
/// # Errors
/// [`OwnerError::InvalidProjectId`] unless `project_id` is non-empty hex digits and dashes (a
/// uuid; nothing that could climb out of `dir`), [`OwnerError::SocketPathTooLong`] past what a
/// Unix socket address holds (107 bytes on Linux).
pub fn socket_path(dir: &Path, project_id: &str) -> Result<PathBuf, OwnerError> {
    let valid = !project_id.is_empty()
        && project_id.len() <= 64
        && project_id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b'-');
    if !valid {
        return Err(OwnerError::InvalidProjectId(project_id.to_owned()));
    }
    let path = dir.join(format!("{project_id}.sock"));
    let len = path.as_os_str().as_bytes().len();
    if len > MAX_SOCKET_PATH {
        return Err(OwnerError::SocketPathTooLong {
            len,
            max: MAX_SOCKET_PATH,
        });
    }
    Ok(path)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const ID: &str = "0f8e4c2a-1b3d-4e5f-8a9b-0c1d2e3f4a5b";

    #[test]
    fn a_uuid_makes_a_sock_file_in_the_folder() {
        let path = socket_path(Path::new("/run/user/1000/ideai"), ID).unwrap();
        assert_eq!(path, Path::new(&format!("/run/user/1000/ideai/{ID}.sock")));
    }

    #[test]
    fn ids_that_could_escape_or_are_not_uuids_are_refused() {
        for id in [
            "",
            "../x",
            "a/b",
            "..",
            "abc.sock",
            "zz",
            "ab cd",
            &"a".repeat(65),
        ] {
            assert!(
                matches!(
                    socket_path(Path::new("/tmp"), id),
                    Err(OwnerError::InvalidProjectId(_))
                ),
                "{id:?}"
            );
        }
    }

    #[test]
    fn a_path_over_the_socket_limit_is_refused() {
        let dir = PathBuf::from(format!("/{}", "d".repeat(70)));
        assert!(matches!(
            socket_path(&dir, ID),
            Err(OwnerError::SocketPathTooLong { len: 113, .. })
        ));
    }

    #[test]
    fn the_default_folder_is_ours_and_private() {
        let dir = socket_dir().unwrap();
        let meta = fs::symlink_metadata(&dir).unwrap();
        assert!(meta.is_dir());
        assert_eq!(meta.uid(), own_uid());
        assert_eq!(meta.mode() & 0o077, 0);
    }
}
