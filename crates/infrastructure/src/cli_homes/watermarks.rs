//! How far each watched conversation file was read: a file is read again only once it
//! changed (its length or modification time), and a file not found yet (Codex writes its
//! rollout at the first turn) is looked for again at most every [`LOOK_AGAIN`].

use idea_domain::profile::CliHome;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime};

/// How often a conversation whose file was not found is looked for (finding a Codex rollout
/// walks its sessions folder).
const LOOK_AGAIN: Duration = Duration::from_secs(30);

/// At most this many conversations are remembered; past it the oldest is forgotten (and read
/// once more if it is watched again).
const CAPACITY: usize = 256;

#[derive(Debug, Clone, Default)]
pub(super) struct Watermarks(Arc<Mutex<HashMap<(CliHome, String), Mark>>>);

#[derive(Debug, Clone)]
struct Mark {
    file: Option<PathBuf>,
    /// The file's length and modification time when last read.
    seen: Option<(u64, Option<SystemTime>)>,
    looked: Instant,
}

impl Watermarks {
    /// The file of conversation `id` when it changed since the last call (or this is the
    /// first), found with `find`; `None` when it did not change or cannot be found.
    pub(super) fn changed(
        &self,
        home: CliHome,
        id: &str,
        find: impl FnOnce() -> Option<PathBuf>,
    ) -> Option<PathBuf> {
        let mut marks = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (home, id.to_owned());
        let now = Instant::now();
        let mark = match marks.get_mut(&key) {
            Some(mark) => mark,
            None => {
                if marks.len() >= CAPACITY
                    && let Some(oldest) = marks
                        .iter()
                        .min_by_key(|(_, m)| m.looked)
                        .map(|(k, _)| k.clone())
                {
                    marks.remove(&oldest);
                }
                marks.entry(key).or_insert(Mark {
                    file: None,
                    seen: None,
                    // Never looked: look now.
                    looked: now.checked_sub(LOOK_AGAIN).unwrap_or(now),
                })
            }
        };
        let stamp = |file: &PathBuf| {
            std::fs::metadata(file)
                .ok()
                .map(|m| (m.len(), m.modified().ok()))
        };
        let mut current = mark.file.as_ref().and_then(stamp);
        if current.is_none() {
            if now.duration_since(mark.looked) < LOOK_AGAIN {
                return None;
            }
            mark.looked = now;
            mark.file = find();
            current = mark.file.as_ref().and_then(stamp);
        }
        let current = current?;
        if mark.seen == Some(current) {
            return None;
        }
        mark.seen = Some(current);
        mark.file.clone()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_given_once_per_change_and_a_missing_one_is_not_looked_for_at_every_call() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t.jsonl");
        let marks = Watermarks::default();
        let mut looks = 0;
        let mut find = || {
            looks += 1;
            file.exists().then(|| file.clone())
        };
        assert_eq!(marks.changed(CliHome::Codex, "a", &mut find), None);
        assert_eq!(marks.changed(CliHome::Codex, "a", &mut find), None);
        assert_eq!(looks, 1, "looked for again at once");
        std::fs::write(&file, "one\n").unwrap();
        assert_eq!(
            marks.changed(CliHome::ClaudeCode, "b", || Some(file.clone())),
            Some(file.clone())
        );
        assert_eq!(
            marks.changed(CliHome::ClaudeCode, "b", || Some(file.clone())),
            None
        );
        std::fs::write(&file, "one\ntwo\n").unwrap();
        assert_eq!(
            marks.changed(CliHome::ClaudeCode, "b", || unreachable!()),
            Some(file.clone())
        );
    }
}
