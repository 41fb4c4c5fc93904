//! Watching agents' worktrees so that their Review listing follows their work: a change in a
//! worktree is reported once it has been quiet for a moment (debounced), at most every few
//! seconds while it goes on (a build writing thousands of files reports a few times, not
//! thousands).

use notify::{Config, Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A change is reported once the worktree was quiet this long...
const QUIET: Duration = Duration::from_millis(500);
/// ...or this long after its first unreported change, whichever comes first.
const AT_MOST_EVERY: Duration = Duration::from_secs(3);
/// How often the list of worktrees to watch is read again.
const RELIST: Duration = Duration::from_secs(2);

/// The worktrees to watch now: a key (the agent) and its folder.
pub type WorktreeList = Box<dyn Fn() -> Vec<(String, PathBuf)> + Send>;
/// Told the key of a worktree that changed.
pub type OnChange = Box<dyn Fn(&str) + Send>;

/// The watch; stops when dropped.
#[derive(Debug)]
pub struct WorktreeWatch {
    stop: Arc<AtomicBool>,
}

impl Drop for WorktreeWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Starts watching the worktrees `list` names (read again every 2 s); `on_change` is told
/// which one changed.
///
/// # Errors
/// When the OS refuses a watcher (no inotify instance left, say) or a thread.
pub fn watch_worktrees(list: WorktreeList, on_change: OnChange) -> std::io::Result<WorktreeWatch> {
    let (events, changes) = channel::<PathBuf>();
    let watcher = RecommendedWatcher::new(
        move |event: notify::Result<Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            for path in event.paths {
                let _ = events.send(path);
            }
        },
        // A linked folder (`node_modules`) is the user's checkout's: not this worktree's work.
        Config::default().with_follow_symlinks(false),
    )
    .map_err(std::io::Error::other)?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("worktree-watch".into())
        .spawn(move || run(watcher, &list, &on_change, &changes, &stopped))?;
    Ok(WorktreeWatch { stop })
}

fn run(
    mut watcher: RecommendedWatcher,
    list: &WorktreeList,
    on_change: &OnChange,
    changes: &std::sync::mpsc::Receiver<PathBuf>,
    stop: &AtomicBool,
) {
    let mut watched: BTreeMap<String, PathBuf> = BTreeMap::new();
    // Per worktree: its first and its last unreported change.
    let mut pending: HashMap<String, (Instant, Instant)> = HashMap::new();
    let mut listed_at: Option<Instant> = None;
    while !stop.load(Ordering::SeqCst) {
        if listed_at.is_none_or(|at| at.elapsed() >= RELIST) {
            rewatch(&mut watcher, &mut watched, list());
            listed_at = Some(Instant::now());
        }
        match changes.recv_timeout(QUIET / 2) {
            Ok(path) => {
                if let Some(key) = owner_of(&watched, &path) {
                    let now = Instant::now();
                    pending
                        .entry(key)
                        .and_modify(|(_, last)| *last = now)
                        .or_insert((now, now));
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let due: Vec<String> = pending
            .iter()
            .filter(|(_, (first, last))| {
                last.elapsed() >= QUIET || first.elapsed() >= AT_MOST_EVERY
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in due {
            pending.remove(&key);
            on_change(&key);
        }
    }
}

/// Watches what `now` names and no longer what it does not.
fn rewatch(
    watcher: &mut RecommendedWatcher,
    watched: &mut BTreeMap<String, PathBuf>,
    now: Vec<(String, PathBuf)>,
) {
    let now: BTreeMap<String, PathBuf> = now.into_iter().filter(|(_, dir)| dir.is_dir()).collect();
    watched.retain(|key, dir| {
        let keep = now.get(key) == Some(dir);
        if !keep {
            let _ = watcher.unwatch(dir);
        }
        keep
    });
    for (key, dir) in now {
        if watched.contains_key(&key) {
            continue;
        }
        match watcher.watch(&dir, RecursiveMode::Recursive) {
            Ok(()) => {
                watched.insert(key, dir);
            }
            Err(error) => {
                tracing::warn!(%error, dir = %dir.display(), "worktree watch: not watched")
            }
        }
    }
}

fn owner_of(watched: &BTreeMap<String, PathBuf>, path: &Path) -> Option<String> {
    watched
        .iter()
        .find(|(_, dir)| path.starts_with(dir))
        .map(|(key, _)| key.clone())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_burst_of_changes_in_a_worktree_is_reported_once_it_is_quiet() {
        let dir = tempfile::tempdir().unwrap();
        let (ada, bob) = (dir.path().join("ada"), dir.path().join("bob"));
        std::fs::create_dir_all(&ada).unwrap();
        std::fs::create_dir_all(&bob).unwrap();
        let folders = vec![("ada".to_owned(), ada.clone()), ("bob".to_owned(), bob)];
        let told = Arc::new(Mutex::new(Vec::<String>::new()));
        let seen = Arc::clone(&told);
        let _watch = watch_worktrees(
            Box::new(move || folders.clone()),
            Box::new(move |key| seen.lock().unwrap().push(key.to_owned())),
        )
        .unwrap();
        // The watch is set up by its thread: wait until a first write is seen.
        let deadline = Instant::now() + Duration::from_secs(30);
        while told.lock().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "no change reported");
            std::fs::write(ada.join("probe.txt"), "x").unwrap();
            std::thread::sleep(Duration::from_millis(300));
        }
        std::thread::sleep(QUIET * 3);
        told.lock().unwrap().clear();
        for i in 0..50 {
            std::fs::write(ada.join(format!("f{i}.txt")), "x").unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while told.lock().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the burst was never reported");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(QUIET * 2);
        let reported = told.lock().unwrap().clone();
        // One report per quiet moment or per few seconds of changes: a handful at most even
        // on a slow machine, never one per file; and none for the worktree nobody touched.
        assert!(reported.iter().all(|k| k == "ada"), "{reported:?}");
        assert!(reported.len() <= 5, "{reported:?}");
    }
}
