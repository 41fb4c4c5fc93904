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
}

impl CliStateEnv {
    fn xdg(&self, set: Option<&PathBuf>, default: &str) -> PathBuf {
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

/// Where the CLI of `profile` keeps its own state, by its `home` kind or, for the CLIs IdeA
/// knows without one, by its command's name. Empty for any other program.
pub fn cli_state_paths(profile: &AgentProfile, env: &CliStateEnv) -> Vec<PathBuf> {
    let home = &env.home;
    match profile.home {
        Some(CliHome::ClaudeCode) => match &env.claude_config_dir {
            // `.claude.json` moves into the config dir with it.
            Some(dir) => vec![dir.clone()],
            // Claude Code rewrites `~/.claude.json` in place and keeps its lock and
            // backups inside `~/.claude`.
            None => vec![home.join(".claude"), home.join(".claude.json")],
        },
        Some(CliHome::Codex) => vec![
            env.codex_home
                .clone()
                .unwrap_or_else(|| home.join(".codex")),
        ],
        Some(CliHome::Gemini) => vec![home.join(".gemini")],
        None => by_command(profile, env),
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
