use super::*;

const SESSION: &str = "3f0c2a9e-6b1d-4c8e-9a57-2d4e8b1f6c03";

#[test]
fn a_text_turn_streamed_in_fragments() {
    let (events, outcome) = parse_output(TurnCli::Gemini, fixture!("gemini-stream-text.jsonl"));
    assert_eq!(texts(&events), ["FAKE-MODEL-RE", "PLY to: say hi"]);
    assert!(
        events
            .iter()
            .all(|e| !matches!(e, TurnEvent::Text { delta: false, .. }))
    );
    assert_eq!(
        outcome,
        TurnOutcome {
            text: "FAKE-MODEL-REPLY to: say hi".into(),
            engine_session_id: Some(SESSION.into()),
            usage: usage(10521, 22, 0),
            is_error: false,
            error: None,
        }
    );
    assert_eq!(
        events.first(),
        Some(&TurnEvent::Started {
            session_id: SESSION.into(),
            model: Some("auto".into())
        })
    );
}

#[test]
fn a_resumed_turn_continues_the_same_session() {
    let (_, outcome) = parse_output(TurnCli::Gemini, fixture!("gemini-stream-resume.jsonl"));
    assert_eq!(outcome.engine_session_id.as_deref(), Some(SESSION));
    assert_eq!(outcome.text, "FAKE-MODEL-REPLY to: again");
}

#[test]
fn an_exhausted_quota_is_a_usage_limit() {
    let (_, outcome) = parse_output(TurnCli::Gemini, fixture!("gemini-stream-quota-error.jsonl"));
    assert!(outcome.is_error);
    let Some(TurnError::UsageLimit { message, .. }) = &outcome.error else {
        panic!("not a usage limit: {:?}", outcome.error);
    };
    assert!(message.starts_with("[API Error: You have exhausted your daily quota"));
    let sighting = outcome
        .error
        .as_ref()
        .and_then(TurnError::limit_sighting)
        .unwrap();
    assert_eq!(sighting.reset, SightedReset::Unknown);
    assert_eq!(sighting.window.as_deref(), Some("daily"));
    assert_eq!(
        outcome.engine_session_id.as_deref(),
        Some("7d2b9c41-0e5a-4f63-8b1c-94a6e2d0f715")
    );
}

/// Hand-written, not captured: a tool call in the shape Gemini CLI 0.61.0's source emits
/// (`tool_use` / `tool_result`), with text before and after it.
pub(super) const TOOL_SAMPLE: &str = r#"{"type":"init","timestamp":"2026-11-30T10:00:00.000Z","session_id":"s-tool","model":"gemini-3.8-flash"}
{"type":"message","timestamp":"2026-11-30T10:00:00.001Z","role":"user","content":"list the agents"}
{"type":"message","timestamp":"2026-11-30T10:00:00.100Z","role":"assistant","content":"Let me look.","delta":true}
{"type":"tool_use","timestamp":"2026-11-30T10:00:00.200Z","tool_name":"idea_list_agents","tool_id":"idea_list_agents-1","parameters":{}}
{"type":"tool_result","timestamp":"2026-11-30T10:00:00.300Z","tool_id":"idea_list_agents-1","status":"success","output":"agents: alpha beta"}
{"type":"tool_use","timestamp":"2026-11-30T10:00:00.400Z","tool_name":"read_file","tool_id":"read_file-2","parameters":{"file_path":"missing.txt"}}
{"type":"tool_result","timestamp":"2026-11-30T10:00:00.500Z","tool_id":"read_file-2","status":"error","output":"","error":{"type":"FILE_NOT_FOUND","message":"File not found: missing.txt"}}
{"type":"error","timestamp":"2026-11-30T10:00:00.550Z","severity":"warning","message":"Agent execution blocked: nope"}
{"type":"message","timestamp":"2026-11-30T10:00:00.600Z","role":"assistant","content":"Agents: ","delta":true}
{"type":"message","timestamp":"2026-11-30T10:00:00.650Z","role":"assistant","content":"alpha, beta.","delta":true}
{"type":"result","timestamp":"2026-11-30T10:00:00.700Z","status":"success","stats":{"total_tokens":30,"input_tokens":20,"output_tokens":10,"cached":4,"input":16,"duration_ms":700,"tool_calls":2,"models":{}}}"#;

#[test]
fn a_tool_call_turn_from_a_hand_written_sample() {
    let (events, outcome) = parse_output(TurnCli::Gemini, TOOL_SAMPLE);
    assert!(events.contains(&TurnEvent::ToolCall {
        id: Some("idea_list_agents-1".into()),
        name: "idea_list_agents".into(),
        input: json!({}),
    }));
    assert!(events.contains(&TurnEvent::ToolResult {
        id: Some("idea_list_agents-1".into()),
        output: "agents: alpha beta".into(),
        is_error: false,
    }));
    assert!(events.contains(&TurnEvent::ToolResult {
        id: Some("read_file-2".into()),
        output: "File not found: missing.txt".into(),
        is_error: true,
    }));
    assert_eq!(outcome.text, "Agents: alpha, beta.");
    assert!(!outcome.is_error, "a warning does not fail the turn");
    assert_eq!(outcome.usage, usage(20, 10, 4));
}

#[test]
fn a_fatal_error_result() {
    let line = r#"{"type":"result","timestamp":"2026-11-30T10:00:00.000Z","status":"error","error":{"type":"FatalAuthenticationError","message":"Please set an Auth method"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0,"cached":0,"input":0,"duration_ms":0,"tool_calls":0,"models":{}}}"#;
    let (_, outcome) = parse_output(TurnCli::Gemini, line);
    assert_eq!(
        outcome.error,
        Some(TurnError::Cli {
            message: "Please set an Auth method".into()
        })
    );
}

#[test]
fn its_own_retries_and_capacity_errors_are_not_usage_limits() {
    for message in [
        "[API Error: Resource exhausted]\nSuggested retry after 60s.",
        "We are currently experiencing high demand.",
        "Attempt 1 failed: quota. Retrying after 6173ms...",
    ] {
        let line = json!({"type": "result", "status": "error", "error": {"type": "unknown", "message": message}});
        let (_, outcome) = parse_output(TurnCli::Gemini, &line.to_string());
        assert!(
            !matches!(outcome.error, Some(TurnError::UsageLimit { .. })),
            "{message}: {:?}",
            outcome.error
        );
    }
}
