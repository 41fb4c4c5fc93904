//! The headers on every answer: no framing (another page could overlay or drive the UI), no
//! referrer, no type sniffing, and a content policy that allows only this server's scripts,
//! styles and WebSocket.

use axum::extract::State;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;

/// The content policy for a server on `port`. Inline styles stay allowed: xterm.js and React
/// set them; inline scripts do not.
pub(super) fn content_policy(port: u16) -> String {
    [
        "default-src 'self'".to_owned(),
        "script-src 'self'".to_owned(),
        "style-src 'self' 'unsafe-inline'".to_owned(),
        "img-src 'self' data: blob:".to_owned(),
        "font-src 'self' data:".to_owned(),
        // `'self'` does not cover `ws:` in every browser.
        format!("connect-src 'self' ws://127.0.0.1:{port} ws://localhost:{port}"),
        "worker-src 'self' blob:".to_owned(),
        "object-src 'none'".to_owned(),
        "base-uri 'none'".to_owned(),
        "form-action 'none'".to_owned(),
        "frame-ancestors 'none'".to_owned(),
    ]
    .join("; ")
}

/// Adds the headers to `response`; `policy` is [`content_policy`]'s.
pub(super) async fn harden(State(policy): State<HeaderValue>, mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, policy);
    for (name, value) in [
        (X_FRAME_OPTIONS, "DENY"),
        (REFERRER_POLICY, "no-referrer"),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // No window of another site keeps a handle on this one, nor embeds its files.
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_forbids_framing_and_names_the_websocket() {
        let policy = content_policy(4100);
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(policy.contains("ws://127.0.0.1:4100 ws://localhost:4100"));
        assert!(HeaderValue::from_str(&policy).is_ok());
    }
}
