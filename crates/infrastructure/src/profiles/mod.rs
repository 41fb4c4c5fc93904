//! Runtime profiles (`docs/profiles/`): the built-in catalogue, merged with the user's
//! `~/.ideai/profiles.json` into a [`ProfileCatalog`](idea_domain::ports::ProfileCatalog).
//!
//! - [`builtin`]: Claude Code, Codex CLI, Gemini CLI, Aider, OpenCode and a login shell, with
//!   the CLI version each was checked against.
//! - [`user_file`]: reading the user's file entry by entry; a bad entry is reported, not fatal.
//! - [`catalog`]: the merge rule and [`FsProfileCatalog`].

pub mod builtin;
pub mod catalog;
pub mod user_file;

pub use builtin::builtin_profiles;
pub use catalog::{FsProfileCatalog, merge, user_profiles_path};
pub use user_file::{PROFILES_VERSION, UserProfiles, read_user_profiles};
