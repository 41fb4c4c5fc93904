//! IdeA's adapters: each implements a port of `idea-domain` against the real world.
//!
//! - [`store`]: the `.ideai/` JSON/Markdown store, atomic writes.
//! - [`cli_homes`]: the agent CLIs' own user config (pre-accepting an agent's folder).
//! - [`filedrop`]: the file-drop door (`.ideai/requests/` watched, each request run once).
//! - [`permissions`]: the user's and the project's permissions files.
//! - [`profiles`]: the built-in runtime-profile catalogue merged with `~/.ideai/profiles.json`.
//! - [`pty`]: pseudo-terminals (`portable-pty`): batched output, scrollback, flow control.
//! - [`probe`]: what this machine has (CLIs on PATH, Landlock, WebKit) for `idea doctor`.
//! - [`sandbox`]: the OS sandbox: a plan enforced with Landlock by `idea sandbox-exec`.
//! - [`system`]: random ids, an in-process event bus.
//! - [`turns`]: reading one JSON-mode turn of an agent CLI (its event stream, its outcome).

pub mod atomic;
pub mod cli_homes;
pub mod filedrop;
pub mod git;
pub mod knowledge;
pub mod owner;
pub mod permissions;
pub mod probe;
pub mod profiles;
pub mod pty;
pub mod sandbox;
pub mod store;
pub mod system;
pub mod tools;
pub mod turns;
