//! The CLIs' own signals: each hook (Claude Code, Gemini CLI) or notify program (Codex) runs
//! `idea hook --project DIR --agent ID --event EVENT`, which reports to the project's owner.
//! Which hooks each CLI gets, checked against the pinned binaries, is in
//! `docs/agent-states.md`.
//!
//! Pure: the application writes the files and adds the arguments.

use crate::profile::CliHome;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The settings file Claude Code reads through `--settings`, relative to its cwd.
pub const HOOK_SETTINGS_FILE: &str = ".idea-hooks.json";

/// What a hook tells about the agent's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum HookEvent {
    /// The user sent a message: a turn starts.
    PromptSubmitted,
    /// A tool finished: the turn goes on (after a permission prompt, too).
    ToolDone,
    /// It waits for the user (a permission prompt, a question).
    NeedsInput,
    /// Its turn is over.
    TurnDone,
}

impl HookEvent {
    /// The `--event` value of `idea hook`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PromptSubmitted => "prompt-submitted",
            Self::ToolDone => "tool-done",
            Self::NeedsInput => "needs-input",
            Self::TurnDone => "turn-done",
        }
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An `--event` value `idea hook` does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown hook event \"{0}\" (prompt-submitted, tool-done, needs-input, turn-done)")]
pub struct UnknownHookEvent(pub String);

impl FromStr for HookEvent {
    type Err = UnknownHookEvent;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            Self::PromptSubmitted,
            Self::ToolDone,
            Self::NeedsInput,
            Self::TurnDone,
        ]
        .into_iter()
        .find(|e| e.as_str() == s)
        .ok_or_else(|| UnknownHookEvent(s.to_owned()))
    }
}

/// How to run `idea hook` for one agent: the `idea` executable, the variables it needs to find
/// the owner's socket (the MCP bridge's), the project and the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookBridge<'a> {
    pub program: &'a Path,
    pub env: &'a BTreeMap<String, String>,
    pub project_root: &'a Path,
    pub agent: &'a str,
}

impl HookBridge<'_> {
    /// `env K=V… idea hook --project DIR --agent ID --event EVENT`, as argv.
    pub fn argv(&self, event: HookEvent) -> Vec<String> {
        let mut argv = vec!["env".to_owned()];
        argv.extend(self.env.iter().map(|(k, v)| format!("{k}={v}")));
        argv.extend([
            self.program.display().to_string(),
            "hook".to_owned(),
            "--project".to_owned(),
            self.project_root.display().to_string(),
            "--agent".to_owned(),
            self.agent.to_owned(),
            "--event".to_owned(),
            event.as_str().to_owned(),
        ]);
        argv
    }

    /// The same as one `sh` command line (Claude Code and Gemini CLI run hooks through a shell).
    pub fn shell_line(&self, event: HookEvent) -> String {
        self.argv(event)
            .iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// What a launch adds so the CLI reports its turns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookHandoff {
    /// Arguments that go right after the program (with the MCP ones).
    pub args: Vec<String>,
    /// Files to write whole (absolute paths inside the run dir).
    pub files: Vec<(PathBuf, String)>,
    /// `hooks` to merge into the settings file the CLI already gets for MCP (Gemini CLI reads
    /// one system settings file).
    pub settings_hooks: Option<Value>,
}

/// The hooks of the CLI whose home is `home`, started in `cwd`; nothing for a CLI without
/// hooks IdeA knows.
pub fn hook_handoff(home: CliHome, bridge: &HookBridge<'_>, cwd: &Path) -> HookHandoff {
    match home {
        CliHome::ClaudeCode => {
            let file = cwd.join(HOOK_SETTINGS_FILE);
            let entry = |event: HookEvent, matcher: Option<&str>| {
                let mut group = Map::new();
                if let Some(m) = matcher {
                    group.insert("matcher".into(), Value::from(m));
                }
                group.insert(
                    "hooks".into(),
                    json!([{"type": "command", "command": bridge.shell_line(event), "timeout": 5}]),
                );
                Value::Array(vec![Value::Object(group)])
            };
            // PostToolUse, not PreToolUse: the latter fires before the permission prompt, the
            // former once the user answered it and the tool ran.
            // IdeA continues its cells after a usage limit (docs/usage-limits.md): Claude's own
            // auto-continue (on by default) would make it twice.
            let settings = json!({"autoContinueAtUsageLimit": false, "hooks": {
                "UserPromptSubmit": entry(HookEvent::PromptSubmitted, None),
                "PostToolUse": entry(HookEvent::ToolDone, Some("*")),
                "Notification": entry(
                    HookEvent::NeedsInput,
                    Some("permission_prompt|elicitation_dialog"),
                ),
                "Stop": entry(HookEvent::TurnDone, None),
                "StopFailure": entry(HookEvent::TurnDone, None),
            }});
            HookHandoff {
                args: vec!["--settings".to_owned(), file.display().to_string()],
                files: vec![(file, pretty(&settings))],
                settings_hooks: None,
            }
        }
        CliHome::Codex => {
            // The notify program gets one JSON argument appended (`agent-turn-complete`).
            let argv = Value::from(bridge.argv(HookEvent::TurnDone));
            HookHandoff {
                args: vec!["-c".to_owned(), format!("notify={argv}")],
                ..HookHandoff::default()
            }
        }
        CliHome::Gemini => {
            let entry = |event: HookEvent| json!([{"hooks": [{"type": "command", "command": bridge.shell_line(event), "timeout": 5000}]}]);
            HookHandoff {
                settings_hooks: Some(json!({
                    "BeforeAgent": entry(HookEvent::PromptSubmitted),
                    "AfterTool": entry(HookEvent::ToolDone),
                    "Notification": entry(HookEvent::NeedsInput),
                    "AfterAgent": entry(HookEvent::TurnDone),
                })),
                ..HookHandoff::default()
            }
        }
    }
}

/// `settings` (a JSON object's text) with `hooks` set; `None` when it is not a JSON object.
pub fn with_settings_hooks(settings: &str, hooks: &Value) -> Option<String> {
    let mut value: Value = serde_json::from_str(settings).ok()?;
    value.as_object_mut()?.insert("hooks".into(), hooks.clone());
    Some(pretty(&value))
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// One POSIX shell word: bare when it is plainly safe, else in single quotes.
fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if safe {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
