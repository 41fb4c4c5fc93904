//! An MCP tool call as a test writes it, and the text of its result.

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use serde_json::Value;

/// `tools/call name` with `arguments` (an object; anything else sends none).
pub fn call(name: &str, arguments: Value) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name.to_owned());
    match arguments {
        Value::Object(map) => params.with_arguments(map),
        _ => params,
    }
}

/// Every text block of `result`, one per line.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
