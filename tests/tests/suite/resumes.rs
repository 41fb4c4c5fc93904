//! Continuing after a usage limit, end to end: `idea serve` runs the fake agent in a cell; it
//! hits a limit whose reset is a few seconds ahead (on screen, and through its `StopFailure`
//! hook); the cell goes `usageLimited`, the owner's scheduler waits for the reset (plus IdeA's
//! margin) and types the nudge into the cell once.

use crate::support::served::serve_project;
use idea_domain::limits::RESET_MARGIN_SECS;
use idea_domain::resume::DEFAULT_NUDGE;
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn an_agent_at_its_limit_is_nudged_once_after_the_reset() {
    let mut project = serve_project();
    let agent = project.agent("Waiter", "fake");
    let id = project.launch_in_first_cell(&agent, 200);
    project.wire.attach(&id, 24, 200);
    project.wire.call(
        "writeTerminal",
        json!({"sessionId": id, "data": "hit-limit-in 2\r"}),
    );
    let state = |project: &mut crate::support::served::Project| {
        let sessions = project.wire.call("listSessions", json!(null));
        sessions
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["sessionId"] == id.as_str())
            .cloned()
            .unwrap()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let limited = loop {
        let me = state(&mut project);
        if me["state"] == "usageLimited" {
            break me;
        }
        assert!(Instant::now() < deadline, "never usageLimited: {me}");
        project.wire.pump(Duration::from_millis(100));
    };
    assert!(
        limited["usageLimit"]["reset"]["epoch"].is_number(),
        "{limited}"
    );
    let scheduled = project.wire.call("listResumes", json!(null));
    assert_eq!(scheduled.as_array().map(Vec::len), Some(1), "{scheduled}");

    // The reset, IdeA's margin, and the scheduler's poll (at most 5 s).
    let said = format!("you said: {}", &DEFAULT_NUDGE[..40]);
    let deadline = Instant::now() + Duration::from_secs(RESET_MARGIN_SECS + 40);
    while !project.wire.screen(&id).contains(&said) {
        assert!(
            Instant::now() < deadline,
            "not nudged after the reset:\n{}",
            project.wire.screen(&id)
        );
        project.wire.pump(Duration::from_millis(250));
    }
    // Once: a few more polls of the scheduler type nothing more.
    project.wire.pump(Duration::from_secs(7));
    let screen = project.wire.screen(&id);
    assert_eq!(screen.matches(&said).count(), 1, "{screen}");
    let left = project.wire.call("listResumes", json!(null));
    assert_eq!(left.as_array().map(Vec::len), Some(0), "{left}");
}
