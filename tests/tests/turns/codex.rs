use super::*;

#[test]
fn a_turn_then_a_resume_continue_the_same_thread() {
    let fake = Fake::new(TurnCli::Codex);
    let first = fake.turn("say hi", SessionPlan::None);
    let thread = first.outcome.engine_session_id.clone().unwrap();
    assert_answer(&first, "echo: say hi", &thread);
    assert_eq!(
        kinds(&first.events),
        kinds(&real(TurnCli::Codex, captured!("codex-exec-text.jsonl")))
    );
    assert!(
        first
            .stderr
            .contains("Reading additional input from stdin...")
    );
    let again = fake.turn("--again", SessionPlan::Resume(thread.clone()));
    assert_answer(&again, "echo: --again", &thread);
    assert_eq!(
        kinds(&again.events),
        kinds(&real(TurnCli::Codex, captured!("codex-exec-resume.jsonl")))
    );
    // Like the real one, the usage counts the whole thread.
    let (a, b) = (first.outcome.usage.unwrap(), again.outcome.usage.unwrap());
    assert!(b.input > a.input && b.output > a.output);
}

#[test]
fn a_usage_limit_is_one_with_its_reset_words() {
    let fake = Fake::new(TurnCli::Codex).with("FAKE_CLI_FAIL", "limit");
    let run = fake.turn("say hi", SessionPlan::None);
    assert_usage_limit(&run);
    let Some(TurnError::UsageLimit { reset_text, .. }) = &run.outcome.error else {
        unreachable!()
    };
    assert_eq!(
        reset_text.as_deref(),
        Some("7:49 PM"),
        "{:?}",
        run.outcome.error
    );
}

#[test]
fn a_429_is_an_api_error_like_the_real_one_not_a_usage_limit() {
    let fake = Fake::new(TurnCli::Codex).with("FAKE_CLI_FAIL", "429");
    let run = fake.turn("say hi", SessionPlan::None);
    assert_api_429(&run);
    let (_, real_outcome) = parse_output(TurnCli::Codex, captured!("codex-exec-error.jsonl"));
    assert_eq!(run.outcome.error, real_outcome.error);
    assert_eq!(run.outcome.text, real_outcome.text);
    assert_eq!(
        kinds(&run.events),
        kinds(&real(TurnCli::Codex, captured!("codex-exec-error.jsonl")))
    );
}

#[test]
fn a_tool_call_looks_like_the_real_one() {
    let fake = Fake::new(TurnCli::Codex).with("FAKE_CLI_TOOL", "idea_list_agents");
    let run = fake.turn("list the agents", SessionPlan::None);
    assert_eq!(run.outcome.text, "echo: list the agents");
    assert_eq!(
        kinds(&run.events),
        kinds(&real(
            TurnCli::Codex,
            captured!("codex-exec-mcp-tool.jsonl")
        ))
    );
    assert!(run.events.contains(&TurnEvent::ToolResult {
        id: Some("item_0".into()),
        output: "fake result of idea_list_agents".into(),
        is_error: false,
    }));
}

#[test]
fn refusals_match_the_real_cli() {
    let fake = Fake::new(TurnCli::Codex);
    let unknown = uuid::Uuid::new_v4().to_string();
    let refused = fake.turn("hi", SessionPlan::Resume(unknown.clone()));
    assert_eq!(refused.code, 1);
    assert_eq!(refused.outcome.error, Some(TurnError::NoAnswer));
    assert!(
        refused
            .stderr
            .contains(&format!("no rollout found for thread id {unknown}"))
    );
    let bogus = fake.run(&[
        "exec".into(),
        "--json".into(),
        "--bogus".into(),
        "hi".into(),
    ]);
    assert_eq!(bogus.code, 2);
    assert!(
        bogus
            .stderr
            .starts_with("error: unexpected argument '--bogus' found")
    );
}

#[test]
fn the_thread_starts_before_a_delayed_answer() {
    let fake = Fake::new(TurnCli::Codex).with("FAKE_CLI_DELAY_MS", "800");
    let run = fake.turn("slow", SessionPlan::None);
    assert_streamed_with_delay(&run, Duration::from_millis(800));
    assert_eq!(run.outcome.text, "echo: slow");
}
