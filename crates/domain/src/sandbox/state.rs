//! The places outside the project an agent CLI must still write: scratch space, a few devices,
//! and the CLI's own state (login, settings, saved conversations). Where each CLI writes was
//! checked against the pinned versions (`docs/sandbox.md`, "What each CLI needs").

use crate::profile::{AgentProfile, CliHome};
use std::path::{Path, PathBuf};

/// Devices every program writes or opens for writing: the bit buckets, its terminal (and the
/// terminals it opens for its own subprocesses), shared memory.
pub const DEVICE_WRITE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/shm",
];

/// The user's folders as the CLIs locate them (their own variables first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliStateEnv {
    pub home: PathBuf,
    /// `$CLAUDE_CONFIG_DIR`, when set and not empty.
    pub claude_config_dir: Option<PathBuf>,
    /// `$CODEX_HOME`, when set and not empty.
    pub codex_home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`, `$XDG_CACHE_HOME`, `$XDG_STATE_HOME`, when set.
    pub xdg_config_home: Option<PathBuf>,
    pub xdg_data_home: Option<PathBuf>,
    pub xdg_cache_home: Option<PathBuf>,
    pub xdg_state_home: Option<PathBuf>,
    /// `$CARGO_HOME`, when set: cargo's downloads live there instead of `~/.cargo`.
    pub cargo_home: Option<PathBuf>,
}

impl CliStateEnv {
    pub(crate) fn xdg(&self, set: Option<&PathBuf>, default: &str) -> PathBuf {
        set.cloned().unwrap_or_else(|| self.home.join(default))
    }
}

/// The temp dirs: `/tmp` and `$TMPDIR` (when absolute and different). `/var/tmp` is not one:
/// it outlives a reboot, so what an agent leaves there is not scratch.
pub fn temp_dirs(tmpdir: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("/tmp")];
    if let Some(dir) = tmpdir.filter(|d| d.is_absolute()) {
        let dir: PathBuf = dir.components().collect();
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// A CLI's own state outside the project: folders (which it cannot create once sandboxed,
/// its home not being writable, so the launcher creates them first) and single files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliState {
    pub dirs: Vec<PathBuf>,
    pub files: Vec<PathBuf>,
}

impl CliState {
    /// Every path, folders first.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.dirs.iter().chain(&self.files).cloned().collect()
    }
}

/// Where the CLI of `profile` keeps its own state, by its `home` kind or, for the CLIs IdeA
/// knows without one, by its command's name. Empty for any other program.
pub fn cli_state(profile: &AgentProfile, env: &CliStateEnv) -> CliState {
    let home = &env.home;
    let dirs = |dirs: Vec<PathBuf>| CliState {
        dirs,
        files: vec![],
    };
    match profile.home {
        // `.claude.json` moves into the config dir with it.
        Some(CliHome::ClaudeCode) => match &env.claude_config_dir {
            Some(dir) => dirs(vec![dir.clone()]),
            None => CliState {
                dirs: vec![home.join(".claude")],
                files: vec![home.join(".claude.json")],
            },
        },
        Some(CliHome::Codex) => dirs(vec![
            env.codex_home
                .clone()
                .unwrap_or_else(|| home.join(".codex")),
        ]),
        Some(CliHome::Gemini) => dirs(vec![home.join(".gemini")]),
        None => dirs(by_command(profile, env)),
    }
}

fn by_command(profile: &AgentProfile, env: &CliStateEnv) -> Vec<PathBuf> {
    let name = Path::new(&profile.command)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    match name {
        "opencode" => vec![
            env.xdg(env.xdg_config_home.as_ref(), ".config")
                .join("opencode"),
            env.xdg(env.xdg_data_home.as_ref(), ".local/share")
                .join("opencode"),
            env.xdg(env.xdg_cache_home.as_ref(), ".cache")
                .join("opencode"),
            env.xdg(env.xdg_state_home.as_ref(), ".local/state")
                .join("opencode"),
        ],
        "aider" => vec![env.home.join(".aider")],
        _ => vec![],
    }
}
