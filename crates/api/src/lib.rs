//! IdeA's request API, independent of any transport.
//!
//! [`methods`] declares every method once: its wire name, params type, result type and the
//! error codes it can return. From that one list come the [`Request`] enum, the decoder (by
//! method name, never by parsing serde's messages), the dispatcher [`handle`], the TypeScript
//! method map (`frontend/src/generated/Methods.ts`, feature `ts`) and the completeness test
//! against `docs/api.md`. The Tauri shell, `idea serve`'s WebSocket and the owner's local
//! socket all decode a call with [`Request::decode`] and run it with [`handle`]; those that
//! order their clients' calls ([`order`]) run it with [`handle_in_order`].

#[macro_use]
mod table;
mod attachments;
mod handlers;
pub mod knowledge;
pub mod methods;
pub mod order;
pub mod params;
#[cfg(feature = "ts")]
mod ts;

pub use attachments::Attachments;
pub use methods::{METHODS, Request, STREAM_METHODS, StreamRequest};
pub use order::{CallOrder, Place, Ticket};
pub use table::{DecodeError, Effect, MethodSpec};

use idea_application::{Deps, WireError};
use serde_json::Value;

/// Runs one request against an open project and encodes its result.
///
/// # Errors
/// The use case's error as a [`WireError`].
pub fn handle(deps: &Deps, request: Request) -> Result<Value, WireError> {
    request.dispatch(deps)
}

/// As [`handle`], for a call that holds its client's order through `ticket`: an ask lets the
/// client's next write start once it is queued, not once it is answered (its effect is
/// [`Effect::Queues`]); any other call holds the order until it returns.
///
/// # Errors
/// The use case's error as a [`WireError`].
pub fn handle_in_order(
    deps: &Deps,
    request: Request,
    ticket: &mut Ticket,
) -> Result<Value, WireError> {
    match request {
        Request::AskAgent(params) => {
            let answer = handlers::ask_agent_then(deps, params, || ticket.took_effect());
            let answer = answer.map_err(|e| e.to_wire())?;
            serde_json::to_value(answer).map_err(|e| {
                WireError::new(
                    idea_application::ErrorKind::Internal,
                    format!("cannot encode the result: {e}"),
                )
            })
        }
        request => request.dispatch(deps),
    }
}

/// Whether `method` is a terminal-stream method (handled by the transport, not [`handle`]).
pub fn is_stream_method(method: &str) -> bool {
    STREAM_METHODS.iter().any(|m| m.name == method)
}

/// Every declared method, request and stream alike.
pub fn all_methods() -> impl Iterator<Item = &'static MethodSpec> {
    METHODS.iter().chain(STREAM_METHODS.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`handle_in_order`] knows when each of these is queued: a method declared `Queues` it
    /// does not know would hold its client's order like a write.
    #[test]
    fn the_only_method_that_queues_is_the_ask() {
        let queues: Vec<_> = all_methods()
            .filter(|m| m.effect == Effect::Queues)
            .map(|m| m.name)
            .collect();
        assert_eq!(queues, ["askAgent"]);
    }
}
