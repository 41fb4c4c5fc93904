//! The order one client's calls take effect in, whatever its transport (the WebSocket, the
//! owner's socket, the MCP door): its writes one after another, in the order it sent them; its
//! reads at once, beside them ([`Effect`], declared per method). Every call runs on a blocking
//! thread (use cases do file and process work), never on the thread that serves the other
//! clients.
//!
//! A transport admits each call as it reads it ([`CallOrder::admit`]), then runs it from its
//! [`Place`]. A client has at most [`MAX_OUTSTANDING`] calls admitted and not finished: the
//! next admission waits, so a client that sends faster than its calls end stops being read
//! (backpressure), and nothing it sends is queued without limit.

use crate::table::Effect;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

/// Calls one client may have admitted and not finished (queued, running, or waiting for an
/// outcome, like an ask).
pub const MAX_OUTSTANDING: usize = 16;

type Job = Box<dyn FnOnce(Ticket) + Send>;

/// The order of one client's calls. Dropping it still lets the writes already admitted run.
pub struct CallOrder {
    /// The writes' places, in the order they were admitted; [`run_line`] runs each once the
    /// one before has taken effect.
    line: mpsc::Sender<oneshot::Receiver<Job>>,
    outstanding: Arc<Semaphore>,
}

impl fmt::Debug for CallOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallOrder")
            .field("free", &self.outstanding.available_permits())
            .finish_non_exhaustive()
    }
}

impl CallOrder {
    /// A client's order. Must be made inside a tokio runtime: its writes are run by a task.
    pub fn new() -> Self {
        let (line, queued) = mpsc::channel(MAX_OUTSTANDING);
        tokio::spawn(run_line(queued));
        Self {
            line,
            outstanding: Arc::new(Semaphore::new(MAX_OUTSTANDING)),
        }
    }

    /// Admits the client's next call, one of `effect`: the transport admits calls in the order
    /// the client sent them. Waits while the client has [`MAX_OUTSTANDING`] calls outstanding.
    pub async fn admit(&self, effect: Effect) -> Place {
        // The semaphore is never closed.
        let permit = Arc::clone(&self.outstanding).acquire_owned().await.ok();
        let slot = match effect {
            Effect::Reads => None,
            Effect::Writes | Effect::Queues => {
                let (slot, job) = oneshot::channel();
                // Without a line (the runtime is shutting down) the write runs at once.
                self.line.send(job).await.ok().map(|()| slot)
            }
        };
        Place { permit, slot }
    }
}

impl Default for CallOrder {
    fn default() -> Self {
        Self::new()
    }
}

/// An admitted call. A write's place holds up the client's later writes until it has run (or
/// is dropped: then it changed nothing and the line moves on).
pub struct Place {
    permit: Option<OwnedSemaphorePermit>,
    /// Where a write's work goes; `None` for a read.
    slot: Option<oneshot::Sender<Job>>,
}

impl fmt::Debug for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Place")
            .field("write", &self.slot.is_some())
            .finish_non_exhaustive()
    }
}

impl Place {
    /// Runs `work` on a blocking thread: a read at once, a write once the client's earlier
    /// writes have taken effect. `work` gets the call's [`Ticket`]; the future is what it
    /// returns (`None` if it panicked).
    pub fn run<T: Send + 'static>(
        self,
        work: impl FnOnce(Ticket) -> T + Send + 'static,
    ) -> impl Future<Output = Option<T>> + Send + 'static {
        let (answer, outcome) = oneshot::channel();
        self.start(move |ticket| {
            let _ = answer.send(work(ticket));
        });
        async move { outcome.await.ok() }
    }

    /// As [`Place::run`], for work that delivers its own outcome (a transport that answers
    /// from the work itself, so that its writes are answered in the order they were sent).
    pub fn start(self, work: impl FnOnce(Ticket) + Send + 'static) {
        let Place { permit, slot } = self;
        let job: Job = Box::new(move |mut ticket: Ticket| {
            ticket.permit = permit;
            work(ticket);
        });
        let unqueued = match slot {
            Some(slot) => slot.send(job).err(),
            None => Some(job),
        };
        if let Some(job) = unqueued {
            tokio::task::spawn_blocking(move || job(Ticket::unordered()));
        }
    }
}

/// A running call's hold on its client's order. Dropping it — at the latest when the call's
/// work returns — says the call has taken effect and ends its hold on the client's
/// outstanding calls.
#[derive(Default)]
pub struct Ticket {
    permit: Option<OwnedSemaphorePermit>,
    /// Lets the client's next write start; `None` for a read, or once fired.
    took_effect: Option<oneshot::Sender<()>>,
}

impl fmt::Debug for Ticket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ticket")
            .field("holds_the_line", &self.took_effect.is_some())
            .finish_non_exhaustive()
    }
}

impl Ticket {
    /// The ticket of a call no order holds (the desktop window's requests).
    pub fn unordered() -> Self {
        Self::default()
    }

    /// The call's change has taken effect: the client's next write may start while this call
    /// goes on (an ask, once queued, waiting for its answer). It stays one of the client's
    /// outstanding calls until the ticket is dropped.
    pub fn took_effect(&mut self) {
        if let Some(took_effect) = self.took_effect.take() {
            let _ = took_effect.send(());
        }
    }
}

/// Runs a client's writes one after another: each once the one before has taken effect.
async fn run_line(mut queued: mpsc::Receiver<oneshot::Receiver<Job>>) {
    while let Some(place) = queued.recv().await {
        // A place dropped unused: a call that turned out to change nothing.
        let Ok(job) = place.await else {
            continue;
        };
        let (took_effect, taken) = oneshot::channel();
        let ticket = Ticket {
            permit: None,
            took_effect: Some(took_effect),
        };
        tokio::task::spawn_blocking(move || job(ticket));
        // Fired early by the call, or dropped with its ticket (a panic included).
        let _ = taken.await;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    fn log() -> Arc<Mutex<Vec<&'static str>>> {
        Arc::default()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_take_effect_in_the_order_admitted_even_when_the_first_is_slow() {
        let order = CallOrder::new();
        let done = log();
        let mut outcomes = Vec::new();
        for (name, pause) in [("first", 50), ("second", 0), ("third", 0)] {
            let done = Arc::clone(&done);
            let place = order.admit(Effect::Writes).await;
            outcomes.push(place.run(move |_ticket| {
                std::thread::sleep(Duration::from_millis(pause));
                done.lock().unwrap().push(name);
            }));
        }
        for outcome in outcomes {
            outcome.await.unwrap();
        }
        assert_eq!(*done.lock().unwrap(), ["first", "second", "third"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_read_runs_beside_a_write_and_a_write_once_queued_lets_the_next_one_go() {
        let order = CallOrder::new();
        let (release, released) = std::sync::mpsc::channel::<()>();
        // An ask-like write: takes effect, then waits for an answer that comes only later.
        let asking = order.admit(Effect::Queues).await.run(move |mut ticket| {
            ticket.took_effect();
            released.recv().unwrap();
        });
        let read = order.admit(Effect::Reads).await.run(|_| "read");
        let write = order.admit(Effect::Writes).await.run(|_| "write");
        assert_eq!(read.await, Some("read"));
        assert_eq!(write.await, Some("write"));
        release.send(()).unwrap();
        asking.await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_place_or_a_panic_does_not_stop_the_line() {
        let order = CallOrder::new();
        drop(order.admit(Effect::Writes).await);
        let panicked = order.admit(Effect::Writes).await.run(|_| panic!("boom"));
        let next = order.admit(Effect::Writes).await.run(|_| 7);
        assert_eq!(panicked.await, None::<()>);
        assert_eq!(next.await, Some(7));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_has_at_most_so_many_calls_outstanding() {
        let order = CallOrder::new();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let released = Arc::new(Mutex::new(released));
        let mut held = Vec::new();
        for _ in 0..MAX_OUTSTANDING {
            let released = Arc::clone(&released);
            let place = order.admit(Effect::Reads).await;
            held.push(place.run(move |_| released.lock().unwrap().recv().unwrap()));
        }
        let next = tokio::time::timeout(Duration::from_millis(50), order.admit(Effect::Reads));
        assert!(next.await.is_err(), "admitted past the bound");
        release.send(()).unwrap();
        let place = order.admit(Effect::Reads).await;
        drop(place);
        for _ in 1..MAX_OUTSTANDING {
            release.send(()).unwrap();
        }
        for call in held {
            call.await.unwrap();
        }
    }
}
