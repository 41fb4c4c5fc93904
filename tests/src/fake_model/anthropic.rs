//! The Anthropic Messages API as Claude Code uses it: `POST /v1/messages` (Claude adds
//! `?beta=true`), streamed as server-sent events when the body says `"stream": true`, plain JSON
//! otherwise, and `POST /v1/messages/count_tokens`. A request whose `output_config.format` is a
//! JSON schema (Claude's session-title side request) gets its answer as JSON of that shape. Every
//! request, known or not, is recorded with the api `"anthropic"`; `HEAD /api/hello` (Claude's
//! connectivity check when non-essential traffic is allowed) answers 200, and any other path
//! under the prefixes Claude uses answers 404 with an Anthropic-shaped error.
//!
//! `please run: <command>` in the last user message is answered with a `tool_use` block of the
//! `Bash` tool (`{command, description}`, its input streamed as `input_json_delta` pieces, stop
//! reason `tool_use`); the next request, whose last message holds the `tool_result`, gets a text
//! quoting it (`tool_call`).
//!
//! `please call tool: <name> <json-object>` is answered with a `tool_use` of the offered tool
//! of that name, or whose name ends with it after a separator (`mcp__idea__run_tests` for
//! `run_tests`), the object as its `input`. Claude Code 2.1.332 defers MCP tools: `tools` holds
//! only a `DeferredToolPlaceholder`, and a system message lists their names after "The
//! following deferred tools are now available via ToolSearch". A deferred tool is first loaded
//! the way Claude asks for it, with a `ToolSearch` call of `{"query": "select:<name>"}`; the
//! request carrying that search's result gets the tool's call. When no tool matches, the
//! answer is a text naming the offered ones (`FAKE-MODEL-NO-TOOL: …`).

use super::{RequestLog, body_json, reply_text, tool_call};
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

/// The messages of a request, without the `system` ones Claude 2.1.332 puts among them.
fn conversation(body: &Value) -> Vec<&Value> {
    body.get("messages")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|m| m.get("role").and_then(Value::as_str) != Some("system"))
        .collect()
}

/// A `tool_result` in the last message, when it is the user's, and the name of the tool whose
/// `tool_use` (in the message before) it answers.
fn last_tool_result_block(body: &Value) -> Option<(&Value, Option<&str>)> {
    let messages = conversation(body);
    let (last, earlier) = messages.split_last()?;
    if last.get("role").and_then(Value::as_str) != Some("user") {
        return None;
    }
    let result = last
        .get("content")?
        .as_array()?
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))?;
    let id = result.get("tool_use_id");
    let tool = earlier
        .last()
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use") && b.get("id") == id)
        .and_then(|b| b.get("name"))
        .and_then(Value::as_str);
    Some((result, tool))
}

/// The last message when it is the user's and carries a `tool_result`: that result's text.
fn last_tool_result(body: &Value) -> Option<String> {
    let (result, _) = last_tool_result_block(body)?;
    Some(match result.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    })
}

/// The text of the last user message that carries no tool's result (Claude adds a text, "Tool
/// loaded.", to a `ToolSearch` result): the prompt a tool call answers.
fn last_prompt_text(body: &Value) -> String {
    let carries_result = |m: &Value| {
        m.get("content")
            .and_then(Value::as_array)
            .is_some_and(|blocks| {
                blocks
                    .iter()
                    .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            })
    };
    conversation(body)
        .iter()
        .rev()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .filter(|m| !carries_result(m))
        .map(|m| user_text(m))
        .find(|text| !text.trim().is_empty())
        .unwrap_or_default()
}

/// The tools the request offers with their schema (not the deferred placeholder).
fn loaded_tools(body: &Value) -> Vec<&str> {
    body.get("tools")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|t| t.get("defer_loading").and_then(Value::as_bool) != Some(true))
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect()
}

/// The line after which Claude lists the deferred tools, one name a line up to a blank line.
const DEFERRED_HEADER: &str = "deferred tools are now available via ToolSearch";

/// The names of the deferred tools listed in the request's messages or system prompt.
fn deferred_tools(body: &Value) -> Vec<&str> {
    fn collect<'a>(content: Option<&'a Value>, texts: &mut Vec<&'a str>) {
        match content {
            Some(Value::String(text)) => texts.push(text),
            Some(Value::Array(blocks)) => texts.extend(
                blocks
                    .iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str)),
            ),
            _ => {}
        }
    }
    let mut texts = Vec::new();
    collect(body.get("system"), &mut texts);
    for message in body
        .get("messages")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
    {
        collect(message.get("content"), &mut texts);
    }
    let mut names = Vec::new();
    for text in texts {
        for (_, after) in text
            .match_indices(DEFERRED_HEADER)
            .map(|(i, _)| text.split_at(i))
        {
            let listing = after.lines().skip(1).map(str::trim);
            for name in listing.take_while(|line| !line.is_empty()) {
                if !name.contains(char::is_whitespace) && !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// The answer to `please call tool: <name> {…}` in the last prompt of a request that offers
/// tools (a side request, offering none or asking for JSON of a schema, gets its usual answer): a `tool_use` of the loaded
/// tool it names; for a deferred one, the `ToolSearch` call that loads it (once: after a
/// search has answered, `after_search`, the tool is called by its name); else the text naming
/// the offered tools.
fn named_call(request: &Value, prompt: &str, after_search: bool) -> Option<Vec<Value>> {
    let wanted = tool_call::requested_tool_call(prompt)?;
    let loaded = loaded_tools(request);
    let structured = request.pointer("/output_config/format/type") == Some(&json!("json_schema"));
    if loaded.is_empty() || structured {
        return None;
    }
    let deferred = deferred_tools(request);
    let call = |name: &str, input: &Value| {
        vec![
            json!({"type": "text", "text": format!("I will call `{name}`.")}),
            json!({"type": "tool_use", "id": tool_call::call_id("toolu_"), "name": name,
                   "input": input}),
        ]
    };
    if let Some(name) = tool_call::offered_match(loaded.iter().copied(), &wanted.name) {
        return Some(call(name, &wanted.arguments));
    }
    if let Some(name) = tool_call::offered_match(deferred.iter().copied(), &wanted.name) {
        if after_search || !loaded.contains(&"ToolSearch") {
            return Some(call(name, &wanted.arguments));
        }
        return Some(call(
            "ToolSearch",
            &json!({"query": format!("select:{name}")}),
        ));
    }
    let offered = loaded.iter().chain(deferred.iter()).copied();
    Some(vec![json!({"type": "text",
                     "text": tool_call::no_tool_reply(&wanted.name, offered)})])
}

/// The content blocks of the answer: a tool result is acknowledged (that of a `ToolSearch`
/// made for `please call tool: …` gets the call of the tool it loaded), `please call tool: …`
/// becomes a call of the named tool, `please run: …` a call of the `Bash` tool (when the
/// request offers it), anything else gets the scripted text.
fn answer_blocks(request: &Value) -> Vec<Value> {
    if let Some((_, tool)) = last_tool_result_block(request) {
        if tool == Some("ToolSearch")
            && let Some(blocks) = named_call(request, &last_prompt_text(request), true)
        {
            return blocks;
        }
        let result = last_tool_result(request).unwrap_or_default();
        return vec![json!({"type": "text", "text": tool_call::result_reply(&result)})];
    }
    let last_user = last_user_text(request);
    if let Some(blocks) = named_call(request, &last_user, false) {
        return blocks;
    }
    let offers_bash = request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|tools| tools.iter().any(|t| t.get("name") == Some(&json!("Bash"))));
    if let (true, Some(run)) = (offers_bash, tool_call::requested_command(&last_user)) {
        let command = run.command;
        return vec![
            json!({"type": "text", "text": format!("I will run `{command}`.")}),
            json!({"type": "tool_use", "id": tool_call::call_id("toolu_"), "name": "Bash",
                   "input": {"command": command, "description": tool_call::description(&command)}}),
        ];
    }
    let reply = reply_text(&last_user);
    // Side requests (the session title) ask for JSON matching a schema: answer in that shape.
    let text = match request.pointer("/output_config/format") {
        Some(format) if format.get("type").and_then(Value::as_str) == Some("json_schema") => {
            fill_schema(format.get("schema").unwrap_or(&Value::Null), &reply).to_string()
        }
        _ => reply,
    };
    vec![json!({"type": "text", "text": text})]
}

async fn messages(State(log): State<RequestLog>, uri: Uri, body: Bytes) -> Response {
    let request = body_json(&body);
    log.record("anthropic", uri.path(), &request);
    let model = request
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("claude-fake")
        .to_owned();
    let blocks = answer_blocks(&request);
    let stop_reason = if blocks.iter().any(|b| b["type"] == "tool_use") {
        "tool_use"
    } else {
        "end_turn"
    };
    let input_tokens = rough_tokens(body.len());
    let output_tokens = rough_tokens(Value::Array(blocks.clone()).to_string().len());
    let id = fresh_id("msg_");
    let usage = json!({
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    });
    if request.get("stream").and_then(Value::as_bool) == Some(true) {
        stream_response(&id, &model, &blocks, stop_reason, input_tokens, &usage)
    } else {
        let message = json!({
            "id": id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": stop_reason,
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

/// The deltas of one content block, as the real API splits them: a text in runs of a few
/// words, a tool call's input as pieces of its JSON text.
fn block_deltas(block: &Value) -> Vec<Value> {
    if block["type"] == "tool_use" {
        let input = block["input"].to_string();
        let chars: Vec<char> = input.chars().collect();
        return chars
            .chunks(24)
            .map(|piece| json!({"type": "input_json_delta", "partial_json": piece.iter().collect::<String>()}))
            .collect();
    }
    let text = block["text"].as_str().unwrap_or_default();
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    words
        .chunks(4)
        .map(|chunk| json!({"type": "text_delta", "text": chunk.concat()}))
        .collect()
}

/// A block as `content_block_start` opens it: empty text, or the tool call with empty input.
fn opened_block(block: &Value) -> Value {
    let mut opened = block.clone();
    if let Some(object) = opened.as_object_mut() {
        if block["type"] == "tool_use" {
            object.insert("input".into(), json!({}));
        } else {
            object.insert("text".into(), json!(""));
        }
    }
    opened
}

/// The whole event stream of an answer, in the order the real API sends it.
fn stream_response(
    id: &str,
    model: &str,
    blocks: &[Value],
    stop_reason: &str,
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
    for (index, block) in blocks.iter().enumerate() {
        push_event(
            &mut out,
            "content_block_start",
            &json!({"type": "content_block_start", "index": index,
                    "content_block": opened_block(block)}),
        );
        if index == 0 {
            push_event(&mut out, "ping", &json!({"type": "ping"}));
        }
        for delta in block_deltas(block) {
            push_event(
                &mut out,
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": index, "delta": delta}),
            );
        }
        push_event(
            &mut out,
            "content_block_stop",
            &json!({"type": "content_block_stop", "index": index}),
        );
    }
    push_event(
        &mut out,
        "message_delta",
        &json!({"type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": null},
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn please_run_calls_bash_and_its_result_gets_text() {
        let ask = json!({"tools": [{"name": "Read"}, {"name": "Bash"}], "messages": [
            {"role": "user", "content": [{"type": "text", "text": "please run: touch proof.txt"}]},
        ]});
        let blocks = answer_blocks(&ask);
        assert_eq!(blocks[1]["type"], "tool_use");
        assert_eq!(blocks[1]["name"], "Bash");
        assert_eq!(blocks[1]["input"]["command"], "touch proof.txt");
        // Streamed as pieces of the input's JSON text that add up to it.
        let pieces: String = block_deltas(&blocks[1])
            .iter()
            .map(|d| d["partial_json"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(
            serde_json::from_str::<Value>(&pieces).ok(),
            Some(blocks[1]["input"].clone())
        );
        let id = blocks[1]["id"].clone();
        let ran = json!({"tools": [{"name": "Bash"}], "messages": [
            {"role": "user", "content": "please run: touch proof.txt"},
            {"role": "assistant", "content": blocks},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id,
                                          "content": "done"}]},
        ]});
        assert_eq!(
            answer_blocks(&ran),
            [json!({"type": "text", "text": "FAKE-MODEL-TOOL-DONE: done"})]
        );
        // Without the tool (a side request), the same message gets plain text.
        let side = json!({"messages": [{"role": "user", "content": "please run: ls"}]});
        assert_eq!(answer_blocks(&side)[0]["type"], "text");
    }

    #[test]
    fn please_call_tool_loads_a_deferred_mcp_tool_then_calls_it() {
        let deferred = "<system-reminder>\nThe following deferred tools are now available via \
            ToolSearch. Use ToolSearch with query \"select:<name>[,<name>...]\" to load tool \
            schemas before calling them:\nWebFetch\nmcp__idea__idea_list_agents\n\
            mcp__idea__run_tests\n\nAvailable agent types: …\n</system-reminder>";
        let prompt = json!({"role": "user", "content": [
            {"type": "text", "text": "please call tool: run_tests {\"filter\": \"unit\"}"}]});
        let tools = json!([{"name": "Bash"}, {"name": "ToolSearch"},
                           {"name": "DeferredToolPlaceholder", "defer_loading": true}]);
        let ask = json!({"tools": tools, "messages": [
            prompt, {"role": "system", "content": [{"type": "text", "text": deferred}]}]});
        assert_eq!(
            deferred_tools(&ask),
            [
                "WebFetch",
                "mcp__idea__idea_list_agents",
                "mcp__idea__run_tests"
            ]
        );
        // Deferred: loaded first, the way Claude asks for it.
        let search = answer_blocks(&ask);
        assert_eq!(search[1]["name"], "ToolSearch");
        assert_eq!(
            search[1]["input"],
            json!({"query": "select:mcp__idea__run_tests"})
        );
        // The search's result comes back (the tool now offered): the model calls it.
        let loaded = json!([{"name": "Bash"}, {"name": "ToolSearch"},
                            {"name": "mcp__idea__run_tests", "input_schema": {}}]);
        let searched = json!({"tools": loaded, "messages": [
            prompt, {"role": "system", "content": deferred},
            {"role": "assistant", "content": search},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": search[1]["id"],
                "content": [{"type": "tool_reference", "tool_name": "mcp__idea__run_tests"}]},
                {"type": "text", "text": "Tool loaded."}]}]});
        let call = answer_blocks(&searched);
        assert_eq!(call[1]["type"], "tool_use");
        assert_eq!(call[1]["name"], "mcp__idea__run_tests");
        assert_eq!(call[1]["input"], json!({"filter": "unit"}));
        // Its result is quoted.
        let ran = json!({"tools": loaded, "messages": [
            prompt, {"role": "assistant", "content": call},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call[1]["id"],
                "content": [{"type": "text", "text": "3 passed [RUN-TESTS-OK]"}]}]}]});
        assert_eq!(
            answer_blocks(&ran),
            [json!({"type": "text", "text": "FAKE-MODEL-TOOL-DONE: 3 passed [RUN-TESTS-OK]"})]
        );
        // Offered with its schema from the start: called at once.
        let direct = json!({"tools": loaded, "messages": [prompt]});
        assert_eq!(answer_blocks(&direct)[1]["name"], "mcp__idea__run_tests");
        // No such tool: a text naming the loaded and the deferred ones.
        let missing = json!({"tools": tools, "messages": [
            {"role": "user", "content": "please call tool: deploy {}"},
            {"role": "system", "content": deferred}]});
        assert_eq!(
            answer_blocks(&missing),
            [
                json!({"type": "text", "text": "FAKE-MODEL-NO-TOOL: deploy (offered: Bash, \
                ToolSearch, WebFetch, mcp__idea__idea_list_agents, mcp__idea__run_tests)"})
            ]
        );
        // A side request (no tools) gets its usual answer, one asking for JSON too.
        let side = json!({"messages": [prompt]});
        assert_eq!(
            answer_blocks(&side)[0]["text"],
            "FAKE-MODEL-REPLY to: please call tool: run_tests {\"filter\": \"unit\"}"
        );
        let title = json!({"tools": loaded, "messages": [prompt], "output_config": {"format": {
            "type": "json_schema", "schema": {"type": "object",
                "properties": {"title": {"type": "string"}}}}}});
        let text = answer_blocks(&title)[0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(text.starts_with(r#"{"title":"FAKE-MODEL-REPLY"#), "{text}");
    }
}
