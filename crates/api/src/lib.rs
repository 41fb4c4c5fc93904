//! IdeA's request API, independent of any transport.
//!
//! [`methods`] declares every method once: its wire name, params type, result type and the
//! error codes it can return. From that one list come the [`Request`] enum, the decoder (by
//! method name, never by parsing serde's messages), the dispatcher [`handle`], the TypeScript
//! method map (`frontend/src/generated/Methods.ts`, feature `ts`) and the completeness test
//! against `docs/api.md`. The Tauri shell, `idea serve`'s WebSocket and the owner's local
//! socket all decode a call with [`Request::decode`] and run it with [`handle`].

#[macro_use]
mod table;
mod attachments;
mod handlers;
pub mod methods;
pub mod params;
#[cfg(feature = "ts")]
mod ts;

pub use attachments::Attachments;
pub use methods::{METHODS, Request, STREAM_METHODS, StreamRequest};
pub use table::{DecodeError, MethodSpec};

use idea_application::{Deps, WireError};
use serde_json::Value;

/// Runs one request against an open project and encodes its result.
///
/// # Errors
/// The use case's error as a [`WireError`].
pub fn handle(deps: &Deps, request: Request) -> Result<Value, WireError> {
    request.dispatch(deps)
}

/// Whether `method` is a terminal-stream method (handled by the transport, not [`handle`]).
pub fn is_stream_method(method: &str) -> bool {
    STREAM_METHODS.iter().any(|m| m.name == method)
}

/// Every declared method, request and stream alike.
pub fn all_methods() -> impl Iterator<Item = &'static MethodSpec> {
    METHODS.iter().chain(STREAM_METHODS.iter())
}
