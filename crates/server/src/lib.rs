//! IdeA's transports, one crate for every process that serves a project (the `idea` binary
//! today, a remote host later): [`api::call`], the one door every call goes through; the
//! browser server ([`serve`], `idea serve`); the owner's local socket ([`owner`]); the MCP
//! server ([`mcp`]) and the file-drop door ([`filedrop`]) the owner offers agents; and the
//! [`logging`] every process does.
//!
//! It builds no adapter: a project is opened by the composition root's function, handed in
//! as an [`Opener`] wherever the server opens one.

pub mod api;
mod error;
pub mod filedrop;
pub mod logging;
pub mod mcp;
pub mod owner;
pub mod paths;
mod project;
mod rpc;
pub mod serve;
pub mod tool_watch;
pub mod worktree_watch;

pub use error::ServerError;
pub use project::{OpenProject, Opener};
