//! The plan of one agent: the permission rules' denied paths, IdeA's own state kept out of
//! reach, and the places the agent and its CLI must write. Pure: the caller lists folders and
//! expands globs on disk (`ports::SandboxHost`) and hands the results in.

use super::{
    CliState, CliStateEnv, MountPlan, PrivateCache, SandboxInputs, SandboxPlan, compile_plan,
};
use crate::permissions::{DeniedPath, PathAccess};
use std::path::{Path, PathBuf};

/// The entries of the project's `.ideai/` an agent may write: its own run dir and its own
/// file-drop folder live there (each granted by itself, the others denied).
pub const IDEAI_AGENT_ENTRIES: &[&str] = &["run", "requests"];

/// IdeA's state files in `.ideai/`, denied even when absent (so an agent cannot create one
/// IdeA would then read, such as a `permissions.json` that allows everything).
pub const IDEAI_STATE_ENTRIES: &[&str] = &[
    "project.json",
    "agents.json",
    "agents",
    "layouts.json",
    "permissions.json",
    "CONTEXT.md",
    "conversations",
    ".owner.json",
    ".lock",
];

/// What is in the project's `.ideai/` now (entry names), as listed by the caller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdeaiListing {
    /// `.ideai/` itself.
    pub top: Vec<String>,
    /// `.ideai/run/`: every agent's run dir.
    pub run: Vec<String>,
    /// `.ideai/requests/`: every requester's file-drop folder.
    pub requests: Vec<String>,
}

/// One denied path rule made concrete: the paths it names now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedDenial {
    pub access: PathAccess,
    pub paths: Vec<PathBuf>,
}

/// Everything the plan of one agent is compiled from. Every path is absolute.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentSandboxInputs {
    /// Where the agent works: the project's root, or its own worktree.
    pub project_root: PathBuf,
    /// The project whose `.ideai/` holds IdeA's state (the agent's run dir, requests): the
    /// project's root; empty means `project_root`.
    pub state_root: PathBuf,
    /// For an agent in its own worktree, the main repository's folders a commit there writes
    /// (objects, refs, logs, the worktree's admin folder); its hooks and config stay out.
    pub git_writes: Vec<PathBuf>,
    pub run_dir: PathBuf,
    /// The agent's own file-drop folder (`.ideai/requests/<slug>`).
    pub requests_dir: PathBuf,
    pub listing: IdeaiListing,
    pub temp_dirs: Vec<PathBuf>,
    pub state: CliState,
    /// IdeA's secrets outside the project: the user's IdeA folder (tokens, profiles, logs),
    /// a token file. Neither readable nor writable.
    pub secrets: Vec<PathBuf>,
    pub denials: Vec<ResolvedDenial>,
    /// The built-in credential stores, those the rules allow already left out.
    pub credentials: Vec<PathBuf>,
    /// Whether the helper can set up a user and mount namespace here: then IdeA's state and
    /// git's files are read-only mounts and the project is writable whole; otherwise the
    /// Landlock-only ("split") plan of before.
    pub namespaces: bool,
    /// git's files to keep read-only (see [`super::git_protected`]), those the rules allow
    /// already left out. Only with `namespaces`: without, denying them would split `.git`
    /// and no commit could be made.
    pub git: Vec<PathBuf>,
    /// Where the user's package caches are (home, `$CARGO_HOME`, `$XDG_CACHE_HOME`): they are
    /// written privately ([`private_caches`]). Only with `namespaces` (an overlay needs a
    /// mount namespace).
    pub caches: Option<CliStateEnv>,
}

impl AgentSandboxInputs {
    /// Where `.ideai/` is.
    pub fn state_root(&self) -> &Path {
        if self.state_root.as_os_str().is_empty() {
            &self.project_root
        } else {
            &self.state_root
        }
    }
}

/// The package caches that builds and installs write, each with the name of its private copy:
/// cargo's downloaded crates and git checkouts (in `$CARGO_HOME`, else `~/.cargo`), npm's
/// cache, pip's (in `$XDG_CACHE_HOME`, else `~/.cache`).
pub fn package_caches(env: &CliStateEnv) -> Vec<(PathBuf, &'static str)> {
    let cargo = env
        .cargo_home
        .clone()
        .unwrap_or_else(|| env.home.join(".cargo"));
    let cache = env.xdg(env.xdg_cache_home.as_ref(), ".cache");
    vec![
        (cargo.join("registry"), "cargo-registry"),
        (cargo.join("git"), "cargo-git"),
        (env.home.join(".npm"), "npm"),
        (cache.join("pip"), "pip"),
    ]
}

/// Where the agent's private copy of each cache lives: in its run dir, so it goes with the
/// agent, and lies outside every cache. A cache at, under or above a denied path is left out
/// (an overlay would show what the denial hides, or expose the denied cache itself).
pub fn private_caches(env: &CliStateEnv, run_dir: &Path, denied: &[PathBuf]) -> Vec<PrivateCache> {
    package_caches(env)
        .into_iter()
        .map(|(path, name)| PrivateCache {
            path,
            private: run_dir.join("caches").join(name),
        })
        .filter(|cache| {
            !denied
                .iter()
                .any(|d| d.starts_with(&cache.path) || cache.path.starts_with(d))
        })
        .collect()
}

/// The one path a denied path rule names when its glob has no wildcard (or it has no glob);
/// `None` when the glob must be expanded against the files on disk.
pub fn literal_path(denied: &DeniedPath) -> Option<PathBuf> {
    match &denied.glob {
        None => Some(denied.base.clone()),
        Some(glob) if !glob.contains(['*', '?', '[', ']', '{', '}', '\\']) => {
            Some(denied.base.join(glob))
        }
        Some(_) => None,
    }
}

/// The paths of the project's `.ideai/` an agent must not write: every entry but
/// [`IDEAI_AGENT_ENTRIES`] (IdeA's state files, listed or not), the other agents' run dirs
/// and the other requesters' file-drop folders (a request dropped there would speak for that
/// agent).
pub fn ideai_denied(inputs: &AgentSandboxInputs) -> Vec<PathBuf> {
    let ideai = inputs.state_root().join(".ideai");
    let listed = inputs.listing.top.iter().map(String::as_str);
    let mut denied: Vec<PathBuf> = IDEAI_STATE_ENTRIES
        .iter()
        .copied()
        .chain(listed)
        .filter(|name| !IDEAI_AGENT_ENTRIES.contains(name))
        .map(|name| ideai.join(name))
        .collect();
    let others = |folder: &str, names: &[String], own: &Path| -> Vec<PathBuf> {
        names
            .iter()
            .map(|name| ideai.join(folder).join(name))
            .filter(|path| path != own)
            .collect()
    };
    denied.extend(others("run", &inputs.listing.run, &inputs.run_dir));
    denied.extend(others(
        "requests",
        &inputs.listing.requests,
        &inputs.requests_dir,
    ));
    denied
}

/// The plan of one agent: it writes the project, its run dir, its file-drop folder, the temp
/// dirs and its CLI's state, never IdeA's state nor what the rules deny; it reads everything
/// but IdeA's secrets, the credential stores and what the rules deny reading.
///
/// With namespaces, IdeA's state is `.ideai/` whole as a read-only mount with the agent's own
/// two folders writable again, and git's files are read-only too; without, IdeA's state is
/// [`ideai_denied`] for Landlock.
pub fn agent_plan(inputs: &AgentSandboxInputs) -> SandboxPlan {
    let denied = |access: PathAccess| {
        inputs
            .denials
            .iter()
            .filter(move |d| d.access == access)
            .flat_map(|d| d.paths.iter().cloned())
    };
    let deny_read = inputs
        .secrets
        .iter()
        .cloned()
        .chain(denied(PathAccess::Read))
        .collect();
    let (ideai, mounts) = if inputs.namespaces {
        let denied_all: Vec<PathBuf> = inputs
            .denials
            .iter()
            .flat_map(|d| d.paths.iter().cloned())
            .chain(inputs.secrets.iter().cloned())
            .chain(inputs.credentials.iter().cloned())
            .collect();
        let mounts = MountPlan {
            read_only: std::iter::once(inputs.state_root().join(".ideai"))
                .chain(inputs.git.iter().cloned())
                .collect(),
            writable: vec![inputs.run_dir.clone(), inputs.requests_dir.clone()],
            private_caches: inputs
                .caches
                .as_ref()
                .map(|env| private_caches(env, &inputs.run_dir, &denied_all))
                .unwrap_or_default(),
        };
        (vec![], Some(mounts))
    } else {
        (ideai_denied(inputs), None)
    };
    let deny_write = ideai.into_iter().chain(denied(PathAccess::Write)).collect();
    let mut state_paths = vec![inputs.requests_dir.clone()];
    state_paths.extend(inputs.state.paths());
    state_paths.extend(inputs.git_writes.iter().cloned());
    compile_plan(&SandboxInputs {
        project_root: inputs.project_root.clone(),
        run_dir: Some(inputs.run_dir.clone()),
        temp_dirs: inputs.temp_dirs.clone(),
        state_paths,
        deny_read,
        deny_write,
        credentials: inputs.credentials.clone(),
        mounts,
    })
}

/// A plan in a few words for a tooltip or a log line: where it writes, what it denies.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SandboxSummary {
    /// The only places it writes (devices left out).
    pub write_roots: Vec<PathBuf>,
    /// Neither readable nor writable.
    pub read_denied: Vec<PathBuf>,
    /// Not writable (read-denied paths not repeated), IdeA's and git's read-only paths
    /// included.
    pub write_denied: Vec<PathBuf>,
    /// The built-in credential stores kept out (neither readable nor writable).
    #[serde(default)]
    pub credentials: Vec<PathBuf>,
    /// The Landlock-only plan (the kernel refused user namespaces): the project root and the
    /// folders on the way to a denied path are split, so new entries cannot be created there.
    #[serde(default)]
    pub limited: bool,
}

/// What a limited plan cannot do, in the words the cell's shield and `idea sandbox` use.
pub const LIMITED_NOTE: &str = "limited sandbox: new top-level entries cannot be created";

impl SandboxSummary {
    pub fn of(plan: &SandboxPlan) -> Self {
        let devices = |p: &&PathBuf| !p.starts_with("/dev");
        let read_only = plan.mounts.iter().flat_map(|m| &m.read_only);
        Self {
            write_roots: plan.write_roots.iter().filter(devices).cloned().collect(),
            read_denied: plan.read_denied.clone(),
            write_denied: read_only
                .chain(&plan.write_denied)
                .filter(|p| !plan.read_denied_all().any(|d| d == *p))
                .cloned()
                .collect(),
            credentials: plan.credentials.clone(),
            limited: plan.mounts.is_none(),
        }
    }
}
