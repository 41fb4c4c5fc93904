//! The OpenAI Responses API as the Codex CLI uses it: `POST /v1/responses`, always answered
//! with a server-sent-event stream (`response.created`, `response.output_item.added`,
//! `response.output_text.delta`, `response.output_item.done`, `response.completed` with
//! usage) carrying one assistant message, `reply_text` of the last user message.
//!
//! A request asking for structured output (`text.format` a JSON schema, as Codex's thread-title
//! request does) gets a JSON object of that schema instead of the plain reply.
//!
//! Any other path under `/v1/` (except the Anthropic `/v1/messages…`) is recorded too, with
//! `"<METHOD> <uri>"` as its path, and answered 404, so a test can see what else a CLI asked for.
//! Codex 0.171.0 with a custom provider calls nothing else (no `GET /v1/models`).

use super::{RequestLog, body_json, reply_text};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, post};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};

const API: &str = "openai";

/// Numbers the ids of the responses and messages this server makes up.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub fn router(log: RequestLog) -> Router {
    Router::new()
        // Any other method there (a WebSocket upgrade `GET`) is logged like an unknown route.
        .route("/v1/responses", post(responses).fallback(unknown))
        .route("/v1/{*rest}", any(unknown))
        .with_state(log)
}

async fn responses(State(log): State<RequestLog>, uri: Uri, body: Bytes) -> Response {
    let request = body_json(&body);
    log.record(API, uri.path(), &request);
    let last_user = last_user_text(&request);
    let text = match output_schema(&request) {
        Some(schema) => structured_reply(schema, &last_user),
        None => reply_text(&last_user),
    };
    let model = request
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("gpt-fake")
        .to_owned();
    let mut response = Response::new(Body::from(sse_stream(&model, &text)));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

async fn unknown(State(log): State<RequestLog>, method: Method, uri: Uri, body: Bytes) -> Response {
    // `/v1/messages…` is the Anthropic API, served (and logged) by its own router.
    if !uri.path().starts_with("/v1/messages") {
        let path = format!("{method} {uri}");
        log.record(API, &path, &body_json(&body));
    }
    let error = json!({"error": {"message": format!("fake-model: no route {}", uri.path()),
                                 "type": "invalid_request_error", "code": "unknown_url"}});
    (StatusCode::NOT_FOUND, axum::Json(error)).into_response()
}

/// The text of the last `role: "user"` message of `input` (a string `input` counts as one).
/// Codex also sends the instructions (AGENTS.md) and the environment context as user
/// messages, but before the prompt, so the last one is what the user typed.
fn last_user_text(request: &Value) -> String {
    match request.get("input") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .rev()
            .find(|item| {
                item.get("role").and_then(Value::as_str) == Some("user")
                    && item
                        .get("type")
                        .and_then(Value::as_str)
                        .unwrap_or("message")
                        == "message"
            })
            .map(message_text)
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The JSON schema the answer must follow (`text.format.type == "json_schema"`), as Codex
/// asks when it names a thread: `{"title": string, maxLength 36}`.
fn output_schema(request: &Value) -> Option<&Value> {
    let format = request.get("text")?.get("format")?;
    (format.get("type")?.as_str()? == "json_schema").then(|| format.get("schema"))?
}

/// A JSON object matching a flat object `schema`: each string property holds the reply
/// (cut to its `maxLength`). For Codex's thread-title request the reply is made from the
/// user's prompt, which that request quotes after `User prompt:`.
fn structured_reply(schema: &Value, last_user: &str) -> String {
    let prompt = last_user
        .rsplit_once("User prompt:")
        .map_or(last_user, |(_, prompt)| prompt)
        .trim();
    let text = reply_text(prompt);
    let mut object = serde_json::Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let value = match property.get("type").and_then(Value::as_str) {
                Some("string") => {
                    let max = property
                        .get("maxLength")
                        .and_then(Value::as_u64)
                        .and_then(|m| usize::try_from(m).ok())
                        .unwrap_or(usize::MAX);
                    Value::String(
                        text.chars()
                            .take(max)
                            .collect::<String>()
                            .trim_end()
                            .to_owned(),
                    )
                }
                Some("boolean") => Value::Bool(false),
                Some("integer" | "number") => json!(0),
                Some("array") => json!([]),
                _ => Value::Null,
            };
            object.insert(name.clone(), value);
        }
    }
    Value::Object(object).to_string()
}

fn message_text(item: &Value) -> String {
    match item.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The whole event stream of one response holding the assistant message `text`.
fn sse_stream(model: &str, text: &str) -> String {
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let response_id = format!("resp_fake{n:08}");
    let item_id = format!("msg_fake{n:08}");
    let created_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let input_tokens = 10;
    let output_tokens = u64::try_from(text.split_whitespace().count()).unwrap_or(0);
    let envelope = |status: &str, output: Value, usage: Value| {
        json!({
            "id": response_id, "object": "response", "created_at": created_at,
            "status": status, "model": model, "output": output, "usage": usage,
        })
    };
    let message = |status: &str, content: Value| {
        json!({"id": item_id, "type": "message", "role": "assistant",
               "status": status, "content": content})
    };
    let part = json!({"type": "output_text", "text": text, "annotations": []});
    let done_item = message("completed", json!([part]));
    let usage = json!({
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + output_tokens,
    });
    let events = [
        json!({"type": "response.created",
               "response": envelope("in_progress", json!([]), Value::Null)}),
        json!({"type": "response.in_progress",
               "response": envelope("in_progress", json!([]), Value::Null)}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": message("in_progress", json!([]))}),
        json!({"type": "response.content_part.added", "item_id": item_id, "output_index": 0,
               "content_index": 0,
               "part": {"type": "output_text", "text": "", "annotations": []}}),
        json!({"type": "response.output_text.delta", "item_id": item_id, "output_index": 0,
               "content_index": 0, "delta": text}),
        json!({"type": "response.output_text.done", "item_id": item_id, "output_index": 0,
               "content_index": 0, "text": text}),
        json!({"type": "response.content_part.done", "item_id": item_id, "output_index": 0,
               "content_index": 0, "part": part}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": done_item}),
        json!({"type": "response.completed",
               "response": envelope("completed", json!([done_item]), usage)}),
    ];
    let mut stream = String::new();
    for (sequence_number, mut event) in events.into_iter().enumerate() {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        if let Some(object) = event.as_object_mut() {
            object.insert("sequence_number".into(), json!(sequence_number));
        }
        stream.push_str(&format!("event: {kind}\ndata: {event}\n\n"));
    }
    stream
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_user_message_is_the_prompt() {
        let request = json!({"input": [
            {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "dev"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "# AGENTS.md"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "say hi"}]},
        ]});
        assert_eq!(last_user_text(&request), "say hi");
    }

    #[test]
    fn title_request_gets_a_short_json_title() {
        let request = json!({
            "input": [{"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Generate a title.\n\nUser prompt:\nsay hi"}]}],
            "text": {"format": {"type": "json_schema", "schema": {"type": "object",
                "properties": {"title": {"type": "string", "maxLength": 36}}}}},
        });
        let schema =
            output_schema(&request).map(|s| structured_reply(s, &last_user_text(&request)));
        assert_eq!(
            schema.as_deref(),
            Some(r#"{"title":"FAKE-MODEL-REPLY to: say hi"}"#)
        );
    }

    #[test]
    fn stream_ends_with_completed() {
        let stream = sse_stream("m", "hello there");
        assert!(stream.contains("event: response.output_text.delta\n"));
        assert!(
            stream
                .trim_end()
                .lines()
                .last()
                .is_some_and(|l| l.contains("response.completed"))
        );
    }
}
