//! What a call's params may be: an object, by name, for every method (absent or `null` for a
//! method that takes none), and terminal sizes within `TerminalSize`'s bound (issue 17).

use idea_api::{DecodeError, Request, StreamRequest, all_methods, is_stream_method};
use idea_domain::terminal::TerminalSize;
use serde_json::{Value, json};

/// Decodes a call the way the transports do: stream methods as [`StreamRequest`]s.
fn decode(method: &str, params: Option<Value>) -> Result<(), DecodeError> {
    if is_stream_method(method) {
        StreamRequest::decode(method, params).map(drop)
    } else {
        Request::decode(method, params).map(drop)
    }
}

fn bad_params_reason(method: &str, params: Value) -> String {
    match decode(method, Some(params.clone())) {
        Err(DecodeError::BadParams { reason, .. }) => reason,
        other => panic!("{method} with params {params}: {other:?}"),
    }
}

#[test]
fn params_that_are_not_an_object_are_refused_by_every_method() {
    let nil = "00000000-0000-0000-0000-000000000000";
    for method in all_methods() {
        for params in [
            json!([]),
            json!([nil, nil]),
            json!("x"),
            json!(7),
            json!(true),
        ] {
            let reason = bad_params_reason(method.name, params);
            assert!(reason.contains("by name"), "{}: {reason}", method.name);
        }
    }
}

#[test]
fn a_positional_create_agent_is_refused() {
    // It used to create the agent: serde reads a struct from an array too.
    let reason = bad_params_reason("createAgent", json!(["Ada", "shell"]));
    assert!(reason.contains("by name"), "{reason}");
    assert!(matches!(
        Request::decode(
            "createAgent",
            Some(json!({"name": "Ada", "profileId": "shell"}))
        ),
        Ok(Request::CreateAgent(_))
    ));
}

/// Valid params of every method that takes a terminal size, at `rows` × `cols`.
fn sized_calls(rows: u64, cols: u64) -> Vec<(&'static str, Value)> {
    let nil = "00000000-0000-0000-0000-000000000000";
    let size = json!({"rows": rows, "cols": cols});
    vec![
        (
            "openShell",
            json!({"layoutId": nil, "nodeId": nil, "rows": rows, "cols": cols}),
        ),
        (
            "launchAgent",
            json!({"layoutId": nil, "nodeId": nil, "agentId": nil, "rows": rows, "cols": cols}),
        ),
        (
            "restartSession",
            json!({"sessionId": nil, "rows": rows, "cols": cols}),
        ),
        (
            "resizeTerminal",
            json!({"sessionId": nil, "rows": rows, "cols": cols}),
        ),
        ("attachTerminal", json!({"sessionId": nil, "size": size})),
    ]
}

#[test]
fn every_terminal_size_a_call_carries_is_bounded() {
    let (min, max) = (TerminalSize::MIN, TerminalSize::MAX);
    let bound = format!(
        "{} to {} rows and {} to {} columns",
        min.rows, max.rows, min.cols, max.cols
    );
    let (min_rows, min_cols) = (u64::from(min.rows), u64::from(min.cols));
    let (max_rows, max_cols) = (u64::from(max.rows), u64::from(max.cols));
    for (rows, cols) in [
        (65535, 65535),
        (70_000, 80),
        (max_rows + 1, max_cols),
        (max_rows, max_cols + 1),
        (min_rows - 1, min_cols),
        (min_rows, min_cols - 1),
    ] {
        for (method, params) in sized_calls(rows, cols) {
            let reason = bad_params_reason(method, params);
            assert!(reason.contains(&bound), "{method} {rows}×{cols}: {reason}");
        }
    }
    for (rows, cols) in [(min_rows, min_cols), (max_rows, max_cols)] {
        for (method, params) in sized_calls(rows, cols) {
            assert_eq!(decode(method, Some(params)), Ok(()), "{method}");
        }
    }
}
