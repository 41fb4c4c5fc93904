//! One live PTY: its threads and the [`TerminalSession`] handle over them.
//!
//! Up to four threads per session, each ending on its own once the child has exited:
//! - the *reader* does blocking reads of the master and publishes or batches them into the
//!   [`OutputHub`] itself (ends at EOF/EIO);
//! - the *pump* flushes batches that fall due while the PTY is quiet, then runs `on_exit`
//!   (ends last);
//! - the *writer* applies input the PTY could not take at once; it starts the first time input
//!   has to wait (a large paste into a busy program), and ends when the waiter closes the queue;
//! - the *waiter* reaps the child, records the exit and releases the PTY; on Linux it only
//!   starts once the child has exited (`reaper` watches every session's child from one
//!   thread), elsewhere it waits from the start.

use super::exit::{signal_name_of_exit, wait_for_exit};
use super::output::OutputHub;
use super::pump::{self, Batching, ExitReporter, Pump};
use super::watch::ScreenWatch;
use super::writer::{Input, MasterFd};
use super::{PtyConfig, lock, pty_size};
use idea_domain::ids::SessionId;
use idea_domain::terminal::{
    Attachment, ExitHandler, ExitInfo, OutputSink, PtyError, ReplayScope, TerminalSession,
    TerminalSize, TerminalWatch,
};
use portable_pty::{Child, ChildKiller, MasterPty};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

/// A live PTY session, as returned by [`super::PortablePtyHost::spawn_session`].
///
/// Dropping the last handle kills the process (its exit handler still runs), so a session
/// nobody holds cannot outlive its cell.
pub struct PtySession {
    shared: Arc<Shared>,
}

/// What the handle and the threads share.
struct Shared {
    id: SessionId,
    pid: Option<u32>,
    output: OutputHub,
    /// Publishes the output; a resize holds it (see [`Pump::between_batches`]).
    pump: Arc<Pump>,
    input: Input,
    /// Kept for `resize`; dropped by the waiter so the PTY is released at exit.
    master: Mutex<Option<Box<dyn MasterPty + Send>>>,
    killer: Mutex<Box<dyn ChildKiller + Send + Sync>>,
    exit: Mutex<Option<ExitInfo>>,
    /// Signalled when `exit` is set (the kill escalation waits on it).
    exited: Condvar,
    kill_started: AtomicBool,
    /// Bit `n` is set once IdeA has sent signal number `n` (to name a `128 + n` exit).
    signals_sent: AtomicU64,
    kill_grace: Duration,
}

impl fmt::Debug for PtySession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PtySession")
            .field("id", &self.shared.id)
            .field("pid", &self.shared.pid)
            .field("exit", &self.exit_status())
            .finish_non_exhaustive()
    }
}

/// Starts the threads of a freshly spawned child. On error the child is killed and reaped.
pub(crate) fn start(
    id: SessionId,
    config: &PtyConfig,
    size: TerminalSize,
    master: Box<dyn MasterPty + Send>,
    mut child: Box<dyn Child + Send + Sync>,
    on_exit: ExitHandler,
) -> Result<Arc<PtySession>, PtyError> {
    let io = master
        .try_clone_reader()
        .and_then(|reader| Ok((reader, master.take_writer()?)));
    let (reader, writer) = match io {
        Ok(io) => io,
        Err(e) => {
            abandon(child.as_mut());
            return Err(PtyError::Io(format!("{e:#}")));
        }
    };
    #[cfg(unix)]
    let direct = master.as_raw_fd().and_then(MasterFd::duplicate);
    #[cfg(not(unix))]
    let direct = None;
    let writer_name = thread_name('w', id);
    let input = Input::new(
        writer,
        direct,
        Box::new(move |write_loop| spawn_named(&writer_name, write_loop)),
    );
    let output = OutputHub::new(
        config.scrollback_lines,
        config.high_watermark,
        config.low_watermark,
    );
    output.resize(size);
    let pump = Pump::new(Batching {
        interval: config.batch_interval,
        max_bytes: config.batch_bytes,
        exit_drain: config.exit_drain_timeout,
    });
    let shared = Arc::new(Shared {
        id,
        pid: child.process_id(),
        output,
        pump: Arc::clone(&pump),
        input,
        master: Mutex::new(Some(master)),
        killer: Mutex::new(child.clone_killer()),
        exit: Mutex::new(None),
        exited: Condvar::new(),
        kill_started: AtomicBool::new(false),
        signals_sent: AtomicU64::new(0),
        kill_grace: config.kill_grace,
    });

    let read_buffer = config.read_buffer_bytes;
    let (reader_pump, reader_shared) = (Arc::clone(&pump), Arc::clone(&shared));
    let started = spawn_named(&thread_name('r', id), move || {
        pump::read_loop(reader, &reader_pump, &reader_shared.output, read_buffer);
    });
    if let Err(e) = started {
        abandon(child.as_mut());
        return Err(e);
    }

    let waiter_shared = Arc::clone(&shared);
    let exits = pump.exit_reporter();
    let waiter: Box<dyn FnOnce() + Send> = Box::new(move || {
        let mut child = child;
        watch_child(&waiter_shared, child.as_mut(), &exits);
    });
    // One thread notices every session's exit; a waiting thread of its own where it cannot.
    #[cfg(target_os = "linux")]
    let waiter = match shared.pid {
        Some(pid) => super::reaper::when_exited(pid, thread_name('x', id), waiter),
        None => Err(waiter),
    };
    #[cfg(not(target_os = "linux"))]
    let waiter: Result<(), Box<dyn FnOnce() + Send>> = Err(waiter);
    if let Err(e) = waiter.or_else(|waiter| spawn_named(&thread_name('x', id), waiter)) {
        // The child went down with the closure and cannot be reaped any more; at least stop it.
        shared.kill();
        return Err(e);
    }

    let pump_shared = Arc::clone(&shared);
    if let Err(e) = spawn_named(&thread_name('b', id), move || {
        run_pump(&pump_shared, &pump, on_exit);
    }) {
        // The waiter reaps it; `on_exit` went down with the closure, as the caller gets `Err`.
        shared.kill();
        return Err(e);
    }
    Ok(Arc::new(PtySession { shared }))
}

/// Waiter thread: reap the child, then release everything that only made sense while it ran.
fn watch_child(shared: &Shared, child: &mut (dyn Child + Send + Sync), exits: &ExitReporter) {
    // This thread starts right after the spawn: close enough to time how long the child ran.
    let started = std::time::Instant::now();
    let mut info = wait_for_exit(child);
    if shared.kill_started.load(Ordering::SeqCst) {
        // A Stop ends everything the terminal started, detached or not, before the exit is
        // reported (so "exited" means nothing of it runs any more).
        #[cfg(target_os = "linux")]
        super::sweep::end_stragglers(shared.id, shared.kill_grace);
        info.stopped = true;
        // One shape for every CLI: Claude handles SIGHUP by exiting 129, Codex dies of it.
        if info.signal.is_none() {
            info.signal =
                signal_name_of_exit(info.code, shared.signals_sent.load(Ordering::SeqCst));
        }
    }
    tracing::info!(session = %shared.id, pid = shared.pid, code = info.code,
        signal = info.signal.as_deref(), stopped = info.stopped,
        ran_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX), "exited");
    *lock(&shared.exit) = Some(info.clone());
    shared.exited.notify_all();
    // Writes now fail with `Closed`; the writer thread ends once its queue is drained.
    shared.input.close();
    // The reader and writer hold their own descriptors; this one only served `resize`.
    lock(&shared.master).take();
    // Whatever output is left is bounded, so stop holding it back for slow clients.
    shared.output.begin_drain();
    exits.exited(info);
}

/// Pump thread: flush output until the end, then report the exit after the last byte.
fn run_pump(shared: &Shared, pump: &Pump, on_exit: ExitHandler) {
    let info = pump::run(pump, &shared.output)
        .or_else(|| lock(&shared.exit).clone())
        .unwrap_or(ExitInfo {
            code: 1,
            signal: None,
            stopped: false,
            hint: None,
        });
    shared.input.output_drained();
    // After the last byte of output: every client, and every later replay, shows how it ended.
    shared.output.publish(info.terminal_line().as_bytes());
    on_exit(info);
}

/// Best effort for a child whose session could not be set up: stop it and reap it.
fn abandon(child: &mut (dyn Child + Send + Sync)) {
    let _ = child.kill();
    let _ = child.wait();
}

fn spawn_named(name: &str, body: impl FnOnce() + Send + 'static) -> Result<(), PtyError> {
    thread::Builder::new()
        .name(name.to_owned())
        .spawn(body)
        .map(drop)
        .map_err(|e| PtyError::Io(format!("cannot start thread {name}: {e}")))
}

/// `pty<role>-<first 8 hex digits of the session id>`: short enough for the OS thread name
/// (15 bytes on Linux) and tells which session a thread belongs to in a debugger.
fn thread_name(role: char, id: SessionId) -> String {
    let id = id.as_uuid().simple().to_string();
    format!("pty{role}-{}", id.get(..8).unwrap_or(&id))
}

impl Shared {
    fn kill(self: &Arc<Self>) {
        if lock(&self.exit).is_some() || self.kill_started.swap(true, Ordering::SeqCst) {
            return;
        }
        // SIGHUP first, as when a terminal window closes: the program may save its state.
        #[cfg(unix)]
        self.note_signal(nix::sys::signal::Signal::SIGHUP);
        let _ = lock(&self.killer).kill();
        let shared = Arc::clone(self);
        // If this thread cannot start, the SIGHUP above is all we can do.
        let _ = spawn_named(&thread_name('k', self.id), move || shared.escalate_kill());
    }

    #[cfg(unix)]
    fn note_signal(&self, signal: nix::sys::signal::Signal) {
        self.signals_sent
            .fetch_or(1 << (signal as u32), Ordering::SeqCst);
    }

    /// Escalation thread: SIGTERM, then SIGKILL, to the whole process group, each only if the
    /// process is still there after the grace period.
    #[cfg(unix)]
    fn escalate_kill(&self) {
        use nix::sys::signal::Signal;
        for signal in [Signal::SIGTERM, Signal::SIGKILL] {
            let exit = lock(&self.exit);
            let (exit, _) = self
                .exited
                .wait_timeout_while(exit, self.kill_grace, |exit| exit.is_none())
                .unwrap_or_else(PoisonError::into_inner);
            if exit.is_some() {
                return;
            }
            // Still under the lock: the waiter cannot record the exit meanwhile, but it may
            // have reaped the child already; the pid is only reused after that, so the window
            // is tiny.
            self.note_signal(signal);
            signal_group(self.pid, signal);
        }
    }

    /// portable-pty's killer already terminates the process outright here.
    #[cfg(not(unix))]
    fn escalate_kill(&self) {}
}

/// The child is a session leader (portable-pty calls `setsid`), so its pid is also its
/// process group: signalling the group reaches the agent's own subprocesses too.
#[cfg(unix)]
fn signal_group(pid: Option<u32>, signal: nix::sys::signal::Signal) {
    use nix::sys::signal::{kill, killpg};
    use nix::unistd::Pid;
    let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) else {
        return;
    };
    let pid = Pid::from_raw(pid);
    if killpg(pid, signal).is_err() {
        let _ = kill(pid, signal);
    }
}

impl PtySession {
    /// Every byte of output read so far.
    pub fn output_bytes(&self) -> u64 {
        self.shared.output.total()
    }
}

impl PtySession {
    /// Resizes the terminal to an attaching client's size, if it gave one.
    fn fit(&self, size: Option<TerminalSize>) {
        if let Some(size) = size
            && self.resize(size).is_err()
        {
            // Exited (or the PTY refused): the model still fits the replay to the client.
            self.shared.output.resize(size);
        }
    }
}

impl TerminalSession for PtySession {
    fn id(&self) -> SessionId {
        self.shared.id
    }

    fn pid(&self) -> Option<u32> {
        self.shared.pid
    }

    fn write(&self, bytes: &[u8]) -> Result<(), PtyError> {
        if let Some(watch) = self.shared.output.watch() {
            watch.input();
        }
        self.shared.input.send(bytes)
    }

    fn resize(&self, size: TerminalSize) -> Result<(), PtyError> {
        // The watch first: the program may redraw for the new size as soon as the PTY is
        // resized, and that redraw must reach a watch that expects it (else it reads as work).
        if let Some(watch) = self.shared.output.watch() {
            watch.resize(size);
        }
        {
            let master = lock(&self.shared.master);
            let master = master.as_ref().ok_or(PtyError::Closed)?;
            master
                .resize(pty_size(size))
                .map_err(|e| PtyError::Io(format!("{e:#}")))?;
        }
        // Between two batches: every batch published before is in every client's stream
        // before the caller announces the new size, so a client applies it where the model did.
        self.shared
            .pump
            .between_batches(|| self.shared.output.resize(size));
        Ok(())
    }

    fn attach(&self, sink: OutputSink, size: Option<TerminalSize>) -> Attachment {
        self.fit(size);
        self.shared.output.attach(sink, ReplayScope::Whole)
    }

    fn attach_screen(&self, sink: OutputSink, size: Option<TerminalSize>) -> Attachment {
        self.fit(size);
        self.shared.output.attach(sink, ReplayScope::Screen)
    }

    fn detach(&self, attachment: u64) {
        self.shared.output.detach(attachment);
    }

    fn ack(&self, attachment: u64, bytes: usize) {
        self.shared.output.ack(attachment, bytes);
    }

    fn kill(&self) {
        self.shared.kill();
    }

    fn exit_status(&self) -> Option<ExitInfo> {
        lock(&self.shared.exit).clone()
    }

    fn watch(&self, watch: TerminalWatch) {
        let size = lock(&self.shared.master)
            .as_ref()
            .and_then(|m| m.get_size().ok())
            .map_or_else(TerminalSize::default, |s| TerminalSize {
                rows: s.rows,
                cols: s.cols,
            });
        match ScreenWatch::start(watch, size) {
            Ok(watch) => self.shared.output.set_watch(watch),
            // Without it the state follows hooks and the exit only.
            Err(e) => {
                tracing::warn!(session = %self.shared.id, error = %e, "cannot watch the screen")
            }
        }
    }
}

impl Drop for PtySession {
    fn drop(&mut self) {
        self.shared.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    #[test]
    fn thread_names_fit_the_linux_limit_and_name_the_session() {
        let id = SessionId::from_uuid(Uuid::from_u128(0x1234_5678_9abc_def0_1234_5678_9abc_def0));
        let name = thread_name('r', id);
        assert_eq!(name, "ptyr-12345678");
        assert!(name.len() <= 15);
    }
}
