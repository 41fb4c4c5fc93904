//! What can go wrong while owning a project or talking to its owner.

use super::OwnerInfo;
use std::io;
use std::path::PathBuf;

/// An error of the owner machinery.
#[derive(Debug, thiserror::Error)]
pub enum OwnerError {
    /// Another process holds the project lock and published who it is.
    #[error("the project is already open in process {} ({})", .0.pid, .0.url.as_deref().unwrap_or("no URL"))]
    Owned(OwnerInfo),
    /// Another process holds the project lock but has not published `.owner.json` (yet): an
    /// owner still starting, or a CLI command holding it briefly. Retry shortly.
    #[error("the project is locked by another IdeA process that has not said who it is yet")]
    Busy,
    /// A path in `.ideai/` (untrusted: it may come from a cloned repository) or in the socket
    /// folder is not what it must be, e.g. a symlink.
    #[error("refusing {}: {reason}", path.display())]
    UnsafePath {
        /// The offending path.
        path: PathBuf,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A socket peer runs as another user.
    #[error("refused a socket peer of uid {uid}: only our own user may connect")]
    ForeignPeer {
        /// The peer's effective uid.
        uid: u32,
    },
    /// A project id that is not a uuid-like string (it names a file: no traversal allowed).
    #[error("invalid project id {0:?}: only hex digits and '-' are allowed")]
    InvalidProjectId(String),
    /// The socket path exceeds what a Unix socket address can hold.
    #[error("socket path is {len} bytes, over the {max}-byte limit of Unix sockets")]
    SocketPathTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The peer's handshake line is missing, too long or not the expected JSON.
    #[error("bad handshake: {0}")]
    Handshake(String),
    /// Any other I/O error.
    #[error(transparent)]
    Io(#[from] io::Error),
}
