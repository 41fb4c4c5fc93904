//! The OS sandbox on this machine's kernel, through the real `idea sandbox-exec` (and `idea
//! sandbox`, and the PTY host and turn runner that wrap a command with it). Landlock ABI 6 is
//! required; on a kernel without it every test says so and checks that nothing runs instead.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/world_dir.rs"]
mod world_dir;

mod sandbox {
    mod enforcement;
    mod failure;
    mod namespace;
    mod namespace_pty;
    mod scopes;
    pub mod support;
    mod wiring;
}
