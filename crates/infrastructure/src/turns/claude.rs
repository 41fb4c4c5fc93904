//! Claude Code's `-p --output-format stream-json --verbose` (checked on 2.1.332): a
//! `system`/`init` line, `system`/`api_retry` lines while the API refuses, `assistant` lines
//! (each with one text or `tool_use` block; a failed API call becomes a synthetic one with
//! `is_api_error_message`), `user` lines carrying `tool_result`s, and one `result` line with
//! the final text, `is_error`, `usage` (this run only) and on failure `api_error_status` or
//! `errors`. Every line carries the `session_id`. A usage limit also sends a
//! `rate_limit_event` with `status: "rejected"` and the reset's epoch before the synthetic
//! message (`api_error: "usage_limit_reached"`); the domain's recognisers read all three
//! (`idea_domain::limits::recognise_event_json`).

use super::TurnParser;
use super::errors::api_error;
use super::lines::{LineStats, content_text, status_at, str_at, usage_from};
use idea_domain::limits::{LimitSighting, Vendor, combine_sightings, recognise_event_json};
use idea_domain::turn::{TurnError, TurnEvent, TurnOutcome};
use serde_json::Value;

/// Reads one Claude Code turn.
#[derive(Debug, Default)]
pub struct ClaudeTurnParser {
    stats: LineStats,
    session_id: Option<String>,
    /// The text of the last assistant message that had some.
    last_text: String,
    /// The synthetic "API Error: …" message, when one came.
    api_error: Option<TurnError>,
    /// The usage limit the events reported (a rejected `rate_limit_event`, the synthetic
    /// message, the result), the structured reset kept.
    limit: Option<LimitSighting>,
    outcome: Option<TurnOutcome>,
}

impl ClaudeTurnParser {
    pub fn new() -> Self {
        Self::default()
    }

    fn assistant(&mut self, line: &Value) -> Vec<TurnEvent> {
        let message = line.get("message").unwrap_or(&Value::Null);
        let blocks = message
            .get("content")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let text: Vec<&str> = blocks
            .iter()
            .filter(|b| str_at(b, "type") == Some("text"))
            .filter_map(|b| str_at(b, "text"))
            .collect();
        if line.get("is_api_error_message").and_then(Value::as_bool) == Some(true) {
            let message = text.join("\n");
            let status = status_at(line, "api_error_status");
            self.api_error = Some(match &self.limit {
                Some(limit) => limit.clone().into(),
                None => api_error(Vendor::ClaudeCode, status, &message),
            });
            return vec![TurnEvent::Notice { message, status }];
        }
        if !text.is_empty() {
            self.last_text = text.join("\n");
        }
        blocks
            .iter()
            .filter_map(|block| match str_at(block, "type")? {
                "text" => Some(TurnEvent::Text {
                    text: str_at(block, "text")?.to_owned(),
                    delta: false,
                }),
                "tool_use" => Some(TurnEvent::ToolCall {
                    id: str_at(block, "id").map(str::to_owned),
                    name: str_at(block, "name").unwrap_or_default().to_owned(),
                    input: block.get("input").cloned().unwrap_or(Value::Null),
                }),
                _ => None,
            })
            .collect()
    }

    fn user(line: &Value) -> Vec<TurnEvent> {
        line.pointer("/message/content")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter(|b| str_at(b, "type") == Some("tool_result"))
            .map(|block| TurnEvent::ToolResult {
                id: str_at(block, "tool_use_id").map(str::to_owned),
                output: content_text(block.get("content")),
                is_error: block.get("is_error").and_then(Value::as_bool) == Some(true),
            })
            .collect()
    }

    fn result(&mut self, line: &Value) -> Vec<TurnEvent> {
        let usage = line.get("usage").and_then(|u| {
            usage_from(
                u,
                "input_tokens",
                "output_tokens",
                "cache_read_input_tokens",
            )
        });
        let text = str_at(line, "result").map_or_else(|| self.last_text.clone(), str::to_owned);
        let mut outcome = TurnOutcome {
            text,
            engine_session_id: self.session_id.clone(),
            usage,
            ..TurnOutcome::default()
        };
        if line.get("is_error").and_then(Value::as_bool) == Some(true) {
            let error = self.result_error(line, &outcome.text);
            if outcome.text.is_empty() {
                outcome.text = error.to_string();
            }
            outcome = outcome.failed(error);
        }
        let events = super::lines::finishing_events(usage, &outcome);
        self.outcome = Some(outcome);
        events
    }

    /// Why a `result` says `is_error` (its `subtype` stays `success` on an API error).
    fn result_error(&self, line: &Value, text: &str) -> TurnError {
        if let Some(limit) = &self.limit {
            return limit.clone().into();
        }
        let status = status_at(line, "api_error_status");
        let api_failed = status.is_some()
            || str_at(line, "terminal_reason") == Some("api_error")
            || line.get("api_error").is_some_and(|e| !e.is_null());
        if api_failed {
            return api_error(Vendor::ClaudeCode, status, text);
        }
        if let Some(error) = &self.api_error {
            return error.clone();
        }
        let errors: Vec<&str> = line
            .get("errors")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let message = if errors.is_empty() {
            text.to_owned()
        } else {
            errors.join("\n")
        };
        TurnError::Cli {
            message: if message.is_empty() {
                str_at(line, "subtype").unwrap_or("error").to_owned()
            } else {
                message
            },
        }
    }
}

impl TurnParser for ClaudeTurnParser {
    fn parse_line(&mut self, line: &str) -> Vec<TurnEvent> {
        let Some(line) = self.stats.decode(line) else {
            return Vec::new();
        };
        if let Some(id) = str_at(&line, "session_id") {
            self.session_id = Some(id.to_owned());
        }
        if let Some(limit) = recognise_event_json(Vendor::ClaudeCode, &line) {
            self.limit = combine_sightings(self.limit.take(), Some(limit));
        }
        match (str_at(&line, "type"), str_at(&line, "subtype")) {
            (Some("system"), Some("init")) => vec![TurnEvent::Started {
                session_id: self.session_id.clone().unwrap_or_default(),
                model: str_at(&line, "model").map(str::to_owned),
            }],
            (Some("system"), Some("api_retry")) => vec![TurnEvent::Notice {
                message: format!(
                    "API retry {}/{}: {}",
                    line.get("attempt").unwrap_or(&Value::Null),
                    line.get("max_retries").unwrap_or(&Value::Null),
                    str_at(&line, "error").unwrap_or("error")
                ),
                status: status_at(&line, "error_status"),
            }],
            (Some("assistant"), _) => self.assistant(&line),
            (Some("user"), _) => Self::user(&line),
            (Some("result"), _) => self.result(&line),
            _ => Vec::new(),
        }
    }

    fn finish(self) -> TurnOutcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        let error = self
            .api_error
            .clone()
            .or_else(|| self.limit.clone().map(TurnError::from))
            .unwrap_or_else(|| self.stats.no_answer());
        TurnOutcome {
            text: self.last_text,
            engine_session_id: self.session_id,
            ..TurnOutcome::default()
        }
        .failed(error)
    }
}
