//! IdeA's composition root and front ends: the `idea` command line, the transport-agnostic
//! [`api`], and (feature `desktop`) the Tauri shell.

pub mod api;
pub mod cli;
pub mod compose;
#[cfg(feature = "desktop")]
pub mod desktop;
