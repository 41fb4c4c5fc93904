//! Feeding the model off the output path: publishing only queues a batch's bytes (one copy);
//! a thread of its own parses them. Whoever needs the model as it stands (an attach, a resize)
//! first parses what is still queued, holding the queue so that nothing slips in meanwhile.
//!
//! Lock order: `model`, then `queue`. The feeder thread never holds `queue` while parsing, so
//! the reader thread waits on a parse only when the queue is full (a flood the parser cannot
//! keep up with: that is its flow control) and while an attach or a resize catches up.

use super::ScreenModel;
use crate::pty::lock;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Bytes queued beyond this make the publisher wait for the parser.
const MAX_QUEUED: usize = 8 * 1024 * 1024;

#[derive(Debug, Default)]
struct Queue {
    bytes: Vec<u8>,
    closed: bool,
}

/// A [`ScreenModel`] and the bytes published but not parsed yet.
#[derive(Debug)]
pub(crate) struct ModelFeed {
    model: Mutex<ScreenModel>,
    queue: Mutex<Queue>,
    /// Bytes were queued, taken, or the feed closed.
    changed: Condvar,
}

impl ModelFeed {
    /// Starts the feeder thread; without one (the OS refused a thread) `push` parses inline.
    pub(crate) fn start(model: ScreenModel) -> Arc<Self> {
        let feed = Arc::new(Self {
            model: Mutex::new(model),
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
        });
        let worker = Arc::clone(&feed);
        let started = std::thread::Builder::new()
            .name("pty-model".into())
            .spawn(move || worker.run());
        if let Err(e) = started {
            tracing::warn!(error = %e, "no thread for the terminal model: parsing inline");
            lock(&feed.queue).closed = true;
        }
        feed
    }

    /// Queues `bytes` after everything queued before; `with` runs in the same critical section
    /// (so what it does is ordered with the bytes against [`ModelFeed::current`]). The feeder
    /// is not woken: call [`ModelFeed::wake`] once the batch is on its way to the clients, so
    /// its thread does not compete with theirs for a CPU meanwhile.
    pub(crate) fn push<R>(&self, bytes: &[u8], with: impl FnOnce() -> R) -> R {
        let mut queue = lock(&self.queue);
        if queue.closed {
            // No feeder: parse here, still ordered by the queue's lock.
            drop(queue);
            let mut model = lock(&self.model);
            let _queue = lock(&self.queue);
            model.feed(bytes);
            return with();
        }
        while queue.bytes.len() >= MAX_QUEUED && !queue.closed {
            queue = self
                .changed
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let result = with();
        queue.bytes.extend_from_slice(bytes);
        result
    }

    /// Wakes the feeder for what was pushed.
    pub(crate) fn wake(&self) {
        self.changed.notify_all();
    }

    /// Runs `with` on the model once it has parsed every byte queued; nothing is queued until
    /// `with` returns.
    pub(crate) fn current<R>(&self, with: impl FnOnce(&mut ScreenModel) -> R) -> R {
        let mut model = lock(&self.model);
        let mut queue = lock(&self.queue);
        let queued = std::mem::take(&mut queue.bytes);
        model.feed(&queued);
        self.changed.notify_all();
        with(&mut model)
    }

    /// Ends the feeder thread (the terminal is gone).
    pub(crate) fn close(&self) {
        lock(&self.queue).closed = true;
        self.changed.notify_all();
    }

    fn run(&self) {
        loop {
            {
                let queue = lock(&self.queue);
                let queue = self
                    .changed
                    .wait_while(queue, |q| q.bytes.is_empty() && !q.closed)
                    .unwrap_or_else(PoisonError::into_inner);
                if queue.closed {
                    return;
                }
            }
            // Take and parse under the model's lock, so `current` never sees bytes taken but
            // not parsed yet.
            let mut model = lock(&self.model);
            let queued = {
                let mut queue = lock(&self.queue);
                let queued = std::mem::take(&mut queue.bytes);
                self.changed.notify_all();
                queued
            };
            model.feed(&queued);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use idea_domain::terminal::TerminalSize;

    #[test]
    fn current_sees_every_byte_pushed_before_it_and_none_after() {
        let feed = ModelFeed::start(ScreenModel::new(TerminalSize::default(), 100));
        let mut expected = ScreenModel::new(TerminalSize::default(), 100);
        for i in 0..500 {
            let line = format!("line {i}\r\n");
            feed.push(line.as_bytes(), || ());
            feed.wake();
            expected.feed(line.as_bytes());
        }
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn without_a_feeder_push_parses_inline() {
        let feed = ModelFeed::start(ScreenModel::new(TerminalSize::default(), 100));
        feed.close();
        feed.push(b"inline", || ());
        let mut expected = ScreenModel::new(TerminalSize::default(), 100);
        expected.feed(b"inline");
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
    }
}
