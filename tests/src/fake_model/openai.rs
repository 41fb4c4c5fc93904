//! The OpenAI Responses API as the Codex CLI uses it: `POST /v1/responses`, always answered
//! with a server-sent-event stream (`response.created`, `response.output_item.added`,
//! `response.output_text.delta`, `response.output_item.done`, `response.completed` with
//! usage) carrying one assistant message, `reply_text` of the last user message (or a tool
//! call, below).
//!
//! A request asking for structured output (`text.format` a JSON schema, as Codex's thread-title
//! request does) gets a JSON object of that schema instead of the plain reply.
//!
//! Any other path under `/v1/` (except the Anthropic `/v1/messages…`) is recorded too, with
//! `"<METHOD> <uri>"` as its path, and answered 404, so a test can see what else a CLI asked for.
//! Codex 0.171.0 with a custom provider calls nothing else (no `GET /v1/models`).
//!
//! `please run: <command>` in the last user message is answered with a `function_call` item of
//! the request's shell tool (`response.function_call_arguments.delta`/`.done`, then
//! `response.output_item.done`, which is where Codex takes the call from); the next request,
//! whose last input item is the `function_call_output`, gets a message quoting it.
//!
//! `please call tool: <name> <json-object>` is answered with a `function_call` of the offered
//! tool of that name, or whose name ends with it after a separator, with the object as its
//! `arguments` (`tool_call::offered_match`). Codex 0.171.0 does not list MCP tools in `tools`:
//! it offers a client-executed `tool_search` tool instead, so the model first answers with a
//! `tool_search_call` (`{query: <name>}`); Codex answers with a `tool_search_output` whose
//! `tools` hold a `{type: "namespace", name: "mcp__idea", tools: [{type: "function", name:
//! "run_tests", …}]}`, and the model then calls `run_tests` with `namespace: "mcp__idea"` (the
//! offered name being `mcp__idea__run_tests`). When nothing matches, the answer is a message
//! naming what was offered (`FAKE-MODEL-NO-TOOL: …`).
//!
//! `hit usage limit in <N>s` in the last user message is answered as OpenAI answers an account
//! past its plan's limit: status 429, `{"error": {"type": "usage_limit_reached", "resets_at":
//! <now + N>}}`. Codex 0.171.0 then says "You’ve hit your usage limit. … try again at <time>."
//! (with an API key too), and the next request (the user's, or IdeA's nudge) is answered.

use super::{RequestLog, body_json, reply_text, tool_call};
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
    if let Some(ahead) = usage_limit_ahead(&last_user_text(&request)) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let body = json!({"error": {
            "type": "usage_limit_reached",
            "message": "The usage limit has been reached",
            "plan_type": "plus",
            "resets_at": now + ahead,
        }});
        return (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
    }
    let model = request
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("gpt-fake")
        .to_owned();
    let mut response = Response::new(Body::from(sse_stream(&model, &answer_items(&request))));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// One output item of a response.
#[derive(Debug, Clone, PartialEq)]
enum Item {
    /// An assistant message.
    Message(String),
    /// A call of a function tool; `arguments` is JSON text. A tool offered inside a namespace
    /// (Codex's MCP tools) is called by its own name with the namespace's.
    FunctionCall {
        name: String,
        namespace: Option<String>,
        arguments: String,
    },
    /// A call of Codex's client-executed `tool_search`; `arguments` is a JSON object.
    ToolSearchCall { arguments: Value },
}

/// What the model answers: a tool's output is acknowledged, `please call tool: …` becomes a
/// call of the named tool (after a tool search when it is not offered yet), `please run: …` a
/// call of the request's shell tool, anything else the scripted text (or structured output).
fn answer_items(request: &Value) -> Vec<Item> {
    if let Some(output) = last_function_output(request) {
        return vec![Item::Message(tool_call::result_reply(&output))];
    }
    let last_user = last_user_text(request);
    if let Some(item) =
        tool_call::requested_tool_call(&last_user).and_then(|wanted| named_call(request, &wanted))
    {
        return vec![item];
    }
    if let Some(call) =
        tool_call::requested_command(&last_user).and_then(|run| shell_call(request, &run))
    {
        return vec![call];
    }
    vec![Item::Message(match output_schema(request) {
        Some(schema) => structured_reply(schema, &last_user),
        None => reply_text(&last_user),
    })]
}

/// A function tool the model can call: the name it is offered under (namespaced tools as
/// `<namespace>__<name>`, the way Codex names MCP tools), and how a call names it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Offered {
    offered: String,
    name: String,
    namespace: Option<String>,
}

/// The function tools in a list of tools (`tools` of a request or of a `tool_search_output`),
/// those inside a `namespace` tool included.
fn function_tools(tools: &[Value], namespace: Option<&str>, out: &mut Vec<Offered>) {
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        match tool.get("type").and_then(Value::as_str) {
            Some("namespace") => {
                let inner = tool.get("tools").and_then(Value::as_array);
                function_tools(inner.map_or(&[][..], Vec::as_slice), Some(name), out);
            }
            Some("function") | None => {
                let offered = match namespace {
                    Some(space) if space.ends_with(['_', '.', '/']) => format!("{space}{name}"),
                    Some(space) => format!("{space}__{name}"),
                    None => name.to_owned(),
                };
                out.push(Offered {
                    offered,
                    name: name.to_owned(),
                    namespace: namespace.map(str::to_owned),
                });
            }
            Some(_) => {}
        }
    }
}

/// The function tools the model can call: the request's, then those earlier tool searches
/// found (in the `tool_search_output` items of `input`).
fn offered_functions(request: &Value) -> Vec<Offered> {
    let mut out = Vec::new();
    let tools = request.get("tools").and_then(Value::as_array);
    function_tools(tools.map_or(&[][..], Vec::as_slice), None, &mut out);
    let input = request.get("input").and_then(Value::as_array);
    for item in input.map_or(&[][..], Vec::as_slice) {
        if item.get("type").and_then(Value::as_str) == Some("tool_search_output") {
            let found = item.get("tools").and_then(Value::as_array);
            function_tools(found.map_or(&[][..], Vec::as_slice), None, &mut out);
        }
    }
    out
}

/// The answer to `please call tool: <name> {…}` in a request that offers tools (a side
/// request, offering none or asking for structured output, gets its usual answer): the call of the matching function; else,
/// when the request offers `tool_search` and no search has answered yet, a search for the
/// name; else a message naming the offered functions.
fn named_call(request: &Value, wanted: &tool_call::ToolCallRequest) -> Option<Item> {
    let tools = request.get("tools").and_then(Value::as_array)?;
    if tools.is_empty() || output_schema(request).is_some() {
        return None;
    }
    let offered = offered_functions(request);
    let names = || offered.iter().map(|o| o.offered.as_str());
    if let Some(matched) = tool_call::offered_match(names(), &wanted.name) {
        let tool = offered.iter().find(|o| o.offered == matched)?;
        return Some(Item::FunctionCall {
            name: tool.name.clone(),
            namespace: tool.namespace.clone(),
            arguments: wanted.arguments.to_string(),
        });
    }
    let searched = request
        .get("input")
        .and_then(Value::as_array)
        .and_then(|input| input.last())
        .and_then(|last| last.get("type"))
        .and_then(Value::as_str)
        == Some("tool_search_output");
    let searchable = tools
        .iter()
        .any(|t| t.get("type").and_then(Value::as_str) == Some("tool_search"));
    if searchable && !searched {
        return Some(Item::ToolSearchCall {
            arguments: json!({"query": search_query(&wanted.name), "limit": 8}),
        });
    }
    Some(Item::Message(tool_call::no_tool_reply(
        &wanted.name,
        names(),
    )))
}

/// What to search for a tool by: its own name, without a server prefix (`mcp__idea__run_tests`,
/// `idea.run_tests` → `run_tests`), since Codex 0.171.0's search finds nothing for a prefixed
/// name.
fn search_query(wanted: &str) -> &str {
    ["__", ".", "/"]
        .iter()
        .filter_map(|separator| wanted.rfind(separator).map(|i| i + separator.len()))
        .max()
        .map_or(wanted, |start| &wanted[start..])
}

/// The output of the last input item when it is a `function_call_output` (the request after a
/// tool ran); a string, or content parts whose texts are joined. Codex 0.171.0 sends an MCP
/// tool's result as parts, the first its own `Wall time: … seconds\nOutput:`, which is left
/// out, so the quote starts with what the tool said.
fn last_function_output(request: &Value) -> Option<String> {
    let last = request.get("input")?.as_array()?.last()?;
    if last.get("type").and_then(Value::as_str) != Some("function_call_output") {
        return None;
    }
    Some(match last.get("output") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => {
            let mut texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            let header = |text: &str| {
                let text = text.trim();
                text.starts_with("Wall time:") && text.ends_with("Output:")
            };
            if texts.len() > 1 && texts.first().is_some_and(|t| header(t)) {
                texts.remove(0);
            }
            texts.join("\n")
        }
        Some(other) => other.to_string(),
        None => String::new(),
    })
}

/// The call of the request's shell tool running `command`, its arguments shaped by the tool's
/// own parameters: Codex 0.171.0 offers `exec_command` (`cmd`, a string); older ones offered
/// `shell` (`command`, an argv) or `shell_command` (`command`, a string). Unsandboxed, the call
/// asks for `sandbox_permissions: "require_escalated"` with a `justification` (the question
/// Codex's approval prompt shows).
fn shell_call(request: &Value, run: &tool_call::RunRequest) -> Option<Item> {
    let command = run.command.as_str();
    let tools = request.get("tools")?.as_array()?;
    let tool = ["exec_command", "shell_command", "shell"]
        .iter()
        .find_map(|name| tools.iter().find(|t| t.get("name") == Some(&json!(name))))?;
    let name = tool.get("name")?.as_str()?.to_owned();
    let params = tool.pointer("/parameters/properties")?;
    let mut arguments = serde_json::Map::new();
    if params.get("cmd").is_some() {
        arguments.insert("cmd".into(), json!(command));
    } else if params.pointer("/command/type") == Some(&json!("array")) {
        arguments.insert("command".into(), json!(["bash", "-lc", command]));
    } else {
        arguments.insert("command".into(), json!(command));
    }
    if run.unsandboxed && params.get("sandbox_permissions").is_some() {
        arguments.insert("sandbox_permissions".into(), json!("require_escalated"));
        arguments.insert(
            "justification".into(),
            json!(tool_call::description(command)),
        );
    }
    Some(Item::FunctionCall {
        name,
        namespace: None,
        arguments: Value::Object(arguments).to_string(),
    })
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

/// `hit usage limit in <N>s` → N.
fn usage_limit_ahead(last_user: &str) -> Option<u64> {
    let rest = last_user.split("hit usage limit in ").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    rest[digits.len()..]
        .starts_with('s')
        .then(|| digits.parse().ok())?
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

/// The events of one output item at `index`, from `output_item.added` to `output_item.done`;
/// returns them with the finished item.
fn item_events(item: &Item, index: usize, n: u64) -> (Vec<Value>, Value) {
    match item {
        Item::Message(text) => {
            let item_id = format!("msg_fake{n:08}_{index}");
            let message = |status: &str, content: Value| {
                json!({"id": item_id, "type": "message", "role": "assistant",
                       "status": status, "content": content})
            };
            let part = json!({"type": "output_text", "text": text, "annotations": []});
            let done = message("completed", json!([part]));
            let at = |kind: &str| json!({"type": kind, "item_id": item_id, "output_index": index, "content_index": 0});
            let with = |mut event: Value, key: &str, value: Value| {
                if let Some(object) = event.as_object_mut() {
                    object.insert(key.into(), value);
                }
                event
            };
            let events = vec![
                json!({"type": "response.output_item.added", "output_index": index,
                       "item": message("in_progress", json!([]))}),
                with(
                    at("response.content_part.added"),
                    "part",
                    json!({"type": "output_text", "text": "", "annotations": []}),
                ),
                with(at("response.output_text.delta"), "delta", json!(text)),
                with(at("response.output_text.done"), "text", json!(text)),
                with(at("response.content_part.done"), "part", part),
                json!({"type": "response.output_item.done", "output_index": index, "item": done}),
            ];
            (events, done)
        }
        Item::FunctionCall {
            name,
            namespace,
            arguments,
        } => {
            let item_id = format!("fc_fake{n:08}_{index}");
            let call = |status: &str, arguments: &str| {
                let mut call = json!({"id": item_id, "type": "function_call", "status": status,
                       "call_id": tool_call::call_id("call_"), "name": name,
                       "arguments": arguments});
                if let (Some(space), Some(object)) = (namespace, call.as_object_mut()) {
                    object.insert("namespace".into(), json!(space));
                }
                call
            };
            let added = call("in_progress", "");
            let mut done = call("completed", arguments);
            // One call id for the item from start to end.
            if let (Some(object), Some(id)) = (done.as_object_mut(), added.get("call_id")) {
                object.insert("call_id".into(), id.clone());
            }
            let events = vec![
                json!({"type": "response.output_item.added", "output_index": index, "item": added}),
                json!({"type": "response.function_call_arguments.delta", "item_id": item_id,
                       "output_index": index, "delta": arguments}),
                json!({"type": "response.function_call_arguments.done", "item_id": item_id,
                       "output_index": index, "arguments": arguments}),
                json!({"type": "response.output_item.done", "output_index": index, "item": done}),
            ];
            (events, done)
        }
        Item::ToolSearchCall { arguments } => {
            let item_id = format!("ts_fake{n:08}_{index}");
            let call_id = tool_call::call_id("call_");
            let call = |status: &str| {
                json!({"id": item_id, "type": "tool_search_call", "status": status,
                       "call_id": call_id, "execution": "client", "arguments": arguments})
            };
            let done = call("completed");
            let events = vec![
                json!({"type": "response.output_item.added", "output_index": index,
                       "item": call("in_progress")}),
                json!({"type": "response.output_item.done", "output_index": index, "item": done}),
            ];
            (events, done)
        }
    }
}

/// The whole event stream of one response holding `items`.
fn sse_stream(model: &str, items: &[Item]) -> String {
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let response_id = format!("resp_fake{n:08}");
    let created_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let input_tokens = 10;
    let output_tokens: u64 = items
        .iter()
        .map(|item| match item {
            Item::Message(text) => text.split_whitespace().count(),
            Item::FunctionCall { arguments, .. } => arguments.len() / 4 + 1,
            Item::ToolSearchCall { arguments } => arguments.to_string().len() / 4 + 1,
        })
        .map(|n| u64::try_from(n).unwrap_or(0))
        .sum();
    let envelope = |status: &str, output: Value, usage: Value| {
        json!({
            "id": response_id, "object": "response", "created_at": created_at,
            "status": status, "model": model, "output": output, "usage": usage,
        })
    };
    let usage = json!({
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input_tokens + output_tokens,
    });
    let mut events = vec![
        json!({"type": "response.created",
               "response": envelope("in_progress", json!([]), Value::Null)}),
        json!({"type": "response.in_progress",
               "response": envelope("in_progress", json!([]), Value::Null)}),
    ];
    let mut output = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let (item_events, done) = item_events(item, index, n);
        events.extend(item_events);
        output.push(done);
    }
    events.push(json!({"type": "response.completed",
                       "response": envelope("completed", Value::Array(output), usage)}));
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
    fn a_usage_limit_is_asked_for_in_seconds() {
        assert_eq!(
            usage_limit_ahead("work, then hit usage limit in 5s please"),
            Some(5)
        );
        assert_eq!(usage_limit_ahead("hit usage limit in 5 seconds"), None);
        assert_eq!(usage_limit_ahead("nothing"), None);
    }

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
        let stream = sse_stream("m", &[Item::Message("hello there".into())]);
        assert!(stream.contains("event: response.output_text.delta\n"));
        assert!(
            stream
                .trim_end()
                .lines()
                .last()
                .is_some_and(|l| l.contains("response.completed"))
        );
    }

    #[test]
    fn please_run_calls_the_offered_shell_tool_and_its_output_gets_a_message() {
        let exec = json!({"type": "function", "name": "exec_command", "parameters": {
            "properties": {"cmd": {"type": "string"}, "justification": {"type": "string"},
                           "sandbox_permissions": {"type": "string"}}}});
        let ask = json!({"tools": [exec], "input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "please run: touch proof.txt"}]}]});
        let items = answer_items(&ask);
        let Some(Item::FunctionCall {
            name, arguments, ..
        }) = items.first()
        else {
            panic!("no call: {items:?}");
        };
        assert_eq!(name, "exec_command");
        let arguments: Value = serde_json::from_str(arguments).unwrap_or_default();
        assert_eq!(arguments["cmd"], "touch proof.txt");
        assert_eq!(arguments.get("sandbox_permissions"), None);
        let escalated = json!({"tools": ask["tools"], "input": [{"type": "message",
            "role": "user", "content": "please run unsandboxed: touch proof.txt"}]});
        let Some(Item::FunctionCall { arguments, .. }) = answer_items(&escalated).pop() else {
            panic!("no call");
        };
        let arguments: Value = serde_json::from_str(&arguments).unwrap_or_default();
        assert_eq!(arguments["sandbox_permissions"], "require_escalated");
        assert!(arguments["justification"].is_string());
        let stream = sse_stream("m", &items);
        assert!(stream.contains("event: response.function_call_arguments.done\n"));
        let shell = json!({"type": "function", "name": "shell", "parameters": {
            "properties": {"command": {"type": "array"}}}});
        let ls = tool_call::RunRequest {
            command: "ls".into(),
            unsandboxed: true,
        };
        let Some(Item::FunctionCall { arguments, .. }) =
            shell_call(&json!({"tools": [shell]}), &ls)
        else {
            panic!("no call");
        };
        // A tool without `sandbox_permissions` cannot ask to leave the sandbox.
        assert_eq!(arguments, r#"{"command":["bash","-lc","ls"]}"#);
        let ran = json!({"input": [
            {"type": "message", "role": "user", "content": "please run: touch proof.txt"},
            {"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "exit 0"}]});
        assert_eq!(
            answer_items(&ran),
            [Item::Message("FAKE-MODEL-TOOL-DONE: exit 0".into())]
        );
    }

    #[test]
    fn please_call_tool_searches_for_a_deferred_mcp_tool_then_calls_it_in_its_namespace() {
        let tools = json!([
            {"type": "function", "name": "exec_command", "parameters": {}},
            {"type": "tool_search", "execution": "client", "parameters": {}},
        ]);
        let prompt = json!({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "please call tool: run_tests {\"filter\": \"unit\"}"}]});
        // Not offered yet: the model searches for it.
        let ask = json!({"tools": tools, "input": [prompt]});
        let items = answer_items(&ask);
        assert_eq!(
            items,
            [Item::ToolSearchCall {
                arguments: json!({"query": "run_tests", "limit": 8})
            }]
        );
        let stream = sse_stream("m", &items);
        assert!(stream.contains(r#""type":"tool_search_call""#));
        assert!(stream.contains(r#""execution":"client""#));
        // The search found it in the `mcp__idea` namespace: the model calls it there.
        let found = json!({"type": "tool_search_output", "call_id": "s1", "status": "completed",
            "execution": "client", "tools": [{"type": "namespace", "name": "mcp__idea",
                "description": "idea", "tools": [
                    {"type": "function", "name": "idea_list_agents", "parameters": {}},
                    {"type": "function", "name": "run_tests", "parameters": {}}]}]});
        let search = json!({"type": "tool_search_call", "call_id": "s1", "execution": "client",
                            "arguments": {"query": "run_tests"}});
        let searched = json!({"tools": tools, "input": [prompt, search, found]});
        let items = answer_items(&searched);
        assert_eq!(
            items,
            [Item::FunctionCall {
                name: "run_tests".into(),
                namespace: Some("mcp__idea".into()),
                arguments: r#"{"filter":"unit"}"#.into(),
            }]
        );
        let stream = sse_stream("m", &items);
        assert!(stream.contains(r#""namespace":"mcp__idea""#), "{stream}");
        assert_eq!(search_query("mcp__idea__run_tests"), "run_tests");
        assert_eq!(search_query("idea.run_tests"), "run_tests");
        assert_eq!(search_query("idea__idea_list_agents"), "idea_list_agents");
        assert_eq!(search_query("run_tests"), "run_tests");
        // Every prefixed form of the name finds it once found.
        for wanted in ["mcp__idea__run_tests", "idea__run_tests", "idea.run_tests"] {
            let request = tool_call::ToolCallRequest {
                name: wanted.into(),
                arguments: json!({}),
            };
            assert!(
                matches!(named_call(&searched, &request), Some(Item::FunctionCall { name, .. }) if name == "run_tests"),
                "{wanted}"
            );
        }
        // A tool offered directly, with a prefixed name, is called without a search.
        let direct = json!({"tools": [{"type": "function", "name": "mcp__idea__run_tests"}],
                            "input": [prompt]});
        assert!(matches!(answer_items(&direct).as_slice(),
            [Item::FunctionCall { name, namespace: None, .. }] if name == "mcp__idea__run_tests"));
        // A name the search did not find: a message naming what was offered, no second search.
        let missing = json!({"tools": tools, "input": [
            {"type": "message", "role": "user", "content": "please call tool: deploy"},
            search, found]});
        assert_eq!(
            answer_items(&missing),
            [Item::Message(
                "FAKE-MODEL-NO-TOOL: deploy (offered: exec_command, \
                 mcp__idea__idea_list_agents, mcp__idea__run_tests)"
                    .into()
            )]
        );
        // The call's output (MCP content as Codex sends it) is quoted.
        let ran = json!({"tools": tools, "input": [prompt, search, found,
            {"type": "function_call", "call_id": "c1", "namespace": "mcp__idea",
             "name": "run_tests", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": [
                {"type": "input_text", "text": "Wall time: 0.0045 seconds\nOutput:"},
                {"type": "input_text", "text": "3 passed [RUN-TESTS-OK]"}]}]});
        assert_eq!(
            answer_items(&ran),
            [Item::Message(
                "FAKE-MODEL-TOOL-DONE: 3 passed [RUN-TESTS-OK]".into()
            )]
        );
        // A side request (no tools, or asking for JSON of a schema) gets its usual answer.
        assert!(matches!(
            answer_items(&json!({"input": [prompt]})).as_slice(),
            [Item::Message(text)] if text.starts_with("FAKE-MODEL-REPLY")
        ));
        let title = json!({"tools": tools, "input": [prompt], "text": {"format": {
            "type": "json_schema", "schema": {"type": "object",
                "properties": {"title": {"type": "string"}}}}}});
        assert!(matches!(
            answer_items(&title).as_slice(),
            [Item::Message(text)] if text.starts_with(r#"{"title":"FAKE-MODEL-REPLY"#)
        ));
    }
}
