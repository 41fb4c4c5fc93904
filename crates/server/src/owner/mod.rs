//! One owner per open project. The process that opens a project (a desktop window or
//! `idea serve`) [`claim`]s it: it takes the project lock, and [`Owner::start`] listens on the
//! project's local socket. Any other `idea` process that wants to change the project goes
//! through that socket ([`client`]), so every open UI hears of the change at once; with no
//! owner, a command takes the lock itself for its duration.
//!
//! The OS pieces (flock, socket folder, peer check, handshake framing) are
//! `idea_infrastructure::owner`; this module wires them to the API.

pub mod client;
mod json_rpc;
mod server;

use crate::paths::project_path;
use crate::{OpenProject, Opener, ServerError};
use idea_application::{ErrorKind, WireError};
use idea_infrastructure::owner::{OwnerError, OwnerInfo, ProjectLock};
use std::path::Path;
use std::time::{Duration, Instant};

pub use server::Owner;

/// How long a claim waits for a lock held by a process that has not said who it is yet (an
/// owner starting, a CLI command running).
const BUSY_WAIT: Duration = Duration::from_secs(5);

/// A project opened by its one owner: the lock is held for as long as this lives.
#[derive(Debug)]
pub struct Claimed {
    pub project: OpenProject,
    pub lock: ProjectLock,
}

/// Who holds a project, as the error a front end receives.
pub fn owned_error(info: &OwnerInfo) -> WireError {
    let at = info
        .url
        .as_deref()
        .map(|url| format!(", serving {url}"))
        .unwrap_or_default();
    WireError::new(
        ErrorKind::ProjectOwned {
            pid: info.pid,
            url: info.url.clone(),
        },
        format!(
            "this project is already open in another IdeA (process {}{at}); use that one, or stop it first",
            info.pid
        ),
    )
}

/// Takes the lock of the project in `dir`, waiting a little while its holder is still
/// starting. `Err(Owned)` names the owner.
///
/// # Errors
/// [`OwnerError::Owned`], [`OwnerError::Busy`] after [`BUSY_WAIT`], unsafe or unreadable lock
/// files.
pub fn lock(ideai_dir: &Path) -> Result<ProjectLock, OwnerError> {
    let deadline = Instant::now() + BUSY_WAIT;
    loop {
        match ProjectLock::acquire(ideai_dir) {
            Err(OwnerError::Busy) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// Opens the project in `dir` as its owner.
///
/// # Errors
/// `ServerError::User` when another process owns it (naming it) or the folder is not a project.
pub fn claim(dir: &Path, opener: &Opener) -> Result<Claimed, ServerError> {
    let path = project_path(dir)?;
    // Checked before the lock so "not a project" reads as such, not as a missing lock folder.
    let project = opener.open(path.as_path())?;
    let lock = lock(&path.as_path().join(".ideai")).map_err(lock_failure)?;
    Ok(Claimed { project, lock })
}

/// A lock that could not be taken, as the CLI reports it.
pub fn lock_failure(error: OwnerError) -> ServerError {
    match error {
        OwnerError::Owned(info) => ServerError::User(owned_error(&info).message),
        OwnerError::Busy => ServerError::User(
            "this project is locked by another IdeA process that did not say who it is; try again"
                .into(),
        ),
        other => ServerError::User(format!("cannot lock the project: {other}")),
    }
}
