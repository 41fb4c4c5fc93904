//! Requests to agents: one party asks an agent, which answers in one JSON-mode turn of its
//! CLI. Turns of one agent run one at a time, first in first out; different agents answer in
//! parallel. The MCP server, the file-drop folder and the UI all come through [`ask`].

mod ask;
mod events;
mod registry;
mod turn;

pub use ask::{Ask, DEFAULT_TURN_TIMEOUT, MAX_WAIT, ask, ask_then};
pub use registry::{KEEP, RequestRegistry};

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::RequestId;
use idea_domain::orchestrator::RequestRecord;

/// The recent requests (the last [`KEEP`] finished ones and every one in flight), oldest
/// first.
pub fn list(deps: &Deps) -> Vec<RequestRecord> {
    deps.requests.list()
}

/// Cancels a request: a queued one leaves its line, a running turn is killed; either ends
/// `CANCELLED`. A finished request is left as it is.
///
/// # Errors
/// `REQUEST_NOT_FOUND`.
pub fn cancel(deps: &Deps, request: RequestId) -> AppResult<()> {
    if deps.requests.cancel(request) {
        Ok(())
    } else {
        Err(AppError::RequestNotFound(request.to_string()))
    }
}

/// Cancels every request in flight (the project is closing).
pub fn cancel_all(deps: &Deps) {
    for request in deps.requests.in_flight() {
        deps.requests.cancel(request);
    }
}
