//! Reading a CLI's output one line at a time: each line should be one JSON event object; any
//! other line is skipped and counted, never a panic.

use idea_domain::turn::{TokenUsage, TurnError};
use serde_json::Value;

/// How many lines were events and how many were skipped.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LineStats {
    pub(crate) events: usize,
    pub(crate) skipped: usize,
}

impl LineStats {
    /// The line as a JSON object with a string `type`; `None` for a blank line (not
    /// counted) or anything else (counted as skipped).
    pub(crate) fn decode(&mut self, line: &str) -> Option<Value> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) if str_at(&value, "type").is_some() => {
                self.events += 1;
                Some(value)
            }
            _ => {
                self.skipped += 1;
                let start: String = line.chars().take(120).collect();
                tracing::debug!(line = %start, "skipped a CLI output line that is not a JSON event");
                None
            }
        }
    }

    /// Why a stream that ended with no final event gave no answer: only unreadable lines
    /// mean the CLI printed something else than its events (a wrong mode, an error text).
    pub(crate) fn no_answer(&self) -> TurnError {
        if self.events == 0 && self.skipped > 0 {
            TurnError::Cli {
                message: format!(
                    "the CLI printed no JSON event ({} line(s) of other output)",
                    self.skipped
                ),
            }
        } else {
            TurnError::NoAnswer
        }
    }
}

/// `value[key]` as a string.
pub(crate) fn str_at<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

/// `value[key]` as an unsigned number.
pub(crate) fn u64_at(value: &Value, key: &str) -> Option<u64> {
    value.get(key).and_then(Value::as_u64)
}

/// `value[key]` as an HTTP status.
pub(crate) fn status_at(value: &Value, key: &str) -> Option<u16> {
    u64_at(value, key).and_then(|n| u16::try_from(n).ok())
}

/// Token usage from `value`'s `input`, `output` and `cached` keys, when it has the first two.
pub(crate) fn usage_from(
    value: &Value,
    input: &str,
    output: &str,
    cached: &str,
) -> Option<TokenUsage> {
    Some(TokenUsage {
        input: u64_at(value, input)?,
        output: u64_at(value, output)?,
        cached: u64_at(value, cached),
    })
}

/// The text of a tool result's content: a string, or the `text` of each block of an array.
pub(crate) fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|block| str_at(block, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// The error text of a final event: its `error.message`, else the last error seen, else a
/// generic one.
pub(crate) fn final_error(line: &Value, last_error: Option<&String>) -> String {
    line.pointer("/error/message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| last_error.cloned())
        .unwrap_or_else(|| "the turn failed".to_owned())
}

/// The events that end a turn: its usage (if reported), then `Finished`.
pub(crate) fn finishing_events(
    usage: Option<idea_domain::turn::TokenUsage>,
    outcome: &idea_domain::turn::TurnOutcome,
) -> Vec<idea_domain::turn::TurnEvent> {
    use idea_domain::turn::TurnEvent;
    let mut events: Vec<TurnEvent> = usage
        .map(|usage| TurnEvent::Usage { usage })
        .into_iter()
        .collect();
    events.push(TurnEvent::Finished(outcome.clone()));
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_objects_with_a_type_are_events() {
        let mut stats = LineStats::default();
        assert!(stats.decode("  ").is_none());
        assert!(stats.decode("not json").is_none());
        assert!(stats.decode("[1,2]").is_none());
        assert!(stats.decode(r#"{"no":"type"}"#).is_none());
        assert!(stats.decode(r#"{"type":"x"}"#).is_some());
        assert_eq!((stats.events, stats.skipped), (1, 3));
        assert_eq!(stats.no_answer(), TurnError::NoAnswer);
        let mut garbage = LineStats::default();
        garbage.decode("{oops");
        assert!(matches!(garbage.no_answer(), TurnError::Cli { .. }));
    }

    #[test]
    fn tool_result_content_is_flattened_to_text() {
        let blocks =
            serde_json::json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]);
        assert_eq!(content_text(Some(&blocks)), "a\nb");
        assert_eq!(content_text(Some(&serde_json::json!("x"))), "x");
        assert_eq!(content_text(None), "");
    }
}
