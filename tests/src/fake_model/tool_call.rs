//! The one tool call the fake model makes: when the user's last message says
//! `please run: <command>`, the answer is the provider's call of the CLI's shell tool with that
//! command, so a test sees the CLI's real permission prompt. The request that carries the
//! tool's result gets a text answer quoting it. Each API module shapes the call its own way.

/// What a user message says to make the model call the shell tool.
pub const RUN_MARKER: &str = "please run: ";

/// The same, asking to run the command outside the CLI's own sandbox, where the tool lets
/// the model ask for that (Codex's `sandbox_permissions: "require_escalated"`, which its
/// approval policy `on-request` always puts to the user).
pub const RUN_UNSANDBOXED_MARKER: &str = "please run unsandboxed: ";

/// A command the user asked the model to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRequest {
    pub command: String,
    /// Outside the CLI's sandbox (where the tool can ask for it).
    pub unsandboxed: bool,
}

/// The command a user message asks to run: what follows a marker, up to the line's end.
pub fn requested_command(user_text: &str) -> Option<RunRequest> {
    let (unsandboxed, rest) = match user_text.split_once(RUN_UNSANDBOXED_MARKER) {
        Some((_, rest)) => (true, rest),
        None => (false, user_text.split_once(RUN_MARKER)?.1),
    };
    let command = rest.lines().next().unwrap_or_default().trim();
    (!command.is_empty()).then(|| RunRequest {
        command: command.to_owned(),
        unsandboxed,
    })
}

/// The answer once the tool ran: quotes its result, so a test sees that the tool ran.
pub fn result_reply(result: &str) -> String {
    let quoted: String = result.trim().chars().take(80).collect();
    format!("FAKE-MODEL-TOOL-DONE: {quoted}")
}

/// The short description the call carries (Claude's `Bash` and Gemini's `run_shell_command`
/// show it above the command; Codex shows the justification in its approval).
pub fn description(command: &str) -> String {
    format!("Run `{command}` as the user asked")
}

/// A fresh call id with `prefix` (`toolu_`, `call_`), unique within this process.
pub fn call_id(prefix: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{prefix}fake{:08}", NEXT.fetch_add(1, Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_names_the_command_up_to_the_line_end() {
        let run = |text| requested_command(text).map(|r| (r.command, r.unsandboxed));
        assert_eq!(
            run("hi, please run: touch proof.txt\nthanks"),
            Some(("touch proof.txt".to_owned(), false))
        );
        assert_eq!(
            run("please run unsandboxed: touch a"),
            Some(("touch a".to_owned(), true))
        );
        assert_eq!(run("please run:   "), None);
        assert_eq!(run("run touch proof.txt"), None);
    }
}
