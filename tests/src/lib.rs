//! Support for IdeA's end-to-end tests. The `fake-agent` binary stands in for the real agent
//! CLIs: it takes the same session flags and records what it was started with. The
//! `fake-model` binary stands in for the model providers' HTTP APIs, for the real CLIs. The
//! `fake-claude` and `fake-codex` binaries stand in for one JSON-mode turn of Claude Code and
//! Codex (`fake_cli`): the real flags, the real event stream, conversations that resume.

pub mod fake_cli;
pub mod fake_model;
pub mod user_setup;
