//! The file-drop door of a real `idea serve`: request files answered by the owner, once, also
//! when the owner is killed mid-turn and started again; bad files answered with errors while
//! the owner keeps serving; every request published to a WebSocket client with source `file`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/owner_rig.rs"]
mod rig;
mod support;

use futures_util::StreamExt;
use rig::{DEADLINE, Rig, TOKEN};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Askable `/bin/sh` agents that log every turn to `$TURN_LOG` (one line: the message):
/// `counted` answers at once, `sleepy` answers after 20 s.
fn profiles(log: &Path) -> String {
    let answer = r#"printf '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"echo: %s\",\"session_id\":\"s-1\"}\n' \"$1\""#;
    let counted = format!(r#"printf '%s\n' \"$1\" >> \"$TURN_LOG\"; {answer}"#);
    let sleepy = format!(r#"printf '%s\n' \"$1\" >> \"$TURN_LOG\"; sleep 20; {answer}"#);
    let profile = |id: &str, script: &str| {
        format!(
            r#"{{"id": "{id}", "name": "{id}", "command": "/bin/sh", "contextInjection": {{"kind": "none"}},
              "env": {{"TURN_LOG": "{log}"}},
              "structured": {{"provider": "claude", "args": ["-c", "{script}", "sh", "{{prompt}}"],
                "resumeArgs": ["-c", "{script}", "sh", "{{prompt}}", "{{id}}"]}}}}"#,
            log = log.display()
        )
    };
    format!(
        r#"{{"version": 1, "profiles": [{}, {}]}}"#,
        profile("counted", &counted),
        profile("sleepy", &sleepy)
    )
}

struct Door {
    rig: Rig,
    log: PathBuf,
}

impl Door {
    fn new() -> Self {
        let rig = Rig::new();
        let log = rig.user.join("turns.log");
        std::fs::write(rig.user.join("profiles.json"), profiles(&log)).unwrap();
        let rig = rig.serve();
        rig.create_agent_with("Ada", "counted");
        rig.create_agent_with("Bob", "counted");
        rig.create_agent_with("Slow", "sleepy");
        Self { rig, log }
    }

    fn folder(&self, folder: &str) -> PathBuf {
        let dir = self.rig.project.join(".ideai/requests").join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The messages of every turn run so far.
    fn turns(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Kills the owner at once (no shutdown of any kind) and starts it again.
    fn crash_and_restart(mut self) -> Self {
        let mut owner = self.rig.owner.take().unwrap();
        owner.kill().unwrap();
        owner.wait().unwrap();
        self.rig = self.rig.serve();
        self
    }
}

fn drop_request(dir: &Path, id: &str, request: &Value) {
    let temp = dir.join(format!(".{id}.tmp"));
    std::fs::write(&temp, request.to_string()).unwrap();
    std::fs::rename(temp, dir.join(format!("{id}.json"))).unwrap();
}

fn wait_for(path: &Path) -> Value {
    let deadline = Instant::now() + DEADLINE;
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            return serde_json::from_str(&text).unwrap();
        }
        assert!(Instant::now() < deadline, "{} never came", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_request_runs_once_across_restarts_and_a_crash_mid_turn_is_interrupted() {
    let door = Door::new();
    let ada = door.folder("ada");
    drop_request(&ada, "r1", &json!({"to": "Bob", "message": "hi"}));
    let response = wait_for(&ada.join("r1.response.json"));
    assert_eq!(response["from"], "Bob");
    assert_eq!(response["answer"], "echo: hi");
    assert_eq!(door.turns(), ["hi"]);

    // Killed while Slow's turn runs: the request was claimed, never answered.
    drop_request(
        &ada,
        "s1",
        &json!({"to": "Slow", "message": "take your time"}),
    );
    wait_for(&ada.join("s1.claimed"));
    let deadline = Instant::now() + DEADLINE;
    while door.turns().len() < 2 {
        assert!(Instant::now() < deadline, "Slow's turn never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let door = door.crash_and_restart();
    let error = wait_for(&ada.join("s1.error.json"));
    assert_eq!(error["code"], "INTERRUPTED", "{error}");
    // A request dropped after the restart is answered; nothing earlier ran again.
    drop_request(&ada, "r2", &json!({"to": "Bob", "message": "after"}));
    wait_for(&ada.join("r2.response.json"));
    let door = door.crash_and_restart();
    drop_request(&ada, "r3", &json!({"to": "Bob", "message": "last"}));
    wait_for(&ada.join("r3.response.json"));
    assert_eq!(door.turns(), ["hi", "take your time", "after", "last"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_files_get_error_files_and_requests_are_published_with_source_file() {
    let door = Door::new();
    let mut ws = support::ws::connect(door.rig.port, TOKEN).await;
    let bob = door.folder("bob");
    std::fs::write(bob.join("broken.json"), "{\"to\": ").unwrap();
    std::fs::write(bob.join("missing.json"), r#"{"message": "hi"}"#).unwrap();
    std::fs::write(bob.join("big.json"), vec![b' '; 300 * 1024]).unwrap();
    std::os::unix::fs::symlink(
        door.rig.project.join(".ideai/project.json"),
        bob.join("link.json"),
    )
    .unwrap();
    drop_request(&bob, "nobody", &json!({"to": "Nobody", "message": "hi"}));
    // A folder that names no agent.
    let stranger = door.folder("mallory");
    drop_request(&stranger, "m1", &json!({"to": "Ada", "message": "hi"}));
    for (dir, id, code) in [
        (&bob, "broken", "INVALID_PARAMS"),
        (&bob, "missing", "INVALID_PARAMS"),
        (&bob, "big", "INVALID_PARAMS"),
        (&bob, "link", "UNSAFE_PATH"),
        (&bob, "nobody", "AGENT_NOT_FOUND"),
        (&stranger, "m1", "AGENT_NOT_FOUND"),
    ] {
        let error = wait_for(&dir.join(format!("{id}.error.json")));
        assert_eq!(error["code"], code, "{id}: {error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert!(door.turns().is_empty());
    // The owner still serves: Bob's request to Ada is answered and published.
    drop_request(
        &bob,
        "ok",
        &json!({"to": "Ada", "message": "still there?", "timeoutSecs": 30}),
    );
    assert_eq!(
        wait_for(&bob.join("ok.response.json"))["answer"],
        "echo: still there?"
    );
    let processed = tokio::time::timeout(DEADLINE, async {
        while let Some(message) = ws.next().await {
            let Ok(Message::Text(text)) = message else {
                continue;
            };
            let value: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if value["params"]["type"] == "orchestratorRequestProcessed"
                && value["params"]["outcome"]["status"] == "ok"
            {
                return value["params"].clone();
            }
        }
        panic!("the WebSocket closed");
    })
    .await
    .expect("the WebSocket heard of the request");
    assert_eq!(processed["source"], "file", "{processed}");
    assert_eq!(door.turns(), ["still there?"]);
}
