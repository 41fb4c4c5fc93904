//! Who may talk to the server: the `Host` and `Origin` checks on every route, the secret
//! token (see `token`) on the API (`/ws`).
//!
//! The token keeps other local users and processes out. It is never a cookie: browsers send
//! cookies to every port of a host, so any local web service the user visits would learn
//! it. The page keeps it in `sessionStorage` and presents it as `/ws?token=`. The static
//! shell (`index.html`, scripts, styles) holds no secret and loads without it.
//!
//! The `Host` check keeps out pages of other names that resolve to 127.0.0.1 (DNS
//! rebinding); the `Origin` check keeps out pages of other sites (a page elsewhere can make
//! the browser open `ws://127.0.0.1:PORT/ws`). Both come before any upgrade.

use super::Shared;
use super::limits::Ticket;
use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::header::{CONNECTION, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

/// Compares two secrets in time independent of where they differ.
fn same_secret(given: &str, expected: &str) -> bool {
    let (given, expected) = (given.as_bytes(), expected.as_bytes());
    if given.len() != expected.len() {
        return false;
    }
    let diff = given
        .iter()
        .zip(expected)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    std::hint::black_box(diff) == 0
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The names this server answers to: `127.0.0.1:PORT` and `localhost:PORT` (bare on port 80,
/// where browsers leave the port out).
fn is_local_authority(authority: &str, port: u16) -> bool {
    let (host, given_port) = match authority.rsplit_once(':') {
        Some((host, given)) => (host, given.parse::<u16>().ok()),
        None => (authority, Some(80)),
    };
    given_port == Some(port) && (host == "127.0.0.1" || host.eq_ignore_ascii_case("localhost"))
}

/// Whether the request names this server: one `Host`, local (and so the request target, if
/// it names a host).
fn host_allowed(headers: &HeaderMap, uri: &Uri, port: u16) -> bool {
    let mut hosts = headers.get_all(HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return false;
    };
    host.to_str().is_ok_and(|h| is_local_authority(h, port))
        && uri
            .authority()
            .is_none_or(|a| is_local_authority(a.as_str(), port))
}

/// Whether an `Origin` header (if any) is this server's own page.
fn origin_allowed(headers: &HeaderMap, port: u16) -> bool {
    let mut origins = headers.get_all(ORIGIN).iter();
    let Some(origin) = origins.next() else {
        return true; // not a browser cross-origin request: the token decides
    };
    if origins.next().is_some() {
        return false;
    }
    origin
        .to_str()
        .ok()
        .and_then(|o| o.strip_prefix("http://"))
        .is_some_and(|authority| is_local_authority(authority, port))
}

/// A refusal; the connection closes after it.
fn refuse(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CONNECTION, "close"),
        ],
        body,
    )
        .into_response()
}

/// In front of every route: `403` for a foreign `Host` or `Origin`.
pub(super) async fn guard(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    if !host_allowed(request.headers(), request.uri(), shared.port) {
        tracing::debug!(uri = %request.uri().path(), "refused: foreign Host");
        return refuse(
            StatusCode::FORBIDDEN,
            "forbidden: open 127.0.0.1 or localhost, as `idea serve` printed\n",
        );
    }
    if !origin_allowed(request.headers(), shared.port) {
        tracing::debug!(uri = %request.uri().path(), "refused: foreign Origin");
        return refuse(StatusCode::FORBIDDEN, "forbidden: foreign origin\n");
    }
    next.run(request).await
}

/// In front of the API routes: `401` without `?token=`; with it, the connection is trusted
/// (see `limits`).
pub(super) async fn require_token(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let given = Query::<TokenQuery>::try_from_uri(request.uri())
        .ok()
        .and_then(|q| q.0.token);
    if !given.is_some_and(|t| same_secret(&t, &shared.token)) {
        tracing::debug!(uri = %request.uri().path(), "refused: no token or a wrong one");
        return refuse(
            StatusCode::UNAUTHORIZED,
            "unauthorised: open the URL `idea serve` printed (it carries the token)\n",
        );
    }
    if let Some(ConnectInfo(ticket)) = request.extensions().get::<ConnectInfo<Ticket>>() {
        ticket.trust();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn secrets_compare_exactly() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abd", "abc"));
        assert!(!same_secret("ab", "abc"));
        assert!(!same_secret("", "abc"));
    }

    #[test]
    fn only_this_servers_names_are_allowed_as_host() {
        let uri = Uri::from_static("/");
        let mut headers = HeaderMap::new();
        assert!(!host_allowed(&headers, &uri, 4100), "no Host");
        for (host, ok) in [
            ("127.0.0.1:4100", true),
            ("localhost:4100", true),
            ("LocalHost:4100", true),
            ("127.0.0.1:4101", false),
            ("127.0.0.1", false),
            ("evil.example:4100", false),
            ("127.0.0.1.evil.example:4100", false),
            ("[::1]:4100", false),
        ] {
            headers.insert(HOST, HeaderValue::from_static(host));
            assert_eq!(host_allowed(&headers, &uri, 4100), ok, "{host}");
        }
        headers.insert(HOST, HeaderValue::from_static("127.0.0.1:4100"));
        headers.append(HOST, HeaderValue::from_static("127.0.0.1:4100"));
        assert!(!host_allowed(&headers, &uri, 4100), "two Host headers");
        headers.insert(HOST, HeaderValue::from_static("127.0.0.1:4100"));
        let absolute = Uri::from_static("http://evil.example:4100/");
        assert!(!host_allowed(&headers, &absolute, 4100), "a foreign target");
        assert!(is_local_authority("localhost", 80));
    }

    #[test]
    fn only_this_servers_origins_are_allowed() {
        let mut headers = HeaderMap::new();
        assert!(origin_allowed(&headers, 4100));
        for (origin, ok) in [
            ("http://127.0.0.1:4100", true),
            ("http://localhost:4100", true),
            ("http://127.0.0.1:4101", false),
            ("https://127.0.0.1:4100", false),
            ("http://evil.example", false),
            ("null", false),
        ] {
            headers.insert(ORIGIN, HeaderValue::from_static(origin));
            assert_eq!(origin_allowed(&headers, 4100), ok, "{origin}");
        }
    }
}
