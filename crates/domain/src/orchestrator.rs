//! Requests from one party to an agent ("ask"): who asked whom, what, through which door, and
//! where the request stands. The rules of running them are the application's
//! (`orchestrator`); this is their shape on the wire and in events.

use crate::ids::{AgentId, Party, RequestId};
use crate::turn::TokenUsage;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who asked: the user, or one of the project's agents. On the wire `"user"` or the agent's
/// id (a `string` in TypeScript: fields of this type say so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Requester {
    User,
    Agent(AgentId),
}

impl Requester {
    /// The requester as one side of a conversation.
    pub fn party(self) -> Party {
        match self {
            Self::User => Party::User,
            Self::Agent(id) => Party::Agent(id),
        }
    }
}

impl fmt::Display for Requester {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::User => f.write_str("user"),
            Self::Agent(id) => id.fmt(f),
        }
    }
}

impl From<Requester> for String {
    fn from(requester: Requester) -> Self {
        requester.to_string()
    }
}

impl TryFrom<String> for Requester {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match text.trim() {
            "user" => Ok(Self::User),
            other => other
                .parse()
                .map(Self::Agent)
                .map_err(|_| format!("a requester is \"user\" or an agent id, not \"{text}\"")),
        }
    }
}

/// The door a request came through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum RequestSource {
    /// An agent's MCP tool (`idea_ask_agent`).
    Mcp,
    /// A file dropped in `.ideai/requests/<requester>/`.
    File,
    /// The user, from a front end.
    Ui,
    /// IdeA itself, for the handoff of an agent that changes engine (a summary turn: never
    /// retried after a usage limit, the transcript's draft is used instead).
    Handoff,
}

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum RequestState {
    /// Waiting for the agent's earlier requests (one turn at a time per agent).
    Queued,
    /// The agent's turn runs.
    Running,
    /// The turn hit the provider's usage limit: it runs again once the limit resets
    /// (`limitResetsAt`), and the agent's later requests wait behind it.
    WaitingForLimit,
    /// Answered.
    Done,
    /// Ended without an answer (`error` says why).
    Failed,
    /// Cancelled before it was answered.
    Cancelled,
}

impl RequestState {
    /// Whether the request is over.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Done | Self::Failed | Self::Cancelled)
    }
}

/// Why a request failed: an error code of the API (`USAGE_LIMIT`, …) and its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RequestFailure {
    pub code: String,
    pub message: String,
}

/// One request, as a requests panel lists it. Times are Unix milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RequestRecord {
    pub request_id: RequestId,
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub requester: Requester,
    pub target: AgentId,
    pub source: RequestSource,
    pub message: String,
    pub state: RequestState,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub started_at: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub finished_at: Option<u64>,
    /// The agent's answer, once `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Why it did not end `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RequestFailure>,
    /// While `waitingForLimit`: when the limit resets (Unix seconds), the turn then runs again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub limit_resets_at: Option<u64>,
}

/// The answer to an ask.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AskAnswer {
    pub request_id: RequestId,
    /// The agent's final answer.
    pub text: String,
    /// The CLI's id of the conversation the turn continued (or started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
}

/// How a processed request ended, for the `orchestratorRequestProcessed` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum RequestOutcome {
    Ok,
    /// An API error code (`TURN_TIMEOUT`, `USAGE_LIMIT`…).
    Error {
        code: String,
    },
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_requester_is_user_or_an_agent_id_on_the_wire() {
        let id = AgentId(uuid::Uuid::from_u128(7));
        assert_eq!(serde_json::to_value(Requester::User).unwrap(), "user");
        assert_eq!(
            serde_json::to_value(Requester::Agent(id)).unwrap(),
            json!(id.to_string())
        );
        let back: Requester = serde_json::from_value(json!(id.to_string())).unwrap();
        assert_eq!(back, Requester::Agent(id));
        assert!(serde_json::from_value::<Requester>(json!("Ada")).is_err());
        assert_eq!(Requester::User.party(), Party::User);
    }

    #[test]
    fn outcomes_and_states_serialise_in_camel_case() {
        assert_eq!(
            serde_json::to_value(RequestOutcome::Error {
                code: "TURN_TIMEOUT".into()
            })
            .unwrap(),
            json!({"status": "error", "code": "TURN_TIMEOUT"})
        );
        assert_eq!(
            serde_json::to_value(RequestOutcome::Ok).unwrap(),
            json!({"status": "ok"})
        );
        assert_eq!(
            serde_json::to_value(RequestState::Cancelled).unwrap(),
            "cancelled"
        );
        assert!(RequestState::Failed.is_final() && !RequestState::Queued.is_final());
    }
}
