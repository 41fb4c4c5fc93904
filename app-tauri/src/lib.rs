//! IdeA's composition root and front ends: the `idea` command line, the transport-agnostic
//! [`api`], the browser server ([`serve`]) and (feature `desktop`) the Tauri shell.

pub mod api;
pub mod cli;
pub mod compose;
#[cfg(feature = "desktop")]
pub mod desktop;
pub mod serve;
