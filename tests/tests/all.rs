//! End-to-end tests: the real store, real PTYs and the fake agent CLI, wired as the product
//! wires them (no fake of our own ports here).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
mod support;
