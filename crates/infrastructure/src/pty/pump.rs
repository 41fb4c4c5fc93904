//! Moving output from the PTY to the hub: a reader thread doing blocking reads into a bounded
//! queue, and a batcher (the pump) that coalesces reads into batches: at most one batch per
//! interval (plus one per `max_bytes`), the first after a quiet period sent at once.
//!
//! The queue is what makes flow control reach the child: when the pump stops pulling, the
//! queue fills, the reader blocks on `send`, the kernel's PTY buffer fills and the child blocks
//! on its own `write`. Memory stays bounded by the queue, one batch and the scrollback.

use super::output::OutputHub;
use idea_domain::terminal::ExitInfo;
use std::io::{ErrorKind, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

/// What the pump receives.
#[derive(Debug)]
pub(crate) enum Event {
    /// Bytes from one read of the PTY.
    Output(Vec<u8>),
    /// The child has exited (sent by the waiter; the reader may still have bytes to deliver).
    Exited(ExitInfo),
}

/// When the pump flushes, and how long it waits for the last output after the child exits.
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

/// Reads the PTY until end of file (EIO once the child and its descendants have closed the
/// slave side) or until the pump is gone, forwarding each read to the pump.
pub(crate) fn read_loop(mut reader: impl Read, events: &SyncSender<Event>, buffer_bytes: usize) {
    let mut buf = vec![0; buffer_bytes.max(1)];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if events.send(Event::Output(buf[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // portable-pty already maps EIO (slave closed) to end of file; any other error is
            // just as final for a terminal.
            Err(_) => return,
        }
    }
}

/// Runs the batcher until the reader is done and the child has exited (or the drain timeout
/// after the exit has passed), publishing every batch to `hub`. Returns the exit reported by
/// the waiter, if any; the caller reports it *after* this returns, i.e. after the last byte.
pub(crate) fn run(
    events: &Receiver<Event>,
    hub: &OutputHub,
    batching: Batching,
) -> Option<ExitInfo> {
    let mut pending: Vec<u8> = Vec::new();
    let mut flush_at: Option<Instant> = None;
    let mut last_flush: Option<Instant> = None;
    let mut exit: Option<ExitInfo> = None;
    let mut give_up_at: Option<Instant> = None;
    loop {
        // Flow control: not pulling is what pushes back on the child. Pauses only start at a
        // flush, so `pending` is empty whenever this actually waits.
        hub.wait_while_paused();
        let next = match (flush_at, give_up_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let event = match next {
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => events.recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match event {
            Ok(Event::Output(bytes)) => {
                let now = Instant::now();
                pending.extend_from_slice(&bytes);
                let quiet = last_flush.is_none_or(|at| now.duration_since(at) >= batching.interval);
                if pending.len() == bytes.len() && quiet {
                    // Leading edge: the first output after a quiet interval (a keystroke's
                    // echo) goes out at once; what follows within the interval is coalesced.
                    flush(hub, &mut pending, &mut flush_at);
                    last_flush = Some(now);
                } else if pending.len() >= batching.max_bytes {
                    flush(hub, &mut pending, &mut flush_at);
                    last_flush = Some(now);
                } else if flush_at.is_none() {
                    let since = last_flush.map_or(now, |at| at.max(now - batching.interval));
                    flush_at = Some(since + batching.interval);
                }
            }
            Ok(Event::Exited(info)) => {
                exit = Some(info);
                give_up_at = Some(Instant::now() + batching.exit_drain);
            }
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                if flush_at.is_some_and(|at| at <= now) {
                    flush(hub, &mut pending, &mut flush_at);
                    last_flush = Some(now);
                }
                if give_up_at.is_some_and(|at| at <= now) {
                    break;
                }
            }
            // Both the reader (end of file) and the waiter (exit sent) are done.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    flush(hub, &mut pending, &mut flush_at);
    exit
}

fn flush(hub: &OutputHub, pending: &mut Vec<u8>, flush_at: &mut Option<Instant>) {
    hub.publish(pending);
    pending.clear();
    *flush_at = None;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::sync::mpsc::sync_channel;
    use std::sync::{Arc, Mutex};

    const BATCHING: Batching = Batching {
        interval: Duration::from_millis(16),
        max_bytes: 64 * 1024,
        exit_drain: Duration::from_secs(2),
    };

    /// A hub with one client recording the size of each batch it receives.
    fn hub_with_batch_log() -> (OutputHub, Arc<Mutex<Vec<usize>>>) {
        let hub = OutputHub::new(1 << 20, usize::MAX, 0);
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink_log = Arc::clone(&log);
        hub.attach(Box::new(move |bytes: &[u8]| {
            sink_log.lock().unwrap().push(bytes.len());
        }));
        (hub, log)
    }

    #[test]
    fn fast_reads_are_coalesced_into_one_batch() {
        let (hub, log) = hub_with_batch_log();
        let (tx, rx) = sync_channel(2_000);
        for _ in 0..1_000 {
            tx.send(Event::Output(vec![b'x'; 10])).unwrap();
        }
        tx.send(Event::Exited(ExitInfo {
            code: 0,
            signal: None,
            stopped: false,
            hint: None,
        }))
        .unwrap();
        drop(tx);
        let exit = run(&rx, &hub, BATCHING);
        assert_eq!(
            exit,
            Some(ExitInfo {
                code: 0,
                signal: None,
                stopped: false,
                hint: None,
            })
        );
        // The first read leads; the burst behind it is one batch.
        assert_eq!(*log.lock().unwrap(), vec![10, 9_990]);
    }

    #[test]
    fn a_full_batch_is_flushed_without_waiting() {
        let (hub, log) = hub_with_batch_log();
        let (tx, rx) = sync_channel(300);
        for _ in 0..200 {
            tx.send(Event::Output(vec![b'x'; 1024])).unwrap();
        }
        drop(tx);
        assert_eq!(run(&rx, &hub, BATCHING), None);
        assert_eq!(
            *log.lock().unwrap(),
            vec![1_024, 65_536, 65_536, 65_536, 7_168]
        );
    }

    #[test]
    fn a_lone_read_is_flushed_at_once() {
        let (hub, log) = hub_with_batch_log();
        let (tx, rx) = sync_channel(4);
        let pump = std::thread::spawn(move || run(&rx, &hub, BATCHING));
        tx.send(Event::Output(b"hi".to_vec())).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while log.lock().unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the batch was never flushed");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(*log.lock().unwrap(), vec![2]);
        drop(tx);
        pump.join().unwrap();
    }

    #[test]
    fn gives_up_waiting_for_end_of_file_after_the_drain_timeout() {
        let (hub, log) = hub_with_batch_log();
        let (tx, rx) = sync_channel(4);
        tx.send(Event::Output(b"last".to_vec())).unwrap();
        tx.send(Event::Exited(ExitInfo {
            code: 3,
            signal: None,
            stopped: false,
            hint: None,
        }))
        .unwrap();
        // `tx` stays alive, as a reader blocked by a grandchild holding the PTY would.
        let batching = Batching {
            exit_drain: Duration::from_millis(50),
            ..BATCHING
        };
        let exit = run(&rx, &hub, batching);
        assert_eq!(exit.map(|e| e.code), Some(3));
        assert_eq!(*log.lock().unwrap(), vec![4]);
        drop(tx);
    }

    #[test]
    fn read_loop_forwards_everything_then_stops_at_end_of_file() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let (tx, rx) = sync_channel(1_000);
        read_loop(&data[..], &tx, 4096);
        drop(tx);
        let mut got = Vec::new();
        for event in rx {
            match event {
                Event::Output(bytes) => {
                    assert!(bytes.len() <= 4096);
                    got.extend(bytes);
                }
                Event::Exited(_) => panic!("the reader never reports an exit"),
            }
        }
        assert_eq!(got, data);
    }
}
