//! Moving output from the PTY to the hub with as few thread hops as possible.
//!
//! The *reader* thread does the blocking reads and, right there, decides what to do with each
//! one: the first output after a quiet interval (a keystroke's echo) is published at once from
//! the reader itself; what follows within the interval is appended to the pending batch, which
//! the reader also publishes as soon as it reaches `max_bytes` or its flush time has passed. The
//! *flusher* thread ([`run`]) only covers what no read triggers: a batch whose flush time comes
//! while the PTY is quiet, the end of the output and the exit. The reader wakes it only when a
//! batch falls due before the flusher's own next wake-up, so continuous output (one batch per
//! 64 KiB, all flushed by the reader) wakes it once per interval, not once per batch.
//!
//! So a read costs no thread wake-up, no allocation and one copy at most, and an echo goes out
//! on the thread that read it.
//!
//! Flow control reaches the child because the reader waits, before each read, while the hub is
//! paused: the kernel's PTY buffer then fills and the child blocks on its own `write`. Nothing
//! is published while paused (the one read in flight when a pause starts stays pending), so a
//! client gets at most one batch past the high watermark. Memory stays bounded by one batch, one
//! read buffer and the scrollback.

use super::lock;
use super::output::OutputHub;
use idea_domain::terminal::ExitInfo;
use std::io::{ErrorKind, Read};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// When output is flushed, and how long the flusher waits for the last output after an exit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Batching {
    /// At most one flush per interval: the first output after a quiet interval is flushed at
    /// once (so a keystroke's echo is not delayed), later output is flushed this long after
    /// the previous flush...
    pub(crate) interval: Duration,
    /// ...or as soon as this many bytes are waiting, whichever comes first.
    pub(crate) max_bytes: usize,
    /// After the child exits, how long to wait for the reader's end of file. It normally comes
    /// at once; it does not while a background grandchild still holds the terminal open.
    pub(crate) exit_drain: Duration,
}

#[derive(Debug, Default)]
struct State {
    /// Output read but not published yet.
    pending: Vec<u8>,
    /// When `pending` is due (set with its first byte).
    flush_at: Option<Instant>,
    /// When the flusher's current wait ends by itself (`None`: it waits to be woken). The
    /// reader wakes it for a new flush time only if it would not be up by then anyway: during
    /// continuous output that saves a thread wake-up per batch.
    flusher_up_at: Option<Instant>,
    last_flush: Option<Instant>,
    /// The reader has seen end of file (or is gone).
    reader_done: bool,
    /// The waiter is gone, with or without reporting an exit.
    waiter_done: bool,
    exit: Option<ExitInfo>,
    /// When to stop waiting for the reader after the exit.
    give_up_at: Option<Instant>,
}

/// The batch between the reader, the flusher and the waiter of one session.
#[derive(Debug)]
pub(crate) struct Pump {
    batching: Batching,
    /// Locked while publishing too: whoever publishes holds it, so batches keep their order.
    state: Mutex<State>,
    /// Wakes the flusher: a flush time was set, the reader or the waiter is done.
    wake: Condvar,
}

impl Pump {
    pub(crate) fn new(batching: Batching) -> Arc<Self> {
        Arc::new(Self {
            batching,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        })
    }

    /// The waiter's handle: reports the exit; dropping it tells the flusher the waiter is gone.
    pub(crate) fn exit_reporter(self: &Arc<Self>) -> ExitReporter {
        ExitReporter(Arc::clone(self))
    }

    /// One read of the PTY, on the reader thread: publish it at once, or add it to the batch.
    fn output(&self, hub: &OutputHub, bytes: &[u8]) {
        let mut state = lock(&self.state);
        let now = Instant::now();
        // Nothing is published while a client holds the output back: the read in flight when
        // the pause started stays pending until the pause ends.
        let held = hub.holds_back();
        let quiet = state
            .last_flush
            .is_none_or(|at| now.duration_since(at) >= self.batching.interval);
        if state.pending.is_empty() && quiet && !held {
            // Leading edge: the first output after a quiet interval (a keystroke's echo) goes
            // out at once, straight from the read buffer.
            hub.publish(bytes);
            state.last_flush = Some(now);
            return;
        }
        state.pending.extend_from_slice(bytes);
        let due = state.flush_at.is_some_and(|at| at <= now);
        if !held && (due || state.pending.len() >= self.batching.max_bytes) {
            flush(&mut state, hub, now);
        } else if state.flush_at.is_none() {
            let since = state
                .last_flush
                .map_or(now, |at| at.max(now - self.batching.interval));
            let at = since + self.batching.interval;
            state.flush_at = Some(at);
            if state.flusher_up_at.is_none_or(|up| up > at) {
                self.wake.notify_one();
            }
        }
    }

    /// Runs `action` while nothing is being published: a batch whose sinks are being called
    /// finishes first, and none starts until `action` is done.
    pub(crate) fn between_batches<T>(&self, action: impl FnOnce() -> T) -> T {
        let _publishing = lock(&self.state);
        action()
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        change(&mut lock(&self.state));
        self.wake.notify_one();
    }

    fn wait<'a>(
        &self,
        state: MutexGuard<'a, State>,
        until: Option<Instant>,
    ) -> MutexGuard<'a, State> {
        match until {
            None => self
                .wake
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner),
            Some(at) => {
                let timeout = at.saturating_duration_since(Instant::now());
                self.wake
                    .wait_timeout(state, timeout)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        }
    }
}

/// Publishes the pending batch (the caller holds the state lock, which keeps the order).
fn flush(state: &mut State, hub: &OutputHub, now: Instant) {
    hub.publish(&state.pending);
    state.pending.clear();
    state.flush_at = None;
    state.last_flush = Some(now);
}

/// Marks the reader done when the reader thread ends, however it ends.
struct ReaderDone<'a>(&'a Pump);

impl Drop for ReaderDone<'_> {
    fn drop(&mut self) {
        self.0.update(|state| state.reader_done = true);
    }
}

/// Held by the waiter thread; see [`Pump::exit_reporter`].
#[derive(Debug)]
pub(crate) struct ExitReporter(Arc<Pump>);

impl ExitReporter {
    /// The child has exited (the reader may still have bytes to deliver).
    pub(crate) fn exited(&self, info: ExitInfo) {
        let give_up_at = Instant::now() + self.0.batching.exit_drain;
        self.0.update(|state| {
            state.exit = Some(info);
            state.give_up_at = Some(give_up_at);
        });
    }
}

impl Drop for ExitReporter {
    fn drop(&mut self) {
        self.0.update(|state| state.waiter_done = true);
    }
}

/// Reads the PTY until end of file (EIO once the child and its descendants have closed the
/// slave side), handing each read to the pump; waits before each read while the hub is paused.
pub(crate) fn read_loop(mut reader: impl Read, pump: &Pump, hub: &OutputHub, buffer_bytes: usize) {
    let _done = ReaderDone(pump);
    let mut buf = vec![0; buffer_bytes.max(1)];
    loop {
        // Flow control: not reading is what pushes back on the child.
        hub.wait_while_paused();
        match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => pump.output(hub, &buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // A direct write has the master non-blocking for a moment (see `writer`).
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::yield_now(),
            // portable-pty already maps EIO (slave closed) to end of file; any other error is
            // just as final for a terminal.
            Err(_) => return,
        }
    }
}

/// The flusher: publishes batches whose flush time comes while the PTY is quiet, until the
/// reader is done and the waiter is gone (or the drain timeout after the exit has passed), then
/// the last batch. Returns the exit reported by the waiter, if any; the caller reports it
/// *after* this returns, i.e. after the last byte.
pub(crate) fn run(pump: &Pump, hub: &OutputHub) -> Option<ExitInfo> {
    let mut state = lock(&pump.state);
    loop {
        let now = Instant::now();
        if (state.reader_done && state.waiter_done) || state.give_up_at.is_some_and(|at| at <= now)
        {
            break;
        }
        if state.flush_at.is_some_and(|at| at <= now) {
            if hub.holds_back() {
                // Only an ack, a detach or the exit (which drains) ends this. Meanwhile the
                // flusher is up (it looks at the state again before it waits).
                state.flusher_up_at = Some(now);
                drop(state);
                hub.wait_while_paused();
                state = lock(&pump.state);
            } else {
                flush(&mut state, hub, now);
            }
            continue;
        }
        let until = match (state.flush_at, state.give_up_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        state.flusher_up_at = until;
        state = pump.wait(state, until);
    }
    if !state.pending.is_empty() {
        flush(&mut state, hub, Instant::now());
    }
    state.exit.take()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use idea_domain::terminal::ReplayScope;
    use std::io;
    use std::thread;

    /// No flush falls due by itself during a test (a test that needs one brings its flush time
    /// forward), so what the reader does never depends on how fast the test thread runs.
    const BATCHING: Batching = Batching {
        interval: Duration::from_secs(24 * 3_600),
        max_bytes: 64 * 1024,
        exit_drain: Duration::from_secs(2),
    };

    const EXIT: ExitInfo = ExitInfo {
        code: 0,
        signal: None,
        stopped: false,
        hint: None,
    };

    /// A hub with one client recording the size of each batch it receives.
    fn hub_with_batch_log() -> (Arc<OutputHub>, Arc<Mutex<Vec<usize>>>) {
        let hub = Arc::new(OutputHub::new(1 << 20, usize::MAX, 0));
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink_log = Arc::clone(&log);
        hub.attach(
            Box::new(move |bytes: &[u8]| {
                sink_log.lock().unwrap().push(bytes.len());
            }),
            ReplayScope::Whole,
        );
        (hub, log)
    }

    /// A reader handing out the given reads, one per call, then end of file.
    struct Reads(std::vec::IntoIter<Vec<u8>>);

    impl Read for Reads {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(next) = self.0.next() else {
                return Ok(0);
            };
            buf[..next.len()].copy_from_slice(&next);
            Ok(next.len())
        }
    }

    fn reads(count: usize, size: usize) -> Reads {
        Reads(vec![vec![b'x'; size]; count].into_iter())
    }

    /// Polls `done` (a hang guard, not a timing assertion).
    fn wait_until(what: &str, done: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !done() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// The flusher has looked at the state and waits: for `until`, or to be woken (`None`).
    fn wait_for_the_flusher_to_wait(pump: &Pump, until: Option<Instant>) {
        wait_until("the flusher to wait", || {
            lock(&pump.state).flusher_up_at == until
        });
    }

    /// What the passing of time would do, brought forward: the pending batch falls due now.
    fn make_due(pump: &Pump) {
        pump.update(|state| state.flush_at = Some(Instant::now()));
    }

    fn spawn_flusher(
        pump: &Arc<Pump>,
        hub: &Arc<OutputHub>,
    ) -> thread::JoinHandle<Option<ExitInfo>> {
        let (pump, hub) = (Arc::clone(pump), Arc::clone(hub));
        thread::spawn(move || run(&pump, &hub))
    }

    /// Runs the reader over `reads` and the flusher, with the exit reported after the reads.
    fn pump_all(reads: Reads, batching: Batching) -> (Option<ExitInfo>, Vec<usize>) {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(batching);
        let flusher = spawn_flusher(&pump, &hub);
        read_loop(reads, &pump, &hub, 64 * 1024);
        pump.exit_reporter().exited(EXIT);
        let exit = flusher.join().unwrap();
        let log = log.lock().unwrap().clone();
        (exit, log)
    }

    #[test]
    fn fast_reads_are_coalesced_into_one_batch() {
        let (exit, log) = pump_all(reads(1_000, 10), BATCHING);
        assert_eq!(exit, Some(EXIT));
        // The first read leads; the burst behind it is one batch.
        assert_eq!(log, vec![10, 9_990]);
    }

    #[test]
    fn a_full_batch_is_flushed_without_waiting() {
        let (exit, log) = pump_all(reads(200, 1024), BATCHING);
        assert_eq!(exit, Some(EXIT));
        assert_eq!(log, vec![1_024, 65_536, 65_536, 65_536, 7_168]);
    }

    #[test]
    fn a_lone_read_is_published_by_the_reader_at_once() {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(BATCHING);
        // No flusher at all: the reader publishes a leading read itself.
        read_loop(Reads(vec![b"hi".to_vec()].into_iter()), &pump, &hub, 16);
        assert_eq!(*log.lock().unwrap(), vec![2]);
    }

    #[test]
    fn a_batch_due_while_the_pty_is_quiet_is_flushed_by_the_flusher() {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(BATCHING);
        let flusher = spawn_flusher(&pump, &hub);
        pump.output(&hub, b"lead");
        pump.output(&hub, b"tail");
        assert_eq!(*log.lock().unwrap(), vec![4]);
        // No more reads: only the flusher can publish it.
        make_due(&pump);
        wait_until("the batch to be flushed", || log.lock().unwrap().len() == 2);
        assert_eq!(*log.lock().unwrap(), vec![4, 4]);
        pump.update(|state| state.reader_done = true);
        drop(pump.exit_reporter());
        assert_eq!(flusher.join().unwrap(), None);
    }

    #[test]
    fn a_batch_started_while_the_flusher_waits_for_an_earlier_one_is_still_flushed() {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(Batching {
            max_bytes: 8,
            ..BATCHING
        });
        let flusher = spawn_flusher(&pump, &hub);
        pump.output(&hub, b"lead");
        // A batch: the flusher is woken for its flush time and waits for it...
        pump.output(&hub, b"12");
        let first_due = lock(&pump.state).flush_at;
        wait_for_the_flusher_to_wait(&pump, first_due);
        // ...then the reader flushes that batch by size...
        pump.output(&hub, b"345678");
        // ...and starts the next one, due later than the flusher's wake-up: it is not woken.
        pump.output(&hub, b"tail");
        let second_due = lock(&pump.state).flush_at;
        assert!(second_due >= first_due);
        assert_eq!(lock(&pump.state).flusher_up_at, first_due, "woken again");
        // Its wake-up, brought forward (a notification changes nothing else): it must now wait
        // for the later batch, and flush it once due.
        pump.wake.notify_one();
        wait_for_the_flusher_to_wait(&pump, second_due);
        make_due(&pump);
        wait_until("the last batch to be flushed", || {
            log.lock().unwrap().len() == 3
        });
        assert_eq!(*log.lock().unwrap(), vec![4, 8, 4]);
        pump.update(|state| state.reader_done = true);
        drop(pump.exit_reporter());
        assert_eq!(flusher.join().unwrap(), None);
    }

    #[test]
    fn gives_up_waiting_for_end_of_file_after_the_drain_timeout() {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(Batching {
            exit_drain: Duration::from_millis(50),
            ..BATCHING
        });
        pump.output(&hub, b"first");
        pump.output(&hub, b"last");
        let reporter = pump.exit_reporter();
        reporter.exited(ExitInfo { code: 3, ..EXIT });
        // The reader never finishes, as one blocked by a grandchild holding the PTY would not.
        let exit = run(&pump, &hub);
        assert_eq!(exit.map(|e| e.code), Some(3));
        assert_eq!(*log.lock().unwrap(), vec![5, 4]);
    }

    #[test]
    fn waits_for_the_waiter_after_end_of_file() {
        let (hub, log) = hub_with_batch_log();
        let pump = Pump::new(BATCHING);
        let reporter = pump.exit_reporter();
        read_loop(reads(3, 10), &pump, &hub, 64);
        let flusher = spawn_flusher(&pump, &hub);
        // The reader is done, the waiter is not: the flusher waits (here for the batch's flush
        // time) instead of ending.
        let due = lock(&pump.state).flush_at;
        wait_for_the_flusher_to_wait(&pump, due);
        reporter.exited(ExitInfo { code: 7, ..EXIT });
        drop(reporter);
        assert_eq!(flusher.join().unwrap().map(|e| e.code), Some(7));
        assert_eq!(*log.lock().unwrap(), vec![10, 20]);
    }

    #[test]
    fn read_loop_forwards_everything_in_order_then_stops_at_end_of_file() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let hub = Arc::new(OutputHub::new(1 << 20, usize::MAX, 0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink_seen = Arc::clone(&seen);
        hub.attach(
            Box::new(move |bytes: &[u8]| {
                sink_seen.lock().unwrap().extend_from_slice(bytes);
            }),
            ReplayScope::Whole,
        );
        let pump = Pump::new(BATCHING);
        read_loop(&data[..], &pump, &hub, 4096);
        drop(pump.exit_reporter());
        assert_eq!(run(&pump, &hub), None);
        assert_eq!(*seen.lock().unwrap(), data);
    }
}
