//! The collaborators every use case of one open project needs.

use idea_domain::DomainEvent;
use idea_domain::ports::{EventPublisher, IdGenerator, ProfileCatalog, ProjectStore};
use std::sync::{Arc, Mutex, MutexGuard};

/// One open project's ports, built once by the composition root.
pub struct Deps {
    pub store: Arc<dyn ProjectStore>,
    pub profiles: Arc<dyn ProfileCatalog>,
    pub events: Arc<dyn EventPublisher>,
    pub ids: Arc<dyn IdGenerator>,
    /// Serialises read-modify-write cycles on the state files, so two requests in flight
    /// cannot lose each other's change.
    write_lock: Mutex<()>,
}

impl std::fmt::Debug for Deps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deps")
            .field("root", &self.store.root())
            .finish_non_exhaustive()
    }
}

impl Deps {
    pub fn new(
        store: Arc<dyn ProjectStore>,
        profiles: Arc<dyn ProfileCatalog>,
        events: Arc<dyn EventPublisher>,
        ids: Arc<dyn IdGenerator>,
    ) -> Self {
        Self {
            store,
            profiles,
            events,
            ids,
            write_lock: Mutex::new(()),
        }
    }

    /// Held for the duration of one read-modify-write of project state.
    pub(crate) fn lock_state(&self) -> MutexGuard<'_, ()> {
        // A panic while holding the lock left no half-written file (writes are atomic).
        self.write_lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn publish(&self, event: DomainEvent) {
        self.events.publish(event);
    }
}
