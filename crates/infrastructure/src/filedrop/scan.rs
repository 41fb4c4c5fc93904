//! Reading a requests folder: its requester folders, and the requests of one folder that
//! have no answer yet. Nothing here follows a link: entries are looked at with `lstat`.

use idea_domain::filedrop::{DropEntry, classify, error_name, response_name};
use std::fs;
use std::io;
use std::path::Path;
use std::time::SystemTime;

/// An unanswered request file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pending {
    /// The file name without `.json` (maybe a bad id).
    pub stem: String,
    pub modified: SystemTime,
}

/// The requester folders under `requests`: real folders (no links) with a visible UTF-8 name,
/// at most `max` of them.
pub(super) fn folders(requests: &Path, max: usize) -> io::Result<Vec<String>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(requests)?.flatten() {
        // `DirEntry::file_type` does not follow links.
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        match entry.file_name().into_string() {
            Ok(name) if !name.starts_with('.') => found.push(name),
            Ok(_) => {}
            Err(name) => {
                tracing::warn!(folder = ?name, "file drop: a folder whose name is not UTF-8 names no agent; ignored");
            }
        }
        if found.len() >= max {
            tracing::warn!(
                max,
                "file drop: too many requester folders; the others wait"
            );
            break;
        }
    }
    Ok(found)
}

/// The requests of folder `dir` with neither a response nor an error file, oldest first (by
/// modification time, then name), at most `max` of them: the whole folder is read, but only
/// that many are kept (twice that at most while reading).
pub(super) fn unanswered(dir: &Path, max: usize) -> io::Result<Vec<Pending>> {
    let mut pending = Vec::new();
    for entry in fs::read_dir(dir)?.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let DropEntry::Request(stem) = classify(name) else {
            continue;
        };
        if exists(&dir.join(response_name(stem))) || exists(&dir.join(error_name(stem))) {
            continue;
        }
        // The link's own time for a link: it is refused unread anyway.
        let modified = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH);
        pending.push(Pending {
            stem: stem.to_owned(),
            modified,
        });
        // Trimmed now and then, not at every entry: at most twice `max` are held.
        if pending.len() >= max.saturating_mul(2).max(1) {
            keep_oldest(&mut pending, max);
        }
    }
    keep_oldest(&mut pending, max);
    Ok(pending)
}

fn keep_oldest(pending: &mut Vec<Pending>, max: usize) {
    pending.sort_by(|a, b| (a.modified, &a.stem).cmp(&(b.modified, &b.stem)));
    pending.truncate(max);
}

/// Whether anything (a file, a link, a folder) has this name.
pub(super) fn exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}
