//! IdeA's use cases. Each takes a [`Deps`] (the ports of one open project) and returns an
//! [`AppResult`]; errors carry a stable code ([`AppError::code`]) for the UI and the CLI.

pub mod agents;
pub mod deps;
pub mod error;
pub mod filedrop;
pub mod knowledge;
pub mod layouts;
pub mod orchestrator;
mod pair;
pub mod permissions;
mod prepare;
pub mod project;
pub mod resumes;
pub mod sandbox;
pub mod sessions;
pub mod worktrees;

pub use deps::{Deps, Ports};
pub use error::{AppError, AppResult, ErrorCode, ErrorKind, WireError};
