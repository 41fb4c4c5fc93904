//! Attached clients and flow control (the xterm.js watermark/ack pattern).
//!
//! Every batch delivered to a client counts against it until the client acknowledges it.
//! Once any client is more than `high` bytes behind, the terminal is *paused*: the output pump
//! stops pulling from the PTY, so the child ends up blocked on its own writes. It resumes only
//! when every client is back at or below `low` (the gap between the two avoids flapping).
//!
//! This type is pure bookkeeping; the caller holds it under a lock and calls the sinks.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A sink shared between the registry and the pump, so it can be called outside the lock.
pub(crate) type SharedSink = Arc<dyn Fn(&[u8]) + Send + Sync>;

struct Client {
    sink: SharedSink,
    /// Bytes delivered and not yet acknowledged.
    unacked: usize,
}

/// The clients attached to one terminal and their unacknowledged byte counts.
pub(crate) struct Fanout {
    clients: BTreeMap<u64, Client>,
    next_id: u64,
    high: usize,
    low: usize,
    paused: bool,
}

impl fmt::Debug for Fanout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unacked: BTreeMap<u64, usize> = self
            .clients
            .iter()
            .map(|(id, client)| (*id, client.unacked))
            .collect();
        f.debug_struct("Fanout")
            .field("unacked", &unacked)
            .field("high", &self.high)
            .field("low", &self.low)
            .field("paused", &self.paused)
            .finish()
    }
}

impl Fanout {
    /// No clients; pauses above `high`, resumes at or below `low` (clamped to `high`).
    pub(crate) fn new(high: usize, low: usize) -> Self {
        Self {
            clients: BTreeMap::new(),
            // Ids start at 1 so a client may use 0 as "not attached".
            next_id: 1,
            high,
            low: low.min(high),
            paused: false,
        }
    }

    /// Registers a client that was just handed `replayed` bytes of scrollback: they count as
    /// delivered and unacknowledged, like live output (so attaching again and again, never
    /// acknowledging, cannot pile up replays faster than the client reads). Returns its id.
    pub(crate) fn attach(&mut self, sink: SharedSink, replayed: usize) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.clients.insert(
            id,
            Client {
                sink,
                unacked: replayed,
            },
        );
        self.paused |= replayed > self.high;
        id
    }

    /// Forgets a client, releasing whatever backpressure it was applying. Unknown ids are ignored.
    pub(crate) fn detach(&mut self, id: u64) {
        self.clients.remove(&id);
        self.maybe_resume();
    }

    /// The client processed `bytes` more bytes. Over-acknowledging saturates at zero.
    pub(crate) fn ack(&mut self, id: u64, bytes: usize) {
        if let Some(client) = self.clients.get_mut(&id) {
            client.unacked = client.unacked.saturating_sub(bytes);
        }
        self.maybe_resume();
    }

    /// Counts a batch of `len` bytes against every client and returns the sinks (with their
    /// ids) to call with it.
    pub(crate) fn deliver(&mut self, len: usize) -> Vec<(u64, SharedSink)> {
        let mut sinks = Vec::with_capacity(self.clients.len());
        for (id, client) in &mut self.clients {
            client.unacked = client.unacked.saturating_add(len);
            self.paused |= client.unacked > self.high;
            sinks.push((*id, Arc::clone(&client.sink)));
        }
        sinks
    }

    /// Whether the pump must stop pulling output.
    pub(crate) fn is_paused(&self) -> bool {
        self.paused
    }

    /// How many clients are attached.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.clients.len()
    }

    fn maybe_resume(&mut self) {
        if self.paused && self.clients.values().all(|c| c.unacked <= self.low) {
            self.paused = false;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::sync::Mutex;

    fn recording() -> (SharedSink, Arc<Mutex<Vec<u8>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink_seen = Arc::clone(&seen);
        let sink: SharedSink = Arc::new(move |bytes: &[u8]| {
            sink_seen.lock().unwrap().extend_from_slice(bytes);
        });
        (sink, seen)
    }

    #[test]
    fn deliver_returns_every_attached_sink() {
        let mut fanout = Fanout::new(100, 10);
        let (a, seen_a) = recording();
        let (b, seen_b) = recording();
        fanout.attach(a, 0);
        fanout.attach(b, 0);
        for (_, sink) in fanout.deliver(3) {
            sink(b"abc");
        }
        assert_eq!(*seen_a.lock().unwrap(), b"abc");
        assert_eq!(*seen_b.lock().unwrap(), b"abc");
    }

    #[test]
    fn ids_are_distinct_and_non_zero() {
        let mut fanout = Fanout::new(100, 10);
        let first = fanout.attach(recording().0, 0);
        let second = fanout.attach(recording().0, 0);
        assert_ne!(first, 0);
        assert_ne!(first, second);
        fanout.detach(first);
        assert_eq!(fanout.len(), 1);
        // Ids are never reused, so a stale ack cannot hit a newer client.
        assert_ne!(fanout.attach(recording().0, 0), first);
    }

    #[test]
    fn without_clients_output_never_pauses() {
        let mut fanout = Fanout::new(10, 5);
        assert!(fanout.deliver(1_000_000).is_empty());
        assert!(!fanout.is_paused());
    }

    #[test]
    fn pauses_above_high_and_resumes_only_at_or_below_low() {
        let mut fanout = Fanout::new(100, 20);
        let id = fanout.attach(recording().0, 0);
        fanout.deliver(100);
        assert!(!fanout.is_paused(), "exactly at high is still fine");
        fanout.deliver(1);
        assert!(fanout.is_paused());
        fanout.ack(id, 50);
        assert!(
            fanout.is_paused(),
            "51 unacked is between low and high: stay paused"
        );
        fanout.ack(id, 31);
        assert!(!fanout.is_paused(), "20 unacked is at low: resume");
    }

    #[test]
    fn every_client_must_catch_up_before_resuming() {
        let mut fanout = Fanout::new(100, 20);
        let slow = fanout.attach(recording().0, 0);
        let fast = fanout.attach(recording().0, 0);
        fanout.deliver(150);
        assert!(fanout.is_paused());
        fanout.ack(fast, 150);
        assert!(fanout.is_paused());
        fanout.ack(slow, 140);
        assert!(!fanout.is_paused());
    }

    #[test]
    fn detaching_the_slow_client_releases_backpressure() {
        let mut fanout = Fanout::new(100, 20);
        let slow = fanout.attach(recording().0, 0);
        fanout.deliver(500);
        assert!(fanout.is_paused());
        fanout.detach(slow);
        assert!(!fanout.is_paused());
    }

    #[test]
    fn over_acknowledging_and_unknown_ids_are_harmless() {
        let mut fanout = Fanout::new(100, 20);
        let id = fanout.attach(recording().0, 0);
        fanout.ack(id, 1_000);
        fanout.ack(999, 5);
        fanout.detach(999);
        fanout.deliver(101);
        assert!(fanout.is_paused(), "the over-ack did not bank credit");
    }

    #[test]
    fn low_above_high_is_clamped() {
        let mut fanout = Fanout::new(10, 50);
        let id = fanout.attach(recording().0, 0);
        fanout.deliver(30);
        fanout.ack(id, 15);
        assert!(
            fanout.is_paused(),
            "15 unacked is above the clamped low of 10"
        );
        fanout.ack(id, 5);
        assert!(!fanout.is_paused());
    }
}

#[cfg(test)]
mod replay_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_replay_counts_as_unacknowledged_output() {
        let mut fanout = Fanout::new(100, 20);
        let sink: SharedSink = std::sync::Arc::new(|_: &[u8]| {});
        let id = fanout.attach(sink, 150);
        assert!(
            fanout.is_paused(),
            "150 replayed bytes are over the high mark"
        );
        fanout.ack(id, 140);
        assert!(!fanout.is_paused());
    }
}
