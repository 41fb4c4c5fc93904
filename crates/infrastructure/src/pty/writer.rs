//! Input to the PTY: applied at once on the caller's thread when nothing is queued ahead of it,
//! otherwise queued for one writer thread, started the first time something is queued (most
//! sessions only ever take keystrokes and never need it).
//!
//! The direct path is what a keystroke takes: it saves waking a thread, which on a loaded
//! machine is most of the cost of an echo. It switches the master to non-blocking for that one
//! write, so a caller never blocks on a child that is not reading its input (the caller may be
//! an async runtime's thread); whatever the PTY does not take at once is queued. The writer
//! thread applies queued writes one after another with blocking `write_all`. One lock orders
//! the callers, and the direct path is only taken once every queued write has been applied, so
//! writes keep their call order and never interleave, whichever path applies them.
//!
//! The master's non-blocking flag is shared by every descriptor of it, the reader's too: a
//! read that starts while it is set may fail with `WouldBlock`, which the reader retries.
//!
//! Input queued for a program that does not read it is bounded ([`MAX_PENDING_INPUT`]).

use super::lock;
use idea_domain::terminal::PtyError;
use std::io::{self, ErrorKind, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// Input queued for a program that does not read it is kept up to this many bytes; past it a
/// write is refused (`InputFull`), so a client cannot grow the server's memory by typing.
pub(crate) const MAX_PENDING_INPUT: usize = 4 << 20;

type PtyWriter = Box<dyn Write + Send>;

/// The sending side of the input; closed when the child exits.
#[derive(Debug)]
pub(crate) struct Input {
    state: Mutex<State>,
    writer: Arc<SharedWriter>,
    /// Bytes queued for the writer thread and not yet written.
    pending: Arc<AtomicUsize>,
}

/// Starts the writer thread's loop on a thread of its own (the session names it).
pub(crate) type StartWriter = Box<dyn FnOnce(WriteLoop) -> Result<(), PtyError> + Send>;

/// The writer thread's body.
pub(crate) type WriteLoop = Box<dyn FnOnce() + Send>;

struct State {
    queue: Option<Sender<Vec<u8>>>,
    /// For the direct path; `None` where writes cannot be made non-blocking.
    master: Option<MasterFd>,
    /// Until the writer thread is started: its end of the queue, and how to start it.
    idle_writer: Option<(Receiver<Vec<u8>>, StartWriter)>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("open", &self.queue.is_some())
            .field("direct", &self.master.is_some())
            .field("writer_started", &self.idle_writer.is_none())
            .finish()
    }
}

impl Input {
    /// An input writing to `writer`, directly when `master` (a descriptor of the same PTY
    /// master) is given; `start` runs the loop that applies queued writes on a thread of its
    /// own, the first time a write is queued.
    pub(crate) fn new(writer: PtyWriter, master: Option<MasterFd>, start: StartWriter) -> Self {
        let (tx, rx) = channel();
        Self {
            state: Mutex::new(State {
                queue: Some(tx),
                master,
                idle_writer: Some((rx, start)),
            }),
            writer: Arc::new(SharedWriter::new(writer)),
            pending: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Starts the writer thread if it is not running yet.
    fn start_writer(&self, state: &mut State) -> Result<(), PtyError> {
        let Some((queue, start)) = state.idle_writer.take() else {
            return Ok(());
        };
        let (writer, pending) = (Arc::clone(&self.writer), Arc::clone(&self.pending));
        start(Box::new(move || {
            write_loop(&writer, &queue, &pending);
            writer.loop_ended();
        }))
        .inspect_err(|_| {
            // Without a writer thread nothing queued would ever be written.
            state.queue = None;
            state.master = None;
            self.writer.loop_ended();
        })
    }

    /// Writes `bytes` now if the PTY takes them without blocking, queues them (or what is
    /// left of them) otherwise.
    ///
    /// # Errors
    /// [`PtyError::Closed`] once the child has exited or the PTY refused a write;
    /// [`PtyError::InputFull`] (nothing written) when `bytes` might not fit in the queue.
    pub(crate) fn send(&self, bytes: &[u8]) -> Result<(), PtyError> {
        // The lock orders concurrent callers: their writes are applied in the order they took it.
        let mut state = lock(&self.state);
        if state.queue.is_none() {
            return Err(PtyError::Closed);
        }
        if bytes.is_empty() {
            return Ok(());
        }
        // Checked before anything is written, so a refused write is not half applied.
        let pending = self.pending.load(Ordering::SeqCst);
        if pending + bytes.len() > MAX_PENDING_INPUT {
            return Err(PtyError::InputFull { pending });
        }
        let mut rest = bytes;
        if pending == 0
            && let Some(master) = &state.master
        {
            match self.writer.write_now(master, bytes) {
                Ok(written) => rest = &bytes[written..],
                Err(_) => {
                    // The slave side is gone, as the writer thread would have found out.
                    state.queue = None;
                    state.master = None;
                    return Err(PtyError::Closed);
                }
            }
            if rest.is_empty() {
                return Ok(());
            }
        }
        self.start_writer(&mut state)?;
        let queue = state.queue.as_ref().ok_or(PtyError::Closed)?;
        self.pending.fetch_add(rest.len(), Ordering::SeqCst);
        queue.send(rest.to_vec()).map_err(|_| {
            self.pending.fetch_sub(rest.len(), Ordering::SeqCst);
            PtyError::Closed
        })
    }

    /// Refuses further writes; the writer thread ends once the queue is drained.
    pub(crate) fn close(&self) {
        let mut state = lock(&self.state);
        state.queue = None;
        state.master = None;
        if state.idle_writer.take().is_some() {
            // Never started: nothing was queued, and nothing will be.
            self.writer.loop_ended();
        }
    }

    /// The output has been drained: the PTY writer may now be dropped (see [`SharedWriter`]).
    pub(crate) fn output_drained(&self) {
        self.writer.output_drained();
    }
}

fn write_loop(writer: &SharedWriter, queue: &Receiver<Vec<u8>>, pending: &AtomicUsize) {
    for bytes in queue {
        // A failed write means the slave side is gone; returning drops the receiver, which
        // turns every later queued `send` into `Closed` (and `pending` stays above zero, so no
        // direct write is attempted either).
        if writer.write_all(&bytes).is_err() {
            return;
        }
        // Only once written: a direct write must not overtake this one.
        pending.fetch_sub(bytes.len(), Ordering::SeqCst);
    }
}

/// The PTY writer, used by both paths, and kept until the output has been drained.
///
/// portable-pty's writer types a newline and end-of-file into the terminal when dropped; while
/// the reader still runs, the terminal's echo of that newline would reach clients as a stray
/// line after the program's last output. So the writer is dropped only once the writer thread
/// has ended *and* the pump is done.
struct SharedWriter {
    state: Mutex<WriterState>,
}

struct WriterState {
    writer: Option<PtyWriter>,
    loop_ended: bool,
    drained: bool,
}

impl std::fmt::Debug for SharedWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = lock(&self.state);
        f.debug_struct("SharedWriter")
            .field("open", &state.writer.is_some())
            .field("loop_ended", &state.loop_ended)
            .field("drained", &state.drained)
            .finish()
    }
}

impl SharedWriter {
    fn new(writer: PtyWriter) -> Self {
        Self {
            state: Mutex::new(WriterState {
                writer: Some(writer),
                loop_ended: false,
                drained: false,
            }),
        }
    }

    /// The writer thread's blocking write.
    fn write_all(&self, bytes: &[u8]) -> io::Result<()> {
        let mut state = lock(&self.state);
        let writer = state.writer.as_mut().ok_or(ErrorKind::BrokenPipe)?;
        writer.write_all(bytes).and_then(|()| writer.flush())
    }

    /// Writes as much of `bytes` as the PTY takes without blocking; returns how much that was.
    #[cfg(unix)]
    fn write_now(&self, master: &MasterFd, bytes: &[u8]) -> io::Result<usize> {
        let mut state = lock(&self.state);
        let writer = state.writer.as_mut().ok_or(ErrorKind::BrokenPipe)?;
        let _nonblocking = master.nonblocking()?;
        let mut written = 0;
        while written < bytes.len() {
            match writer.write(&bytes[written..]) {
                Ok(0) => break,
                Ok(n) => written += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
        match writer.flush() {
            Err(e) if e.kind() != ErrorKind::WouldBlock => Err(e),
            _ => Ok(written),
        }
    }

    #[cfg(not(unix))]
    fn write_now(&self, master: &MasterFd, _: &[u8]) -> io::Result<usize> {
        match *master {}
    }

    fn loop_ended(&self) {
        let spent = {
            let mut state = lock(&self.state);
            state.loop_ended = true;
            if state.drained {
                state.writer.take()
            } else {
                None
            }
        };
        drop(spent);
    }

    fn output_drained(&self) {
        let spent = {
            let mut state = lock(&self.state);
            state.drained = true;
            if state.loop_ended {
                state.writer.take()
            } else {
                None
            }
        };
        drop(spent);
    }
}

/// A descriptor of the PTY master of our own (a duplicate, closed on drop), to switch the
/// master to non-blocking around a direct write. Always valid while held, unlike the
/// master's own descriptor, which goes when the child exits.
#[cfg(unix)]
#[derive(Debug)]
pub(crate) struct MasterFd {
    fd: std::os::fd::RawFd,
    /// The file status flags without `O_NONBLOCK`, as they are between direct writes.
    flags: nix::fcntl::OFlag,
}

#[cfg(unix)]
impl MasterFd {
    /// Duplicates `fd` (close-on-exec, so no program started later inherits it); `None` (no
    /// direct writes) if that fails.
    pub(crate) fn duplicate(fd: std::os::fd::RawFd) -> Option<Self> {
        use nix::fcntl::{FcntlArg, OFlag, fcntl};
        let mut master = Self {
            fd: fcntl(fd, FcntlArg::F_DUPFD_CLOEXEC(0)).ok()?,
            flags: OFlag::empty(),
        };
        // On failure, `master` closes the duplicate.
        let flags = fcntl(master.fd, FcntlArg::F_GETFL).ok()?;
        master.flags = OFlag::from_bits_truncate(flags) - OFlag::O_NONBLOCK;
        Some(master)
    }

    /// Sets `O_NONBLOCK` until the guard is dropped.
    fn nonblocking(&self) -> io::Result<NonBlocking<'_>> {
        use nix::fcntl::{FcntlArg, OFlag, fcntl};
        fcntl(self.fd, FcntlArg::F_SETFL(self.flags | OFlag::O_NONBLOCK))
            .map_err(io::Error::from)?;
        Ok(NonBlocking(self))
    }
}

#[cfg(unix)]
impl Drop for MasterFd {
    fn drop(&mut self) {
        let _ = nix::unistd::close(self.fd);
    }
}

/// Restores blocking writes (and reads) on drop.
#[cfg(unix)]
struct NonBlocking<'a>(&'a MasterFd);

#[cfg(unix)]
impl Drop for NonBlocking<'_> {
    fn drop(&mut self) {
        use nix::fcntl::{FcntlArg, fcntl};
        // Cannot fail for a valid descriptor with valid flags; the reader copes either way.
        let _ = fcntl(self.0.fd, FcntlArg::F_SETFL(self.0.flags));
    }
}

/// Elsewhere, every write goes through the writer thread.
#[cfg(not(unix))]
#[derive(Debug)]
pub(crate) enum MasterFd {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::thread;

    /// A writer that records what it is given, one `write` call at a time.
    #[derive(Clone, Default)]
    struct Recorder(Arc<Mutex<Vec<u8>>>);

    impl Write for Recorder {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            // Accept a few bytes per call so that interleaving would show if writes were split.
            let n = buf.len().min(3);
            self.0.lock().unwrap().extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("slave closed"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The writer thread, started the way the session starts it, for the test to join.
    #[derive(Clone, Default)]
    struct WriterThread(Arc<Mutex<Option<thread::JoinHandle<()>>>>);

    impl WriterThread {
        fn starter(&self) -> StartWriter {
            let slot = Arc::clone(&self.0);
            Box::new(move |run| {
                *slot.lock().unwrap() = Some(thread::spawn(run));
                Ok(())
            })
        }

        /// Joins the thread if it was started; whether it was.
        fn join(&self) -> bool {
            let handle = self.0.lock().unwrap().take();
            handle.map(|h| h.join().unwrap()).is_some()
        }
    }

    /// An input whose writer loop the test runs itself: `run` runs it if it was started.
    #[derive(Clone, Default)]
    struct ManualWriter(Arc<Mutex<Option<WriteLoop>>>);

    impl ManualWriter {
        fn starter(&self) -> StartWriter {
            let slot = Arc::clone(&self.0);
            Box::new(move |run| {
                *slot.lock().unwrap() = Some(run);
                Ok(())
            })
        }

        fn run(&self) {
            let run = self.0.lock().unwrap().take();
            if let Some(run) = run {
                run();
            }
        }
    }

    fn input_with_thread(writer: PtyWriter, master: Option<MasterFd>) -> (Input, WriterThread) {
        let thread = WriterThread::default();
        (Input::new(writer, master, thread.starter()), thread)
    }

    fn input_run_by_hand(writer: PtyWriter) -> (Input, ManualWriter) {
        let manual = ManualWriter::default();
        (Input::new(writer, None, manual.starter()), manual)
    }

    #[test]
    fn concurrent_writes_keep_per_thread_order_and_never_interleave() {
        let recorder = Recorder::default();
        let (input, writer) = input_with_thread(Box::new(recorder.clone()), None);
        let input = Arc::new(input);
        let senders: Vec<_> = (0..8)
            .map(|t| {
                let input = Arc::clone(&input);
                thread::spawn(move || {
                    for seq in 0..200 {
                        input.send(format!("t{t} {seq:04}\n").as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for sender in senders {
            sender.join().unwrap();
        }
        input.close();
        assert!(writer.join(), "without a direct path every write is queued");
        let text = String::from_utf8(recorder.0.lock().unwrap().clone()).unwrap();
        assert_lines_in_order(&text, 8, 1_600);
    }

    /// Every line `t<thread> <seq>` appears whole, each thread's in increasing order.
    fn assert_lines_in_order(text: &str, threads: usize, total: usize) {
        let mut last = vec![None::<u32>; threads];
        let mut lines = 0;
        for line in text.lines() {
            let (t, seq) = line.split_once(' ').unwrap();
            let t: usize = t.trim_start_matches('t').parse().unwrap();
            let seq: u32 = seq.trim_end().parse().unwrap();
            assert!(
                last[t].is_none_or(|prev| prev < seq),
                "thread {t} out of order"
            );
            last[t] = Some(seq);
            lines += 1;
        }
        assert_eq!(lines, total);
    }

    #[test]
    fn send_after_close_is_closed() {
        let (input, writer) = input_with_thread(Box::new(Recorder::default()), None);
        input.send(b"ok").unwrap();
        input.close();
        assert_eq!(input.send(b"late"), Err(PtyError::Closed));
        assert_eq!(input.send(b""), Err(PtyError::Closed));
        writer.join();
    }

    /// Records when it is dropped.
    struct DropFlag(Arc<std::sync::atomic::AtomicBool>);

    impl Write for DropFlag {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Drop for DropFlag {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn the_writer_is_dropped_only_once_the_output_is_drained() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let dropped = Arc::new(AtomicBool::new(false));
        let (input, writer) = input_run_by_hand(Box::new(DropFlag(Arc::clone(&dropped))));
        input.send(b"queued").unwrap();
        input.close();
        writer.run();
        assert!(
            !dropped.load(Ordering::SeqCst),
            "parked while output may still come"
        );
        input.output_drained();
        assert!(dropped.load(Ordering::SeqCst));

        // Drained first: the writer goes as soon as the loop ends.
        let dropped = Arc::new(AtomicBool::new(false));
        let (input, writer) = input_run_by_hand(Box::new(DropFlag(Arc::clone(&dropped))));
        input.send(b"queued").unwrap();
        input.output_drained();
        input.close();
        writer.run();
        assert!(dropped.load(Ordering::SeqCst));

        // No writer thread ever started: closing counts as its loop having ended.
        let dropped = Arc::new(AtomicBool::new(false));
        let (input, writer) = input_run_by_hand(Box::new(DropFlag(Arc::clone(&dropped))));
        input.close();
        assert!(writer.0.lock().unwrap().is_none(), "nothing was queued");
        assert!(!dropped.load(Ordering::SeqCst));
        input.output_drained();
        assert!(dropped.load(Ordering::SeqCst));
    }

    #[test]
    fn a_failed_write_closes_the_input() {
        let (input, writer) = input_run_by_hand(Box::new(Broken));
        input.send(b"lost").unwrap();
        writer.run();
        assert_eq!(input.send(b"more"), Err(PtyError::Closed));
    }

    /// A pipe standing in for the PTY master: its write end, with the descriptor for the
    /// direct path, and its read end.
    #[cfg(unix)]
    fn pipe() -> (PtyWriter, Option<MasterFd>, std::fs::File) {
        use std::os::fd::AsRawFd;
        let (read, write) = nix::unistd::pipe().unwrap();
        let master = MasterFd::duplicate(write.as_raw_fd());
        assert!(master.is_some());
        (Box::new(std::fs::File::from(write)), master, read.into())
    }

    #[cfg(unix)]
    #[test]
    fn the_duplicate_descriptor_is_not_inherited_by_programs_started_later() {
        use nix::fcntl::{FcntlArg, FdFlag, fcntl};
        let (_writer, master, _read) = pipe();
        let master = master.unwrap();
        let flags = FdFlag::from_bits_truncate(fcntl(master.fd, FcntlArg::F_GETFD).unwrap());
        assert!(flags.contains(FdFlag::FD_CLOEXEC));
    }

    #[cfg(unix)]
    #[test]
    fn a_write_nothing_is_queued_ahead_of_goes_out_at_once() {
        use std::io::Read;
        let (writer, master, mut read) = pipe();
        let (input, writer) = input_with_thread(writer, master);
        input.send(b"key").unwrap();
        let mut buf = [0; 3];
        read.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"key");
        input.close();
        assert!(!writer.join(), "a keystroke needs no writer thread");
    }

    #[cfg(unix)]
    #[test]
    fn what_the_pty_cannot_take_now_is_queued_in_order_without_blocking_the_caller() {
        use std::io::Read;
        let (writer, master, mut read) = pipe();
        let (input, writer) = input_with_thread(writer, master);
        // Far more than a pipe buffer, with nobody reading yet: `send` must still return.
        let big: Vec<u8> = (0..1_000_000u32).map(|i| (i % 251) as u8).collect();
        input.send(&big).unwrap();
        input.send(b"after").unwrap();
        let mut got = vec![0; big.len() + 5];
        read.read_exact(&mut got).unwrap();
        assert_eq!(&got[..big.len()], &big[..]);
        assert_eq!(&got[big.len()..], b"after");
        // Once the queue has been applied, writes go the direct way again.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while input.pending.load(Ordering::SeqCst) > 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "the queue never drained"
            );
            thread::sleep(std::time::Duration::from_millis(1));
        }
        input.send(b"direct").unwrap();
        let mut buf = [0; 6];
        read.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"direct");
        input.close();
        assert!(writer.join());
    }

    #[cfg(unix)]
    #[test]
    fn input_a_program_does_not_read_is_bounded_and_a_refused_write_writes_nothing() {
        let (writer, master, read) = pipe();
        let (input, writer) = input_with_thread(writer, master);
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..4 {
            input.send(&chunk).unwrap();
        }
        let pending = input.pending.load(Ordering::SeqCst);
        assert!(pending > 0 && pending <= MAX_PENDING_INPUT);
        assert_eq!(
            input.send(&chunk),
            Err(PtyError::InputFull { pending }),
            "over the bound"
        );
        assert_eq!(input.pending.load(Ordering::SeqCst), pending);
        // Nobody will read: closing the pipe fails the blocked write and ends the thread.
        drop(read);
        input.close();
        assert!(writer.join());
    }

    #[cfg(unix)]
    #[test]
    fn both_paths_together_keep_every_callers_order() {
        use std::io::Read;
        let (writer, master, mut read) = pipe();
        let (input, writer) = input_with_thread(writer, master);
        let reader = thread::spawn(move || {
            let mut all = Vec::new();
            read.read_to_end(&mut all).unwrap();
            all
        });
        let input = Arc::new(input);
        let senders: Vec<_> = (0..4)
            .map(|t| {
                let input = Arc::clone(&input);
                thread::spawn(move || {
                    for seq in 0..2_000 {
                        // Some lines long enough to fill the pipe now and then.
                        let pad = if seq % 100 == 0 { 30_000 } else { 0 };
                        let line = format!("t{t} {seq:05}{}\n", " ".repeat(pad));
                        input.send(line.as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for sender in senders {
            sender.join().unwrap();
        }
        input.close();
        writer.join();
        // Dropping the input and the writer closes the pipe, ending the reader.
        input.output_drained();
        drop(input);
        let text = String::from_utf8(reader.join().unwrap()).unwrap();
        assert_lines_in_order(&text, 4, 8_000);
    }
}
