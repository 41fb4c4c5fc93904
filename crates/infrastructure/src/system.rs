//! Adapters for ids, events and the clock.

use idea_domain::DomainEvent;
use idea_domain::ports::{Clock, EventPublisher, IdGenerator};
use std::sync::Mutex;
use uuid::Uuid;

/// Random (v4) uuids.
#[derive(Debug, Default, Clone, Copy)]
pub struct RandomIds;

impl IdGenerator for RandomIds {
    fn new_uuid(&self) -> Uuid {
        Uuid::new_v4()
    }
}

/// The machine's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }

    fn zone(&self) -> jiff::tz::TimeZone {
        // `TZ`, else /etc/localtime; UTC when neither says (a container without tzdata).
        jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC)
    }
}

type Subscriber = Box<dyn Fn(&DomainEvent) + Send + Sync>;

/// An in-process event bus: every published event is handed to each subscriber in order.
#[derive(Default)]
pub struct EventBus {
    subscribers: Mutex<Vec<Subscriber>>,
}

impl std::fmt::Debug for EventBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventBus").finish_non_exhaustive()
    }
}

impl EventBus {
    /// Registers a subscriber for every later event.
    pub fn subscribe(&self, subscriber: impl Fn(&DomainEvent) + Send + Sync + 'static) {
        if let Ok(mut subs) = self.subscribers.lock() {
            subs.push(Box::new(subscriber));
        }
    }
}

impl EventPublisher for EventBus {
    fn publish(&self, event: DomainEvent) {
        if let Ok(subs) = self.subscribers.lock() {
            for sub in subs.iter() {
                sub(&event);
            }
        }
    }
}
