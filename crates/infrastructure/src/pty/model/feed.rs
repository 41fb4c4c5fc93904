//! Feeding the model off the output path: publishing only queues a batch's bytes (one copy);
//! a thread of its own parses them. Whoever needs the model as it stands (an attach, a resize)
//! first parses what is still queued, holding the queue so that nothing slips in meanwhile.
//!
//! The feeder lets text gather before it parses: until the output pauses for [`QUIET`],
//! [`GATHER_BYTES`] are waiting or [`MAX_GATHER`] has passed. So a flood reaches the model in
//! chunks long enough for the fast-forward ([`super::fast_forward`]) to skip what scrolls out
//! anyway. Output that is not such text (a full-screen program's redraws, binary noise) is
//! parsed as it comes, so that an attach, which parses whatever is still waiting, never has
//! much of it to parse. Either way the feeder is woken only after a batch has gone to the
//! clients, so it never competes for a CPU with a keystroke's echo on its way.
//!
//! The feeder parses a step at a time (about [`STEP_BYTES`], or one run it fast-forwards),
//! releasing the model between steps: an attach or a resize waits for one step at most, then
//! parses what is left itself.
//!
//! The feeder thread ends after [`IDLE_EXIT`] without output and the next output starts it
//! again, so an idle terminal keeps no thread for its model.
//!
//! Lock order: `model`, then `queue`. The feeder thread never holds `queue` while parsing, so
//! the reader thread waits on a parse only when the queue is full (a flood the parser cannot
//! keep up with: that is its flow control) and while an attach or a resize catches up.

use super::{ScreenModel, fast_forward};
use crate::pty::lock;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Bytes queued beyond this make the publisher wait for the parser.
const MAX_QUEUED: usize = 8 * 1024 * 1024;
/// The feeder parses once this many bytes are waiting...
const GATHER_BYTES: usize = MAX_QUEUED / 2;
/// ...or once no output came for this long...
const QUIET: Duration = Duration::from_millis(10);
/// ...or once it has waited this long (a steady trickle never pauses).
const MAX_GATHER: Duration = Duration::from_millis(250);
/// The feeder parses at most about this much (or one run it fast-forwards) per hold of the
/// model's lock.
const STEP_BYTES: usize = 64 * 1024;
/// The feeder thread ends after this long without output (the next output starts another).
const IDLE_EXIT: Duration = Duration::from_secs(5);
/// Buffers grown past this by a burst are given back once it has been parsed: they had grown
/// to megabytes per flooded session, and an idle session should be back near its idle size.
const KEEP_CAPACITY: usize = 64 * 1024;

/// The model, and bytes taken from the queue that it has not parsed yet: those the feeder is
/// working through, and those it left for later (see [`ScreenModel::feed_deferring`]). They
/// come before anything still queued.
#[derive(Debug)]
struct Parsed {
    model: ScreenModel,
    taken: Vec<u8>,
    /// `taken[..parsed]` is in the model.
    parsed: usize,
}

impl Parsed {
    /// Parses everything taken and not parsed yet, then `queued`.
    fn catch_up(&mut self, queued: &[u8]) -> &mut ScreenModel {
        let taken = std::mem::take(&mut self.taken);
        self.model.feed(&taken[self.parsed..]);
        self.parsed = 0;
        self.model.feed(queued);
        &mut self.model
    }

    fn unparsed(&self) -> &[u8] {
        &self.taken[self.parsed..]
    }
}

#[derive(Debug, Default)]
struct Queue {
    bytes: Vec<u8>,
    /// The feeder must be woken: output started, or enough of it gathered.
    wake_feeder: bool,
    /// A feeder thread runs (it ends when idle; `push` starts one).
    feeder_running: bool,
    closed: bool,
}

/// A [`ScreenModel`] and the bytes published but not parsed yet.
#[derive(Debug)]
pub(crate) struct ModelFeed {
    model: Mutex<Parsed>,
    queue: Mutex<Queue>,
    /// Bytes were queued, taken, or the feed closed.
    changed: Condvar,
    /// For `push` to start a feeder thread.
    me: std::sync::Weak<ModelFeed>,
    idle_exit: Duration,
}

impl ModelFeed {
    /// A feed whose feeder thread starts with the first output; without one (the OS refused
    /// a thread) `push` parses inline.
    pub(crate) fn start(model: ScreenModel) -> Arc<Self> {
        Self::with_idle_exit(model, IDLE_EXIT)
    }

    fn with_idle_exit(model: ScreenModel, idle_exit: Duration) -> Arc<Self> {
        Arc::new_cyclic(|me| Self {
            model: Mutex::new(Parsed {
                model,
                taken: Vec::new(),
                parsed: 0,
            }),
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
            me: me.clone(),
            idle_exit,
        })
    }

    /// Starts a feeder thread (the queue is locked, so no other one starts meanwhile).
    fn start_feeder(&self, queue: &mut Queue) {
        let Some(worker) = self.me.upgrade() else {
            return;
        };
        let started = std::thread::Builder::new()
            .name("pty-model".into())
            .spawn(move || worker.run());
        match started {
            Ok(_) => queue.feeder_running = true,
            Err(e) => {
                tracing::warn!(error = %e, "no thread for the terminal model: parsing inline");
                queue.closed = true;
            }
        }
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
            let mut parsed = lock(&self.model);
            let _queue = lock(&self.queue);
            parsed.catch_up(bytes);
            return with();
        }
        while queue.bytes.len() >= MAX_QUEUED && !queue.closed {
            queue.wake_feeder = false;
            self.changed.notify_all();
            queue = self
                .changed
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let result = with();
        let before = queue.bytes.len();
        queue.bytes.extend_from_slice(bytes);
        if before == 0 || (before < GATHER_BYTES && queue.bytes.len() >= GATHER_BYTES) {
            queue.wake_feeder = true;
        }
        if !queue.feeder_running && !bytes.is_empty() {
            self.start_feeder(&mut queue);
            if queue.closed {
                drop(queue);
                let mut parsed = lock(&self.model);
                let mut queue = lock(&self.queue);
                let queued = std::mem::take(&mut queue.bytes);
                parsed.catch_up(&queued);
            }
        }
        result
    }

    /// Wakes the feeder if what was pushed calls for it (the start of a burst, or a full
    /// chunk); otherwise it looks at the queue again when its quiet wait ends.
    pub(crate) fn wake(&self) {
        let mut queue = lock(&self.queue);
        if std::mem::take(&mut queue.wake_feeder) {
            self.changed.notify_all();
        }
    }

    /// Runs `with` on the model once it has parsed every byte queued; nothing is queued until
    /// `with` returns.
    pub(crate) fn current<R>(&self, with: impl FnOnce(&mut ScreenModel) -> R) -> R {
        let mut parsed = lock(&self.model);
        let mut queue = lock(&self.queue);
        let queued = std::mem::take(&mut queue.bytes);
        self.changed.notify_all();
        with(parsed.catch_up(&queued))
    }

    /// Ends the feeder thread (the terminal is gone).
    pub(crate) fn close(&self) {
        lock(&self.queue).closed = true;
        self.changed.notify_all();
    }

    fn run(&self) {
        let mut deferred = false;
        while let Some(more_coming) = self.gather(deferred) {
            deferred = false;
            {
                let mut parsed = lock(&self.model);
                let mut queue = lock(&self.queue);
                let Parsed {
                    taken,
                    parsed: done,
                    ..
                } = &mut *parsed;
                taken.drain(..*done);
                *done = 0;
                taken.append(&mut queue.bytes);
                self.changed.notify_all();
            }
            // A step at a time, the model's lock released in between: an attach or a resize
            // waits for one step, not for a whole burst (it parses the rest itself).
            loop {
                let mut parsed = lock(&self.model);
                let rest = parsed.unparsed();
                if rest.is_empty() {
                    break;
                }
                let step = parsed.model.next_step(rest, STEP_BYTES);
                let last = step == rest.len();
                let (model, bytes) = {
                    let Parsed {
                        model,
                        taken,
                        parsed: done,
                    } = &mut *parsed;
                    (model, &taken[*done..*done + step])
                };
                let left = model.feed_deferring(bytes, more_coming || !last);
                parsed.parsed += step - left;
                if last && left > 0 {
                    // The end of a flood's run, left for the next burst to scroll out.
                    deferred = true;
                    break;
                }
            }
            if !more_coming && !deferred {
                self.release_buffers();
            }
        }
    }

    /// The output paused and everything taken is parsed: frees what the burst grew.
    fn release_buffers(&self) {
        let mut model = lock(&self.model);
        let mut queue = lock(&self.queue);
        let Parsed { taken, parsed, .. } = &mut *model;
        taken.drain(..*parsed);
        *parsed = 0;
        let grown = taken.capacity().max(queue.bytes.capacity()) > KEEP_CAPACITY;
        taken.shrink_to(KEEP_CAPACITY);
        queue.bytes.shrink_to(KEEP_CAPACITY);
        drop(queue);
        drop(model);
        if grown {
            crate::pty::trim::release_free_memory();
        }
    }

    /// Waits until there is output to parse and it has gathered (see the module's comment):
    /// `Some(true)` when it stopped for the amount (a flood: more is coming), `Some(false)`
    /// when the output paused, the wait was long enough or the output is not text the model
    /// can fast-forward, `None` once the feed is closed or after `idle_exit` without output
    /// (the feeder thread then ends). With `deferred` (the end of a flood
    /// waits to be scrolled out by more), `Some(false)` also when nothing more comes within
    /// [`MAX_GATHER`], so that the end is parsed after all.
    fn gather(&self, deferred: bool) -> Option<bool> {
        let mut queue = lock(&self.queue);
        if deferred {
            let (waited, timeout) = self
                .changed
                .wait_timeout_while(queue, MAX_GATHER, |q| q.bytes.is_empty() && !q.closed)
                .unwrap_or_else(PoisonError::into_inner);
            queue = waited;
            if timeout.timed_out() && !queue.closed {
                return Some(false);
            }
        }
        let mut deadline: Option<Instant> = None;
        // `queue.bytes[..checked]` was found to be text (a heuristic: what `current` takes
        // meanwhile shifts it, which at worst parses a burst early or late).
        let mut checked = 0;
        loop {
            let (waited, idle) = self
                .changed
                .wait_timeout_while(queue, self.idle_exit, |q| q.bytes.is_empty() && !q.closed)
                .unwrap_or_else(PoisonError::into_inner);
            queue = waited;
            if queue.closed {
                return None;
            }
            if idle.timed_out() && queue.bytes.is_empty() {
                // Everything taken is parsed (the caller only waits here then): the next
                // output starts another feeder.
                queue.feeder_running = false;
                return None;
            }
            let seen = queue.bytes.len();
            if seen >= GATHER_BYTES {
                return Some(true);
            }
            // Only a flood of text is worth holding back: anything else is parsed at once, so
            // that an attach never has much of it to parse itself.
            match fast_forward::text_until(&queue.bytes, checked.min(seen)) {
                Some(next) => checked = next,
                None => return Some(false),
            }
            let deadline = *deadline.get_or_insert_with(|| Instant::now() + MAX_GATHER);
            if Instant::now() >= deadline {
                return Some(false);
            }
            queue = self
                .changed
                .wait_timeout(queue, QUIET)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            // Nothing more came (or `current` took it all): parse what there is, or wait again.
            if queue.bytes.len() == seen {
                return Some(false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use idea_domain::terminal::TerminalSize;

    /// A feed of `size`, and a model that draws every byte, to compare it with.
    fn feed_and_expected(size: TerminalSize) -> (Arc<ModelFeed>, ScreenModel) {
        let mut expected = ScreenModel::new(size, 100);
        expected.fast_forward = false;
        (ModelFeed::start(ScreenModel::new(size, 100)), expected)
    }

    /// Publishes `bytes` to the feed, as the output hub does, and draws them in `expected`.
    fn publish(feed: &ModelFeed, expected: &mut ScreenModel, bytes: &[u8]) {
        feed.push(bytes, || ());
        feed.wake();
        expected.feed(bytes);
    }

    #[test]
    fn the_feeder_thread_ends_when_idle_and_the_next_output_starts_another() {
        let size = TerminalSize { rows: 10, cols: 40 };
        let feed =
            ModelFeed::with_idle_exit(ScreenModel::new(size, 100), Duration::from_millis(50));
        let mut expected = ScreenModel::new(size, 100);
        expected.fast_forward = false;
        assert!(!lock(&feed.queue).feeder_running, "no output, no thread");
        for round in 0..3 {
            publish(
                &feed,
                &mut expected,
                format!("round {round}\r\n").as_bytes(),
            );
            assert!(lock(&feed.queue).feeder_running);
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            while lock(&feed.queue).feeder_running {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the feeder never ended"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            assert!(
                lock(&feed.model).unparsed().is_empty(),
                "parsed before it ended"
            );
        }
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn current_sees_every_byte_pushed_before_it_and_none_after() {
        let (feed, mut expected) = feed_and_expected(TerminalSize::default());
        for i in 0..500 {
            publish(&feed, &mut expected, format!("line {i}\r\n").as_bytes());
        }
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn a_flood_gathered_and_fast_forwarded_ends_as_drawing_every_byte() {
        let (feed, mut expected) = feed_and_expected(TerminalSize { rows: 24, cols: 80 });
        let mut flood = Vec::new();
        for line in 0..300_000 {
            flood.extend_from_slice(format!("\x1b[3{}mline {line}\r\n", line % 8).as_bytes());
        }
        assert!(flood.len() > GATHER_BYTES);
        // A gathered flood: the feeder parses it at once and defers its last lines...
        publish(&feed, &mut expected, &flood);
        // ...which, once the flood has stopped (the feeder has taken it), are what the
        // screen shows.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while !lock(&feed.queue).bytes.is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "the feeder never took the flood"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        publish(&feed, &mut expected, b"\x1b[2Kdone");
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn a_burst_parsed_in_steps_while_clients_catch_up_ends_as_drawing_every_byte() {
        let (feed, mut expected) = feed_and_expected(TerminalSize { rows: 10, cols: 50 });
        // Cursor moves and erases between runs of text: parsed a step at a time, with
        // `current` (an attach) cutting in anywhere.
        let mut burst = Vec::new();
        for i in 0..40_000 {
            burst.extend_from_slice(
                format!("\x1b[{};{}Hcell {i}\x1b[K\r\n", i % 10 + 1, i % 40 + 1).as_bytes(),
            );
            if i % 5_000 == 0 {
                burst.extend_from_slice("plain text line\r\n".repeat(400).as_bytes());
            }
        }
        for (n, piece) in burst.chunks(300_000).enumerate() {
            publish(&feed, &mut expected, piece);
            if n % 2 == 1 {
                std::thread::sleep(Duration::from_millis(30));
                // An attach in the middle of the feeder's work.
                feed.current(|_| ());
            }
        }
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn the_buffers_a_flood_grew_are_given_back_once_it_is_parsed() {
        let (feed, mut expected) = feed_and_expected(TerminalSize { rows: 24, cols: 80 });
        publish(
            &feed,
            &mut expected,
            "a line of a flood\r\n".repeat(300_000).as_bytes(),
        );
        publish(&feed, &mut expected, b"\x1b[31mthe end");
        // Once the output has paused the feeder parses the rest and lets the buffers go.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let released = {
                let model = lock(&feed.model);
                let queue = lock(&feed.queue);
                queue.bytes.is_empty()
                    && model.unparsed().is_empty()
                    && model.taken.capacity() <= KEEP_CAPACITY
                    && queue.bytes.capacity() <= KEEP_CAPACITY
            };
            if released {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the buffers were kept"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(feed.current(ScreenModel::replay), expected.replay());
        feed.close();
    }

    #[test]
    fn the_deferred_end_of_a_flood_is_parsed_once_the_output_stops() {
        let size = TerminalSize { rows: 24, cols: 80 };
        let feed = ModelFeed::start(ScreenModel::new(size, 100));
        let flood = "a line of a flood\r\n".repeat(300_000);
        assert!(flood.len() > GATHER_BYTES);
        feed.push(flood.as_bytes(), || ());
        feed.wake();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            std::thread::sleep(Duration::from_millis(20));
            let parsed = lock(&feed.model);
            if parsed.unparsed().is_empty() && lock(&feed.queue).bytes.is_empty() {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the end of the flood was never parsed"
            );
        }
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
