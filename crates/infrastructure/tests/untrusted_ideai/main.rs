//! A repository's `.ideai/` is untrusted input: whatever a cloned project commits there
//! (symlinks, leftover temp files, a layout nested past what the reader takes) must neither
//! reach outside the project nor brick it. Each test replays one attack against the real store.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hygiene;
mod layouts;
mod symlinks;
mod world;
