//! How each CLI takes skills natively: where it loads them from (relative to its working
//! directory, the agent's run dir) and how a user or the model invokes one.

use crate::profile::CliHome;

/// The folder of the run dir the CLI loads skills from: Claude Code `.claude/skills`,
/// Codex and Gemini CLI `.agents/skills`.
pub const fn native_skills_folder(home: CliHome) -> &'static str {
    match home {
        CliHome::ClaudeCode => ".claude/skills",
        CliHome::Codex | CliHome::Gemini => ".agents/skills",
    }
}

/// How to invoke the skill `name` in the CLI: `/name` (Claude Code, Gemini CLI), `$name`
/// (Codex); `None` for a CLI without native skills.
pub fn skill_invocation(home: Option<CliHome>, name: &str) -> Option<String> {
    match home? {
        CliHome::ClaudeCode | CliHome::Gemini => Some(format!("/{name}")),
        CliHome::Codex => Some(format!("${name}")),
    }
}
