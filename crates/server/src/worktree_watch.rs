//! The watch on the agents' worktrees of the project this process owns: a change there tells
//! every client (`worktreeChanged`), whose Review listing is then read again.

use crate::OpenProject;
use idea_infrastructure::git::{WorktreeWatch, watch_worktrees};
use std::sync::Arc;

/// Starts the watch; without one (no inotify left) the Review is read when asked, and the log
/// says why.
pub fn open(project: &OpenProject) -> Option<WorktreeWatch> {
    let (listing, telling) = (Arc::clone(&project.deps), Arc::clone(&project.deps));
    let started = watch_worktrees(
        Box::new(move || idea_application::worktrees::watched(&listing)),
        Box::new(move |agent| idea_application::worktrees::changed_on_disk(&telling, agent)),
    );
    match started {
        Ok(watch) => Some(watch),
        Err(e) => {
            tracing::warn!(error = %e, "worktree watch: not started");
            None
        }
    }
}
