//! An open project, and how the server gets one from the composition root.

use idea_application::{AppResult, Deps};
use idea_domain::ProjectPath;
use idea_infrastructure::system::EventBus;
use std::path::Path;
use std::sync::Arc;

/// An open project: its path, its `Deps` and the event bus the front ends subscribe to.
#[derive(Debug)]
pub struct OpenProject {
    pub path: ProjectPath,
    /// Shared with the blocking threads requests run on.
    pub deps: Arc<Deps>,
    pub events: Arc<EventBus>,
}

/// What the server needs of the composition root wherever it opens a project
/// ([`crate::owner::claim`], [`crate::owner::client::call`], [`crate::serve::run`]): the
/// server builds no adapter itself.
#[derive(Debug, Clone, Copy)]
pub struct Opener {
    /// Opens the project at a folder, checking that it is one, with every adapter built
    /// (`NOT_A_PROJECT`, `CORRUPT_FILE`, `NEWER_SCHEMA`, I/O errors otherwise).
    pub open: fn(&Path) -> AppResult<OpenProject>,
    /// Keeps a file (`idea serve --token-file`'s) out of every agent's sandbox from now on.
    pub hide_from_agents: fn(&Path),
}

impl Opener {
    /// Opens the project at `dir`.
    ///
    /// # Errors
    /// `NOT_A_PROJECT`, `CORRUPT_FILE`, `NEWER_SCHEMA`, I/O errors.
    pub fn open(&self, dir: &Path) -> AppResult<OpenProject> {
        (self.open)(dir)
    }
}
