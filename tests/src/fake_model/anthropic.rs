//! The Anthropic Messages API as Claude Code uses it: `POST /v1/messages` (Claude adds
//! `?beta=true`), streamed as server-sent events when the body says `"stream": true`, plain JSON
//! otherwise, and `POST /v1/messages/count_tokens`. A request whose `output_config.format` is a
//! JSON schema (Claude's session-title side request) gets its answer as JSON of that shape. Every
//! request, known or not, is recorded with the api `"anthropic"`; `HEAD /api/hello` (Claude's
//! connectivity check when non-essential traffic is allowed) answers 200, and any other path
//! under the prefixes Claude uses answers 404 with an Anthropic-shaped error.

use super::{RequestLog, body_json, reply_text};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, post};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

/// The routes of the Anthropic API. Only paths under `/v1/messages` and Claude Code's own
/// `/api/` prefix are claimed, since the OpenAI and Gemini routes share the router.
pub fn router(log: RequestLog) -> Router {
    Router::new()
        .route("/v1/messages", post(messages))
        .route("/v1/messages/count_tokens", post(count_tokens))
        .route("/v1/messages/{*rest}", any(unknown))
        // Claude's connectivity check (a HEAD) when non-essential traffic is allowed.
        .route("/api/hello", any(hello))
        .route("/api/{*rest}", any(unknown))
        .with_state(log)
}

/// A fresh id with the given prefix (`msg_`, `req_`), unique within this process.
fn fresh_id(prefix: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{prefix}fake_{nanos:08x}{n:06}")
}

/// The text of one user message: its string content, or the concatenation of its text blocks,
/// skipping the `<system-reminder>` blocks Claude adds (CLAUDE.md, context notes).
pub fn user_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .filter(|t| !t.trim_start().starts_with("<system-reminder>"))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// The text of the last user message of a Messages request.
pub fn last_user_text(body: &Value) -> String {
    body.get("messages")
        .and_then(Value::as_array)
        .and_then(|messages| {
            messages
                .iter()
                .rev()
                .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        })
        .map(user_text)
        .unwrap_or_default()
}

/// A value matching a JSON schema, every string in it being `text`.
fn fill_schema(schema: &Value, text: &str) -> Value {
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let fields = schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|props| {
                    props
                        .iter()
                        .map(|(name, sub)| (name.clone(), fill_schema(sub, text)))
                        .collect()
                })
                .unwrap_or_default();
            Value::Object(fields)
        }
        Some("array") => json!([]),
        Some("boolean") => json!(false),
        Some("integer" | "number") => json!(0),
        Some("null") => Value::Null,
        _ => Value::String(text.to_owned()),
    }
}

/// A rough token count (four bytes a token), enough for Claude's context meter.
fn rough_tokens(text_len: usize) -> u64 {
    u64::try_from(text_len / 4).unwrap_or(u64::MAX).max(1)
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    let mut response = (status, axum::Json(value.clone())).into_response();
    if let Ok(id) = fresh_id("req_").parse() {
        response.headers_mut().insert("request-id", id);
    }
    response
}

async fn messages(State(log): State<RequestLog>, uri: Uri, body: Bytes) -> Response {
    let request = body_json(&body);
    log.record("anthropic", uri.path(), &request);
    let model = request
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("claude-fake")
        .to_owned();
    let reply = reply_text(&last_user_text(&request));
    // Side requests (the session title) ask for JSON matching a schema: answer in that shape.
    let text = match request.pointer("/output_config/format") {
        Some(format) if format.get("type").and_then(Value::as_str) == Some("json_schema") => {
            fill_schema(format.get("schema").unwrap_or(&Value::Null), &reply).to_string()
        }
        _ => reply,
    };
    let input_tokens = rough_tokens(body.len());
    let output_tokens = rough_tokens(text.len());
    let id = fresh_id("msg_");
    let usage = json!({
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    });
    if request.get("stream").and_then(Value::as_bool) == Some(true) {
        stream_response(&id, &model, &text, input_tokens, &usage)
    } else {
        let message = json!({
            "id": id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": usage,
        });
        json_response(StatusCode::OK, &message)
    }
}

/// One server-sent event.
fn push_event(out: &mut String, event: &str, data: &Value) {
    let _ = write!(out, "event: {event}\ndata: {data}\n\n");
}

/// The whole event stream of a one-text-block answer, in the order the real API sends it.
fn stream_response(
    id: &str,
    model: &str,
    text: &str,
    input_tokens: u64,
    usage: &Value,
) -> Response {
    let mut out = String::new();
    push_event(
        &mut out,
        "message_start",
        &json!({"type": "message_start", "message": {
            "id": id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": null,
            "stop_sequence": null,
            "usage": {"input_tokens": input_tokens, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }}),
    );
    push_event(
        &mut out,
        "content_block_start",
        &json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}),
    );
    push_event(&mut out, "ping", &json!({"type": "ping"}));
    // A few deltas, as the real API splits its text.
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    for chunk in words.chunks(4) {
        push_event(
            &mut out,
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": chunk.concat()}}),
        );
    }
    push_event(
        &mut out,
        "content_block_stop",
        &json!({"type": "content_block_stop", "index": 0}),
    );
    push_event(
        &mut out,
        "message_delta",
        &json!({"type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                "usage": usage}),
    );
    push_event(&mut out, "message_stop", &json!({"type": "message_stop"}));
    let mut response = Response::new(Body::from(out));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    if let Ok(req_id) = fresh_id("req_").parse() {
        headers.insert("request-id", req_id);
    }
    response
}

async fn count_tokens(State(log): State<RequestLog>, uri: Uri, body: Bytes) -> Response {
    let request = body_json(&body);
    log.record("anthropic", uri.path(), &request);
    json_response(
        StatusCode::OK,
        &json!({"input_tokens": rough_tokens(body.len())}),
    )
}

async fn hello(State(log): State<RequestLog>, uri: Uri) -> Response {
    log.record("anthropic", uri.path(), &Value::Null);
    json_response(StatusCode::OK, &json!({"message": "hello"}))
}

/// Any other call under the Anthropic prefixes: recorded, then refused the way the API refuses.
async fn unknown(State(log): State<RequestLog>, uri: Uri, body: Bytes) -> Response {
    log.record("anthropic", uri.path(), &body_json(&body));
    json_response(
        StatusCode::NOT_FOUND,
        &json!({"type": "error",
                "error": {"type": "not_found_error", "message": format!("Not found: {}", uri.path())}}),
    )
}
