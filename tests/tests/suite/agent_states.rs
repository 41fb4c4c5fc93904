//! Agent states from the CLI's own hooks, end to end: `idea serve` launches the fake agent
//! (which runs the command hooks of Claude Code's `--settings` file, as Claude does) in a cell;
//! each hook runs `idea hook`, which reports to the owner over its socket; the session's state
//! follows: working when a line is typed, idle once it is answered, needs you on a permission
//! prompt — each from source `hook`, well before output quiescence could have said so.

use crate::support::served::serve_project;
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn hooks_drive_the_state_of_a_session() {
    let mut project = serve_project();
    let agent = project.agent("Hooked", "fake");
    let session_id = project.launch_in_first_cell(&agent, 80);

    let wait_state = |project: &mut crate::support::served::Project, state: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let sessions = project.wire.call("listSessions", json!(null));
            let me = sessions
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["sessionId"] == session_id.as_str())
                .cloned()
                .unwrap();
            if me["state"] == state && me["stateSource"] == "hook" {
                return;
            }
            assert!(Instant::now() < deadline, "no {state} from a hook: {me}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    // Typed, answered: UserPromptSubmit then Stop.
    project.wire.call(
        "writeTerminal",
        json!({"sessionId": session_id, "data": "hello\r"}),
    );
    wait_state(&mut project, "idle");
    // A permission prompt: Notification (permission_prompt), and no Stop after it.
    project.wire.call(
        "writeTerminal",
        json!({"sessionId": session_id, "data": "ask-permission\r"}),
    );
    wait_state(&mut project, "needsYou");
}
