//! The thread that runs [`super::tick`]: woken when a limit is seen or the schedule changes,
//! and at least every [`POLL`] (a resume falls due by the clock alone). Stopped on drop.

use crate::deps::Deps;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest the thread sleeps: a resume is carried out at most this late.
const POLL: Duration = Duration::from_secs(5);

/// Runs the project's resumes until dropped.
#[derive(Debug)]
pub struct Scheduler {
    stop: Arc<AtomicBool>,
    deps: Arc<Deps>,
    thread: Option<JoinHandle<()>>,
}

impl Scheduler {
    /// Starts the thread (a first tick at once carries out what fell due while IdeA was
    /// closed).
    ///
    /// # Errors
    /// The OS refused a thread.
    pub fn start(deps: Arc<Deps>) -> std::io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let (stopped, running) = (Arc::clone(&stop), Arc::clone(&deps));
        let thread = std::thread::Builder::new()
            .name("idea-resumes".into())
            .spawn(move || {
                while !stopped.load(Ordering::SeqCst) {
                    if let Err(e) = super::tick(&running) {
                        let error = &e as &dyn std::error::Error;
                        tracing::warn!(error, "the resume schedule could not be read");
                    }
                    running.resume_inbox.wait(POLL);
                }
            })?;
        Ok(Self {
            stop,
            deps,
            thread: Some(thread),
        })
    }
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.deps.resume_inbox.poke();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
