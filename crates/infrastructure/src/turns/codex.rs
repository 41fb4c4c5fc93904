//! Codex CLI's `exec --json` (checked on 0.171.0): `thread.started` (`thread_id`, the same one
//! again on `exec resume`), `turn.started`, `item.started` / `item.completed` (`agent_message`,
//! `mcp_tool_call`, `command_execution`…), then `turn.completed` (`usage`, which on a resumed
//! thread counts the whole thread) or `turn.failed`. A top-level `error` event does not end the
//! turn by itself ("Reconnecting… waiting for network" is one); a failure sends one right
//! before `turn.failed`, with the same message. Whether that message is a usage limit (with
//! its reset in words) the domain's recognisers tell (`idea_domain::limits`).

use super::TurnParser;
use super::errors::api_error;
use super::lines::{LineStats, content_text, str_at, usage_from};
use idea_domain::limits::{LimitSighting, Vendor, recognise_event_json};
use idea_domain::turn::{TurnError, TurnEvent, TurnOutcome};
use serde_json::{Value, json};
use std::collections::HashSet;

/// Reads one Codex turn.
#[derive(Debug, Default)]
pub struct CodexTurnParser {
    stats: LineStats,
    thread_id: Option<String>,
    /// The last `agent_message`: the answer.
    last_text: String,
    /// Tool items whose call was already reported by `item.started`.
    started_items: HashSet<String>,
    last_error: Option<String>,
    /// The usage limit an `error` or `turn.failed` event reported.
    limit: Option<LimitSighting>,
    outcome: Option<TurnOutcome>,
}

impl CodexTurnParser {
    pub fn new() -> Self {
        Self::default()
    }

    fn item(&mut self, item: &Value, completed: bool) -> Vec<TurnEvent> {
        let id = str_at(item, "id").map(str::to_owned);
        let kind = str_at(item, "type").unwrap_or_default();
        if kind == "agent_message" {
            if !completed {
                return Vec::new();
            }
            let text = str_at(item, "text").unwrap_or_default().to_owned();
            self.last_text.clone_from(&text);
            return vec![TurnEvent::Text { text, delta: false }];
        }
        if kind == "error" {
            let message = str_at(item, "message").unwrap_or_default().to_owned();
            return vec![TurnEvent::Notice {
                message,
                status: None,
            }];
        }
        let Some((name, input)) = tool_call(kind, item) else {
            return Vec::new();
        };
        let mut events = Vec::new();
        let announced = id
            .as_ref()
            .is_some_and(|id| self.started_items.contains(id));
        if !announced {
            events.push(TurnEvent::ToolCall {
                id: id.clone(),
                name,
                input,
            });
            if let Some(id) = &id {
                self.started_items.insert(id.clone());
            }
        }
        if completed {
            let (output, is_error) = tool_output(kind, item);
            events.push(TurnEvent::ToolResult {
                id,
                output,
                is_error,
            });
        }
        events
    }

    /// A usage limit when one was reported, else an API error.
    fn error_of(&self, message: &str) -> TurnError {
        match &self.limit {
            Some(limit) => limit.clone().into(),
            None => api_error(Vendor::Codex, None, message),
        }
    }

    fn ended(&mut self, line: &Value, failed: bool) -> Vec<TurnEvent> {
        let usage = line
            .get("usage")
            .and_then(|u| usage_from(u, "input_tokens", "output_tokens", "cached_input_tokens"));
        let mut outcome = TurnOutcome {
            text: self.last_text.clone(),
            engine_session_id: self.thread_id.clone(),
            usage,
            ..TurnOutcome::default()
        };
        if failed {
            let message = super::lines::final_error(line, self.last_error.as_ref());
            outcome.text.clone_from(&message);
            outcome = outcome.failed(self.error_of(&message));
        }
        let events = super::lines::finishing_events(usage, &outcome);
        self.outcome = Some(outcome);
        events
    }
}

/// The call a tool item stands for: its name and input.
fn tool_call(kind: &str, item: &Value) -> Option<(String, Value)> {
    let field = |key: &str| item.get(key).cloned().unwrap_or(Value::Null);
    match kind {
        "mcp_tool_call" => Some((
            format!(
                "{}.{}",
                str_at(item, "server").unwrap_or("mcp"),
                str_at(item, "tool").unwrap_or_default()
            ),
            field("arguments"),
        )),
        "command_execution" => Some(("command".to_owned(), json!({"command": field("command")}))),
        "file_change" => Some((
            "file_change".to_owned(),
            json!({"changes": field("changes")}),
        )),
        "web_search" => Some(("web_search".to_owned(), json!({"query": field("query")}))),
        _ => None,
    }
}

/// What a completed tool item returned, and whether it failed.
fn tool_output(kind: &str, item: &Value) -> (String, bool) {
    let failed = str_at(item, "status") == Some("failed");
    match kind {
        "mcp_tool_call" => match item.pointer("/error/message").and_then(Value::as_str) {
            Some(message) => (message.to_owned(), true),
            None => (content_text(item.pointer("/result/content")), failed),
        },
        "command_execution" => (
            str_at(item, "aggregated_output")
                .unwrap_or_default()
                .to_owned(),
            failed
                || item
                    .get("exit_code")
                    .and_then(Value::as_i64)
                    .is_some_and(|c| c != 0),
        ),
        _ => (String::new(), failed),
    }
}

impl TurnParser for CodexTurnParser {
    fn parse_line(&mut self, line: &str) -> Vec<TurnEvent> {
        let Some(line) = self.stats.decode(line) else {
            return Vec::new();
        };
        if let Some(limit) = recognise_event_json(Vendor::Codex, &line) {
            self.limit = Some(limit);
        }
        let item = line.get("item").unwrap_or(&Value::Null);
        match str_at(&line, "type").unwrap_or_default() {
            "thread.started" => {
                self.thread_id = str_at(&line, "thread_id").map(str::to_owned);
                vec![TurnEvent::Started {
                    session_id: self.thread_id.clone().unwrap_or_default(),
                    model: None,
                }]
            }
            "item.started" => self.item(item, false),
            "item.completed" => self.item(item, true),
            "turn.completed" => self.ended(&line, false),
            "turn.failed" => self.ended(&line, true),
            "error" => {
                let message = str_at(&line, "message").unwrap_or_default().to_owned();
                self.last_error = Some(message.clone());
                vec![TurnEvent::Notice {
                    status: super::errors::status_in(&message),
                    message,
                }]
            }
            _ => Vec::new(),
        }
    }

    fn finish(self) -> TurnOutcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        let error = match &self.last_error {
            Some(message) => self.error_of(message),
            None => self.stats.no_answer(),
        };
        TurnOutcome {
            text: self.last_text,
            engine_session_id: self.thread_id,
            ..TurnOutcome::default()
        }
        .failed(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_item_is_a_tool_call_then_its_result() {
        let mut parser = CodexTurnParser::new();
        let started = r#"{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}"#;
        let done = r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":2,"status":"failed"}}"#;
        assert_eq!(
            parser.parse_line(started),
            [TurnEvent::ToolCall {
                id: Some("item_1".into()),
                name: "command".into(),
                input: json!({"command": "ls"})
            }]
        );
        assert_eq!(
            parser.parse_line(done),
            [TurnEvent::ToolResult {
                id: Some("item_1".into()),
                output: "a\n".into(),
                is_error: true
            }]
        );
        assert_eq!(parser.finish().error, Some(TurnError::NoAnswer));
    }
}
