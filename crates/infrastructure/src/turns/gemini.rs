//! Gemini CLI's `-o stream-json` (0.61.0), written from the event shapes in its bundled source
//! (`StreamJsonFormatter` and the headless loop) and checked against runs of 0.61.0 against
//! local stub servers (a text turn, a resume, an exhausted quota: `tests/fixtures/cli-output/`).
//! No tool call was captured: those events are tested with a hand-written sample in the shape
//! the source emits.
//!
//! Lines: `init` (`session_id`, `model`), `message` (`role` `user` echoes the prompt, `role`
//! `assistant` streams the answer in `delta` fragments), `tool_use` (`tool_name`, `tool_id`,
//! `parameters`), `tool_result` (`tool_id`, `status`, `output`, `error`), `error`
//! (`severity` `warning` or `error`, not the end of the turn), and one `result` (`status`
//! `success` or `error` with `error.{type,message}`, `stats` with the token counts).

use super::TurnParser;
use super::errors::api_error;
use super::lines::{LineStats, str_at, usage_from};
use idea_domain::limits::{Vendor, recognise_event_json};
use idea_domain::turn::{TurnError, TurnEvent, TurnOutcome};
use serde_json::Value;

/// Reads one Gemini CLI turn.
#[derive(Debug, Default)]
pub struct GeminiTurnParser {
    stats: LineStats,
    session_id: Option<String>,
    /// The answer so far: the text since the last tool call.
    text: String,
    /// The text before the last tool call, the answer when nothing followed it (what Gemini's
    /// own `-o json` reports then).
    text_before_tool: String,
    last_error: Option<String>,
    outcome: Option<TurnOutcome>,
}

impl GeminiTurnParser {
    pub fn new() -> Self {
        Self::default()
    }

    fn answer(&self) -> String {
        if self.text.is_empty() {
            self.text_before_tool.clone()
        } else {
            self.text.clone()
        }
    }

    fn result(&mut self, line: &Value) -> Vec<TurnEvent> {
        let usage = line
            .get("stats")
            .and_then(|s| usage_from(s, "input_tokens", "output_tokens", "cached"));
        let mut outcome = TurnOutcome {
            text: self.answer(),
            engine_session_id: self.session_id.clone(),
            usage,
            ..TurnOutcome::default()
        };
        if str_at(line, "status") != Some("success") {
            let message = super::lines::final_error(line, self.last_error.as_ref());
            outcome.text.clone_from(&message);
            let error = match recognise_event_json(Vendor::Gemini, line) {
                Some(limit) => limit.into(),
                None => error_of(&message),
            };
            outcome = outcome.failed(error);
        }
        let events = super::lines::finishing_events(usage, &outcome);
        self.outcome = Some(outcome);
        events
    }
}

/// A usage limit when Gemini's words are one, an API failure when it says so ("[API Error:
/// …]", an HTTP status), else the CLI's.
fn error_of(message: &str) -> TurnError {
    match api_error(Vendor::Gemini, None, message) {
        TurnError::Api { status: None, .. } if !message.contains("API Error") => TurnError::Cli {
            message: message.to_owned(),
        },
        error => error,
    }
}

impl TurnParser for GeminiTurnParser {
    fn parse_line(&mut self, line: &str) -> Vec<TurnEvent> {
        let Some(line) = self.stats.decode(line) else {
            return Vec::new();
        };
        match str_at(&line, "type").unwrap_or_default() {
            "init" => {
                self.session_id = str_at(&line, "session_id").map(str::to_owned);
                vec![TurnEvent::Started {
                    session_id: self.session_id.clone().unwrap_or_default(),
                    model: str_at(&line, "model").map(str::to_owned),
                }]
            }
            "message" if str_at(&line, "role") == Some("assistant") => {
                let text = str_at(&line, "content").unwrap_or_default().to_owned();
                let delta = line.get("delta").and_then(Value::as_bool) == Some(true);
                if !delta {
                    self.text.clear();
                }
                self.text.push_str(&text);
                vec![TurnEvent::Text { text, delta }]
            }
            "tool_use" => {
                if !self.text.is_empty() {
                    self.text_before_tool = std::mem::take(&mut self.text);
                }
                vec![TurnEvent::ToolCall {
                    id: str_at(&line, "tool_id").map(str::to_owned),
                    name: str_at(&line, "tool_name").unwrap_or_default().to_owned(),
                    input: line.get("parameters").cloned().unwrap_or(Value::Null),
                }]
            }
            "tool_result" => {
                let is_error = str_at(&line, "status") == Some("error");
                let output = match line.pointer("/error/message").and_then(Value::as_str) {
                    Some(message) if is_error => message.to_owned(),
                    _ => str_at(&line, "output").unwrap_or_default().to_owned(),
                };
                vec![TurnEvent::ToolResult {
                    id: str_at(&line, "tool_id").map(str::to_owned),
                    output,
                    is_error,
                }]
            }
            "error" => {
                let message = str_at(&line, "message").unwrap_or_default().to_owned();
                if str_at(&line, "severity") == Some("error") {
                    self.last_error = Some(message.clone());
                }
                vec![TurnEvent::Notice {
                    status: super::errors::status_in(&message),
                    message,
                }]
            }
            "result" => self.result(&line),
            _ => Vec::new(),
        }
    }

    fn finish(self) -> TurnOutcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        let error = match &self.last_error {
            Some(message) => error_of(message),
            None => self.stats.no_answer(),
        };
        TurnOutcome {
            text: self.answer(),
            engine_session_id: self.session_id,
            ..TurnOutcome::default()
        }
        .failed(error)
    }
}
