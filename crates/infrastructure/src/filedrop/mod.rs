//! The file-drop door: agents with no MCP tools ask each other by writing
//! `.ideai/requests/<folder>/<id>.json`; the project's owner answers each one once, with
//! `<id>.response.json` or `<id>.error.json` beside it (docs/file-drop.md).
//!
//! A `notify` watcher on `.ideai/requests/` only says which folder changed ([`watch`]); one
//! dispatcher thread then scans that folder ([`scan`]) and decides per request with the
//! domain's `next_step`: a new request is read (no link followed, at most
//! `MAX_REQUEST_BYTES`), parsed, **claimed** (`<id>.claimed`, written atomically) and only
//! then handed to the handler on a worker thread, whose answer is written atomically
//! ([`files`]). A request claimed by an owner that died unanswered gets an `INTERRUPTED`
//! error, never a second run. At start every folder is scanned, so requests dropped while no
//! owner ran are answered too. Per requester at most [`DropLimits::per_requester`] requests
//! run at once (the rest wait on disk, unread), so a flood of files costs disk, not memory.

mod dispatch;
mod files;
mod scan;
mod watch;

use crate::store::confine;
use idea_domain::filedrop::{DropAnswer, Dropped, REQUESTS_DIR};
use idea_domain::ports::StoreError;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// Runs one request (blocking for its whole turn) and says what to answer.
pub type DropHandler = Arc<dyn Fn(&Dropped) -> DropAnswer + Send + Sync>;

/// How much the door takes on at once.
#[derive(Debug, Clone, Copy)]
pub struct DropLimits {
    /// A request file is read only once it has not changed for this long (an agent may
    /// still be writing it).
    pub quiet: Duration,
    /// Requests of one requester running at once.
    pub per_requester: usize,
    /// Requests running at once, all requesters together.
    pub in_flight: usize,
    /// Unanswered requests of one folder considered per scan (oldest first), and folders
    /// remembered as changed before everything is scanned again instead.
    pub max_scan: usize,
}

impl Default for DropLimits {
    fn default() -> Self {
        Self {
            quiet: Duration::from_millis(300),
            per_requester: 4,
            in_flight: 32,
            max_scan: 1024,
        }
    }
}

/// Why the door could not open.
#[derive(Debug, thiserror::Error)]
pub enum FileDropError {
    #[error("the requests folder is unusable: {0}")]
    Folder(#[from] StoreError),
    #[error("cannot watch the requests folder: {0}")]
    Watch(#[from] notify::Error),
    #[error("cannot start the file-drop thread: {0}")]
    Thread(std::io::Error),
}

/// What the dispatcher hears.
#[derive(Debug)]
enum Signal {
    /// Something changed in this folder under `requests/` (`None`: maybe anywhere).
    Changed(Option<String>),
    /// `requests/` itself was (re)created: watch it again, scan everything.
    Rewatch,
    /// A worker wrote its answer.
    Finished {
        folder: String,
        stem: String,
    },
    Stop,
}

/// The open door of one project. Dropping it stops watching and dispatching; requests
/// already running finish on their threads and still write their answers.
#[derive(Debug)]
pub struct FileDrop {
    signals: Sender<Signal>,
    thread: Option<JoinHandle<()>>,
}

impl FileDrop {
    /// Opens the door of the project at `root` (creating `.ideai/requests/`) with the
    /// default limits; every request found, now or later, goes to `handler`.
    ///
    /// # Errors
    /// [`FileDropError`]: `.ideai` or `requests/` is a link or not a folder, the watch or the
    /// thread cannot start.
    pub fn start(root: &Path, handler: DropHandler) -> Result<Self, FileDropError> {
        Self::with_limits(root, handler, DropLimits::default())
    }

    /// As [`FileDrop::start`], with `limits`.
    ///
    /// # Errors
    /// As [`FileDrop::start`].
    pub fn with_limits(
        root: &Path,
        handler: DropHandler,
        limits: DropLimits,
    ) -> Result<Self, FileDropError> {
        let requests = root.join(".ideai").join(REQUESTS_DIR);
        confine::real_dir(root, &requests, true)?;
        let (signals, received) = mpsc::channel();
        // Watching starts before the first scan, so nothing dropped in between is missed.
        let watcher = watch::start(&requests, signals.clone())?;
        let dispatcher = dispatch::Dispatcher::new(
            root.to_path_buf(),
            handler,
            limits,
            signals.clone(),
            watcher,
        );
        let thread = std::thread::Builder::new()
            .name("idea-filedrop".into())
            .spawn(move || dispatcher.run(&received))
            .map_err(FileDropError::Thread)?;
        tracing::info!(folder = %requests.display(), "file drop: open");
        Ok(Self {
            signals,
            thread: Some(thread),
        })
    }
}

impl Drop for FileDrop {
    fn drop(&mut self) {
        let _ = self.signals.send(Signal::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        tracing::info!("file drop: closed");
    }
}

#[cfg(all(test, unix))]
mod tests;
