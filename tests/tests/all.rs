//! End-to-end tests: the real store, real PTYs and the fake agent CLI, wired as the product
//! wires them (no fake of our own ports here).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "realcli/process.rs"]
mod process;
mod suite;
mod support;
#[path = "realcli/wire.rs"]
#[allow(
    dead_code,
    reason = "the terminal half of the wire is for the real-CLI suite"
)]
mod wire;
