//! The Gemini API (`generativelanguage` v1beta) as Gemini CLI calls it with an API key and
//! `GOOGLE_GEMINI_BASE_URL`:
//!
//! - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`: the conversation turns,
//!   answered as server-sent events, one `GenerateContentResponse` per `data:` line.
//! - `POST /v1beta/models/{model}:generateContent`: side requests (model router, next-speaker
//!   check, loop detection, session summaries…). Those that ask for JSON
//!   (`generationConfig.responseMimeType = "application/json"`) get an object built from their
//!   `responseJsonSchema`: the router picks its first model, the next-speaker check hands the turn
//!   to the user, scores and confidences stay at their minimum.
//! - `POST /v1beta/models/{model}:countTokens`.
//!
//! Any other path under `/v1beta` or `/v1alpha` is recorded and answered 404, the way the real
//! service answers an unknown method, so the log tells what a newer CLI started calling.
//!
//! `please run: <command>` in the last user text is answered with a `functionCall` of
//! `run_shell_command` (`{command, description}`); the next request, whose last content holds
//! the `functionResponse`, gets a text quoting its output (`tool_call`).
//!
//! `please call tool: <name> <json-object>` is answered with a `functionCall` of the declared
//! function of that name, or whose name ends with it after a separator (Gemini CLI 0.61.0
//! declares an MCP server's tools as `mcp_<server>_<tool>`: `mcp_idea_run_tests`), with the
//! object as its `args`; when none matches, with a text naming the declared functions
//! (`FAKE-MODEL-NO-TOOL: …`). Its `functionResponse` is quoted like the shell's: an MCP tool's
//! is `{"output": "<untrusted_context>\n…\n</untrusted_context>"}`, quoted without the tag.
//!
//! Axum cannot route a `{model}:{method}` segment, so one catch-all route per version parses it.

use super::{RequestLog, body_json, reply_text, tool_call};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::{Map, Value, json};

const API: &str = "gemini";

/// The Gemini routes.
pub fn router(log: RequestLog) -> Router {
    Router::new()
        .route("/v1beta/{*rest}", any(handle))
        .route("/v1alpha/{*rest}", any(handle))
        // Conversations grow with every turn; the CLI's requests are not ours to cap.
        .layer(DefaultBodyLimit::disable())
        .with_state(log)
}

async fn handle(State(log): State<RequestLog>, method: Method, uri: Uri, body: Bytes) -> Response {
    let path = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), |pq| pq.as_str().to_owned());
    let body = body_json(&body);
    log.record(API, &path, &body);

    let call = uri
        .path()
        .split_once("/models/")
        .and_then(|(_, rest)| rest.rsplit_once(':'));
    match (method, call) {
        (Method::POST, Some((model, "streamGenerateContent"))) => stream_generate(model, &body),
        (Method::POST, Some((model, "generateContent"))) => generate(model, &body),
        (Method::POST, Some((_, "countTokens"))) => {
            axum::Json(json!({"totalTokens": estimate_tokens(&body)})).into_response()
        }
        _ => not_found(uri.path()),
    }
}

/// Whether a text part is context the CLI wraps in a tag of its own (the first turn of a
/// session carries `<session_context>…</session_context>`, with GEMINI.md, in the same user
/// content as the typed message).
fn is_injected_context(text: &str) -> bool {
    let text = text.trim();
    let Some(tag) = text
        .strip_prefix('<')
        .and_then(|rest| rest.split_once('>'))
        .map(|(tag, _)| tag)
    else {
        return false;
    };
    !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && text.ends_with(&format!("</{tag}>"))
}

/// The text of the last user turn that has text (a tool result alone is skipped), without the
/// context the CLI injects.
fn last_user_text(body: &Value) -> String {
    let contents = body
        .get("contents")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    contents
        .iter()
        .rev()
        .filter(|c| c.get("role").and_then(Value::as_str).unwrap_or("user") == "user")
        .map(|c| {
            c.get("parts")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .filter(|text| !is_injected_context(text))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .find(|text| !text.is_empty())
        .unwrap_or_default()
}

/// A rough token count (4 characters a token), enough for the CLI's context meter.
fn estimate_tokens(body: &Value) -> u64 {
    u64::try_from(body.to_string().len() / 4).unwrap_or(u64::MAX)
}

fn usage(body: &Value, answer: &str) -> Value {
    let prompt = estimate_tokens(body);
    let candidates = u64::try_from(answer.len() / 4 + 1).unwrap_or(1);
    json!({
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates,
    })
}

fn response_chunk(model: &str, text: &str, finish: Option<&str>, usage: Option<Value>) -> Value {
    let mut candidate = json!({
        "content": {"role": "model", "parts": [{"text": text}]},
        "index": 0,
    });
    if let (Some(finish), Some(map)) = (finish, candidate.as_object_mut()) {
        map.insert("finishReason".into(), json!(finish));
    }
    let mut chunk = json!({
        "candidates": [candidate],
        "modelVersion": model,
        "responseId": "fake-model-response",
    });
    if let (Some(usage), Some(map)) = (usage, chunk.as_object_mut()) {
        map.insert("usageMetadata".into(), usage);
    }
    chunk
}

/// The `response` of the last content's `functionResponse` part, when the last content is
/// the result of a tool call (the request after a tool ran).
fn last_function_response(body: &Value) -> Option<String> {
    let last = body.get("contents")?.as_array()?.last()?;
    let response = last
        .get("parts")?
        .as_array()?
        .iter()
        .find_map(|p| p.get("functionResponse"))?
        .get("response")?;
    let text = tool_call::result_text(response);
    Some(match untagged(&text) {
        Some(inner) => inner.to_owned(),
        None => text,
    })
}

/// The inside of a text wholly wrapped in one tag, as Gemini CLI 0.61.0 wraps an MCP tool's
/// output (`<untrusted_context>\n…\n</untrusted_context>`), trimmed.
fn untagged(text: &str) -> Option<&str> {
    if !is_injected_context(text) {
        return None;
    }
    let text = text.trim();
    let (open, rest) = text.strip_prefix('<')?.split_once('>')?;
    rest.strip_suffix(&format!("</{open}>")).map(str::trim)
}

/// The names of the functions the request declares.
fn declared_names(body: &Value) -> Vec<&str> {
    body.get("tools")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|t| t.get("functionDeclarations").and_then(Value::as_array))
        .flatten()
        .filter_map(|d| d.get("name").and_then(Value::as_str))
        .collect()
}

/// For `please call tool: <name> {…}` in the last user text of a request that declares
/// functions: the `functionCall` of the matching one, or the text saying none matches.
fn named_call(body: &Value) -> Option<Result<Value, String>> {
    let request = tool_call::requested_tool_call(&last_user_text(body))?;
    let declared = declared_names(body);
    if declared.is_empty() {
        return None;
    }
    Some(
        match tool_call::offered_match(declared.iter().copied(), &request.name) {
            Some(name) => Ok(json!({"functionCall": {"name": name, "args": request.arguments}})),
            None => Err(tool_call::no_tool_reply(
                &request.name,
                declared.iter().copied(),
            )),
        },
    )
}

/// The call of `run_shell_command` (when the request declares it) for `please run: …` in the
/// last user text, with the `{command, description}` Gemini CLI's tool takes.
fn shell_call(body: &Value) -> Option<Value> {
    let command = tool_call::requested_command(&last_user_text(body))?.command;
    let declared = body
        .get("tools")?
        .as_array()?
        .iter()
        .filter_map(|t| t.get("functionDeclarations").and_then(Value::as_array))
        .flatten()
        .any(|d| d.get("name") == Some(&json!("run_shell_command")));
    declared.then(|| {
        json!({"functionCall": {"name": "run_shell_command", "args": {
            "command": command, "description": tool_call::description(&command)}}})
    })
}

/// The tool call alone, in one event with `finishReason` and the usage, as the real service
/// sends a function call.
fn stream_call(model: &str, body: &Value, call: Value) -> Response {
    let mut chunk = response_chunk(model, "", Some("STOP"), Some(usage(body, "")));
    if let Some(parts) = chunk.pointer_mut("/candidates/0/content/parts") {
        *parts = json!([call]);
    }
    sse(&[chunk])
}

/// Server-sent events, one `data:` line each.
fn sse(events: &[Value]) -> Response {
    let text: String = events
        .iter()
        .map(|e| format!("data: {e}\r\n\r\n"))
        .collect();
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from(text))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// The answer streamed in two events, the last one carrying `finishReason` and the usage; a
/// tool's result is acknowledged, `please call tool: …` becomes a call of the named function,
/// `please run: …` a `run_shell_command` call.
fn stream_generate(model: &str, body: &Value) -> Response {
    let answer = match last_function_response(body) {
        Some(result) => tool_call::result_reply(&result),
        None => match named_call(body) {
            Some(Ok(call)) => return stream_call(model, body, call),
            Some(Err(no_tool)) => no_tool,
            None => match shell_call(body) {
                Some(call) => return stream_call(model, body, call),
                None => reply_text(&last_user_text(body)),
            },
        },
    };
    let split = answer
        .char_indices()
        .nth(answer.chars().count() / 2)
        .map_or(answer.len(), |(i, _)| i);
    let (head, tail) = answer.split_at(split);
    let events = [
        response_chunk(model, head, None, None),
        response_chunk(model, tail, Some("STOP"), Some(usage(body, &answer))),
    ];
    sse(&events)
}

/// One whole response; JSON when the request asks for it.
fn generate(model: &str, body: &Value) -> Response {
    let config = body.get("generationConfig");
    let wants_json = config
        .and_then(|c| c.get("responseMimeType"))
        .and_then(Value::as_str)
        == Some("application/json");
    let answer = if wants_json {
        let schema = config
            .and_then(|c| {
                c.get("responseJsonSchema")
                    .or_else(|| c.get("responseSchema"))
            })
            .unwrap_or(&Value::Null);
        json_for_schema(None, schema).to_string()
    } else {
        reply_text(&last_user_text(body))
    };
    axum::Json(response_chunk(
        model,
        &answer,
        Some("STOP"),
        Some(usage(body, &answer)),
    ))
    .into_response()
}

/// A value matching `schema` (JSON Schema or the Gemini `Type` enum, in either case) that lets
/// the CLI carry on as if nothing special happened.
fn json_for_schema(name: Option<&str>, schema: &Value) -> Value {
    if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
        // The next-speaker check: the user speaks next, so the turn ends.
        if name == Some("next_speaker") && choices.iter().any(|c| c == "user") {
            return json!("user");
        }
        return choices.first().cloned().unwrap_or(Value::Null);
    }
    let kind = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object")
        .to_ascii_lowercase();
    match kind.as_str() {
        "string" => json!("fake-model"),
        // Scores have a floor of 1; confidences (loop detection) stay at 0: no loop.
        "number" | "integer" => schema
            .get("minimum")
            .cloned()
            .unwrap_or_else(|| json!(u8::from(name.is_some_and(|n| n.ends_with("score"))))),
        "boolean" => json!(false),
        "array" => json!([]),
        _ => {
            let properties = schema
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let object: Map<String, Value> = properties
                .iter()
                .map(|(key, sub)| (key.clone(), json_for_schema(Some(key), sub)))
                .collect();
            Value::Object(object)
        }
    }
}

fn not_found(path: &str) -> Response {
    let error = json!({"error": {
        "code": 404,
        "message": format!("fake-model: {path} is not implemented"),
        "status": "NOT_FOUND",
    }});
    (StatusCode::NOT_FOUND, axum::Json(error)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_user_text_skips_tool_results() {
        let body = json!({"contents": [
            {"role": "user", "parts": [{"text": "hello"}, {"text": "world"}]},
            {"role": "model", "parts": [{"text": "hi"}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "x"}}]},
        ]});
        assert_eq!(last_user_text(&body), "hello\nworld");
    }

    #[test]
    fn the_session_context_is_not_the_user_message() {
        let body = json!({"contents": [{"role": "user", "parts": [
            {"text": "<session_context>\nGEMINI.md says hi\n</session_context>"},
            {"text": "hello <b>there</b>"},
        ]}]});
        assert_eq!(last_user_text(&body), "hello <b>there</b>");
    }

    #[test]
    fn json_side_requests_let_the_user_speak_and_pick_the_first_model() {
        let speaker = json!({"type": "object", "properties": {
            "reasoning": {"type": "string"},
            "next_speaker": {"type": "string", "enum": ["model", "user"]},
        }});
        assert_eq!(
            json_for_schema(None, &speaker),
            json!({"reasoning": "fake-model", "next_speaker": "user"})
        );
        let router = json!({"type": "OBJECT", "properties": {
            "model_choice": {"type": "STRING", "enum": ["flash", "pro"]},
            "complexity_score": {"type": "INTEGER"},
            "unproductive_state_confidence": {"type": "NUMBER"},
        }});
        assert_eq!(
            json_for_schema(None, &router),
            json!({"model_choice": "flash", "complexity_score": 1, "unproductive_state_confidence": 0})
        );
    }

    #[test]
    fn please_run_calls_run_shell_command_and_its_response_gets_text() {
        let tools = json!([{"functionDeclarations": [{"name": "run_shell_command"}]}]);
        let ask = json!({"tools": tools, "contents": [
            {"role": "user", "parts": [{"text": "please run: touch proof.txt"}]}]});
        let call = shell_call(&ask).unwrap_or_default();
        assert_eq!(call["functionCall"]["args"]["command"], "touch proof.txt");
        assert_eq!(last_function_response(&ask), None);
        let ran = json!({"tools": tools, "contents": [
            {"role": "user", "parts": [{"text": "please run: touch proof.txt"}]},
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                "response": {"output": "Output: (empty)"}}}]}]});
        assert_eq!(
            last_function_response(&ran).as_deref(),
            Some("Output: (empty)")
        );
        assert_eq!(shell_call(&json!({"contents": ask["contents"]})), None);
    }

    #[test]
    fn please_call_tool_calls_the_declared_mcp_function_and_its_response_gets_text() {
        let tools = json!([{"functionDeclarations": [
            {"name": "run_shell_command"},
            {"name": "mcp_idea_run_tests", "parametersJsonSchema": {"type": "object"}},
        ]}]);
        let ask = json!({"tools": tools, "contents": [{"role": "user", "parts": [
            {"text": "please call tool: run_tests {\"filter\": \"unit\"}"}]}]});
        let call = named_call(&ask).and_then(Result::ok).unwrap_or_default();
        assert_eq!(
            call,
            json!({"functionCall": {"name": "mcp_idea_run_tests", "args": {"filter": "unit"}}})
        );
        let missing = json!({"tools": tools, "contents": [{"role": "user", "parts": [
            {"text": "please call tool: deploy"}]}]});
        assert_eq!(
            named_call(&missing),
            Some(Err(
                "FAKE-MODEL-NO-TOOL: deploy (offered: run_shell_command, \
                      mcp_idea_run_tests)"
                    .to_owned()
            ))
        );
        // Without declarations (a side request) the marker is plain text.
        assert_eq!(named_call(&json!({"contents": ask["contents"]})), None);
        // An MCP tool's response, structured or not, is quoted as its text.
        for response in [
            json!({"output": "<untrusted_context>\n3 passed [RUN-TESTS-OK]\n</untrusted_context>"}),
            json!({"output": "3 passed [RUN-TESTS-OK]"}),
            json!({"content": [{"type": "text", "text": "3 passed [RUN-TESTS-OK]"}]}),
        ] {
            let ran = json!({"tools": tools, "contents": [
                ask["contents"][0],
                {"role": "model", "parts": [call]},
                {"role": "user", "parts": [{"functionResponse": {
                    "name": "mcp_idea_run_tests", "response": response}}]}]});
            assert_eq!(
                last_function_response(&ran).map(|r| tool_call::result_reply(&r)),
                Some("FAKE-MODEL-TOOL-DONE: 3 passed [RUN-TESTS-OK]".to_owned())
            );
        }
    }
}
