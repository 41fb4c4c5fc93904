//! Who may talk to the server: the secret token (query or cookie) and the `Origin` check.
//!
//! The token keeps other local users and processes out; the `Origin` check keeps other web
//! sites out (a page elsewhere can make the browser open `ws://127.0.0.1:PORT/ws`, and the
//! browser would attach the cookie). Both apply to every route, `/ws` included, before any
//! upgrade.

use super::Shared;
use axum::extract::{Query, Request, State};
use axum::http::header::{COOKIE, ORIGIN, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

const COOKIE_NAME: &str = "idea_token";

/// A fresh random token: 32 hex digits (the 122 random bits of a v4 uuid).
pub(super) fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// Checks a `--token`: it travels in a URL and a cookie, so only URL-safe characters.
///
/// # Errors
/// Why the token cannot be used.
pub(super) fn check_token(token: &str) -> Result<(), String> {
    if token.is_empty() {
        return Err("the token must not be empty".into());
    }
    if let Some(bad) = token
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
    {
        return Err(format!(
            "the token may only hold letters, digits and - . _ ~ (found {bad:?})"
        ));
    }
    Ok(())
}

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

/// Every value of the `idea_token` cookie the request carries.
fn cookie_tokens(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.trim_matches('"'))
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
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    origin == format!("http://127.0.0.1:{port}") || origin == format!("http://localhost:{port}")
}

fn plain(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [("content-type", "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// The middleware in front of every route: `403` for a foreign `Origin`, `401` without the
/// token; `GET /?token=T` also sets the cookie so the page's later requests carry it.
pub(super) async fn guard(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    if !origin_allowed(request.headers(), shared.port) {
        return plain(StatusCode::FORBIDDEN, "forbidden: foreign origin\n");
    }
    let query_token = Query::<TokenQuery>::try_from_uri(request.uri())
        .ok()
        .and_then(|q| q.0.token);
    let by_query = query_token
        .as_deref()
        .is_some_and(|t| same_secret(t, &shared.token));
    let by_cookie = cookie_tokens(request.headers()).any(|t| same_secret(t, &shared.token));
    if !by_query && !by_cookie {
        return plain(
            StatusCode::UNAUTHORIZED,
            "unauthorised: open the URL `idea serve` printed (it carries the token)\n",
        );
    }
    let is_page = matches!(request.uri().path(), "/" | "/index.html");
    let mut response = next.run(request).await;
    if by_query && is_page && response.status().is_success() {
        let cookie = format!(
            "{COOKIE_NAME}={}; HttpOnly; SameSite=Strict; Path=/",
            shared.token
        );
        if let Ok(cookie) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, cookie);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn random_tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(check_token(&a).is_ok());
    }

    #[test]
    fn tokens_that_would_break_a_url_or_cookie_are_refused() {
        for bad in ["", "a b", "a;b", "a=b", "a\"b", "é"] {
            assert!(check_token(bad).is_err(), "{bad:?}");
        }
        assert!(check_token("Secret-1.2_3~").is_ok());
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abd", "abc"));
        assert!(!same_secret("ab", "abc"));
        assert!(!same_secret("", "abc"));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("a=1; idea_token=t0k; b=2"));
        assert_eq!(cookie_tokens(&headers).collect::<Vec<_>>(), ["t0k"]);
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
