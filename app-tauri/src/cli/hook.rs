//! `idea hook`: what an agent CLI's hook (or Codex's notify program) runs to report a turn to
//! the project's owner (`reportAgentSignal`, see `docs/agent-states.md`). It must never get in
//! the agent's way: it prints nothing, always exits 0, and gives up after a short timeout;
//! with no IdeA running on the project it does nothing.

use idea_domain::agent_state::HookEvent;
use idea_infrastructure::owner::read_owner;
use idea_server::owner::client::ask_owner_within;
use serde_json::{Value, json};
use std::io::{IsTerminal, Read};
use std::path::Path;
use std::time::Duration;

/// The longest a hook holds the agent up when the owner is slow.
const HOOK_TIMEOUT: Duration = Duration::from_secs(2);

/// Codex's notify payload type for the end of a turn (the only one IdeA reads).
const CODEX_TURN_COMPLETE: &str = "agent-turn-complete";

/// Reports `event` of `agent`; every failure is swallowed (logged nowhere: the agent's
/// terminal must not show it).
pub fn run(project: &Path, agent: &str, event: HookEvent, payload: Option<&str>) {
    // Claude Code and Gemini CLI write the hook's input to stdin: read it on the side so the
    // CLI never meets a closed pipe, waiting for it only a moment.
    let input = (!std::io::stdin().is_terminal()).then(read_stdin_on_the_side);
    if !wanted(payload) {
        return;
    }
    let Some(owner) = read_owner(&project.join(".ideai")) else {
        return;
    };
    let mut params = json!({"agentId": agent, "event": event});
    // A turn that ended in an API error may have ended at the usage limit: the owner reads it
    // from the hook's input (Claude Code's `StopFailure`), which only then goes along.
    if event == HookEvent::TurnDone
        && let Some(input) = input.and_then(|rx| rx.recv_timeout(STDIN_WAIT).ok())
        && input.contains("StopFailure")
        && input.len() <= MAX_HOOK_PAYLOAD
    {
        params["payload"] = Value::from(input);
    }
    let _ = ask_owner_within(&owner, "reportAgentSignal", params, HOOK_TIMEOUT);
}

/// How long the hook waits for its input (the CLI writes it at once, then closes the pipe).
const STDIN_WAIT: Duration = Duration::from_millis(500);
/// The most of its input a hook reads; a larger payload is not forwarded.
const MAX_HOOK_PAYLOAD: usize = 64 * 1024;

/// Reads stdin to its end in a thread of its own (so a CLI that keeps the pipe open never
/// holds the hook), handing the text over once read.
fn read_stdin_on_the_side() -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let _ = std::thread::Builder::new().spawn(move || {
        let mut text = String::new();
        let read = std::io::stdin()
            .take(MAX_HOOK_PAYLOAD as u64 + 1)
            .read_to_string(&mut text);
        // Drain the rest, as before, so the writer never meets a closed pipe.
        let _ = std::io::copy(&mut std::io::stdin().take(1 << 20), &mut std::io::sink());
        if read.is_ok() {
            let _ = tx.send(text);
        }
    });
    rx
}

/// Codex appends a JSON payload to the notify program's arguments: only the end of a turn
/// counts. Without a payload (Claude, Gemini) the event stands as given.
fn wanted(payload: Option<&str>) -> bool {
    let Some(payload) = payload else {
        return true;
    };
    let kind = serde_json::from_str::<Value>(payload)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned));
    kind.is_none_or(|kind| kind == CODEX_TURN_COMPLETE)
}

#[cfg(test)]
mod tests {
    use super::wanted;

    #[test]
    fn only_codexs_turn_complete_payload_counts() {
        assert!(wanted(None));
        assert!(wanted(Some(
            r#"{"type":"agent-turn-complete","turn-id":"1"}"#
        )));
        assert!(!wanted(Some(r#"{"type":"approval-requested"}"#)));
        assert!(wanted(Some("not json")));
    }
}
