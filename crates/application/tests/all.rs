//! The application's tests, one binary: use cases against in-memory fakes of the ports, and
//! the same use cases against the real file-system store.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
mod support;
