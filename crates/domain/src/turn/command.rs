//! `turn_invocation`: the command line of one JSON-mode turn of a CLI (facts in
//! `docs/profiles/claude-code.md`, `codex.md`, `gemini.md`, "Structured mode").
//!
//! The message is always passed so that no CLI can read it as one of its options, even when
//! it starts with `-`: after `--` for Claude Code (2.1.332) and Codex (0.171.0), as
//! `--prompt=<message>` for Gemini CLI (0.61.0); each was checked against that version.

use crate::invocation::SessionPlan;

/// A CLI IdeA can run one turn of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnCli {
    /// Claude Code: `claude -p --output-format stream-json --verbose`.
    Claude,
    /// Codex CLI: `codex exec --json`.
    Codex,
    /// Gemini CLI: `gemini -o stream-json --prompt=…`.
    Gemini,
}

impl TurnCli {
    /// The program to run (resolved on `PATH`).
    pub fn program(self) -> &'static str {
        match self {
            Self::Claude => "claude",
            Self::Codex => "codex",
            Self::Gemini => "gemini",
        }
    }

    /// Whether the CLI starts a conversation under an id of ours. Codex mints its own thread
    /// id (read it from the outcome), so an `Assign` plan starts a plain new thread there.
    pub fn takes_session_id(self) -> bool {
        !matches!(self, Self::Codex)
    }
}

/// What a turn is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnInputs<'a> {
    /// The message sent to the agent.
    pub message: &'a str,
    /// `Assign(id)` starts the conversation `id` (where the CLI takes ids), `Resume(id)`
    /// continues it, `None` starts a new one under the CLI's own id.
    pub session: &'a SessionPlan,
    /// More options (MCP config, extra folders…), placed after the JSON-mode flags and
    /// before the session and the message.
    pub extra_args: &'a [String],
}

/// The command line of one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnInvocation {
    pub program: String,
    pub args: Vec<String>,
    /// Run it with stdin at `/dev/null`: on any other stdin Codex waits for end of input,
    /// Claude waits 3 s for it, and both Claude and Gemini add what arrives to the message.
    pub stdin_null: bool,
}

/// The command line of one JSON-mode turn of `cli`.
pub fn turn_invocation(cli: TurnCli, inputs: TurnInputs<'_>) -> TurnInvocation {
    let mut args: Vec<String> = match cli {
        TurnCli::Claude => ["-p", "--output-format", "stream-json", "--verbose"].as_slice(),
        // `--skip-git-repo-check`: the run dir need not be inside a git repository.
        TurnCli::Codex => ["exec", "--json", "--skip-git-repo-check"].as_slice(),
        // `--skip-trust`: headless mode is refused in an untrusted folder (exit 55).
        TurnCli::Gemini => ["-o", "stream-json", "--skip-trust"].as_slice(),
    }
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(inputs.extra_args.iter().cloned());
    let session: &[&str] = match (cli, inputs.session) {
        (TurnCli::Codex, SessionPlan::Resume(id)) => &["resume", id],
        (TurnCli::Codex, _) | (_, SessionPlan::None) => &[],
        (_, SessionPlan::Assign(id)) => &["--session-id", id],
        (_, SessionPlan::Resume(id)) => &["--resume", id],
    };
    args.extend(session.iter().map(|s| (*s).to_owned()));
    match cli {
        TurnCli::Claude | TurnCli::Codex => {
            args.push("--".to_owned());
            args.push(inputs.message.to_owned());
        }
        TurnCli::Gemini => args.push(format!("--prompt={}", inputs.message)),
    }
    TurnInvocation {
        program: cli.program().to_owned(),
        args,
        stdin_null: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cli: TurnCli, message: &str, session: SessionPlan, extra: &[&str]) -> Vec<String> {
        let extra: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
        let invocation = turn_invocation(
            cli,
            TurnInputs {
                message,
                session: &session,
                extra_args: &extra,
            },
        );
        assert_eq!(invocation.program, cli.program());
        assert!(invocation.stdin_null);
        invocation.args
    }

    #[test]
    fn claude_assigns_then_resumes_its_session() {
        assert_eq!(
            args(
                TurnCli::Claude,
                "say hi",
                SessionPlan::Assign("u1".into()),
                &[]
            ),
            [
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--session-id",
                "u1",
                "--",
                "say hi"
            ]
        );
        assert_eq!(
            args(
                TurnCli::Claude,
                "again",
                SessionPlan::Resume("u1".into()),
                &["--mcp-config", "mcp.json"]
            ),
            [
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--mcp-config",
                "mcp.json",
                "--resume",
                "u1",
                "--",
                "again"
            ]
        );
        assert_eq!(
            args(TurnCli::Claude, "-x", SessionPlan::None, &[]),
            [
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--",
                "-x"
            ]
        );
    }

    #[test]
    fn codex_puts_its_flags_before_resume_and_mints_its_own_ids() {
        assert_eq!(
            args(TurnCli::Codex, "say hi", SessionPlan::None, &[]),
            ["exec", "--json", "--skip-git-repo-check", "--", "say hi"]
        );
        assert!(!TurnCli::Codex.takes_session_id());
        assert_eq!(
            args(
                TurnCli::Codex,
                "say hi",
                SessionPlan::Assign("u1".into()),
                &[]
            ),
            ["exec", "--json", "--skip-git-repo-check", "--", "say hi"]
        );
        assert_eq!(
            args(
                TurnCli::Codex,
                "--again",
                SessionPlan::Resume("t1".into()),
                &["-c", "k=1"]
            ),
            [
                "exec",
                "--json",
                "--skip-git-repo-check",
                "-c",
                "k=1",
                "resume",
                "t1",
                "--",
                "--again"
            ]
        );
    }

    #[test]
    fn gemini_passes_the_message_as_the_prompt_option_value() {
        assert_eq!(
            args(
                TurnCli::Gemini,
                "say hi",
                SessionPlan::Assign("u1".into()),
                &[]
            ),
            [
                "-o",
                "stream-json",
                "--skip-trust",
                "--session-id",
                "u1",
                "--prompt=say hi"
            ]
        );
        assert_eq!(
            args(
                TurnCli::Gemini,
                "-x = y",
                SessionPlan::Resume("u1".into()),
                &[]
            ),
            [
                "-o",
                "stream-json",
                "--skip-trust",
                "--resume",
                "u1",
                "--prompt=-x = y"
            ]
        );
        assert!(TurnCli::Gemini.takes_session_id() && TurnCli::Claude.takes_session_id());
    }
}
