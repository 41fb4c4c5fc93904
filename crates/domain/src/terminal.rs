//! Terminals: what to spawn in a PTY, and the port through which the application drives one.

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

mod size;
mod viewers;

pub use crate::sandbox::SandboxPlan;
pub use size::{TerminalSize, TerminalSizeError};
pub use viewers::{SHARED_MIN, SharedSize, Viewers};

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

    /// How it ended, in a few words: `stopped`, `killed by SIGKILL`, `exited with code 3`.
    pub fn summary(&self) -> String {
        match (&self.signal, self.stopped) {
            (_, true) => "stopped".to_owned(),
            (Some(signal), false) => format!("killed by {signal}"),
            (None, false) => format!("exited with code {}", self.code),
        }
    }

    /// The line a terminal shows once its process has ended (after everything it printed, on
    /// a line of its own, dimmed), e.g. `[process exited with code 3]`.
    pub fn terminal_line(&self) -> String {
        format!("\r\n\x1b[0;2m[process {}]\x1b[0m\r\n", self.summary())
    }
}

#[cfg(test)]
mod exit_tests {
    use super::ExitInfo;

    #[test]
    fn a_stop_reads_stopped_whatever_signal_ended_it() {
        let stop = ExitInfo {
            code: 129,
            signal: Some("SIGHUP".into()),
            stopped: true,
            hint: None,
        };
        assert_eq!(stop.summary(), "stopped");
        assert!(!stop.failed());
        let killed = ExitInfo {
            stopped: false,
            ..stop
        };
        assert_eq!(killed.summary(), "killed by SIGHUP");
        let exited = ExitInfo {
            code: 3,
            ..ExitInfo::default()
        };
        assert_eq!(exited.summary(), "exited with code 3");
        assert!(
            exited
                .terminal_line()
                .contains("[process exited with code 3]")
        );
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

/// Receives what a terminal's output tells about its program (see [`TerminalWatch`]).
pub type SignalHandler = Box<dyn Fn(crate::agent_state::TerminalSignal) + Send + Sync>;

/// What to watch for in a terminal's output, for its agent's state: BEL and OSC 9 / 777
/// notifications always, the screen through `detector`, and `quiet_after` without output.
pub struct TerminalWatch {
    pub detector: Option<crate::agent_state::ScreenDetector>,
    pub quiet_after: std::time::Duration,
    /// Called on the adapter's threads, in order; must be quick.
    pub on_signal: SignalHandler,
}

impl std::fmt::Debug for TerminalWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TerminalWatch")
            .field("detector", &self.detector)
            .field("quiet_after", &self.quiet_after)
            .finish_non_exhaustive()
    }
}

/// A client attached to a terminal: its id (for `ack`/`detach`) and the replay to show before
/// the live output that its sink will receive (no gap, no duplicate): escape sequences that
/// draw the terminal's scrollback, screen, modes and cursor as they are now, for a fresh
/// terminal of the terminal's size.
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
    /// Attaches a client; see [`Attachment`]. With the client's `size`, the terminal is
    /// resized to it first (its screen model too, even once the process has exited), so the
    /// replay is drawn for exactly the client's rows and columns.
    fn attach(&self, sink: OutputSink, size: Option<TerminalSize>) -> Attachment;
    /// [`TerminalSession::attach`], with a replay of the screen alone (no scrollback): for a
    /// client that fell behind a flood and skips to what the terminal shows now, which costs
    /// it a screen's worth of bytes instead of its backlog.
    fn attach_screen(&self, sink: OutputSink, size: Option<TerminalSize>) -> Attachment;
    fn detach(&self, attachment: u64);
    /// The client has processed `bytes` more bytes of output.
    fn ack(&self, attachment: u64, bytes: usize);
    /// Kills the process (its exit handler still runs).
    fn kill(&self);
    /// `Some` once the process has exited.
    fn exit_status(&self) -> Option<ExitInfo>;
    /// Starts watching the output for `watch` (once; a second call replaces the first). A
    /// terminal that cannot watch ignores it: the state then only follows hooks and the exit.
    fn watch(&self, watch: TerminalWatch) {
        let _ = watch;
    }
}

/// What an attach replays before live output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ReplayScope {
    /// Scrollback and screen: a client showing the terminal anew.
    #[default]
    Whole,
    /// The screen alone: a client that fell behind a flood and skips to what it shows now.
    Screen,
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
    /// What it is doing (`docs/agent-states.md`); also for a shell.
    pub state: crate::agent_state::AgentState,
    pub state_source: crate::agent_state::StateSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_reason: Option<String>,
    /// The usage limit that stopped it, while its state is `usageLimited`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_limit: Option<crate::limits::UsageLimit>,
}

impl SessionInfo {
    /// Sets `state`, `state_source` and `state_reason` from `report`.
    pub fn set_state(&mut self, report: &crate::agent_state::StateReport) {
        self.state = report.state;
        self.state_source = report.source;
        self.state_reason.clone_from(&report.reason);
        self.usage_limit.clone_from(&report.usage_limit);
    }
}
