//! Input to the PTY: one writer thread fed by a queue.
//!
//! Callers on many threads only enqueue; the single thread applies the writes one after
//! another, each with `write_all`, so writes keep their call order and never interleave, and a
//! caller never blocks on a child that is not reading its input.

use super::lock;
use idea_domain::terminal::PtyError;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// Input queued for a program that does not read it is kept up to this many bytes; past it a
/// write is refused (`InputFull`), so a client cannot grow the server's memory by typing.
pub(crate) const MAX_PENDING_INPUT: usize = 4 << 20;

type PtyWriter = Box<dyn Write + Send>;

/// The sending half of the input queue; closed when the child exits.
#[derive(Debug)]
pub(crate) struct Input {
    queue: Mutex<Option<Sender<Vec<u8>>>>,
    /// Bytes queued and not yet written.
    pending: Arc<AtomicUsize>,
    spent: Arc<SpentWriter>,
}

impl Input {
    /// A queue and the loop that drains it into `writer`; run the loop on its own thread.
    pub(crate) fn new(writer: PtyWriter) -> (Self, impl FnOnce() + Send + 'static) {
        let (tx, rx) = channel();
        let spent = Arc::new(SpentWriter::default());
        let pending = Arc::new(AtomicUsize::new(0));
        let written = Arc::clone(&pending);
        let input = Self {
            queue: Mutex::new(Some(tx)),
            pending,
            spent: Arc::clone(&spent),
        };
        let run = move || {
            let mut writer = writer;
            write_loop(&mut writer, &rx, &written);
            spent.park(writer);
        };
        (input, run)
    }

    /// Enqueues `bytes`.
    ///
    /// # Errors
    /// [`PtyError::Closed`] once the child has exited or the PTY refused a write.
    pub(crate) fn send(&self, bytes: &[u8]) -> Result<(), PtyError> {
        // The lock orders concurrent callers: their writes are queued, hence applied, in the
        // order they took it.
        let queue = lock(&self.queue);
        let tx = queue.as_ref().ok_or(PtyError::Closed)?;
        if bytes.is_empty() {
            return Ok(());
        }
        let pending = self.pending.load(Ordering::SeqCst);
        if pending + bytes.len() > MAX_PENDING_INPUT {
            return Err(PtyError::InputFull { pending });
        }
        self.pending.fetch_add(bytes.len(), Ordering::SeqCst);
        tx.send(bytes.to_vec()).map_err(|_| PtyError::Closed)
    }

    /// Refuses further writes; the writer thread ends once the queue is drained.
    pub(crate) fn close(&self) {
        lock(&self.queue).take();
    }

    /// The output has been drained: the PTY writer may now be dropped (see [`SpentWriter`]).
    pub(crate) fn output_drained(&self) {
        self.spent.release();
    }
}

fn write_loop(writer: &mut PtyWriter, queue: &Receiver<Vec<u8>>, pending: &AtomicUsize) {
    for bytes in queue {
        pending.fetch_sub(bytes.len(), Ordering::SeqCst);
        // A failed write means the slave side is gone; returning drops the receiver, which
        // turns every later `send` into `Closed`.
        if writer
            .write_all(&bytes)
            .and_then(|()| writer.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Holds the PTY writer once input is closed, until the output has been drained.
///
/// portable-pty's writer types a newline and end-of-file into the terminal when dropped; while
/// the reader still runs, the terminal's echo of that newline would reach clients as a stray
/// line after the program's last output. So the writer is dropped only after the pump is done.
#[derive(Default)]
struct SpentWriter {
    /// The parked writer, and whether the output is drained (then nothing is parked).
    state: Mutex<(Option<PtyWriter>, bool)>,
}

impl std::fmt::Debug for SpentWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = lock(&self.state);
        f.debug_struct("SpentWriter")
            .field("parked", &state.0.is_some())
            .field("drained", &state.1)
            .finish()
    }
}

impl SpentWriter {
    fn park(&self, writer: PtyWriter) {
        let mut state = lock(&self.state);
        if state.1 {
            drop(state);
            drop(writer);
        } else {
            state.0 = Some(writer);
        }
    }

    fn release(&self) {
        let parked = {
            let mut state = lock(&self.state);
            state.1 = true;
            state.0.take()
        };
        drop(parked);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::io;
    use std::sync::Arc;
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

    #[test]
    fn concurrent_writes_keep_per_thread_order_and_never_interleave() {
        let recorder = Recorder::default();
        let (input, run) = Input::new(Box::new(recorder.clone()));
        let writer = thread::spawn(run);
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
        writer.join().unwrap();
        let text = String::from_utf8(recorder.0.lock().unwrap().clone()).unwrap();
        let mut last = [None::<u32>; 8];
        let mut lines = 0;
        for line in text.lines() {
            let (t, seq) = line.split_once(' ').unwrap();
            let t: usize = t.trim_start_matches('t').parse().unwrap();
            let seq: u32 = seq.parse().unwrap();
            assert!(
                last[t].is_none_or(|prev| prev < seq),
                "thread {t} out of order"
            );
            last[t] = Some(seq);
            lines += 1;
        }
        assert_eq!(lines, 1_600);
    }

    #[test]
    fn send_after_close_is_closed() {
        let (input, run) = Input::new(Box::new(Recorder::default()));
        let writer = thread::spawn(run);
        input.send(b"ok").unwrap();
        input.close();
        assert_eq!(input.send(b"late"), Err(PtyError::Closed));
        assert_eq!(input.send(b""), Err(PtyError::Closed));
        writer.join().unwrap();
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
        let (input, run) = Input::new(Box::new(DropFlag(Arc::clone(&dropped))));
        input.close();
        run();
        assert!(
            !dropped.load(Ordering::SeqCst),
            "parked while output may still come"
        );
        input.output_drained();
        assert!(dropped.load(Ordering::SeqCst));

        // Drained first: the writer goes as soon as the loop ends.
        let dropped = Arc::new(AtomicBool::new(false));
        let (input, run) = Input::new(Box::new(DropFlag(Arc::clone(&dropped))));
        input.output_drained();
        input.close();
        run();
        assert!(dropped.load(Ordering::SeqCst));
    }

    #[test]
    fn a_failed_write_closes_the_input() {
        let (input, run) = Input::new(Box::new(Broken));
        input.send(b"lost").unwrap();
        run();
        assert_eq!(input.send(b"more"), Err(PtyError::Closed));
    }
}
