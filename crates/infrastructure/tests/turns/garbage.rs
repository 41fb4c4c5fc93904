use super::gemini::TOOL_SAMPLE;
use super::*;

const CLIS: [TurnCli; 3] = [TurnCli::Claude, TurnCli::Codex, TurnCli::Gemini];

#[test]
fn lines_that_are_not_events_are_skipped() {
    let noisy = |text: &str| {
        let mut out = String::from("Warning: something on stdout\n{not json\n\n[1,2,3]\n");
        for line in text.lines() {
            out.push_str(line);
            out.push_str("\n\u{0}\u{1b}[31m garbage \u{fffd}\n{\"type\":\"unknown.event\"}\n");
        }
        out
    };
    for (cli, fixture) in [
        (TurnCli::Claude, fixture!("claude-print-text.jsonl")),
        (TurnCli::Codex, fixture!("codex-exec-text.jsonl")),
        (TurnCli::Gemini, fixture!("gemini-stream-text.jsonl")),
    ] {
        let (clean_events, clean) = parse_output(cli, fixture);
        let (events, outcome) = parse_output(cli, &noisy(fixture));
        assert_eq!(outcome, clean, "{cli:?}");
        assert_eq!(events, clean_events, "{cli:?}");
    }
}

#[test]
fn only_garbage_is_a_cli_error() {
    for cli in CLIS {
        let (events, outcome) = parse_output(cli, "Error: unknown option '--bogus'\nUsage: …\n");
        assert!(events.is_empty());
        assert!(outcome.is_error);
        assert!(
            matches!(outcome.error, Some(TurnError::Cli { .. })),
            "{cli:?}: {:?}",
            outcome.error
        );
    }
}

#[test]
fn nothing_at_all_is_no_answer() {
    for cli in CLIS {
        let (_, outcome) = parse_output(cli, "");
        assert_eq!(outcome.error, Some(TurnError::NoAnswer), "{cli:?}");
        assert!(outcome.is_error && outcome.engine_session_id.is_none());
    }
}

#[test]
fn truncated_and_odd_events_never_panic() {
    let odd = [
        r#"{"type":"assistant"}"#,
        r#"{"type":"assistant","message":{"content":"not an array"}}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use"}]}}"#,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","content":42}]}}"#,
        r#"{"type":"result","is_error":true}"#,
        r#"{"type":"result","usage":{"input_tokens":-1}}"#,
        r#"{"type":"system","subtype":"api_retry","error_status":99999}"#,
        r#"{"type":"item.completed","item":null}"#,
        r#"{"type":"item.completed","item":{"type":"mcp_tool_call"}}"#,
        r#"{"type":"turn.failed"}"#,
        r#"{"type":"turn.completed","usage":"x"}"#,
        r#"{"type":"thread.started","thread_id":7}"#,
        r#"{"type":"message","role":"assistant"}"#,
        r#"{"type":"tool_result","status":"error","error":"x"}"#,
        r#"{"type":"error","message":"(4"}"#,
        r#"{"type":"result","status":"error","error":{"message":"status: é"}}"#,
        r#"{"type":"init","session_id":null}"#,
        "{\"type\":\"x\",\"message\":\"\u{e9}(\"}",
    ];
    for cli in CLIS {
        let mut parser = AnyTurnParser::new(cli);
        for line in odd {
            parser.parse_line(line);
        }
        let outcome = parser.finish();
        assert!(outcome.is_error || outcome.error.is_none(), "{cli:?}");
    }
    // One parser per CLI can also be used directly.
    let mut claude = ClaudeTurnParser::new();
    assert!(claude.parse_line("not json").is_empty());
    assert!(matches!(claude.finish().error, Some(TurnError::Cli { .. })));
}

#[test]
fn every_truncation_of_every_captured_line_is_survived() {
    let all = [
        (TurnCli::Claude, fixture!("claude-api-error.jsonl")),
        (TurnCli::Claude, fixture!("claude-print-mcp-tool.jsonl")),
        (TurnCli::Codex, fixture!("codex-exec-mcp-tool.jsonl")),
        (TurnCli::Codex, fixture!("codex-exec-error.jsonl")),
        (TurnCli::Gemini, fixture!("gemini-stream-quota-error.jsonl")),
        (TurnCli::Gemini, TOOL_SAMPLE),
    ];
    for (cli, text) in all {
        for line in text.lines() {
            let mut parser = AnyTurnParser::new(cli);
            for (cut, _) in line.char_indices().step_by(7) {
                parser.parse_line(&line[..cut]);
            }
            parser.finish();
        }
    }
}
