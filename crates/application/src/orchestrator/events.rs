//! A running turn's events, published as `RequestEvent`s for the front ends that show them
//! (a chat cell, the requests panel). Bounded: each event's texts are cut and a turn
//! publishes at most `MAX_PUBLISHED_EVENTS`, plus its last word; the transports' own bounded
//! queues do the rest (a client that falls behind is disconnected, never buffered for).

use idea_domain::ports::{EventPublisher, TurnEventSink};
use idea_domain::turn::{MAX_EVENT_TEXT, MAX_PUBLISHED_EVENTS, TurnEvent};
use idea_domain::{AgentId, DomainEvent, RequestId};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// The sink a turn of `request` reports to.
pub(super) fn publisher(
    events: Arc<dyn EventPublisher>,
    request_id: RequestId,
    target: AgentId,
) -> TurnEventSink {
    let next = AtomicU32::new(0);
    Box::new(move |event: TurnEvent| {
        tracing::debug!(request = %request_id, ?event, "turn event");
        let last_word = matches!(event, TurnEvent::Finished(_));
        // Events left out still count: a gap in `seq` shows where.
        let seq = next.fetch_add(1, Ordering::Relaxed);
        if seq >= MAX_PUBLISHED_EVENTS && !last_word {
            return;
        }
        events.publish(DomainEvent::RequestEvent {
            request_id,
            target,
            seq,
            event: event.capped(MAX_EVENT_TEXT),
        });
    })
}
