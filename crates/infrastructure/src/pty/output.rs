//! The output path of one terminal: the terminal model behind replays, attached clients and
//! flow control, locked so that attaching (replay + register) and publishing (deliver + feed
//! the model) are atomic with respect to each other. That is what gives a client no gap and no
//! duplicate.

use super::fanout::{Fanout, SharedSink};
use super::lock;
use super::model::{ModelFeed, ScreenModel};
use super::watch::ScreenWatch;
use idea_domain::terminal::{Attachment, OutputSink, ReplayScope, TerminalSize};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

#[derive(Debug)]
struct State {
    fanout: Fanout,
    /// The child has exited: what is left to read is bounded (kernel buffer, reader queue), so
    /// flow control no longer applies and the pump drains it all before reporting the exit.
    draining: bool,
    /// Every byte published.
    total: u64,
}

/// Terminal model + clients + flow control of one terminal.
#[derive(Debug)]
pub(crate) struct OutputHub {
    /// What every byte published so far drew (parsed on a thread of its own). A batch is
    /// queued for it in the same critical section as its recipients are picked, and `attach`
    /// writes the replay and registers the client in one critical section over the model
    /// brought up to date: a batch is either in a client's replay or delivered to it, never
    /// both, never neither. Taken before `state`, never after.
    model: Arc<ModelFeed>,
    state: Mutex<State>,
    /// Signalled whenever the pump may be allowed to pull again (ack, detach, drain).
    flowing: Condvar,
    /// The screen model for the agent's state, once watched.
    watch: Mutex<Option<Arc<ScreenWatch>>>,
}

impl OutputHub {
    /// An empty hub keeping `scrollback_lines` lines above the screen, with the given
    /// watermarks; its model has the default size until [`OutputHub::resize`].
    pub(crate) fn new(scrollback_lines: usize, high: usize, low: usize) -> Self {
        Self {
            model: ModelFeed::start(ScreenModel::new(TerminalSize::default(), scrollback_lines)),
            state: Mutex::new(State {
                fanout: Fanout::new(high, low),
                draining: false,
                total: 0,
            }),
            flowing: Condvar::new(),
            watch: Mutex::new(None),
        }
    }

    /// Feeds every later batch to `watch` (replacing an earlier one).
    pub(crate) fn set_watch(&self, watch: Arc<ScreenWatch>) {
        if let Some(old) = lock(&self.watch).replace(watch) {
            old.stop();
        }
    }

    pub(crate) fn watch(&self) -> Option<Arc<ScreenWatch>> {
        lock(&self.watch).clone()
    }

    /// Queues a batch for the model, then hands it to every attached sink.
    ///
    /// The sinks are called after the locks are released, so a sink may call back into the
    /// session (e.g. `ack`) without deadlocking. Every caller publishes under the pump's lock,
    /// so sinks still see batches in order. The cost: a sink detached concurrently may get one
    /// last batch.
    pub(crate) fn publish(&self, batch: &[u8]) {
        if batch.is_empty() {
            return;
        }
        let recipients = self.model.push(batch, || {
            let mut state = lock(&self.state);
            state.total = state.total.saturating_add(batch.len() as u64);
            state.fanout.deliver(batch.len())
        });
        if let Some(watch) = self.watch() {
            watch.feed(batch);
        }
        for (id, sink) in recipients {
            // A panicking client must not kill the pump (the child would then block forever):
            // drop that client instead.
            if panic::catch_unwind(AssertUnwindSafe(|| sink(batch))).is_err() {
                self.detach(id);
            }
        }
        self.model.wake();
    }

    /// Registers `sink` and returns the model written out as the replay, atomically with
    /// respect to [`OutputHub::publish`]: every byte is either drawn by the replay or delivered
    /// to the sink. The replay counts as delivered and unacknowledged.
    pub(crate) fn attach(&self, sink: OutputSink, scope: ReplayScope) -> Attachment {
        let sink: SharedSink = sink.into();
        self.model.current(|model| {
            let replay = match scope {
                ReplayScope::Whole => model.replay(),
                ReplayScope::Screen => model.replay_screen(),
            };
            let id = lock(&self.state).fanout.attach(sink, replay.len());
            Attachment { id, replay }
        })
    }

    /// Resizes the model (reflowing wrapped lines) after the output published so far, as the
    /// terminal it follows was resized.
    pub(crate) fn resize(&self, size: TerminalSize) {
        self.model.current(|model| model.resize(size));
    }

    /// Forgets a client (releasing its backpressure).
    pub(crate) fn detach(&self, id: u64) {
        lock(&self.state).fanout.detach(id);
        self.flowing.notify_all();
    }

    /// The client processed `bytes` more bytes of live output.
    pub(crate) fn ack(&self, id: u64, bytes: usize) {
        lock(&self.state).fanout.ack(id, bytes);
        self.flowing.notify_all();
    }

    /// Blocks the caller (the reader, or the flusher with a batch due) while a client is too far
    /// behind, unless the child has exited.
    pub(crate) fn wait_while_paused(&self) {
        let state = lock(&self.state);
        let _state = self
            .flowing
            .wait_while(state, |s| s.fanout.is_paused() && !s.draining)
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// The child has exited: stop applying flow control so the last output can be flushed.
    pub(crate) fn begin_drain(&self) {
        if let Some(watch) = self.watch() {
            watch.stop();
        }
        lock(&self.state).draining = true;
        self.flowing.notify_all();
    }

    /// Every byte published so far.
    pub(crate) fn total(&self) -> u64 {
        lock(&self.state).total
    }

    /// Whether output is currently held back by a slow client (never once the child exited).
    pub(crate) fn holds_back(&self) -> bool {
        let state = lock(&self.state);
        state.fanout.is_paused() && !state.draining
    }
}

impl Drop for OutputHub {
    fn drop(&mut self) {
        self.model.close();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::thread;

    fn hub(high: usize, low: usize) -> OutputHub {
        OutputHub::new(10_000, high, low)
    }

    fn collector() -> (OutputSink, Arc<Mutex<Vec<u8>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink_seen = Arc::clone(&seen);
        let sink: OutputSink = Box::new(move |bytes: &[u8]| {
            sink_seen.lock().unwrap().extend_from_slice(bytes);
        });
        (sink, seen)
    }

    /// What a terminal shows after `bytes`, as the model writes it out.
    fn shown(bytes: &[&[u8]]) -> Vec<u8> {
        let mut model = ScreenModel::new(TerminalSize::default(), 10_000);
        for bytes in bytes {
            model.feed(bytes);
        }
        model.replay()
    }

    #[test]
    fn attach_replays_the_past_and_receives_the_future() {
        let hub = hub(100, 10);
        hub.publish(b"before ");
        let (sink, seen) = collector();
        let attachment = hub.attach(sink, ReplayScope::Whole);
        hub.publish(b"after");
        assert_eq!(attachment.replay, shown(&[b"before "]));
        assert_eq!(*seen.lock().unwrap(), b"after");
        assert_eq!(
            shown(&[&attachment.replay, b"after"]),
            shown(&[b"before after"])
        );
        assert_eq!(hub.total(), 12);
    }

    #[test]
    fn concurrent_attach_sees_no_gap_and_no_duplicate() {
        let hub = Arc::new(hub(usize::MAX, 0));
        let publisher = {
            let hub = Arc::clone(&hub);
            thread::spawn(move || {
                for i in 0..2_000u32 {
                    hub.publish(format!("{i}\r\n").as_bytes());
                }
            })
        };
        // Attaches once the stream has started (wherever it is by then).
        while hub.total() == 0 {
            thread::yield_now();
        }
        let (sink, seen) = collector();
        let attachment = hub.attach(sink, ReplayScope::Whole);
        publisher.join().unwrap();
        let expected: String = (0..2_000u32).map(|i| format!("{i}\r\n")).collect();
        let live = seen.lock().unwrap().clone();
        assert_eq!(
            shown(&[&attachment.replay, &live]),
            shown(&[expected.as_bytes()])
        );
    }

    #[test]
    fn a_sink_may_ack_from_inside_its_callback() {
        let hub = Arc::new(hub(10, 5));
        let id = Arc::new(AtomicU64::new(0));
        let sink: OutputSink = {
            let hub = Arc::clone(&hub);
            let id = Arc::clone(&id);
            Box::new(move |bytes: &[u8]| hub.ack(id.load(Ordering::SeqCst), bytes.len()))
        };
        id.store(hub.attach(sink, ReplayScope::Whole).id, Ordering::SeqCst);
        hub.publish(&[b'x'; 50]);
        assert!(
            !hub.holds_back(),
            "the ack inside the sink released the pause"
        );
    }

    #[test]
    fn a_panicking_sink_is_detached_and_others_keep_receiving() {
        let hub = hub(100, 10);
        hub.attach(
            Box::new(|_: &[u8]| panic!("client bug")),
            ReplayScope::Whole,
        );
        let (sink, seen) = collector();
        hub.attach(sink, ReplayScope::Whole);
        hub.publish(b"one ");
        hub.publish(b"two");
        assert_eq!(*seen.lock().unwrap(), b"one two");
        assert_eq!(lock(&hub.state).fanout.len(), 1);
    }

    #[test]
    fn draining_ignores_backpressure() {
        let hub = hub(10, 5);
        hub.attach(Box::new(|_: &[u8]| {}), ReplayScope::Whole);
        hub.publish(&[b'x'; 50]);
        assert!(hub.holds_back());
        hub.begin_drain();
        assert!(!hub.holds_back());
        hub.wait_while_paused();
    }

    #[test]
    fn ack_wakes_a_paused_pump() {
        let hub = Arc::new(hub(10, 5));
        let id = hub.attach(Box::new(|_: &[u8]| {}), ReplayScope::Whole).id;
        hub.publish(&[b'x'; 50]);
        let waiter = {
            let hub = Arc::clone(&hub);
            thread::spawn(move || hub.wait_while_paused())
        };
        // Paused: it cannot return before the ack, however long it is given.
        assert!(!waiter.is_finished(), "returned while paused");
        hub.ack(id, 50);
        waiter.join().unwrap();
    }
}
