//! Claude Code's `stream-json` events (2.1.332), in the shapes and key order of captured real
//! output, cut down to the keys a reader needs.

use super::{iso_now, new_id};
use serde_json::{Value, json};

/// The version the events imitate.
pub const VERSION: &str = "2.1.332";
const MODEL: &str = "claude-fake";

/// `system`/`init`: the session, its tools and MCP servers.
pub fn init(session_id: &str, tools: &[String], mcp_servers: &[String]) -> Value {
    let servers: Vec<Value> = mcp_servers
        .iter()
        .map(|name| json!({"name": name, "status": "connected", "source": "dynamic"}))
        .collect();
    json!({
        "type": "system", "subtype": "init",
        "cwd": std::env::current_dir().unwrap_or_default(),
        "session_id": session_id, "tools": tools, "mcp_servers": servers,
        "model": MODEL, "permissionMode": "default", "apiKeySource": "ANTHROPIC_API_KEY",
        "claude_code_version": VERSION, "output_style": "default", "uuid": new_id(),
    })
}

fn message_usage(input: u64) -> Value {
    json!({"input_tokens": input, "output_tokens": 1, "cache_creation_input_tokens": 0,
           "cache_read_input_tokens": 0, "service_tier": "standard"})
}

/// An `assistant` line holding one content block of message `message_id`.
pub fn assistant(session_id: &str, message_id: &str, block: Value, input: u64) -> Value {
    json!({
        "type": "assistant",
        "message": {"id": message_id, "type": "message", "role": "assistant", "model": MODEL,
                    "content": [block], "stop_reason": null, "stop_sequence": null,
                    "usage": message_usage(input), "context_management": null},
        "parent_tool_use_id": null, "session_id": session_id, "uuid": new_id(),
        "timestamp": iso_now(), "request_id": format!("req_fake_{}", &new_id()[..8]),
    })
}

/// A text content block.
pub fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// A `tool_use` content block calling `name` with no input.
pub fn tool_use_block(id: &str, name: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": {}})
}

/// The `user` line carrying a tool's result.
pub fn tool_result(session_id: &str, tool_use_id: &str, output: &str) -> Value {
    let content = json!([{"type": "text", "text": output}]);
    json!({
        "type": "user",
        "message": {"role": "user", "content": [
            {"tool_use_id": tool_use_id, "type": "tool_result", "content": content}
        ]},
        "parent_tool_use_id": null, "session_id": session_id, "uuid": new_id(),
        "timestamp": iso_now(), "tool_use_result": content,
    })
}

/// `system`/`api_retry` after a refused API call.
pub fn api_retry(session_id: &str, attempt: u32, max_retries: u32) -> Value {
    json!({
        "type": "system", "subtype": "api_retry", "attempt": attempt,
        "max_retries": max_retries, "retry_delay_ms": 500 * attempt, "error_status": 429,
        "error": "rate_limit", "session_id": session_id, "uuid": new_id(),
    })
}

/// The synthetic `assistant` message Claude Code makes of a failed API call.
pub fn api_error_message(session_id: &str, text: &str) -> Value {
    json!({
        "type": "assistant",
        "message": {"id": new_id(), "container": null, "model": "<synthetic>",
                    "role": "assistant", "stop_reason": "stop_sequence", "stop_sequence": "",
                    "type": "message", "usage": message_usage(0),
                    "content": [text_block(text)], "context_management": null},
        "parent_tool_use_id": null, "session_id": session_id, "uuid": new_id(),
        "timestamp": iso_now(), "error": "rate_limit", "request_id": format!("req_fake_{}", &new_id()[..8]),
        "is_api_error_message": true, "api_error_status": 429, "api_error_type": "rate_limit_error",
    })
}

/// The `rate_limit_event` of a plan's usage limit: rejected, resetting at `resets_at`.
pub fn usage_limit_event(session_id: &str, resets_at: u64) -> Value {
    json!({
        "type": "rate_limit_event",
        "rate_limit_info": {"status": "rejected", "resetsAt": resets_at, "rateLimitType": "five_hour",
                            "overageStatus": "rejected", "isUsingOverage": false},
        "uuid": new_id(), "session_id": session_id,
    })
}

/// How a turn ended, for its `result` line.
#[derive(Debug, Clone, Copy)]
pub struct Ending<'a> {
    pub text: &'a str,
    pub input: u64,
    pub output: u64,
    pub num_turns: u32,
    pub rate_limited: bool,
}

/// The `result` line. On a rate limit Claude Code keeps `subtype: "success"` and says
/// `is_error`, `terminal_reason: "api_error"` and `api_error_status: 429`.
pub fn result(session_id: &str, end: Ending<'_>) -> Value {
    let (input, output) = if end.rate_limited {
        (0, 0)
    } else {
        (end.input, end.output)
    };
    let mut line = json!({
        "duration_api_ms": 1, "stop_reason": if end.rate_limited { "stop_sequence" } else { "end_turn" },
        "session_id": session_id, "total_cost_usd": 0,
        "usage": {"input_tokens": input, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0, "output_tokens": output,
                  "service_tier": "standard"},
        "modelUsage": {}, "permission_denials": [],
        "terminal_reason": if end.rate_limited { "api_error" } else { "completed" },
        "is_error": end.rate_limited, "num_turns": end.num_turns, "subtype": "success",
        "api_error_status": if end.rate_limited { json!(429) } else { Value::Null },
        "result": end.text, "type": "result", "duration_ms": 2, "uuid": new_id(),
    });
    if let (true, Some(map)) = (end.rate_limited, line.as_object_mut()) {
        map.insert("api_error_type".into(), json!("rate_limit_error"));
    }
    line
}

/// The `result` line of a `--resume` whose conversation does not exist (the reason also
/// goes to stderr).
pub fn resume_refused(session_id: &str, reason: &str) -> Value {
    json!({
        "type": "result", "subtype": "error_during_execution", "duration_ms": 0,
        "duration_api_ms": 0, "is_error": true, "num_turns": 0, "stop_reason": null,
        "session_id": session_id, "total_cost_usd": 0,
        "usage": {"input_tokens": 0, "cache_creation_input_tokens": 0,
                  "cache_read_input_tokens": 0, "output_tokens": 0},
        "modelUsage": {}, "permission_denials": [], "uuid": new_id(), "errors": [reason],
    })
}
