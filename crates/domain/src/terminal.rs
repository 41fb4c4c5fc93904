//! Terminals: what to spawn in a PTY, and the port through which the application drives one.

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Rows and columns of a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct TerminalSize {
    pub rows: u16,
    pub cols: u16,
}

impl Default for TerminalSize {
    fn default() -> Self {
        Self { rows: 24, cols: 80 }
    }
}

pub use crate::sandbox::SandboxPlan;

/// Everything needed to start one process in a PTY. Built by a pure function from the profile
/// and the agent; the adapter adds nothing but terminal variables (`TERM`, `COLORTERM`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SpawnSpec {
    /// The program, resolved on `PATH` by the adapter when it has no `/`.
    pub command: String,
    pub args: Vec<String>,
    /// Variables set on top of the inherited environment.
    pub env: BTreeMap<String, String>,
    /// Inherited variables removed (e.g. `TMUX`, so an agent does not think it runs in tmux).
    pub env_remove: Vec<String>,
    pub cwd: PathBuf,
    pub size: TerminalSize,
    /// Bytes typed into the PTY once it is live (stdin context injection).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdin_injection: Option<String>,
    /// The OS sandbox the process runs in (`idea sandbox-exec` applies it, then execs the
    /// program); `None` runs it natively.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxPlan>,
}

/// How a terminal's process ended, in one shape for every CLI.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ExitInfo {
    /// The exit code (a process killed by a signal reports 128 + its number).
    pub code: u32,
    /// The signal that ended it: it was killed by it, or it exited with 128 + the number of
    /// the signal IdeA had sent it (a CLI that handles SIGHUP by exiting 129, as Claude does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// IdeA ended it (Stop, Restart, closing the cell or quitting): not a failure.
    #[serde(default)]
    pub stopped: bool,
    /// What the user can do about a failure (a CLI that was never set up, a conversation that
    /// could not be reopened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl ExitInfo {
    /// It ended on its own with a non-zero status.
    pub fn failed(&self) -> bool {
        !self.stopped && self.code != 0
    }
}

/// Why a terminal operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PtyError {
    #[error("command not found: {0}")]
    CommandNotFound(String),
    #[error("cannot start {command}: {reason}")]
    SpawnFailed { command: String, reason: String },
    /// The program has a sandbox plan this machine cannot enforce: it was not started.
    #[error("cannot start {command} sandboxed: {reason}")]
    Sandbox { command: String, reason: String },
    #[error("the terminal's process has exited")]
    Closed,
    /// The program is not reading its input and the queue is full: this write is dropped.
    #[error("the terminal is not reading its input ({pending} bytes are waiting)")]
    InputFull { pending: usize },
    #[error("terminal I/O failed: {0}")]
    Io(String),
}

/// Receives a terminal's output, in order, in batches.
pub type OutputSink = Box<dyn Fn(&[u8]) + Send + Sync>;

/// Called once when the process exits.
pub type ExitHandler = Box<dyn FnOnce(ExitInfo) + Send>;

/// A client attached to a terminal: its id (for `ack`/`detach`) and the recent output to
/// replay before the live output that its sink will receive (no gap, no duplicate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub id: u64,
    pub replay: Vec<u8>,
}

/// Starts processes in PTYs.
pub trait TerminalHost: Send + Sync {
    /// Spawns `spec` as session `id`; `on_exit` runs once when the process ends.
    ///
    /// # Errors
    /// [`PtyError::CommandNotFound`], [`PtyError::SpawnFailed`].
    fn spawn(
        &self,
        id: SessionId,
        spec: &SpawnSpec,
        on_exit: ExitHandler,
    ) -> Result<Arc<dyn TerminalSession>, PtyError>;
}

/// One live PTY. Output is kept in a bounded scrollback and fanned out to attached sinks;
/// reading pauses while any attached client has too many unacknowledged bytes (flow control).
pub trait TerminalSession: Send + Sync {
    fn id(&self) -> SessionId;
    fn pid(&self) -> Option<u32>;
    /// Queues bytes for the PTY; writes are applied strictly in call order.
    ///
    /// # Errors
    /// [`PtyError::Closed`] once the process has exited.
    fn write(&self, bytes: &[u8]) -> Result<(), PtyError>;
    /// # Errors
    /// [`PtyError::Closed`], [`PtyError::Io`].
    fn resize(&self, size: TerminalSize) -> Result<(), PtyError>;
    /// Attaches a client; see [`Attachment`].
    fn attach(&self, sink: OutputSink) -> Attachment;
    fn detach(&self, attachment: u64);
    /// The client has processed `bytes` more bytes of output.
    fn ack(&self, attachment: u64, bytes: usize);
    /// Kills the process (its exit handler still runs).
    fn kill(&self);
    /// `Some` once the process has exited.
    fn exit_status(&self) -> Option<ExitInfo>;
}

/// Whether a session's process is still alive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum SessionStatus {
    Running,
    Exited,
}

/// What a front end knows about one terminal session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub session_id: SessionId,
    /// `None` for a plain shell cell.
    pub agent_id: Option<crate::ids::AgentId>,
    /// Where it is shown; `None` for a session no cell shows (its cell was closed while it
    /// ran). An ask's JSON-mode turn is not a session (see `orchestrator::RequestRecord`).
    pub cell: Option<crate::ids::CellRef>,
    pub pid: Option<u32>,
    pub status: SessionStatus,
    pub exit: Option<ExitInfo>,
    pub conversation_id: Option<crate::ids::ConversationId>,
    pub engine_session_id: Option<String>,
    /// The kernel sandbox it runs in; `None`: not sandboxed (no permission rules, or a shell).
    #[serde(default)]
    pub sandbox: Option<crate::sandbox::SandboxSummary>,
}
