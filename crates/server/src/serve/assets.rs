//! The web frontend (`frontend/dist`), embedded in the binary at compile time. Served to
//! anyone who reaches the server: it holds no secret (the token comes from the page's address
//! and only the API checks it), so a reload works once the address no longer carries it.

use axum::body::{Body, Bytes};
use axum::http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;

/// `build.rs` writes a placeholder `index.html` when the frontend has not been built.
#[derive(rust_embed::Embed)]
#[folder = "../../frontend/dist"]
struct Frontend;

/// The `Content-Type` of a file, by extension.
fn content_type(path: &str) -> &'static str {
    let extension = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    match extension.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// `GET` (or `HEAD`) of an embedded file: `/` and `/index.html` are the page, anything not
/// embedded is `404` (no single-page-app fallback: the UI has no client-side routes).
pub(super) async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(ALLOW, "GET, HEAD")]).into_response();
    }
    let path = match uri.path() {
        "/" => "index.html",
        other => other.trim_start_matches('/'),
    };
    let Some(file) = Frontend::get(path) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let body = match file.data {
        Cow::Borrowed(bytes) => Bytes::from_static(bytes),
        Cow::Owned(bytes) => Bytes::from(bytes),
    };
    (
        [
            (CONTENT_TYPE, content_type(path)),
            (CACHE_CONTROL, cache_control(path)),
        ],
        Body::from(body),
    )
        .into_response()
}

/// How long a browser may keep a file. Vite names each built asset after a hash of its
/// content, so `assets/…` never changes under its name; the page names this build's assets
/// and anything else may change with the next build, so those are checked every time.
fn cache_control(path: &str) -> &'static str {
    if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(
            content_type("assets/app-1a2b.JS"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("assets/app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("logo.svg"), "image/svg+xml");
        assert_eq!(content_type("LICENSE"), "application/octet-stream");
    }

    #[test]
    fn hashed_assets_are_immutable_and_the_page_is_revalidated() {
        assert_eq!(
            cache_control("assets/index-DY6fjTzt.js"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache_control("index.html"), "no-cache");
        assert_eq!(cache_control("favicon.svg"), "no-cache");
    }

    #[test]
    fn the_page_is_embedded() {
        assert!(Frontend::get("index.html").is_some());
        assert!(Frontend::get("../Cargo.toml").is_none());
    }
}
