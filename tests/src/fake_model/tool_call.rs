//! The one tool call the fake model makes: when the user's last message says
//! `please run: <command>`, the answer is the provider's call of the CLI's shell tool with that
//! command, so a test sees the CLI's real permission prompt. The request that carries the
//! tool's result gets a text answer quoting it. Each API module shapes the call its own way.

/// What a user message says to make the model call the shell tool.
pub const RUN_MARKER: &str = "please run: ";

/// The command a user message asks to run: what follows [`RUN_MARKER`], up to the line's end.
pub fn requested_command(user_text: &str) -> Option<String> {
    let (_, rest) = user_text.split_once(RUN_MARKER)?;
    let command = rest.lines().next().unwrap_or_default().trim();
    (!command.is_empty()).then(|| command.to_owned())
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
        assert_eq!(
            requested_command("hi, please run: touch proof.txt\nthanks").as_deref(),
            Some("touch proof.txt")
        );
        assert_eq!(requested_command("please run:   "), None);
        assert_eq!(requested_command("run touch proof.txt"), None);
    }
}
