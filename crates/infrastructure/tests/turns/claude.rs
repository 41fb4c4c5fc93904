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
fn a_429_is_a_usage_limit() {
    let (events, outcome) = parse_output(TurnCli::Claude, fixture!("claude-api-error.jsonl"));
    let message = "API Error: Request rejected (429) · This request would exceed your organization's rate limit of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.";
    assert!(outcome.is_error);
    assert_eq!(
        outcome.error,
        Some(TurnError::UsageLimit {
            resets_at: None,
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
