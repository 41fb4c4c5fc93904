//! The OS sandbox, enforced by Landlock (`landlock` crate), and the re-exec design that
//! applies it: a sandboxed program is started as `idea sandbox-exec -- PROGRAM ARGS…` with
//! the plan in [`PLAN_ENV`]. That fresh, single-threaded process applies the plan to itself
//! ([`enforce`]) and execs the program, which keeps the restriction, as do all its
//! descendants. The parent only spawns a different command line ([`wrap`]): no `pre_exec`
//! hook, nothing allocated between fork and exec.
//!
//! A plan with mounts first enters a user and mount namespace of its own (`mounts`, `userns`,
//! `sys`): IdeA's state and git's files read-only, denied paths hidden, so that Landlock can
//! grant the project whole.
//!
//! Fail-closed: the parent refuses to spawn when the kernel cannot enforce a plan
//! ([`wrap`] checks the Landlock ABI first); the helper refuses to exec unless Landlock
//! reports the ruleset fully enforced. See `docs/sandbox.md`.

mod abi;
mod doctor;
#[cfg(target_os = "linux")]
mod enforce;
#[cfg(target_os = "linux")]
mod grant;
pub mod helper;
#[cfg(unix)]
mod host;
#[cfg(target_os = "linux")]
mod mounts;
#[cfg(target_os = "linux")]
mod sys;
#[cfg(target_os = "linux")]
mod userns;
mod wrap;

pub use abi::{REQUIRE_ABI_ENV, REQUIRED_ABI, kernel_abi, required_abi};
pub use doctor::{NamespaceSupport, namespace_support};
#[cfg(target_os = "linux")]
pub use enforce::{Enforced, enforce};
#[cfg(unix)]
pub use host::FsSandboxHost;
#[cfg(target_os = "linux")]
pub use userns::{NO_USERNS_ENV, probe};
pub use wrap::{PLAN_ENV, PROBE_FLAG, SANDBOX_EXEC, Wrapped, probe_namespaces, wrap};

use std::path::PathBuf;

/// Why a plan could not be enforced. Every variant means: the program was not started.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(transparent)]
    Plan(#[from] idea_domain::sandbox::PlanError),
    #[error(
        "this kernel cannot enforce the sandbox: it needs Landlock ABI {needed} or later, the kernel offers {}",
        offered.map_or_else(|| "none".to_owned(), |abi| format!("ABI {abi}"))
    )]
    Unsupported { needed: u8, offered: Option<u8> },
    #[error("no sandbox helper is configured (the `idea` executable): refusing to run unsandboxed")]
    NoHelper,
    #[error("Landlock refused the sandbox: {0}")]
    Landlock(String),
    #[error("Landlock enforced the sandbox only partly ({status}): refusing to run")]
    NotFullyEnforced { status: String },
    #[error("cannot open {path} for the sandbox: {source}")]
    Path {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("sandbox plan: {0}")]
    Json(String),
    #[error("cannot set up the sandbox's namespace: {step}: {source}")]
    Namespace {
        step: &'static str,
        source: std::io::Error,
    },
    #[error("cannot protect {path}: {step}: {source}")]
    Mount {
        step: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is a symbolic link: a protected path must not be one (or lie behind one)")]
    Link { path: PathBuf },
}
