//! One turn of an agent run through its CLI's JSON mode (no terminal): what a chat view shows
//! while it runs (`TurnEvent`) and what it comes to (`TurnOutcome`). How the CLI is started
//! for a turn is `turn_invocation` (from the profile's `structured` mode); the process is run
//! and its event stream read behind the `ports::TurnRunner` port (`infrastructure::turns`).

mod capped;
mod command;

pub use capped::{MAX_EVENT_TEXT, MAX_PUBLISHED_EVENTS};
pub use command::{
    TurnCli, TurnInputs, TurnInvocation, TurnSetupError, json_mode, turn_invocation,
};

use crate::limits::{LimitSighting, LimitSource, SightedReset};
use serde::{Deserialize, Serialize};

/// Tokens a turn used, as the CLI reports them. Codex counts its whole thread on a resumed
/// turn; Claude and Gemini count this run only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub input: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub output: u64,
    /// Input tokens read from the provider's cache, when the CLI says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub cached: Option<u64>,
}

/// Why a turn gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum TurnError {
    /// The provider's usage limit (a plan window used up, an exhausted daily quota, no
    /// credits left), as `limits::recognise_event` tells it from transient refusals, which are
    /// `Api`. What a resolver needs to put its reset on the clock (`limits::resolve`, through
    /// [`TurnError::limit_sighting`]): `resets_at` (Unix seconds, as the CLI gave it, no
    /// margin) or `reset_text` (its words), the window, and whether only the user can lift it.
    #[serde(rename_all = "camelCase")]
    #[error("usage limit reached: {message}")]
    UsageLimit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        resets_at: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reset_text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        needs_user: bool,
        message: String,
    },
    /// The model's API failed otherwise (an HTTP error, no connection).
    #[serde(rename_all = "camelCase")]
    #[error("API error: {message}")]
    Api {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
        message: String,
    },
    /// The CLI itself failed (a conversation it could not reopen, output that was not its
    /// JSON events).
    #[serde(rename_all = "camelCase")]
    #[error("{message}")]
    Cli { message: String },
    /// The CLI ended without an answer and without saying why.
    #[error("the agent gave no answer")]
    NoAnswer,
}

impl From<LimitSighting> for TurnError {
    fn from(sighting: LimitSighting) -> Self {
        let (resets_at, reset_text, needs_user) = match sighting.reset {
            SightedReset::Epoch(epoch) => (Some(epoch), None, false),
            SightedReset::Text(words) => (None, Some(words), false),
            SightedReset::Unknown => (None, None, false),
            SightedReset::NeedsUser => (None, None, true),
        };
        Self::UsageLimit {
            resets_at,
            reset_text,
            window: sighting.window,
            needs_user,
            message: sighting.message,
        }
    }
}

impl TurnError {
    /// A usage limit as the sighting it was made from (source: a JSON-mode event), for
    /// `limits::resolve`.
    pub fn limit_sighting(&self) -> Option<LimitSighting> {
        let Self::UsageLimit {
            resets_at,
            reset_text,
            window,
            needs_user,
            message,
        } = self
        else {
            return None;
        };
        let reset = match (resets_at, reset_text) {
            _ if *needs_user => SightedReset::NeedsUser,
            (Some(epoch), _) => SightedReset::Epoch(*epoch),
            (None, Some(words)) => SightedReset::Text(words.clone()),
            (None, None) => SightedReset::Unknown,
        };
        Some(LimitSighting {
            reset,
            window: window.clone(),
            source: LimitSource::Event,
            message: message.clone(),
        })
    }
}

/// What one turn came to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct TurnOutcome {
    /// The final answer (on an error, the CLI's own error text when it printed one).
    pub text: String,
    /// The CLI's id for the conversation, to continue it on the next turn (Claude's
    /// `session_id`, Codex's `thread_id`, Gemini's `session_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    pub is_error: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<TurnError>,
}

impl TurnOutcome {
    /// A turn that failed with `error`, keeping whatever else was learnt.
    pub fn failed(mut self, error: TurnError) -> Self {
        self.is_error = true;
        self.error = Some(error);
        self
    }
}

/// Something a chat view shows while a turn runs, in the order the CLI reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum TurnEvent {
    /// The CLI opened its conversation (a new one, or the one resumed).
    #[serde(rename_all = "camelCase")]
    Started {
        session_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    /// The agent's text: a whole message, or with `delta` a fragment to append to the
    /// previous one (Gemini streams its answer).
    #[serde(rename_all = "camelCase")]
    Text {
        text: String,
        #[serde(default)]
        delta: bool,
    },
    /// The agent called a tool (`mcp__idea__idea_list_agents`, `idea.idea_list_agents`…).
    #[serde(rename_all = "camelCase")]
    ToolCall {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        name: String,
        #[serde(default)]
        input: serde_json::Value,
    },
    /// What a tool call returned.
    #[serde(rename_all = "camelCase")]
    ToolResult {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        output: String,
        #[serde(default)]
        is_error: bool,
    },
    /// Tokens used, as the CLI reports them at the end of the turn.
    #[serde(rename_all = "camelCase")]
    Usage { usage: TokenUsage },
    /// Something the CLI reported on the way that did not end the turn (an API retry, a
    /// reconnect, a warning).
    #[serde(rename_all = "camelCase")]
    Notice {
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<u16>,
    },
    /// The CLI's last word on the turn.
    Finished(TurnOutcome),
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_usage_limit_turns_into_a_sighting_and_back() {
        for reset in [
            SightedReset::Epoch(1_796_154_740),
            SightedReset::Text("7:49 PM".into()),
            SightedReset::Unknown,
            SightedReset::NeedsUser,
        ] {
            let sighting = LimitSighting {
                reset,
                window: Some("5-hour".into()),
                source: LimitSource::Event,
                message: "You've hit your 5-hour limit".into(),
            };
            let error = TurnError::from(sighting.clone());
            assert_eq!(error.limit_sighting(), Some(sighting));
        }
        assert_eq!(TurnError::NoAnswer.limit_sighting(), None);
    }

    #[test]
    fn events_serialise_in_camel_case_with_a_type_tag() {
        let started = TurnEvent::Started {
            session_id: "s1".into(),
            model: None,
        };
        assert_eq!(
            serde_json::to_value(&started).unwrap(),
            json!({"type": "started", "sessionId": "s1"})
        );
        let finished = TurnEvent::Finished(TurnOutcome {
            text: "hi".into(),
            engine_session_id: Some("s1".into()),
            usage: Some(TokenUsage {
                input: 3,
                output: 1,
                cached: None,
            }),
            ..TurnOutcome::default()
        });
        assert_eq!(
            serde_json::to_value(&finished).unwrap(),
            json!({"type": "finished", "text": "hi", "engineSessionId": "s1",
                   "usage": {"input": 3, "output": 1}, "isError": false})
        );
    }

    #[test]
    fn errors_carry_their_kind_and_round_trip() {
        let error = TurnError::UsageLimit {
            resets_at: Some(1_700_000_000),
            reset_text: None,
            window: None,
            needs_user: false,
            message: "limit".into(),
        };
        let value = serde_json::to_value(&error).unwrap();
        assert_eq!(
            value,
            json!({"kind": "usageLimit", "resetsAt": 1_700_000_000u64, "message": "limit"})
        );
        assert_eq!(serde_json::from_value::<TurnError>(value).unwrap(), error);
        let worded = TurnError::UsageLimit {
            resets_at: None,
            reset_text: Some("7:49 PM".into()),
            window: Some("weekly".into()),
            needs_user: false,
            message: "limit".into(),
        };
        let value = serde_json::to_value(&worded).unwrap();
        assert_eq!(
            value,
            json!({"kind": "usageLimit", "resetText": "7:49 PM", "window": "weekly", "message": "limit"})
        );
        assert_eq!(serde_json::from_value::<TurnError>(value).unwrap(), worded);
        assert_eq!(
            serde_json::to_value(TurnError::NoAnswer).unwrap(),
            json!({"kind": "noAnswer"})
        );
        let outcome = TurnOutcome::default().failed(TurnError::Api {
            status: Some(500),
            message: "boom".into(),
        });
        assert!(outcome.is_error);
        assert_eq!(outcome.error.unwrap().to_string(), "API error: boom");
    }
}
