//! One run of a project tool (`docs/project-tools.md`): the process IdeA starts for an agent's
//! MCP call, and what came of it. The adapter spawns it without a shell, in a process group of
//! its own, under the calling agent's sandbox plan.

use crate::sandbox::SandboxPlan;
use std::path::PathBuf;
use std::time::Duration;

/// A tool's process to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRun {
    /// The program as written in the tool's `run` line: `./x` is the tool's folder, a bare
    /// name is looked up in `PATH`, anything else is used as given.
    pub program: String,
    pub args: Vec<String>,
    /// The tool's folder: its working directory and what `./` means.
    pub cwd: PathBuf,
    /// Variables set on top of IdeA's own environment.
    pub env: Vec<(String, String)>,
    /// The calling agent's kernel sandbox; `None` runs natively (no permission rules).
    pub sandbox: Option<SandboxPlan>,
    /// Killed (its whole process group) after this long.
    pub timeout: Duration,
    /// At most this many characters of stdout and of stderr are kept, each.
    pub output_cap: usize,
}

/// How a tool's process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRunOutput {
    /// `None` when a signal ended it.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Output beyond `output_cap` was dropped (from stdout or stderr).
    pub truncated: bool,
    /// The timeout killed it.
    pub timed_out: bool,
}

impl ToolRunOutput {
    /// Exited by itself with status 0.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }
}

/// Why a tool's process could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolRunError {
    #[error("program not found: {0}")]
    ProgramNotFound(String),
    #[error("the tool cannot run sandboxed: {0}")]
    Sandbox(String),
    #[error("the tool could not start: {0}")]
    Spawn(String),
}

/// Starts project tools' processes and waits for them.
pub trait ToolProcesses: Send + Sync {
    /// Runs `run` to its end (or its timeout), blocking the calling thread.
    ///
    /// # Errors
    /// [`ToolRunError`]: nothing ran.
    fn run(&self, run: &ToolRun) -> Result<ToolRunOutput, ToolRunError>;
}

/// A tool call waiting for the user's answer (a permission rule said `ask`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolApproval {
    pub approval_id: String,
    pub agent_id: crate::AgentId,
    pub agent_name: String,
    pub tool: String,
    /// The call's arguments, as the agent sent them.
    pub arguments: serde_json::Value,
    /// The rule that asks, and its file; `None` when no rule applied (asking is the default).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Unix seconds.
    pub asked_at: u64,
}

/// One run of a project tool, as the UI lists the last ones.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolRunRecord {
    pub tool: String,
    /// The agent's name, or `user` for `idea tool run`.
    pub caller: String,
    /// Unix seconds.
    pub started_at: u64,
    pub duration_ms: u64,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// `allowed`, `denied`, `refused` (bad arguments) or `failed` (could not start).
    pub outcome: String,
}
