//! One owner per open project: the OS-level pieces.
//!
//! The process that opens a project (a desktop window or `idea serve`) becomes its *owner*; any
//! other IdeA process (the CLI, an MCP bridge) talks to it over a local socket instead of opening
//! the project a second time.
//!
//! - [`ProjectLock`]: an exclusive `flock` on `.ideai/.lock`, released by the kernel when the
//!   holder dies, plus `.ideai/.owner.json` saying who holds it ([`OwnerInfo`], [`read_owner`]).
//! - [`socket_dir`] / [`socket_path`]: a private (0700) folder for the owners' sockets.
//! - [`OwnerListener`] / [`connect`]: the socket itself, with a same-uid check on every peer
//!   ([`check_peer`]).
//! - [`Hello`] / [`HelloReply`]: the one-line handshake, then newline-delimited JSON-RPC read with
//!   [`read_line_bounded`].
//!
//! Sockets use the `interprocess` crate (filesystem-path Unix sockets): it gives the peer
//! credentials (`SO_PEERCRED`) and a pre-`bind` socket mode without any `unsafe` on our side, so
//! tokio's own `UnixListener` was not needed. Unix only: Windows has no `flock` nor these sockets.
#![cfg(unix)]

mod error;
mod files;
mod handshake;
mod info;
mod line;
mod listener;
mod lock;
mod socket_dir;

pub use error::OwnerError;
pub use handshake::{
    HELLO_MAX, Hello, HelloReply, read_hello, read_reply, write_hello, write_reply,
};
pub use info::{OwnerInfo, read_owner};
pub use line::{MESSAGE_MAX, read_line_bounded};
pub use listener::{
    OwnerListener, OwnerStream, PeerCredentials, check_peer, connect, into_unix_stream,
};
pub use lock::ProjectLock;
pub use socket_dir::{ensure_private_dir, socket_dir, socket_path};

/// Our effective uid (the owner of the files we create, what `SO_PEERCRED` reports): the only
/// uid allowed at either end of an owner socket.
fn own_uid() -> u32 {
    nix::unistd::geteuid().as_raw()
}
