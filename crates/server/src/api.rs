//! The one door every transport's calls go through (the Tauri shell, `idea serve`'s
//! WebSocket, the owner's local socket): decode by method name, run, log. The API itself —
//! methods, params, results, error codes, and what each does to the project's state — is
//! declared in the `idea-api` crate, as is the order of one client's calls
//! ([`idea_api::order`]) the WebSocket, the owner's socket and the MCP door keep.

pub use idea_api::{
    Attachments, CallOrder, Effect, Place, Request, StreamRequest, Ticket, is_stream_method, params,
};
use idea_application::{Deps, ErrorKind, WireError};
use serde_json::Value;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// Runs the request `method(params)` against an open project and logs it (method, duration,
/// outcome code; never the params, which may hold a persona or typed text).
///
/// # Errors
/// `UNKNOWN_METHOD`, `INVALID_PARAMS`, or the use case's error.
pub fn call(deps: &Deps, method: &str, params: Option<Value>) -> Result<Value, WireError> {
    let request = decode(method, params)?;
    run(deps, request, &mut Ticket::unordered())
}

/// Decodes the call `method(params)`; a call that is refused here is logged as it is answered.
///
/// # Errors
/// `UNKNOWN_METHOD`, `INVALID_PARAMS`.
pub fn decode(method: &str, params: Option<Value>) -> Result<Request, WireError> {
    Request::decode(method, params).map_err(|e| {
        let error = WireError::from(e);
        crate::logging::request(loggable(method), Duration::ZERO, error.code().as_str());
        error
    })
}

/// Runs a decoded request, holding its client's order through `ticket` (see
/// [`idea_api::handle_in_order`]), and logs it as [`call`] does.
///
/// # Errors
/// The use case's error.
pub fn run(deps: &Deps, request: Request, ticket: &mut Ticket) -> Result<Value, WireError> {
    let started = Instant::now();
    let method = request.method();
    // A use case that panics still answers (the transports answer inside the call's work).
    let answer = std::panic::catch_unwind(AssertUnwindSafe(|| {
        idea_api::handle_in_order(deps, request, ticket)
    }))
    .unwrap_or_else(|_| {
        Err(WireError::new(
            ErrorKind::Internal,
            format!("the request {method} failed inside IdeA"),
        ))
    });
    let outcome = match &answer {
        Ok(_) => "ok",
        Err(e) => e.code().as_str(),
    };
    crate::logging::request(method, started.elapsed(), outcome);
    answer
}

/// A method name as logged: an unknown one may be up to a frame's size (16 MiB); declared
/// names are short, so a cut one is always an unknown method.
fn loggable(method: &str) -> &str {
    const MAX: usize = 64;
    match method.char_indices().nth(MAX) {
        Some((end, _)) => &method[..end],
        None => method,
    }
}
