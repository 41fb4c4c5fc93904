//! Atomic file replacement: a reader sees the old file or the new one, never half of either.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename, then an
/// fsync of the folder so the rename itself survives a crash. On any error the previous file
/// is untouched and the temp file removed (a full disk loses nothing). A link at `path` is
/// replaced, never followed (rename swaps the directory entry).
///
/// # Errors
/// Any I/O error on the way; the target is then unchanged.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (temp, mut file) = create_temp(dir, &file_name)?;
    let result = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)?;
        // Best effort: some file systems refuse to fsync a directory.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Creates a fresh temp file `.<name>.tmp-<pid>-<n>` next to the target. `create_new` (O_EXCL)
/// plus `O_NOFOLLOW` means a file or link planted under a predictable name is never opened:
/// the next name is tried instead.
fn create_temp(dir: &Path, file_name: &str) -> io::Result<(PathBuf, File)> {
    let mut attempts = 0;
    loop {
        let temp = dir.join(format!(
            ".{file_name}{TEMP_MARK}{}-{}",
            std::process::id(),
            unique_suffix()
        ));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits());
        }
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 16 => attempts += 1,
            Err(e) => return Err(e),
        }
    }
}

const TEMP_MARK: &str = ".tmp-";

/// The pid of the process that made `name`, when `name` is one of [`write_atomic`]'s temp
/// files (`.<name>.tmp-<pid>-<n>`): what a sweep of leftovers may remove.
pub fn temp_owner(name: &str) -> Option<u32> {
    let (stem, tail) = name.rsplit_once(TEMP_MARK)?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let named = stem.len() > 1 && stem.starts_with('.');
    (named && digits(pid) && digits(n)).then(|| pid.parse().ok())?
}

static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn unique_suffix() -> u64 {
    COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_the_targets_place_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        fs::write(&outside, "keep").unwrap();
        let path = dir.path().join("CLAUDE.md");
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        write_atomic(&path, b"ours").unwrap();
        assert_eq!(fs::read(&outside).unwrap(), b"keep");
        assert!(!fs::symlink_metadata(&path).unwrap().is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"ours");
    }

    #[cfg(unix)]
    #[test]
    fn planted_links_at_temp_names_are_skipped_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        fs::write(&outside, "keep").unwrap();
        let dir = dir.path().join("in");
        fs::create_dir(&dir).unwrap();
        // Links at the names the next write would pick.
        let (pid, next) = (
            std::process::id(),
            COUNTER.load(std::sync::atomic::Ordering::Relaxed),
        );
        for n in next..next + 3 {
            let name = format!(".a.json.tmp-{pid}-{n}");
            std::os::unix::fs::symlink(&outside, dir.join(name)).unwrap();
        }
        let (temp, _) = create_temp(&dir, "a.json").unwrap();
        assert!(!fs::symlink_metadata(&temp).unwrap().is_symlink());
        assert_eq!(fs::read(&outside).unwrap(), b"keep");
    }

    #[test]
    fn temp_names_are_recognised_exactly() {
        let pid = std::process::id();
        let (temp, _) = create_temp(tempfile::tempdir().unwrap().path(), "agents.json").unwrap();
        let name = temp.file_name().unwrap().to_str().unwrap();
        assert_eq!(temp_owner(name), Some(pid));
        assert_eq!(temp_owner("..gitignore.tmp-12-3"), Some(12));
        for other in [
            "agents.json.tmp-12-3",
            ".tmp-12-3",
            ".a.tmp-12",
            ".a.tmp-12-",
            ".a.tmp-x-3",
            ".a.tmp-12-3x",
            ".a.json",
        ] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"old").unwrap();
        // A directory where the temp file should go makes the rename fail.
        let blocked = dir.path().join("sub");
        fs::create_dir(&blocked).unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
