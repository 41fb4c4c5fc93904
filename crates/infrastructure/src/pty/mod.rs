//! The [`TerminalHost`] port on real pseudo-terminals, with wezterm's `portable-pty`.
//!
//! [`PortablePtyHost::spawn`] execs the program directly in a new PTY (no shell in between) and
//! returns a [`PtySession`]. Per session:
//!
//! - **Output** is read by a dedicated thread, which hands the first read after a quiet
//!   [`PtyConfig::batch_interval`] (a keystroke's echo) to the sinks at once and coalesces what
//!   follows into batches (at most one per interval, or one per [`PtyConfig::batch_bytes`]);
//!   every batch is handed to every attached sink, then fed to the session's terminal model
//!   (`model`: screen and bounded scrollback, reflowed on resize). `attach` resizes the
//!   terminal to the client's size and returns the model written out as escape sequences as
//!   the replay, under the same lock, so a client sees no gap and no duplicate.
//! - **Flow control** follows xterm.js's watermark/ack pattern: while a client has more than
//!   [`PtyConfig::high_watermark`] bytes unacknowledged, reading stops (and so, through the
//!   kernel buffer, does the child), until every client is back under
//!   [`PtyConfig::low_watermark`]. Without clients, output only feeds the model.
//! - **Input** is written on the caller's thread when nothing is queued ahead of it and the
//!   PTY takes it without blocking, otherwise queued for one writer thread; either way writes
//!   apply in call order, never interleaved, and a caller never blocks.
//! - **Exit** is reported once, to `on_exit`, after the last output reached the sinks.
//!   Dropping the last handle of a running session kills its process.
//!
//! Contract for clients: a sink runs on the session's reader or pump thread, outside the
//! output lock (but in order, one batch at a time), so it must be quick (forward the bytes,
//! don't render them) and may call back into the session (`ack`, `detach`). It may be called
//! as soon as `attach` has registered it, possibly before the caller has dealt with the
//! replay: a client shows the replay first and queues what its sink receives meanwhile. The
//! replay counts as delivered and unacknowledged, like live output: acknowledge both.
//!
//! File map: `command` (program, cwd, environment), `model` (the terminal model and the
//! replay written from it), `fanout` (clients and watermarks), `output` (the locked hub
//! joining the two), `pump` (reader + batching), `writer`
//! (input: direct writes and the queue), `exit` (reaping), `session` (threads and the session
//! handle), `watch` (the screen model behind agent states: `vt100`, BEL/OSC notifications,
//! the CLI's screen detector, quiet output).

pub(crate) mod command;
pub(crate) mod exit;
mod fanout;
mod model;
mod output;
mod pump;
#[cfg(target_os = "linux")]
mod reaper;
mod session;
#[cfg(target_os = "linux")]
mod sweep;
mod trim;
mod watch;
mod writer;

pub use session::PtySession;

use idea_domain::ids::SessionId;
use idea_domain::terminal::{
    ExitHandler, PtyError, SpawnSpec, TerminalHost, TerminalSession, TerminalSize,
};
use portable_pty::{Child, CommandBuilder, PtyPair, PtySize, SlavePty, native_pty_system};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Tuning of every session a [`PortablePtyHost`] starts. The defaults suit an interactive
/// agent CLI shown in xterm.js.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtyConfig {
    /// Lines kept above the screen for the replay on attach; older lines are dropped. 10 000,
    /// the frontend's xterm.js `scrollback` (`frontend/src/terminal/theme.ts`).
    pub scrollback_lines: usize,
    /// Reading pauses while any client has more unacknowledged bytes than this. 512 KiB.
    pub high_watermark: usize,
    /// Reading resumes once every client is at or below this. 128 KiB.
    pub low_watermark: usize,
    /// A batch is flushed this long after its first byte arrived. 16 ms (one frame at 60 Hz).
    pub batch_interval: Duration,
    /// ...or as soon as it holds this many bytes. 64 KiB.
    pub batch_bytes: usize,
    /// Size of one blocking read of the PTY. 16 KiB.
    pub read_buffer_bytes: usize,
    /// After the child exits, how long to wait for the rest of its output before reporting
    /// the exit anyway (a background grandchild may keep the terminal open). 2 s.
    pub exit_drain_timeout: Duration,
    /// `kill` escalates SIGHUP → SIGTERM → SIGKILL, waiting this long after each of the first
    /// two (Gemini CLI ignores SIGHUP but saves and exits on SIGTERM). 1.5 s.
    pub kill_grace: Duration,
    /// The `idea` executable that applies a spec's sandbox plan (`idea sandbox-exec`); without
    /// it a spec with a plan is refused. `None` by default; the composition root sets it.
    pub sandbox_helper: Option<PathBuf>,
}

impl PtyConfig {
    /// [`PtyConfig::scrollback_lines`]'s default.
    pub const DEFAULT_SCROLLBACK_LINES: usize = 10_000;

    /// The longest a stop can take before the last signal (SIGKILL) is sent: SIGHUP, SIGTERM,
    /// SIGKILL to the terminal's process group, then the same grace twice for the processes
    /// that left it (see `sweep`).
    pub fn stop_escalation(&self) -> Duration {
        self.kill_grace * 4
    }
}

impl Default for PtyConfig {
    fn default() -> Self {
        Self {
            scrollback_lines: Self::DEFAULT_SCROLLBACK_LINES,
            high_watermark: 512 * 1024,
            low_watermark: 128 * 1024,
            batch_interval: Duration::from_millis(16),
            batch_bytes: 64 * 1024,
            read_buffer_bytes: 16 * 1024,
            exit_drain_timeout: Duration::from_secs(2),
            kill_grace: Duration::from_millis(1_500),
            sandbox_helper: None,
        }
    }
}

/// Starts processes in pseudo-terminals of the operating system.
#[derive(Debug, Clone, Default)]
pub struct PortablePtyHost {
    config: PtyConfig,
}

impl PortablePtyHost {
    /// A host with the default [`PtyConfig`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A host whose sessions use `config`.
    pub fn with_config(config: PtyConfig) -> Self {
        Self { config }
    }

    /// [`TerminalHost::spawn`], returning the concrete session type.
    ///
    /// # Errors
    /// [`PtyError::CommandNotFound`] when `spec.command` is not an executable (on `PATH` when
    /// it has no `/`); [`PtyError::SpawnFailed`] when the working directory is missing or the
    /// PTY or the process cannot be created; [`PtyError::Io`] when the session's threads
    /// cannot be started.
    pub fn spawn_session(
        &self,
        id: SessionId,
        spec: &SpawnSpec,
        on_exit: ExitHandler,
    ) -> Result<Arc<PtySession>, PtyError> {
        // Every process of the session carries its id, so Stop finds those that detached.
        #[cfg(target_os = "linux")]
        let marked = {
            let mut marked = spec.clone();
            marked
                .env
                .insert(sweep::SESSION_MARKER.to_owned(), id.to_string());
            marked
        };
        #[cfg(target_os = "linux")]
        let spec = &marked;
        let command = command::build(
            spec,
            std::env::vars_os(),
            self.config.sandbox_helper.as_deref(),
        )?;
        let spawn_failed = |reason: String| PtyError::SpawnFailed {
            command: spec.command.clone(),
            reason,
        };
        let PtyPair { slave, master } = native_pty_system()
            .openpty(pty_size(spec.size))
            .map_err(|e| spawn_failed(format!("cannot open a pty: {e:#}")))?;
        let child = spawn_child(slave.as_ref(), command).map_err(spawn_failed)?;
        // The parent's copy of the slave must go now: the reader only sees end of file once
        // every slave descriptor is closed, i.e. when the child (and its children) are gone.
        drop(slave);
        let session = session::start(id, &self.config, spec.size, master, child, on_exit)?;
        if let Some(text) = &spec.stdin_injection {
            // Through the ordered writer, ahead of anything a client types. A child that is
            // already gone makes this `Closed`, which its exit report already tells.
            let _ = session.write(text.as_bytes());
        }
        Ok(session)
    }
}

impl TerminalHost for PortablePtyHost {
    fn spawn(
        &self,
        id: SessionId,
        spec: &SpawnSpec,
        on_exit: ExitHandler,
    ) -> Result<Arc<dyn TerminalSession>, PtyError> {
        let session: Arc<dyn TerminalSession> = self.spawn_session(id, spec, on_exit)?;
        Ok(session)
    }
}

/// Starts `command` on the slave side; the error is portable-pty's, formatted with its causes.
/// A sandboxed spec's command is `idea sandbox-exec` already (see `command::build`), so nothing
/// runs in the child between fork and exec but portable-pty's own terminal set-up.
fn spawn_child(
    slave: &(dyn SlavePty + Send),
    command: CommandBuilder,
) -> Result<Box<dyn Child + Send + Sync>, String> {
    slave.spawn_command(command).map_err(|e| format!("{e:#}"))
}

fn pty_size(size: TerminalSize) -> PtySize {
    PtySize {
        rows: size.rows,
        cols: size.cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// Locks a mutex even if a panic poisoned it: every critical section here leaves the state
/// consistent, and one failing client must not take the terminal down.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
