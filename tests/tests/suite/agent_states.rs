//! Agent states from the CLI's own hooks, end to end: `idea serve` launches the fake agent
//! (which runs the command hooks of Claude Code's `--settings` file, as Claude does) in a cell;
//! each hook runs `idea hook`, which reports to the owner over its socket; the session's state
//! follows: working when a line is typed, idle once it is answered, needs you on a permission
//! prompt — each from source `hook`, well before output quiescence could have said so.

use crate::support::served::serve_project;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn first_leaf(tree: &Value) -> String {
    match tree["type"].as_str() {
        Some("leaf") => tree["id"].as_str().unwrap().to_owned(),
        _ => first_leaf(&tree["children"][0]),
    }
}

#[test]
fn hooks_drive_the_state_of_a_session() {
    let mut project = serve_project();
    let agent = project.agent("Hooked", "fake");
    let layouts = project.wire.call("getLayouts", json!({}));
    let layout_id = layouts["active"].as_str().unwrap().to_owned();
    let node_id = first_leaf(&layouts["layouts"][0]["tree"]);
    let session = project.wire.call(
        "launchAgent",
        json!({"agentId": agent, "layoutId": layout_id, "nodeId": node_id, "rows": 24, "cols": 80}),
    );
    let session_id = session["sessionId"].as_str().unwrap().to_owned();

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
