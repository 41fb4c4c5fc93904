use super::*;

#[test]
fn a_turn_then_a_resume_continue_the_same_session() {
    let fake = Fake::new(TurnCli::Claude);
    let id = uuid::Uuid::new_v4().to_string();
    let first = fake.turn("say hi", SessionPlan::Assign(id.clone()));
    assert_answer(&first, "echo: say hi", &id);
    assert_eq!(
        kinds(&first.events),
        kinds(&real(TurnCli::Claude, captured!("claude-print-text.jsonl")))
    );
    let again = fake.turn("-x again", SessionPlan::Resume(id.clone()));
    assert_answer(&again, "echo: -x again", &id);
    assert_eq!(
        kinds(&again.events),
        kinds(&real(TurnCli::Claude, captured!("claude-resume.jsonl")))
    );
    // Another conversation, under another id.
    let other_id = uuid::Uuid::new_v4().to_string();
    let other = fake.turn("hello", SessionPlan::Assign(other_id.clone()));
    assert_answer(&other, "echo: hello", &other_id);
}

#[test]
fn a_usage_limit_is_one_with_its_reset() {
    let fake = Fake::new(TurnCli::Claude).with("FAKE_CLI_FAIL", "limit");
    let id = uuid::Uuid::new_v4().to_string();
    let run = fake.turn("say hi", SessionPlan::Assign(id));
    assert_usage_limit(&run);
    let Some(TurnError::UsageLimit {
        resets_at, window, ..
    }) = &run.outcome.error
    else {
        unreachable!()
    };
    assert!(resets_at.is_some(), "{:?}", run.outcome.error);
    assert_eq!(window.as_deref(), Some("5-hour"));
}

#[test]
fn a_429_is_an_api_error_like_the_real_one_not_a_usage_limit() {
    let fake = Fake::new(TurnCli::Claude).with("FAKE_CLI_FAIL", "429");
    let id = uuid::Uuid::new_v4().to_string();
    let run = fake.turn("say hi", SessionPlan::Assign(id.clone()));
    assert_api_429(&run);
    assert_eq!(run.outcome.engine_session_id.as_deref(), Some(id.as_str()));
    assert!(
        run.outcome
            .text
            .starts_with("API Error: Request rejected (429)")
    );
    assert_eq!(
        kinds(&run.events),
        kinds(&real(TurnCli::Claude, captured!("claude-api-error.jsonl")))
    );
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    // The conversation was saved all the same: it can be resumed.
    let fine = Fake {
        env: Vec::new(),
        ..fake
    };
    assert_answer(
        &fine.turn("again", SessionPlan::Resume(id.clone())),
        "echo: again",
        &id,
    );
}

#[test]
fn a_tool_call_looks_like_the_real_one() {
    let fake = Fake::new(TurnCli::Claude).with("FAKE_CLI_TOOL", "idea_list_agents");
    let run = fake.turn(
        "list the agents",
        SessionPlan::Assign(uuid::Uuid::new_v4().to_string()),
    );
    assert_eq!(run.outcome.text, "echo: list the agents");
    assert_eq!(
        kinds(&run.events),
        kinds(&real(
            TurnCli::Claude,
            captured!("claude-print-mcp-tool.jsonl")
        ))
    );
    assert!(run.events.iter().any(|e| matches!(e,
        TurnEvent::ToolCall { name, .. } if name == "mcp__idea__idea_list_agents")));
}

#[test]
fn refusals_match_the_real_cli() {
    let fake = Fake::new(TurnCli::Claude);
    let unknown = uuid::Uuid::new_v4().to_string();
    let refused = fake.turn("hi", SessionPlan::Resume(unknown.clone()));
    assert_eq!(refused.code, 1);
    assert_eq!(
        refused.outcome.error,
        Some(TurnError::Cli {
            message: format!("No conversation found with session ID: {unknown}")
        })
    );
    let id = uuid::Uuid::new_v4().to_string();
    fake.turn("hi", SessionPlan::Assign(id.clone()));
    let reused = fake.turn("hi", SessionPlan::Assign(id.clone()));
    assert_eq!(reused.code, 1);
    assert_eq!(reused.outcome.error, Some(TurnError::NoAnswer));
    assert!(reused.stderr.contains("is already in use"));
    let bogus = fake.run(&["-p".into(), "--bogus".into(), "hi".into()]);
    assert_eq!(
        (bogus.code, bogus.stderr.trim()),
        (1, "error: unknown option '--bogus'")
    );
    let no_verbose = fake.run(&[
        "-p".into(),
        "--output-format".into(),
        "stream-json".into(),
        "hi".into(),
    ]);
    assert_eq!(no_verbose.code, 1);
    assert!(no_verbose.stderr.contains("requires --verbose"));
}

#[test]
fn the_session_starts_before_a_delayed_answer() {
    let fake = Fake::new(TurnCli::Claude).with("FAKE_CLI_DELAY_MS", "800");
    let run = fake.turn(
        "slow",
        SessionPlan::Assign(uuid::Uuid::new_v4().to_string()),
    );
    assert_streamed_with_delay(&run, Duration::from_millis(800));
    assert_eq!(run.outcome.text, "echo: slow");
}
