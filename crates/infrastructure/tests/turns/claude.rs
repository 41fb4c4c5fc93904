use super::*;

#[test]
fn a_text_turn() {
    let (events, outcome) = parse_output(TurnCli::Claude, fixture!("claude-print-text.jsonl"));
    let answer = "Hi! This is the scripted stub answering \"say hi\".";
    assert_eq!(
        outcome,
        TurnOutcome {
            text: answer.into(),
            engine_session_id: Some("1782b943-e43a-43e8-8d98-5e49b8a818a7".into()),
            usage: usage(12532, 20, 0),
            is_error: false,
            error: None,
        }
    );
    assert_eq!(
        events.first(),
        Some(&TurnEvent::Started {
            session_id: "1782b943-e43a-43e8-8d98-5e49b8a818a7".into(),
            model: Some("claude-opus-5-5".into()),
        })
    );
    assert_eq!(texts(&events), [answer]);
    assert_eq!(finished(&events), &outcome);
}

#[test]
fn an_mcp_tool_call_turn() {
    let (events, outcome) = parse_output(TurnCli::Claude, fixture!("claude-print-mcp-tool.jsonl"));
    let tool_id = Some("toolu_stub_dbbb8af5c0624e25bbcc".to_owned());
    assert!(events.contains(&TurnEvent::ToolCall {
        id: tool_id.clone(),
        name: "mcp__idea__idea_list_agents".into(),
        input: json!({}),
    }));
    assert!(events.contains(&TurnEvent::ToolResult {
        id: tool_id,
        output: "agents: alpha(claude) beta(codex) gamma(gemini) [IDEA-AGENTS-OK]".into(),
        is_error: false,
    }));
    assert_eq!(texts(&events).len(), 2);
    // The answer is the last message, not the text before the tool call.
    assert_eq!(
        outcome.text,
        "The idea MCP server says: agents: alpha(claude) beta(codex) gamma(gemini) [IDEA-AGENTS-OK]"
    );
    assert!(!outcome.is_error);
    assert_eq!(outcome.usage, usage(25190, 72, 0));
}

#[test]
fn a_resumed_turn_continues_the_same_session() {
    let (_, first) = parse_output(TurnCli::Claude, fixture!("claude-print-text.jsonl"));
    let (_, again) = parse_output(TurnCli::Claude, fixture!("claude-resume.jsonl"));
    assert_eq!(again.engine_session_id, first.engine_session_id);
    assert_eq!(
        again.text,
        "Hi again from the resumed session. You said: \"again\"."
    );
    // This run only, not the session's total.
    assert_eq!(again.usage, usage(12570, 21, 0));
}

#[test]
fn a_transient_429_is_an_api_error_not_a_usage_limit() {
    let (events, outcome) = parse_output(TurnCli::Claude, fixture!("claude-api-error.jsonl"));
    let message = "API Error: Request rejected (429) · This request would exceed your organization's rate limit of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.";
    assert!(outcome.is_error);
    assert_eq!(
        outcome.error,
        Some(TurnError::Api {
            status: Some(429),
            message: message.into()
        })
    );
    assert_eq!(outcome.text, message);
    assert_eq!(
        outcome.engine_session_id.as_deref(),
        Some("5cbfe49f-ae38-45d7-82f5-3a2d2f2c2b41")
    );
    let retries = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                TurnEvent::Notice {
                    status: Some(429),
                    ..
                }
            )
        })
        .count();
    assert_eq!(retries, 3, "two retries and the synthetic error message");
    assert!(texts(&events).is_empty(), "the error text is not an answer");
}

/// Claude Code 2.1.332's stream on a plan limit (the shapes of `docs/usage-limits.md`):
/// `rate_limit_event` rejected, the synthetic message, the `result` with `is_error`.
const PLAN_LIMIT: &str = r#"{"type":"system","subtype":"init","session_id":"s-limit","model":"claude-opus-5-5"}
{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1796154740,"rateLimitType":"five_hour","overageStatus":"rejected","overageDisabledReason":"org_level_disabled","isUsingOverage":false},"uuid":"u1","session_id":"s-limit"}
{"type":"assistant","message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"You've hit your 5-hour limit · resets 7:52pm (UTC)"}]},"session_id":"s-limit","error":"rate_limit","is_api_error_message":true,"api_error_status":429,"api_error":"usage_limit_reached"}
{"type":"result","subtype":"success","is_error":true,"terminal_reason":"api_error","api_error_status":429,"result":"You've hit your 5-hour limit · resets 7:52pm (UTC)","session_id":"s-limit","usage":{"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":0}}"#;

#[test]
fn a_plan_limit_is_a_usage_limit_with_the_event_s_reset() {
    let (_, outcome) = parse_output(TurnCli::Claude, PLAN_LIMIT);
    assert_eq!(
        outcome.error,
        Some(TurnError::UsageLimit {
            resets_at: Some(1_796_154_740),
            reset_text: None,
            window: Some("5-hour".into()),
            needs_user: false,
            message: "You've hit your 5-hour limit · resets 7:52pm (UTC)".into(),
        })
    );
    assert_eq!(outcome.engine_session_id.as_deref(), Some("s-limit"));
    // Cut before the result: the limit still says why.
    let cut: Vec<&str> = PLAN_LIMIT.lines().take(3).collect();
    let (_, outcome) = parse_output(TurnCli::Claude, &cut.join("\n"));
    assert!(matches!(
        outcome.error,
        Some(TurnError::UsageLimit {
            resets_at: Some(1_796_154_740),
            ..
        })
    ));
}

#[test]
fn a_limit_in_words_only_and_one_that_needs_the_user() {
    let result = |text: &str| {
        json!({"type": "result", "subtype": "success", "is_error": true,
            "terminal_reason": "api_error", "result": text, "session_id": "s"})
        .to_string()
    };
    let (_, outcome) = parse_output(
        TurnCli::Claude,
        &result("You've hit your weekly limit · resets Dec 3, 3:52am (Asia/Shanghai)"),
    );
    let sighting = outcome.error.as_ref().and_then(TurnError::limit_sighting);
    assert_eq!(
        sighting.map(|s| (s.reset, s.window)),
        Some((
            SightedReset::Text("Dec 3, 3:52am (Asia/Shanghai)".into()),
            Some("weekly".into())
        ))
    );
    let (_, outcome) = parse_output(
        TurnCli::Claude,
        &result("You've hit your monthly spend limit · ask your admin"),
    );
    assert!(matches!(
        outcome.error,
        Some(TurnError::UsageLimit {
            needs_user: true,
            ..
        })
    ));
    // Not limits: a budget, the context window, billing, an overloaded server.
    for text in [
        "Reached maximum budget ($5)",
        "Context limit reached · /compact or /clear to continue",
        "Credit balance is too low",
        "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.",
        "API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited",
    ] {
        let (_, outcome) = parse_output(TurnCli::Claude, &result(text));
        assert!(
            !matches!(outcome.error, Some(TurnError::UsageLimit { .. })),
            "{text}: {:?}",
            outcome.error
        );
    }
}

#[test]
fn a_resume_the_cli_refused() {
    // What Claude Code 2.1.332 prints on stdout for `--resume` of an unknown id (the
    // reason also goes to stderr); exit 1.
    let line = r#"{"type":"result","subtype":"error_during_execution","duration_ms":0,"is_error":true,"num_turns":0,"stop_reason":null,"session_id":"00000000-0000-0000-0000-000000000000","errors":["No conversation found with session ID: 00000000-0000-0000-0000-000000000000"]}"#;
    let (_, outcome) = parse_output(TurnCli::Claude, line);
    assert_eq!(
        outcome.error,
        Some(TurnError::Cli {
            message: "No conversation found with session ID: 00000000-0000-0000-0000-000000000000"
                .into()
        })
    );
}

#[test]
fn a_stream_cut_before_its_result() {
    let text = fixture!("claude-print-text.jsonl");
    let cut: Vec<&str> = text.lines().take(2).collect();
    let (_, outcome) = parse_output(TurnCli::Claude, &cut.join("\n"));
    assert_eq!(outcome.error, Some(TurnError::NoAnswer));
    assert!(outcome.is_error);
    assert_eq!(
        outcome.text,
        "Hi! This is the scripted stub answering \"say hi\"."
    );
    assert!(outcome.engine_session_id.is_some());
}
