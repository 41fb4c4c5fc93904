//! A fake coding-agent CLI for end-to-end tests.
//!
//! Like Claude Code it takes `--session-id <id>` (refused when that conversation was saved)
//! and `--resume <id>` (refused when it was not), reads a convention file (`CLAUDE.md`,
//! `AGENTS.md`, `GEMINI.md`) from its cwd, and then behaves as a small REPL: it prints
//! `fake> `, answers each line with `you said: <line>`, and exits on `exit [code]` or end of
//! input. Like Claude, it saves the conversation (`<id>.jsonl`, one line per message) only
//! once a first line is typed, so a session stopped before that cannot be resumed.
//!
//! Like Claude Code it runs the command hooks of a `--settings <file>` (`{"hooks": {"Event":
//! [{"hooks": [{"type": "command", "command": …}]}]}}`, through `sh -c`, the event as JSON on
//! stdin): `UserPromptSubmit` when a line is typed, `Stop` once it is answered; a line
//! `ask-permission` also fires `Notification` (matcher `permission_prompt`) before the answer.
//! A line `hit-limit` prints Claude Code's usage-limit message (reset two hours ahead, UTC)
//! and fires `StopFailure` instead of an answer; `hit-limit-in <N>` does the same with the
//! reset N seconds ahead, as an epoch (`Claude AI usage limit reached|<epoch>`).
//!
//! Every start appends one JSON line to `$FAKE_AGENT_LOG` (when set): argv, cwd, selected
//! environment variables and the convention file it found. Sessions are remembered as files
//! in `$FAKE_AGENT_SESSIONS`, else `$FAKE_AGENT_HOME/sessions/` (default: `<cwd>/.fake-agent`).

use std::io::{BufRead, Write};
use std::path::PathBuf;

const CONVENTION_FILES: [&str; 3] = ["CLAUDE.md", "AGENTS.md", "GEMINI.md"];
const RECORDED_ENV: [&str; 6] = [
    "TMUX",
    "TERM",
    "COLORTERM",
    "HOME",
    "IDEA_CONTEXT",
    "FAKE_AGENT_MARK",
];

fn main() {
    std::process::exit(run());
}

fn flag_value(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn run() -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    let sessions = std::env::var_os("FAKE_AGENT_SESSIONS").map_or_else(
        || {
            std::env::var_os("FAKE_AGENT_HOME")
                .map_or_else(|| cwd.join(".fake-agent"), PathBuf::from)
                .join("sessions")
        },
        PathBuf::from,
    );
    let convention = CONVENTION_FILES.iter().find_map(|name| {
        std::fs::read_to_string(cwd.join(name))
            .ok()
            .map(|text| (name.to_string(), text))
    });
    record(&args, &cwd, convention.as_ref());

    let mut transcript = None;
    if let Some(id) = flag_value(&args, "--session-id") {
        let file = sessions.join(format!("{id}.jsonl"));
        if file.exists() {
            eprintln!("Error: Session ID {id} is already in use.");
            return 1;
        }
        transcript = Some(file);
    }
    if let Some(id) = flag_value(&args, "--resume") {
        let file = sessions.join(format!("{id}.jsonl"));
        if !file.exists() {
            eprintln!("No conversation found with session ID: {id}");
            return 1;
        }
        println!("resumed {id}");
        transcript = Some(file);
    }
    if let Some((name, _)) = &convention {
        println!("read {name}");
    }
    let hooks = flag_value(&args, "--settings")
        .and_then(|file| std::fs::read_to_string(file).ok())
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .map(|settings| settings["hooks"].clone())
        .unwrap_or_default();
    repl(transcript.as_deref(), &Hooks(hooks))
}

/// The `hooks` of a Claude-style settings file.
struct Hooks(serde_json::Value);

impl Hooks {
    /// Runs every command hook of `event` (whose group matcher, if any, matches `matcher`),
    /// waiting for each, as Claude Code does.
    fn fire(&self, event: &str, matcher: &str) {
        self.fire_with(event, matcher, serde_json::json!({}));
    }

    /// [`Hooks::fire`], with more fields in the hook's input.
    fn fire_with(&self, event: &str, matcher: &str, extra: serde_json::Value) {
        let Some(groups) = self.0.get(event).and_then(|g| g.as_array()) else {
            return;
        };
        for group in groups {
            let matches = group["matcher"]
                .as_str()
                .is_none_or(|m| m == "*" || m.split('|').any(|part| part == matcher));
            if !matches {
                continue;
            }
            for hook in group["hooks"].as_array().into_iter().flatten() {
                let Some(command) = hook["command"].as_str() else {
                    continue;
                };
                let mut payload =
                    serde_json::json!({"hook_event_name": event, "notification_type": matcher});
                for (key, value) in extra.as_object().into_iter().flatten() {
                    payload[key] = value.clone();
                }
                let child = std::process::Command::new("sh")
                    .args(["-c", command])
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::null())
                    .spawn();
                if let Ok(mut child) = child {
                    if let Some(mut stdin) = child.stdin.take() {
                        let _ = writeln!(stdin, "{payload}");
                    }
                    let _ = child.wait();
                }
            }
        }
    }
}

fn record(args: &[String], cwd: &std::path::Path, convention: Option<&(String, String)>) {
    let Some(log) = std::env::var_os("FAKE_AGENT_LOG") else {
        return;
    };
    let env: serde_json::Map<String, serde_json::Value> = RECORDED_ENV
        .iter()
        .map(|k| {
            (
                k.to_string(),
                std::env::var(k).map_or(serde_json::Value::Null, serde_json::Value::String),
            )
        })
        .collect();
    let line = serde_json::json!({
        "args": args,
        "cwd": cwd,
        "env": env,
        "conventionFile": convention.map(|(name, _)| name),
        "convention": convention.map(|(_, text)| text),
    });
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = writeln!(file, "{line}");
    }
}

/// Answers lines; each one is appended to the transcript (created by the first).
fn repl(transcript: Option<&std::path::Path>, hooks: &Hooks) -> i32 {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let _ = write!(out, "fake> ");
    let _ = out.flush();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return 1 };
        let line = line.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix("exit") {
            return rest.trim().parse().unwrap_or(0);
        }
        if let Some(file) = transcript {
            save(file, line);
        }
        hooks.fire("UserPromptSubmit", "");
        let soon = line
            .strip_prefix("hit-limit-in ")
            .and_then(|n| n.trim().parse::<u64>().ok());
        if line == "hit-limit" || soon.is_some() {
            // As Claude Code says it: the reset two hours ahead, in UTC; or, as its older
            // versions did, an epoch a few seconds ahead.
            let message = match soon {
                Some(ahead) => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs());
                    format!("Claude AI usage limit reached|{}", now + ahead)
                }
                None => usage_limit_message(2 * 3600),
            };
            let _ = write!(out, "{message}\nfake> ");
            let _ = out.flush();
            let input =
                serde_json::json!({"error": "rate_limit", "last_assistant_message": message});
            hooks.fire_with("StopFailure", "rate_limit", input);
            continue;
        }
        if line == "ask-permission" {
            hooks.fire("Notification", "permission_prompt");
            let _ = writeln!(out, "Do you want to proceed? (fake)");
            let _ = out.flush();
            continue;
        }
        let _ = write!(out, "you said: {line}\nfake> ");
        let _ = out.flush();
        hooks.fire("Stop", "");
    }
    0
}

/// Claude Code's usage-limit line, its reset `ahead` seconds from now: "You've hit your 5-hour
/// limit · resets 7:52pm (UTC)".
fn usage_limit_message(ahead: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let of_day = (now + ahead) % 86_400;
    let (hour, minute) = (of_day / 3600, of_day % 3600 / 60);
    let (twelve, half) = match hour {
        0 => (12, "am"),
        1..=11 => (hour, "am"),
        12 => (12, "pm"),
        _ => (hour - 12, "pm"),
    };
    format!("You've hit your 5-hour limit \u{b7} resets {twelve}:{minute:02}{half} (UTC)")
}

fn save(file: &std::path::Path, line: &str) {
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
    {
        let _ = writeln!(f, "{}", serde_json::json!({"user": line}));
    }
}
