//! Support for IdeA's end-to-end tests. The `fake-agent` binary stands in for the real agent
//! CLIs: it takes the same session flags and records what it was started with. The
//! `fake-model` binary stands in for the model providers' HTTP APIs, for the real CLIs.

pub mod fake_model;
pub mod user_setup;
