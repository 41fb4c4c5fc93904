//! The composition root: builds every adapter once and hands them to the use cases, and to
//! the server as its [`OPENER`].

use idea_application::project;
use idea_application::{AppResult, Deps, Ports};
use idea_domain::mcp_handoff::McpBridge;
use idea_domain::ports::ProfileCatalog;
use idea_infrastructure::cli_homes::FsCliHomes;
use idea_infrastructure::permissions::{FsPermissionFiles, user_permissions_path};
use idea_infrastructure::profiles::{FsProfileCatalog, user_profiles_path};
use idea_infrastructure::pty::{PortablePtyHost, PtyConfig};
use idea_infrastructure::store::FsProjectStore;
use idea_infrastructure::system::{EventBus, RandomIds, SystemClock};
use idea_infrastructure::turns::ProcessTurnRunner;
use idea_server::logging::LOG_ENV;
use idea_server::paths::{project_path, user_dir};
use idea_server::{OpenProject, Opener};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the server opens a project: with this composition's adapters.
pub const OPENER: Opener = Opener {
    open: open_project,
    hide_from_agents,
};

/// The user's home folder (`$HOME`), `None` when unset.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The project's and the user's permissions files.
pub fn permission_files(root: &Path) -> FsPermissionFiles {
    FsPermissionFiles::new(
        FsProjectStore::new(root),
        Some(user_permissions_path(&user_dir())),
        home_dir(),
    )
}

/// The agent CLIs' user config files, as the CLIs themselves locate them.
pub fn cli_homes() -> FsCliHomes {
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("/"), PathBuf::from);
    let dir = |var| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    FsCliHomes::for_home(&home, dir("CLAUDE_CONFIG_DIR"), dir("CODEX_HOME"))
}

/// The user's folders as the agent CLIs locate them.
/// `idea serve --token-file`'s file, once read: no sandboxed agent may read it.
static TOKEN_FILE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Keeps `file` (the server's token file) out of every agent's sandbox from now on.
pub fn hide_from_agents(file: &Path) {
    let file = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let _ = TOKEN_FILE.set(file);
}

/// What agents' sandbox plans are compiled from: this process's environment, and IdeA's own
/// secrets no agent reads: its user folder (tokens, profiles, logs) and a token file.
/// Whether namespaces work is asked of the helper (once, at the first sandboxed start).
pub fn sandbox_host() -> idea_infrastructure::sandbox::FsSandboxHost {
    let environment = idea_domain::ports::SandboxEnvironment {
        cli: cli_state_env(),
        tmpdir: std::env::var_os("TMPDIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        secrets: std::iter::once(user_dir())
            .chain(TOKEN_FILE.get().cloned())
            .collect(),
    };
    idea_infrastructure::sandbox::FsSandboxHost::with_helper(environment, sandbox_helper())
}

pub fn cli_state_env() -> idea_domain::sandbox::CliStateEnv {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    idea_domain::sandbox::CliStateEnv {
        home: var("HOME").unwrap_or_else(|| PathBuf::from("/")),
        claude_config_dir: var("CLAUDE_CONFIG_DIR"),
        codex_home: var("CODEX_HOME"),
        xdg_config_home: var("XDG_CONFIG_HOME"),
        xdg_data_home: var("XDG_DATA_HOME"),
        xdg_cache_home: var("XDG_CACHE_HOME"),
        xdg_state_home: var("XDG_STATE_HOME"),
        cargo_home: var("CARGO_HOME"),
    }
}

/// The executable that applies sandbox plans: `idea-sandbox-exec` beside this one (single-
/// threaded: the desktop build of `idea` is threaded before `main`, and a threaded process
/// cannot enter a user namespace), else this `idea` itself (`idea sandbox-exec`).
pub fn sandbox_helper() -> Option<PathBuf> {
    let this = std::env::current_exe().ok()?;
    let beside = this.with_file_name("idea-sandbox-exec");
    Some(if beside.is_file() { beside } else { this })
}

/// The user's login shell: `$SHELL`, else `/bin/sh`.
pub fn login_shell() -> String {
    std::env::var("SHELL")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/bin/sh".to_owned())
}

/// Variables the `idea mcp-server` bridge needs to find the owner's socket and the user's
/// files, handed to it explicitly: some CLIs (Codex) start MCP servers with a bare environment.
const BRIDGE_ENV: &[&str] = &[
    "HOME",
    "XDG_RUNTIME_DIR",
    "TMPDIR",
    "IDEA_USER_DIR",
    LOG_ENV,
];

/// How agents' CLIs start this very executable as their MCP server; `None` when the
/// executable cannot be located (agents then get the file-drop route).
pub fn mcp_bridge() -> Option<McpBridge> {
    let program = std::env::current_exe()
        .inspect_err(|e| tracing::warn!(error = %e, "no path to idea: agents get no MCP server"))
        .ok()?;
    let env = BRIDGE_ENV
        .iter()
        .filter_map(|var| {
            let value = std::env::var(var).ok().filter(|v| !v.is_empty())?;
            Some(((*var).to_owned(), value))
        })
        .collect();
    Some(McpBridge { program, env })
}

/// The merged profile catalogue (built-ins + `~/.ideai/profiles.json`).
pub fn profile_catalog() -> FsProfileCatalog {
    let path = user_profiles_path(&user_dir());
    FsProfileCatalog::load(Some(&path))
}

/// Opens the project at `dir`, checking that it is one.
///
/// # Errors
/// `NOT_A_PROJECT`, `CORRUPT_FILE`, `NEWER_SCHEMA`, I/O errors.
pub fn open_project(dir: &Path) -> AppResult<OpenProject> {
    let path = project_path(dir)?;
    let store = Arc::new(FsProjectStore::new(path.as_path()));
    project::open(store.as_ref())?;
    let events = Arc::new(EventBus::default());
    let profiles: Arc<dyn ProfileCatalog> = Arc::new(profile_catalog());
    let deps = Arc::new(Deps::new(Ports {
        store,
        profiles,
        events: events.clone(),
        ids: Arc::new(RandomIds),
        terminals: Arc::new(PortablePtyHost::with_config(PtyConfig {
            sandbox_helper: sandbox_helper(),
            ..PtyConfig::default()
        })),
        cli_homes: Arc::new(cli_homes()),
        turns: Arc::new(ProcessTurnRunner {
            sandbox_helper: sandbox_helper(),
            ..ProcessTurnRunner::default()
        }),
        permissions: Arc::new(permission_files(path.as_path())),
        sandbox: Arc::new(sandbox_host()),
        login_shell: login_shell(),
        clock: Arc::new(SystemClock),
        mcp_bridge: mcp_bridge(),
        worktrees: std::sync::Arc::new(idea_infrastructure::git::GitWorktrees),
        knowledge: Arc::new(idea_infrastructure::knowledge::FsKnowledgeStore::new(
            path.as_path(),
            Some(user_dir()),
        )),
        tool_processes: Arc::new(idea_infrastructure::tools::ProcessToolRunner::new(
            sandbox_helper(),
        )),
    }));
    Ok(OpenProject { path, deps, events })
}
