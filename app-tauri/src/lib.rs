//! The `idea` binary's library: the command line ([`cli`]), the composition root
//! ([`compose`], which builds every adapter once) and, with feature `desktop`, the Tauri shell.
//! The transports — `idea serve`, the owner's socket, the MCP server, the one `call` door —
//! are the `idea-server` crate.

pub mod cli;
pub mod compose;
#[cfg(feature = "desktop")]
pub mod desktop;
