//! What `fake-claude` and `fake-codex` share: their state folder, the environment knobs, the
//! deterministic answer and the conversations they keep so that a later turn can continue one.
//!
//! - `FAKE_CLI_STATE`: where conversations are kept (default `$HOME/.fake-cli`): one JSON-lines
//!   file per conversation, `<cli>/<id>.jsonl`; every start is appended to `calls.jsonl`.
//! - `FAKE_CLI_DELAY_MS`: sleep that long before answering (after the first event).
//! - `FAKE_CLI_FAIL=429`: the API refuses with HTTP 429; the CLI prints what the real one
//!   prints then and exits 1.
//! - `FAKE_CLI_TOOL=<tool>`: report a call of the MCP tool `<tool>` of server `idea` before
//!   answering (events only; nothing is called).
//! - A prompt `ask <agent>: <message>` really calls `idea_ask_agent` on the `idea` server of
//!   the CLI's MCP configuration (see [`mcp`]).

pub mod args;
pub mod claude;
mod clock;
pub mod codex;
pub mod mcp;
mod stdin;

pub use clock::iso_now;
pub use stdin::{read_piped_stdin, stdin_is_piped};

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The environment knobs.
#[derive(Debug, Clone, Default)]
pub struct Knobs {
    pub delay: Option<Duration>,
    pub fail_429: bool,
    /// `FAKE_CLI_FAIL=limit`: the provider's usage limit, as the real CLI reports it (a reset
    /// an hour from now).
    pub fail_limit: bool,
    pub tool: Option<String>,
}

impl Knobs {
    /// Read from the environment; a `FAKE_CLI_FAIL` other than `429` or `limit` is refused.
    ///
    /// # Errors
    /// The message to print when a knob has a value the fakes do not know.
    pub fn from_env() -> Result<Self, String> {
        let delay = match std::env::var("FAKE_CLI_DELAY_MS") {
            Ok(ms) => {
                Some(Duration::from_millis(ms.trim().parse().map_err(|_| {
                    format!("FAKE_CLI_DELAY_MS is not a number: {ms}")
                })?))
            }
            Err(_) => None,
        };
        let (fail_429, fail_limit) = match std::env::var("FAKE_CLI_FAIL").as_deref() {
            Ok("429") => (true, false),
            Ok("limit") => (false, true),
            Ok("") | Err(_) => (false, false),
            Ok(other) => {
                return Err(format!(
                    "FAKE_CLI_FAIL supports only 429 and limit, not {other}"
                ));
            }
        };
        let tool = std::env::var("FAKE_CLI_TOOL")
            .ok()
            .filter(|t| !t.is_empty());
        Ok(Self {
            delay,
            fail_429,
            fail_limit,
            tool,
        })
    }

    /// Sleeps for `FAKE_CLI_DELAY_MS`, if set.
    pub fn wait(&self) {
        if let Some(delay) = self.delay {
            std::thread::sleep(delay);
        }
    }
}

/// The folder where the fakes keep their conversations.
pub fn state_dir() -> PathBuf {
    std::env::var_os("FAKE_CLI_STATE").map_or_else(
        || {
            std::env::var_os("HOME")
                .map_or_else(|| PathBuf::from("."), PathBuf::from)
                .join(".fake-cli")
        },
        PathBuf::from,
    )
}

/// The answer to `prompt`: the same every time.
pub fn answer(prompt: &str) -> String {
    format!("echo: {prompt}")
}

/// The text of a tool's result.
pub fn tool_output(tool: &str) -> String {
    format!("fake result of {tool}")
}

/// A rough token count, enough for usage figures.
pub fn tokens(text: &str) -> u64 {
    u64::try_from(text.chars().count() / 4 + 1).unwrap_or(u64::MAX)
}

/// A fresh conversation id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Prints one JSON event line and flushes it, as the real CLIs do.
pub fn emit(event: &Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{event}");
    let _ = out.flush();
}

/// Appends this start (argv, cwd) to `<state>/calls.jsonl`.
pub fn record_call(cli: &str, args: &[String]) {
    let line = json!({
        "cli": cli,
        "args": args,
        "cwd": std::env::current_dir().unwrap_or_default(),
    });
    append_line(&state_dir().join("calls.jsonl"), &line);
}

/// One conversation of a fake CLI: `<state>/<cli>/<id>.jsonl`, one line per message.
#[derive(Debug, Clone)]
pub struct Conversation {
    path: PathBuf,
}

impl Conversation {
    pub fn new(cli: &str, id: &str) -> Self {
        Self {
            path: state_dir().join(cli).join(format!("{id}.jsonl")),
        }
    }

    /// Whether it was saved (a first message was sent).
    pub fn exists(&self) -> bool {
        self.path.is_file()
    }

    /// Records one message and its token count.
    pub fn append(&self, role: &str, text: &str) {
        append_line(
            &self.path,
            &json!({"role": role, "text": text, "tokens": tokens(text)}),
        );
    }

    /// Tokens of every message so far by role: (user, assistant).
    pub fn token_totals(&self) -> (u64, u64) {
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .fold((0, 0), |(user, model), m| {
                let n = m.get("tokens").and_then(Value::as_u64).unwrap_or(0);
                match m.get("role").and_then(Value::as_str) {
                    Some("user") => (user + n, model),
                    _ => (user, model + n),
                }
            })
    }
}

fn append_line(path: &Path, line: &Value) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}
