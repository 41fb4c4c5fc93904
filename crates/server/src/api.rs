//! The one door every transport's calls go through (the Tauri shell, `idea serve`'s
//! WebSocket, the owner's local socket): decode by method name, run, log. The API itself —
//! methods, params, results, error codes — is declared in the `idea-api` crate.

pub use idea_api::{Attachments, Request, StreamRequest, is_stream_method, params};
use idea_application::{Deps, WireError};
use serde_json::Value;
use std::time::Instant;

/// Runs the request `method(params)` against an open project and logs it (method, duration,
/// outcome code; never the params, which may hold a persona or typed text).
///
/// # Errors
/// `UNKNOWN_METHOD`, `INVALID_PARAMS`, or the use case's error.
pub fn call(deps: &Deps, method: &str, params: Option<Value>) -> Result<Value, WireError> {
    let started = Instant::now();
    let answer = Request::decode(method, params)
        .map_err(WireError::from)
        .and_then(|request| idea_api::handle(deps, request));
    let outcome = match &answer {
        Ok(_) => "ok",
        Err(e) => e.code().as_str(),
    };
    crate::logging::request(loggable(method), started.elapsed(), outcome);
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
