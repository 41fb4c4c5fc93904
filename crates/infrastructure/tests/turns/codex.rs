use super::*;

const THREAD: &str = "01a229b7-3b3a-78f3-9e46-14e277b6f8a8";

#[test]
fn a_text_turn() {
    let (events, outcome) = parse_output(TurnCli::Codex, fixture!("codex-exec-text.jsonl"));
    assert_eq!(
        outcome,
        TurnOutcome {
            text: "Hi! This is the scripted stub answering \"say hi\".".into(),
            engine_session_id: Some(THREAD.into()),
            usage: usage(10, 5, 0),
            is_error: false,
            error: None,
        }
    );
    assert_eq!(
        events,
        [
            TurnEvent::Started {
                session_id: THREAD.into(),
                model: None
            },
            TurnEvent::Text {
                text: outcome.text.clone(),
                delta: false
            },
            TurnEvent::Usage {
                usage: outcome.usage.unwrap()
            },
            TurnEvent::Finished(outcome.clone()),
        ]
    );
}

#[test]
fn an_mcp_tool_call_turn() {
    let (events, outcome) = parse_output(TurnCli::Codex, fixture!("codex-exec-mcp-tool.jsonl"));
    let calls: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, TurnEvent::ToolCall { .. }))
        .collect();
    assert_eq!(
        calls,
        [&TurnEvent::ToolCall {
            id: Some("item_0".into()),
            name: "idea.idea_list_agents".into(),
            input: json!({}),
        }],
        "item.started and item.completed make one call"
    );
    assert!(events.contains(&TurnEvent::ToolResult {
        id: Some("item_0".into()),
        output: "agents: alpha(claude) beta(codex) gamma(gemini) [IDEA-AGENTS-OK]".into(),
        is_error: false,
    }));
    assert!(
        outcome
            .text
            .starts_with("The idea MCP server says: Wall time:")
    );
    assert!(!outcome.is_error);
}

#[test]
fn a_resumed_turn_continues_the_same_thread() {
    let (_, first) = parse_output(TurnCli::Codex, fixture!("codex-exec-text.jsonl"));
    let (_, again) = parse_output(TurnCli::Codex, fixture!("codex-exec-resume.jsonl"));
    assert_eq!(first.engine_session_id.as_deref(), Some(THREAD));
    assert_eq!(again.engine_session_id, first.engine_session_id);
    assert_eq!(
        again.text,
        "Hi again from the resumed thread. You said: \"again\"."
    );
    // Codex counts the whole thread.
    assert_eq!(again.usage, usage(20, 10, 0));
}

#[test]
fn a_transient_429_is_an_api_error_not_a_usage_limit() {
    let (events, outcome) = parse_output(TurnCli::Codex, fixture!("codex-exec-error.jsonl"));
    let message = "exceeded retry limit, last status: 429 Too Many Requests";
    assert_eq!(
        outcome,
        TurnOutcome {
            text: message.into(),
            engine_session_id: Some("01a229b7-40b1-7f12-b918-4ab098cba6b3".into()),
            usage: None,
            is_error: true,
            error: Some(TurnError::Api {
                status: Some(429),
                message: message.into()
            }),
        }
    );
    assert!(events.contains(&TurnEvent::Notice {
        message: message.into(),
        status: Some(429)
    }));
}

#[test]
fn a_usage_limit_with_its_reset_in_words() {
    // Codex CLI 0.171.0's `exec --json` on a plan limit (`docs/usage-limits.md`).
    let message = "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 7:49 PM.";
    let output = [
        json!({"type": "thread.started", "thread_id": "t-limit"}),
        json!({"type": "turn.started"}),
        json!({"type": "error", "message": message}),
        json!({"type": "turn.failed", "error": {"message": message}}),
    ]
    .map(|e| e.to_string())
    .join("\n");
    let (_, outcome) = parse_output(TurnCli::Codex, &output);
    assert_eq!(outcome.text, message);
    let Some(TurnError::UsageLimit {
        resets_at,
        reset_text,
        needs_user,
        message: said,
        ..
    }) = &outcome.error
    else {
        panic!("not a usage limit: {:?}", outcome.error);
    };
    assert_eq!((resets_at, reset_text.as_deref()), (&None, Some("7:49 PM")));
    assert!(!needs_user);
    assert!(said.starts_with("You've hit your usage limit."));
    let credits = json!({"type": "turn.failed", "error": {"message": "Your workspace is out of credits. Ask your workspace owner to refill in order to continue."}});
    let (_, outcome) = parse_output(TurnCli::Codex, &credits.to_string());
    assert!(matches!(
        outcome.error,
        Some(TurnError::UsageLimit {
            needs_user: true,
            ..
        })
    ));
    let capacity = json!({"type": "turn.failed", "error": {"message": "Selected model is at capacity. Please try a different model."}});
    let (_, outcome) = parse_output(TurnCli::Codex, &capacity.to_string());
    assert!(matches!(outcome.error, Some(TurnError::Api { .. })));
}

#[test]
fn reconnect_errors_do_not_end_the_turn() {
    // What Codex 0.171.0 prints while its API is unreachable (it keeps retrying).
    let mut parser = CodexTurnParser::new();
    parser.parse_line(r#"{"type":"thread.started","thread_id":"t1"}"#);
    let notice = parser.parse_line(r#"{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}"#);
    assert!(matches!(
        notice.as_slice(),
        [TurnEvent::Notice { status: None, .. }]
    ));
    let outcome = parser.finish();
    assert!(matches!(
        outcome.error,
        Some(TurnError::Api { status: None, .. })
    ));
    assert_eq!(outcome.engine_session_id.as_deref(), Some("t1"));
}
