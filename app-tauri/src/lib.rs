//! IdeA's composition root and front ends: the `idea` command line, the transport-agnostic
//! [`api`], the browser server ([`serve`]), (feature `desktop`) the Tauri shell, and the
//! [`logging`] every process does, the MCP server ([`mcp`]) and the file-drop door ([`filedrop`]) the project's owner offers agents.

pub mod api;
pub mod cli;
pub mod compose;
#[cfg(feature = "desktop")]
pub mod desktop;
pub mod filedrop;
pub mod logging;
pub mod mcp;
pub mod owner;
mod rpc;
pub mod serve;
