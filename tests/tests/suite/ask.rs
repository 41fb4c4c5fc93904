//! Ask end to end: the real turn runner, the real store, and `fake-claude` / `fake-codex` run
//! with the built-in profiles' JSON modes.

use crate::support::{World, call_args, world};
use idea_application::AppResult;
use idea_application::orchestrator::{self, Ask};
use idea_domain::orchestrator::{AskAnswer, RequestSource, RequestState};
use idea_domain::{Agent, DomainEvent};
use serde_json::Value;
use std::time::{Duration, Instant};

fn ask(
    w: &World,
    target: &Agent,
    message: &str,
    timeout: Option<Duration>,
) -> AppResult<AskAnswer> {
    orchestrator::ask(
        &w.deps,
        Ask {
            requester: "user".into(),
            target: target.name.to_string(),
            message: message.into(),
            timeout,
            source: RequestSource::Ui,
            request_id: None,
        },
    )
}

fn after<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == flag)?;
    args.get(at + 1).map(String::as_str)
}

#[test]
fn claude_answers_then_resumes_the_conversation_it_started() {
    let w = world();
    let ada = w.agent_of("Ada", "fake-claude");
    idea_application::agents::update_context(&w.deps, ada.agent_id, "# Ada\n\nTerse.\n").unwrap();
    let first = ask(&w, &ada, "-x say hi", None).unwrap();
    assert_eq!(
        first.text, "echo: -x say hi",
        "a message starting with - stays the message"
    );
    let engine = first.engine_session_id.clone().unwrap();
    assert!(first.usage.is_some());
    // The pair user↔Ada is Ada's own id; the CLI's id is kept under the provider and agent.
    let providers = w
        .root()
        .join(".ideai/conversations")
        .join(ada.agent_id.to_string())
        .join("providers.json");
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(providers).unwrap()).unwrap();
    assert_eq!(
        stored["providers"]["claude"][ada.agent_id.to_string()],
        engine.as_str()
    );
    let second = ask(&w, &ada, "again", None).unwrap();
    assert_eq!(second.text, "echo: again");
    assert_eq!(second.engine_session_id.as_deref(), Some(engine.as_str()));

    let calls = w.fake_cli_calls();
    assert_eq!(calls.len(), 2);
    let (one, two) = (call_args(&calls[0]), call_args(&calls[1]));
    assert_eq!(after(&one, "--session-id"), Some(engine.as_str()));
    assert_eq!(one[one.len() - 2..], ["--", "-x say hi"]);
    assert_eq!(after(&two, "--resume"), Some(engine.as_str()));
    assert!(!two.contains(&"--session-id".to_owned()));
    assert_eq!(after(&two, "--add-dir"), w.root().to_str());
    // It ran in Ada's run dir, where her convention file was written.
    let run_dir = w.root().join(".ideai/run").join(ada.agent_id.to_string());
    assert_eq!(calls[0]["cwd"], run_dir.to_str().unwrap());
    let convention = std::fs::read_to_string(run_dir.join("CLAUDE.md")).unwrap();
    assert!(convention.contains("Terse."), "{convention}");
    let states: Vec<RequestState> = orchestrator::list(&w.deps)
        .iter()
        .map(|r| r.state)
        .collect();
    assert_eq!(states, [RequestState::Done, RequestState::Done]);
}

#[test]
fn codex_resumes_the_thread_it_minted() {
    let w = world();
    let cody = w.agent_of("Cody", "fake-codex");
    let first = ask(&w, &cody, "one", None).unwrap();
    let thread = first.engine_session_id.clone().unwrap();
    assert_eq!(first.text, "echo: one");
    let second = ask(&w, &cody, "two", None).unwrap();
    assert_eq!(second.engine_session_id.as_deref(), Some(thread.as_str()));
    let calls = w.fake_cli_calls();
    let (one, two) = (call_args(&calls[0]), call_args(&calls[1]));
    assert_eq!(one[0], "exec");
    assert!(!one.contains(&"resume".to_owned()));
    assert_eq!(after(&two, "resume"), Some(thread.as_str()));
    assert_eq!(two.last().unwrap(), "two");
}

#[test]
fn a_usage_limit_is_one_for_either_cli_and_a_429_is_not() {
    let w = std::sync::Arc::new(world());
    for (name, profile) in [("Lim", "fake-claude-limit"), ("Cap", "fake-codex-limit")] {
        let agent = w.agent_of(name, profile);
        let asking = {
            let (w, agent) = (std::sync::Arc::clone(&w), agent.clone());
            std::thread::spawn(move || ask(&w, &agent, "hi", None))
        };
        // The request waits for the reset (the fakes' limits reset within a day): Claude gives
        // an epoch, Codex a local time ("7:49 PM"), both put on the clock.
        let deadline = Instant::now() + Duration::from_secs(30);
        let waiting = loop {
            let list = orchestrator::list(&w.deps);
            if let Some(r) = list
                .iter()
                .find(|r| r.target == agent.agent_id && r.state == RequestState::WaitingForLimit)
            {
                break r.clone();
            }
            assert!(
                Instant::now() < deadline,
                "{profile}: never waiting: {list:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let resets_at = waiting.limit_resets_at.expect("a reset");
        assert!(
            resets_at > now && resets_at <= now + 24 * 3600,
            "{profile}: {resets_at}"
        );
        orchestrator::cancel(&w.deps, waiting.request_id).unwrap();
        let error = asking.join().unwrap().unwrap_err();
        assert_eq!(error.code(), "CANCELLED", "{profile}: {error}");
    }
    // A transient 429 is an API failure: nothing waits for a reset.
    for (name, profile) in [("Busy", "fake-claude-429"), ("Full", "fake-codex-429")] {
        let agent = w.agent_of(name, profile);
        let error = ask(&w, &agent, "hi", None).unwrap_err();
        assert_eq!(error.code(), "TURN_FAILED", "{profile}: {error}");
    }
    let processed = w
        .events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, DomainEvent::OrchestratorRequestProcessed { .. }))
        .count();
    assert_eq!(processed, 4);
}

#[test]
fn a_slow_turn_times_out_and_a_cancelled_one_is_killed() {
    let w = world();
    let slow = w.agent_of("Slow", "fake-claude-slow");
    let started = Instant::now();
    let error = ask(&w, &slow, "wait", Some(Duration::from_secs(1))).unwrap_err();
    assert_eq!(error.code(), "TURN_TIMEOUT");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    std::thread::scope(|scope| {
        let turn = scope.spawn(|| ask(&w, &slow, "wait more", None));
        let deadline = Instant::now() + Duration::from_secs(10);
        let running = loop {
            let list = orchestrator::list(&w.deps);
            if let Some(r) = list.iter().find(|r| r.state == RequestState::Running) {
                break r.request_id;
            }
            assert!(Instant::now() < deadline, "{list:?}");
            std::thread::sleep(Duration::from_millis(20));
        };
        // Give the fake time to start before killing it.
        std::thread::sleep(Duration::from_millis(300));
        let cancelled_at = Instant::now();
        orchestrator::cancel(&w.deps, running).unwrap();
        assert_eq!(turn.join().unwrap().unwrap_err().code(), "CANCELLED");
        assert!(cancelled_at.elapsed() < Duration::from_secs(10));
    });
}
