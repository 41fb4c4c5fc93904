//! Codex CLI's `exec --json` events (0.171.0), in the shapes and key order of captured real
//! output.

use serde_json::{Value, json};

/// The version the events imitate.
pub const VERSION: &str = "0.171.0";

pub fn thread_started(thread_id: &str) -> Value {
    json!({"type": "thread.started", "thread_id": thread_id})
}

pub fn turn_started() -> Value {
    json!({"type": "turn.started"})
}

/// `item.started` (no result yet) or `item.completed` of a call to MCP tool `server.tool`.
pub fn mcp_tool_call(item_id: &str, server: &str, tool: &str, output: Option<&str>) -> Value {
    let (kind, result, status) = match output {
        Some(text) => (
            "item.completed",
            json!({"content": [{"type": "text", "text": text}], "structured_content": null}),
            "completed",
        ),
        None => ("item.started", Value::Null, "in_progress"),
    };
    json!({"type": kind, "item": {"id": item_id, "type": "mcp_tool_call", "server": server,
        "tool": tool, "arguments": {}, "result": result, "error": null, "status": status}})
}

pub fn agent_message(item_id: &str, text: &str) -> Value {
    json!({"type": "item.completed", "item": {"id": item_id, "type": "agent_message", "text": text}})
}

/// `turn.completed`; Codex counts the tokens of the whole thread.
pub fn turn_completed(input: u64, output: u64) -> Value {
    json!({"type": "turn.completed", "usage": {"input_tokens": input, "cached_input_tokens": 0,
        "cache_write_input_tokens": 0, "output_tokens": output, "reasoning_output_tokens": 0}})
}

pub fn error(message: &str) -> Value {
    json!({"type": "error", "message": message})
}

pub fn turn_failed(message: &str) -> Value {
    json!({"type": "turn.failed", "error": {"message": message}})
}
