//! How much of a turn's events is published while it runs: every event goes to every open
//! front end through bounded queues, so one event stays small and one turn sends a bounded
//! number of them. The whole answer stays in the request's record.

use super::TurnEvent;
use serde_json::Value;

/// The longest text an event carries when published, in bytes; longer ones are cut.
pub const MAX_EVENT_TEXT: usize = 16 * 1024;

/// How many events one turn publishes; past it only its last word (`Finished`) is published.
pub const MAX_PUBLISHED_EVENTS: u32 = 2000;

/// What marks a cut text.
const CUT: &str = "…";

/// `text` cut to at most `max` bytes (on a character boundary), marked when cut.
fn cut(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max.saturating_sub(CUT.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(CUT);
}

impl TurnEvent {
    /// This event with every text cut to `max` bytes (a tool call's input that is longer
    /// when written out becomes that text, cut).
    #[must_use]
    pub fn capped(mut self, max: usize) -> Self {
        match &mut self {
            Self::Started { session_id, model } => {
                cut(session_id, max);
                if let Some(model) = model {
                    cut(model, max);
                }
            }
            Self::Text { text, .. } => cut(text, max),
            Self::ToolCall { name, input, .. } => {
                cut(name, max);
                let written = input.to_string();
                if written.len() > max {
                    let mut written = written;
                    cut(&mut written, max);
                    *input = Value::String(written);
                }
            }
            Self::ToolResult { output, .. } => cut(output, max),
            Self::Notice { message, .. } => cut(message, max),
            Self::Finished(outcome) => cut(&mut outcome.text, max),
            Self::Usage { .. } => {}
        }
        self
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::turn::TurnOutcome;
    use serde_json::json;

    #[test]
    fn short_events_are_left_as_they_are() {
        let event = TurnEvent::ToolCall {
            id: Some("c1".into()),
            name: "Bash".into(),
            input: json!({"command": "ls"}),
        };
        assert_eq!(event.clone().capped(64), event);
    }

    #[test]
    fn long_texts_are_cut_on_a_character_boundary_and_marked() {
        let TurnEvent::Text { text, .. } = (TurnEvent::Text {
            text: "é".repeat(20),
            delta: false,
        })
        .capped(10) else {
            panic!("not text")
        };
        assert!(text.len() <= 10, "{text}");
        assert!(text.ends_with(CUT) && text.starts_with("ééé"), "{text}");
        let TurnEvent::Finished(outcome) = TurnEvent::Finished(TurnOutcome {
            text: "x".repeat(100),
            ..TurnOutcome::default()
        })
        .capped(10) else {
            panic!("not finished")
        };
        assert_eq!(outcome.text, format!("{}{CUT}", "x".repeat(7)));
    }

    #[test]
    fn a_long_tool_input_becomes_its_cut_text() {
        let event = TurnEvent::ToolCall {
            id: None,
            name: "Write".into(),
            input: json!({"content": "y".repeat(100)}),
        };
        let TurnEvent::ToolCall { input, .. } = event.capped(20) else {
            panic!("not a tool call")
        };
        let Value::String(text) = input else {
            panic!("not cut: {input}")
        };
        assert!(
            text.starts_with("{\"content\":\"yy") && text.len() <= 20,
            "{text}"
        );
    }
}
