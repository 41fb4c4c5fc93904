//! What a CLI's own settings need when IdeA's kernel sandbox confines it.

use crate::profile::{AgentProfile, CliHome};

/// Arguments put before the CLI's own when it runs under IdeA's sandbox (`sandboxed`).
///
/// Codex runs its shell commands under bubblewrap in its `read-only` and `workspace-write`
/// modes, and no bubblewrap can run inside a Landlock domain (`bwrap: setting up uid map:
/// Permission denied`): under IdeA's plan Codex gets `danger-full-access`, and IdeA's plan
/// does the confining (its approval policy still asks). Without IdeA's sandbox, Codex keeps
/// its own defaults.
pub fn sandboxed_cli_args(profile: &AgentProfile, sandboxed: bool) -> Vec<String> {
    match profile.home {
        Some(CliHome::Codex) if sandboxed => {
            vec!["-c".into(), r#"sandbox_mode="danger-full-access""#.into()]
        }
        _ => vec![],
    }
}
