//! The OS sandbox of an agent, as a plan the kernel can enforce (Landlock, in
//! `idea_infrastructure::sandbox`): read everywhere except the denied paths, write only in the
//! write roots minus the denied paths, signal and reach abstract Unix sockets only inside the
//! sandbox. This module is pure: it decides *what* is granted; `layout` turns a plan into the
//! hierarchies to grant whole and the folders to grant entry by entry (Landlock only adds
//! rights, so "everything but X" is spelled as the siblings of every folder on the way to X).
//! With a [`MountPlan`] the helper first enters a user and mount namespace where IdeA's state
//! and git's hooks are read-only mounts and the denied paths inside the project are hidden,
//! so that Landlock can grant the project whole. See `docs/sandbox.md`.

mod advisory;
mod agent;
mod credentials;
mod layout;
mod state;

pub use advisory::sandboxed_cli_args;
pub use agent::{
    AgentSandboxInputs, IDEAI_AGENT_ENTRIES, IDEAI_STATE_ENTRIES, IdeaiListing, LIMITED_NOTE,
    ResolvedDenial, SandboxSummary, agent_plan, ideai_denied, literal_path, private_caches,
};
pub use credentials::{GIT_PROTECTED, SSH_PUBLIC, credential_paths, git_protected};
pub use layout::{Layout, read_layout, write_layout};
pub use state::{CliState, CliStateEnv, DEVICE_WRITE_PATHS, cli_state, temp_dirs};

use serde::{Deserialize, Serialize};
use std::path::{Component, PathBuf};

/// What a sandboxed process may do. `None` instead of a plan means native (not sandboxed).
///
/// Paths are absolute. A path stands for itself and everything beneath it. Whatever is
/// denied wins over whatever is granted: a write root inside a denied path is not writable.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SandboxPlan {
    /// Neither readable nor writable (nor executable). Everything else may be read.
    #[serde(default)]
    pub read_denied: Vec<PathBuf>,
    /// The only places that may be written (created, changed, removed, renamed).
    #[serde(default)]
    pub write_roots: Vec<PathBuf>,
    /// Not writable although under a write root. A read-denied path is never writable either,
    /// listed here or not ([`compile_plan`] lists it).
    #[serde(default)]
    pub write_denied: Vec<PathBuf>,
    /// Signals only reach processes of the same sandbox (or nested ones).
    #[serde(default)]
    pub scope_signals: bool,
    /// Abstract Unix sockets only connect to those created in the same sandbox.
    #[serde(default)]
    pub scope_abstract_unix: bool,
    /// The built-in credential stores kept out (see [`credential_paths`]): neither readable nor
    /// writable, as `read_denied`; listed apart so that the plan can say which they are.
    #[serde(default)]
    pub credentials: Vec<PathBuf>,
    /// The namespace part: `None` for a plan enforced by Landlock alone (the "split" plan, also
    /// the fallback where the kernel refuses user namespaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mounts: Option<MountPlan>,
}

/// What the helper mounts in its own user and mount namespace before Landlock. Besides these,
/// every denied path (`read_denied`, `write_denied`, `credentials`) that lies inside a write
/// root and exists is mounted over (hidden, or read-only) instead of being split out of the
/// Landlock grant; one that does not exist stays with Landlock (its folders split, as without
/// namespaces).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MountPlan {
    /// Read-only over themselves: IdeA's state (`.ideai/`), git's hooks, config and info. None
    /// may be reached through a symbolic link (the helper refuses to start); one that does
    /// not exist is write-denied by Landlock instead.
    #[serde(default)]
    pub read_only: Vec<PathBuf>,
    /// Writable again below a read-only path: the agent's own run dir and request folder.
    /// Also write roots; never writable when at or under a denied path.
    #[serde(default)]
    pub writable: Vec<PathBuf>,
    /// The user's package caches the agent writes privately ([`agent::private_caches`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub private_caches: Vec<PrivateCache>,
}

/// A package cache of the user's (`~/.cargo/registry`, `~/.npm`…) that the agent reads as it
/// is and writes privately: the helper mounts an overlay over `path` whose changes land in
/// `private` (the agent's own folder), so a build or an install that downloads works, and
/// nothing the agent writes there reaches the cache the user's own builds run code from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PrivateCache {
    pub path: PathBuf,
    pub private: PathBuf,
}

/// Why a plan cannot be enforced as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("sandbox plan: {field} path {path} is not absolute")]
    Relative { field: &'static str, path: PathBuf },
    #[error("sandbox plan: {field} path {path} contains `..`")]
    ParentDir { field: &'static str, path: PathBuf },
}

impl SandboxPlan {
    /// Every path is absolute and free of `..`, so that its meaning does not depend on the
    /// working directory and a denied path cannot be dodged lexically.
    ///
    /// # Errors
    /// The first path that is not.
    pub fn check(&self) -> Result<(), PlanError> {
        let empty = Vec::new();
        let mounts = self.mounts.as_ref();
        let fields = [
            ("readDenied", &self.read_denied),
            ("writeRoots", &self.write_roots),
            ("writeDenied", &self.write_denied),
            ("credentials", &self.credentials),
            ("mounts.readOnly", mounts.map_or(&empty, |m| &m.read_only)),
            ("mounts.writable", mounts.map_or(&empty, |m| &m.writable)),
        ];
        let caches: Vec<PathBuf> = mounts
            .iter()
            .flat_map(|m| &m.private_caches)
            .flat_map(|c| [c.path.clone(), c.private.clone()])
            .collect();
        let fields = fields
            .into_iter()
            .chain(std::iter::once(("mounts.privateCaches", &caches)));
        for (field, paths) in fields {
            for path in paths {
                if !path.is_absolute() {
                    return Err(PlanError::Relative {
                        field,
                        path: path.clone(),
                    });
                }
                if path.components().any(|c| c == Component::ParentDir) {
                    return Err(PlanError::ParentDir {
                        field,
                        path: path.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The read-denied paths, credentials included.
    pub fn read_denied_all(&self) -> impl Iterator<Item = &PathBuf> {
        self.read_denied.iter().chain(&self.credentials)
    }

    /// The write-denied paths, read-denied ones (and credentials) included.
    pub fn write_denied_all(&self) -> impl Iterator<Item = &PathBuf> {
        self.write_denied.iter().chain(self.read_denied_all())
    }
}

/// What a plan is compiled from. Every path is absolute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxInputs {
    pub project_root: PathBuf,
    /// The agent's run dir (`.ideai/run/<agentId>`); `None` for a command of no agent.
    pub run_dir: Option<PathBuf>,
    /// Writable scratch space (see [`temp_dirs`]).
    pub temp_dirs: Vec<PathBuf>,
    /// The agent CLI's own files and folders (see [`cli_state`]).
    pub state_paths: Vec<PathBuf>,
    /// Paths the permission rules forbid reading (and so writing too).
    pub deny_read: Vec<PathBuf>,
    /// Paths the permission rules forbid writing.
    pub deny_write: Vec<PathBuf>,
    /// The built-in credential stores (not readable), those the rules allow left out.
    pub credentials: Vec<PathBuf>,
    /// The namespace part; `None` for Landlock alone.
    pub mounts: Option<MountPlan>,
}

/// The plan of one sandboxed process: read everything but `deny_read`; write in the project,
/// the run dir, the temp dirs, the CLI's state and the few devices every program writes
/// ([`DEVICE_WRITE_PATHS`]), except under a denied path; signals and abstract Unix sockets
/// scoped. Paths are normalised (`.` dropped) and deduplicated, relative ones dropped (a plan
/// only ever names absolute paths), order kept.
pub fn compile_plan(inputs: &SandboxInputs) -> SandboxPlan {
    let roots = std::iter::once(&inputs.project_root)
        .chain(&inputs.run_dir)
        .chain(&inputs.temp_dirs)
        .chain(&inputs.state_paths)
        .cloned()
        .chain(DEVICE_WRITE_PATHS.iter().map(PathBuf::from));
    SandboxPlan {
        write_roots: normalised(roots),
        write_denied: normalised(inputs.deny_write.iter().chain(&inputs.deny_read).cloned()),
        read_denied: normalised(inputs.deny_read.iter().cloned()),
        scope_signals: true,
        scope_abstract_unix: true,
        credentials: normalised(inputs.credentials.iter().cloned()),
        mounts: inputs.mounts.as_ref().map(|m| MountPlan {
            read_only: normalised(m.read_only.iter().cloned()),
            writable: normalised(m.writable.iter().cloned()),
            private_caches: m.private_caches.clone(),
        }),
    }
}

/// Absolute paths without `.` components, each once, in their first order.
fn normalised(paths: impl Iterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for path in paths.filter(|p| p.is_absolute()) {
        let path: PathBuf = path.components().collect();
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod agent_tests;
#[cfg(test)]
mod tests;
