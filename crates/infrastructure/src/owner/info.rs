//! `.ideai/.owner.json`: who holds the project lock, for the processes that find it held.

use super::OwnerError;
use super::files::{create_private, open_read};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The file's name inside `.ideai/`.
pub(super) const OWNER_FILE: &str = ".owner.json";

/// Past this, `.owner.json` is not ours (we write ~200 bytes): it is not read further.
const MAX_OWNER_FILE: u64 = 64 * 1024;

/// Who owns an open project and how to reach it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerInfo {
    /// The owner's process id.
    pub pid: u32,
    /// Its HTTP URL when it serves one (`idea serve`); known only after binding.
    pub url: Option<String>,
    /// Its local socket.
    pub socket: PathBuf,
    /// When it took the project, unix seconds.
    pub started_at: u64,
}

impl OwnerInfo {
    /// This process, starting now, reachable at `socket` (and `url` if any).
    #[must_use]
    pub fn current(socket: PathBuf, url: Option<String>) -> Self {
        let started_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            pid: std::process::id(),
            url,
            socket,
            started_at,
        }
    }
}

/// Reads `<ideai_dir>/.owner.json`. Missing, a symlink, over 64 KiB or not valid JSON: `None`,
/// since a holder that never published (or a stale leftover) tells nothing reliable.
#[must_use]
pub fn read_owner(ideai_dir: &Path) -> Option<OwnerInfo> {
    let file = open_read(&ideai_dir.join(OWNER_FILE)).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_OWNER_FILE + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 > MAX_OWNER_FILE {
        return None;
    }
    serde_json::from_slice(&bytes).ok()
}

/// Replaces `.owner.json` atomically: a reader sees the old one or the new one, never half.
/// No fsync: the file describes a running process, a crash makes it stale anyway.
pub(super) fn write_owner(ideai_dir: &Path, info: &OwnerInfo) -> Result<(), OwnerError> {
    let bytes = serde_json::to_vec_pretty(info).map_err(std::io::Error::other)?;
    let target = ideai_dir.join(OWNER_FILE);
    let temp = ideai_dir.join(format!(
        "{OWNER_FILE}.tmp-{}-{}",
        std::process::id(),
        unique_suffix()
    ));
    let result = (|| {
        let mut file = create_private(&temp)?;
        file.write_all(&bytes)?;
        drop(file);
        // rename replaces a symlink at the target itself, it never writes through it.
        fs::rename(&temp, &target)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Removes `.owner.json`, best effort (`remove_file` unlinks a symlink, never its target).
pub(super) fn remove_owner(ideai_dir: &Path) {
    let _ = fs::remove_file(ideai_dir.join(OWNER_FILE));
}

fn unique_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    COUNTER.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn info() -> OwnerInfo {
        OwnerInfo {
            pid: 42,
            url: Some("http://127.0.0.1:1234".into()),
            socket: "/run/user/1000/ideai/x.sock".into(),
            started_at: 1_700_000_000,
        }
    }

    #[test]
    fn round_trips_in_camel_case_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        write_owner(dir.path(), &info()).unwrap();
        let text = fs::read_to_string(dir.path().join(OWNER_FILE)).unwrap();
        assert!(text.contains("\"startedAt\""), "{text}");
        assert_eq!(read_owner(dir.path()), Some(info()));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn current_is_this_process_now() {
        let now = OwnerInfo::current("/s".into(), None);
        assert_eq!(now.pid, std::process::id());
        assert!(now.started_at > 1_700_000_000);
    }

    #[test]
    fn missing_corrupt_or_huge_reads_as_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_owner(dir.path()), None);
        fs::write(dir.path().join(OWNER_FILE), b"{not json").unwrap();
        assert_eq!(read_owner(dir.path()), None);
        let mut huge = serde_json::to_vec(&info()).unwrap();
        huge.resize(70 * 1024, b' ');
        fs::write(dir.path().join(OWNER_FILE), huge).unwrap();
        assert_eq!(read_owner(dir.path()), None);
    }

    #[test]
    fn a_symlinked_owner_file_is_neither_read_nor_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere.json");
        fs::write(&elsewhere, serde_json::to_vec(&info()).unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.path().join(OWNER_FILE)).unwrap();
        assert_eq!(read_owner(dir.path()), None);
        let mut other = info();
        other.pid = 7;
        write_owner(dir.path(), &other).unwrap();
        assert_eq!(read_owner(dir.path()), Some(other));
        // The link was replaced, its target untouched.
        let kept: OwnerInfo = serde_json::from_slice(&fs::read(&elsewhere).unwrap()).unwrap();
        assert_eq!(kept, info());
    }
}
