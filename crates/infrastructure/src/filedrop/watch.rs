//! The watch: `.ideai/` (not recursively: only to see `requests/` come back after a removal)
//! and `requests/` recursively. Events only name the folder to scan again; what a file is
//! and whether to run it is decided by the scan, so a lost or odd event costs a scan at most.

use super::Signal;
use idea_domain::filedrop::{DropEntry, classify};
use notify::event::{AccessKind, AccessMode};
use notify::{Config, Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Component, Path};
use std::sync::mpsc::Sender;

/// Starts watching `requests` (and its parent); signals go to `signals`.
///
/// # Errors
/// When the OS refuses a watch (no inotify instance left, say).
pub(super) fn start(
    requests: &Path,
    signals: Sender<Signal>,
) -> notify::Result<RecommendedWatcher> {
    let folder = requests.to_path_buf();
    let mut watcher = RecommendedWatcher::new(
        move |event: notify::Result<Event>| {
            for signal in signals_of(&folder, event) {
                let _ = signals.send(signal);
            }
        },
        // A link under `requests/` must not pull a folder elsewhere into the watch.
        Config::default().with_follow_symlinks(false),
    )?;
    if let Some(ideai) = requests.parent() {
        watcher.watch(ideai, RecursiveMode::NonRecursive)?;
    }
    watch_requests(&mut watcher, requests)?;
    Ok(watcher)
}

/// (Re)watches `requests/` recursively.
pub(super) fn watch_requests(
    watcher: &mut RecommendedWatcher,
    requests: &Path,
) -> notify::Result<()> {
    let _ = watcher.unwatch(requests);
    watcher.watch(requests, RecursiveMode::Recursive)
}

/// What one event asks the dispatcher to do.
fn signals_of(requests: &Path, event: notify::Result<Event>) -> Vec<Signal> {
    let event = match event {
        Ok(event) => event,
        Err(error) => {
            tracing::warn!(%error, "file drop: watch error, scanning everything again");
            return vec![Signal::Changed(None)];
        }
    };
    if event.need_rescan() {
        return vec![Signal::Changed(None)];
    }
    // Reads (ours included) change nothing; a finished write is worth a look.
    if matches!(event.kind, EventKind::Access(kind) if kind != AccessKind::Close(AccessMode::Write))
    {
        return Vec::new();
    }
    event
        .paths
        .iter()
        .filter_map(|path| signal_of(requests, path))
        .collect()
}

fn signal_of(requests: &Path, path: &Path) -> Option<Signal> {
    if path == requests {
        return Some(Signal::Rewatch);
    }
    let mut parts = path.strip_prefix(requests).ok()?.components();
    let Some(Component::Normal(folder)) = parts.next() else {
        return None;
    };
    let folder = folder.to_str()?.to_owned();
    match (parts.next(), parts.next()) {
        // The folder itself (made, renamed): whatever it holds is new.
        (None, _) => Some(Signal::Changed(Some(folder))),
        // Our own claims and answers, hidden temp files: nothing to do.
        (Some(Component::Normal(name)), None) => match classify(name.to_str()?) {
            DropEntry::Request(_) => Some(Signal::Changed(Some(folder))),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn folder_of(signal: Option<Signal>) -> Option<Option<String>> {
        match signal {
            Some(Signal::Changed(folder)) => Some(folder),
            _ => None,
        }
    }

    #[test]
    fn events_name_the_folder_of_a_request_only() {
        let requests = PathBuf::from("/p/.ideai/requests");
        let of = |path: &str| folder_of(signal_of(&requests, Path::new(path)));
        assert_eq!(
            of("/p/.ideai/requests/ada/r1.json"),
            Some(Some("ada".into()))
        );
        assert_eq!(of("/p/.ideai/requests/ada"), Some(Some("ada".into())));
        for quiet in [
            "/p/.ideai/requests/ada/r1.response.json",
            "/p/.ideai/requests/ada/r1.claimed",
            "/p/.ideai/requests/ada/.r1.json.tmp-1-2",
            "/p/.ideai/requests/ada/deep/r1.json",
            "/p/.ideai/layouts.json",
        ] {
            assert_eq!(of(quiet), None, "{quiet}");
        }
        assert!(matches!(
            signal_of(&requests, &requests),
            Some(Signal::Rewatch)
        ));
    }
}
