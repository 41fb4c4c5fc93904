//! Tool calls into the API: every call goes through [`crate::api`] (the door every transport
//! uses) on a blocking thread — a tool that changes state from its place in the connection's
//! order ([`in_place`]) — and an API error becomes a tool error a model can read.

use super::order::Admitted;
use crate::api::Ticket;
use idea_application::{Deps, ErrorKind, WireError};
use rmcp::model::{CallToolResult, ContentBlock};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::Arc;

/// Runs `method(params)` on a blocking thread (the API does file and process work).
///
/// # Errors
/// The API's error; `INTERNAL` when the blocking task itself failed.
pub async fn call(
    deps: &Arc<Deps>,
    method: &'static str,
    params: Value,
) -> Result<Value, WireError> {
    let deps = Arc::clone(deps);
    tokio::task::spawn_blocking(move || crate::api::call(&deps, method, Some(params)))
        .await
        .unwrap_or_else(|e| {
            Err(WireError::new(
                ErrorKind::Internal,
                format!("the request failed inside IdeA: {e}"),
            ))
        })
}

/// As [`call`], decoding the answer into `T`.
///
/// # Errors
/// As [`call`]; `INTERNAL` when the answer is not a `T`.
pub async fn call_as<T: DeserializeOwned>(
    deps: &Arc<Deps>,
    method: &'static str,
    params: Value,
) -> Result<T, WireError> {
    decoded(method, call(deps, method, params).await?)
}

/// `method`'s answer as a `T`.
///
/// # Errors
/// `INTERNAL` when the answer is not a `T`.
pub fn decoded<T: DeserializeOwned>(method: &str, answer: Value) -> Result<T, WireError> {
    serde_json::from_value(answer).map_err(|e| {
        WireError::new(
            ErrorKind::Internal,
            format!("IdeA answered {method} with an unexpected shape: {e}"),
        )
    })
}

/// Runs `work` from the tool call's place in its connection's order: on a blocking thread,
/// once the client's earlier changes have taken effect. `work` runs its API calls with
/// [`run_in_order`] and the ticket it is given.
///
/// # Errors
/// `work`'s error; `INTERNAL` when it failed inside IdeA.
pub async fn in_place<T: Send + 'static>(
    admitted: &Admitted,
    work: impl FnOnce(&mut Ticket) -> Result<T, WireError> + Send + 'static,
) -> Result<T, WireError> {
    let work = move |mut ticket: Ticket| work(&mut ticket);
    let outcome = match admitted.take() {
        Some(place) => place.run(work).await,
        // Taken already (never: each tool takes its place once): run unordered.
        None => tokio::task::spawn_blocking(move || work(Ticket::unordered()))
            .await
            .ok(),
    };
    outcome.unwrap_or_else(|| {
        Err(WireError::new(
            ErrorKind::Internal,
            "the request failed inside IdeA",
        ))
    })
}

/// Runs `method(params)` on this (blocking) thread, holding the connection's order through
/// `ticket` (an ask lets it go once queued).
///
/// # Errors
/// The API's error.
pub fn run_in_order(
    deps: &Deps,
    method: &'static str,
    params: Value,
    ticket: &mut Ticket,
) -> Result<Value, WireError> {
    let request = crate::api::decode(method, Some(params))?;
    crate::api::run(deps, request, ticket)
}

/// A successful tool result: `text` for the model, `value` as structured content.
pub fn success(text: impl Into<String>, value: Option<Value>) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = value;
    result
}

/// A successful tool result whose text is `value` as compact JSON.
pub fn json(value: Value) -> CallToolResult {
    let text = value.to_string();
    success(text, Some(value))
}

/// A tool error (`isError: true`) saying what went wrong and what to do, in words, with the
/// API's code and details as structured content for a client that acts on them.
pub fn failure(error: &WireError) -> CallToolResult {
    let code = error.code().as_str();
    let text = match hint(code) {
        Some(hint) => format!("{} ({code}). {hint}", error.message),
        None => format!("{} ({code})", error.message),
    };
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = serde_json::to_value(error).ok();
    result
}

/// A tool error from a reason of our own (an agent that is not in the list, say).
pub fn refusal(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// What a model can do about an error, by its code (matched by its wire spelling: a code the
/// API adds later reads as its message alone until it gets a hint here).
fn hint(code: &str) -> Option<&'static str> {
    Some(match code {
        "AGENT_NOT_FOUND" => "Call idea_list_agents for the agents of this project.",
        "AGENT_NAME_TAKEN" => "Pick another name, or use the existing agent.",
        "INVALID_NAME" => "Use a short name of letters, digits and spaces.",
        "PROFILE_NOT_FOUND" => "Call idea_list_profiles for the profile ids.",
        "TEMPLATE_NOT_FOUND" => "Known templates: architect, implementer, reviewer, tester.",
        "UNKNOWN_METHOD" => {
            "This IdeA does not offer that yet; tell the user rather than retrying."
        }
        "INVALID_PARAMS" => "Check the tool's arguments against its schema.",
        "NOT_ASKABLE" => "Its profile has no JSON mode IdeA can run; ask another agent.",
        "AGENT_BUSY" => "It is busy (live in a cell, or answering another request); try later.",
        "TURN_TIMEOUT" => {
            "It did not answer in time: ask again with a larger timeoutSecs (at most 600), or \
             a smaller question."
        }
        "USAGE_LIMIT" => "Its provider's usage limit is reached; ask another agent, or later.",
        "TURN_FAILED" => "It ended without an answer; rephrase, or ask another agent.",
        "CANCELLED" => "The user or IdeA cancelled the request; do not retry unasked.",
        "COMMAND_NOT_FOUND" => "Its CLI is not installed here; ask an agent of another profile.",
        "PROJECT_OWNED" | "INTERNAL" | "IO_ERROR" => "Tell the user; retrying will not help.",
        _ => return None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn text(result: &CallToolResult) -> String {
        match &result.content[0] {
            ContentBlock::Text(text) => text.text.clone(),
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn an_api_error_is_a_readable_tool_error_with_its_code() {
        let error = WireError::new(ErrorKind::AgentNotFound, "no agent \"Bob\" in this project");
        let result = failure(&error);
        assert_eq!(result.is_error, Some(true));
        let said = text(&result);
        assert!(
            said.starts_with("no agent \"Bob\" in this project (AGENT_NOT_FOUND)."),
            "{said}"
        );
        assert!(said.contains("idea_list_agents"), "{said}");
        assert_eq!(
            result.structured_content.unwrap()["code"],
            "AGENT_NOT_FOUND"
        );
    }

    #[test]
    fn an_unknown_method_says_it_is_not_offered_yet() {
        let error = WireError::new(
            ErrorKind::UnknownMethod {
                method: "askAgent".into(),
            },
            "unknown method askAgent",
        );
        let said = text(&failure(&error));
        assert!(
            said.contains("(UNKNOWN_METHOD)") && said.contains("not offer"),
            "{said}"
        );
    }
}
