//! The frames going to one WebSocket client, bounded in bytes.
//!
//! Terminal output is held back upstream by the PTY's flow control, but a client can still ask
//! for more than it reads: replays (a whole scrollback per `attachTerminal`), answers it never reads.
//! Past [`MAX_QUEUED`] the client is too far behind: it is disconnected, with a logged reason,
//! and everything queued for it is freed; the sessions and the other clients are unharmed.

use axum::extract::ws::Message;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Notify, mpsc};

/// Bytes queued for one client before it is cut off: a few replays and a full flow-control
/// window per session, with room to spare.
pub(super) const MAX_QUEUED: usize = 32 << 20;

fn size(message: &Message) -> usize {
    match message {
        Message::Text(text) => text.len(),
        Message::Binary(bytes) => bytes.len(),
        _ => 0,
    }
}

/// The sending side, cloned into every output sink and answering task.
#[derive(Clone, Debug)]
pub(super) struct Outbox {
    tx: mpsc::UnboundedSender<Message>,
    queued: Arc<AtomicUsize>,
    overflow: Arc<Notify>,
}

/// The writer's side.
#[derive(Debug)]
pub(super) struct Inbox {
    rx: mpsc::UnboundedReceiver<Message>,
    queued: Arc<AtomicUsize>,
    overflow: Arc<Notify>,
}

pub(super) fn outbox() -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::unbounded_channel();
    let queued = Arc::new(AtomicUsize::new(0));
    let overflow = Arc::new(Notify::new());
    let outbox = Outbox {
        tx,
        queued: Arc::clone(&queued),
        overflow: Arc::clone(&overflow),
    };
    (
        outbox,
        Inbox {
            rx,
            queued,
            overflow,
        },
    )
}

impl Outbox {
    /// Queues `message`; `false` when the client is gone or too far behind (then the message
    /// is dropped and the writer closes the connection).
    pub(super) fn send(&self, message: Message) -> bool {
        let size = size(&message);
        let before = self.queued.fetch_add(size, Ordering::SeqCst);
        if before + size > MAX_QUEUED {
            self.queued.fetch_sub(size, Ordering::SeqCst);
            self.overflow.notify_one();
            return false;
        }
        self.tx.send(message).is_ok()
    }
}

impl Inbox {
    /// The next frame to write.
    pub(super) async fn recv(&mut self) -> Option<Message> {
        let message = self.rx.recv().await?;
        self.queued.fetch_sub(size(&message), Ordering::SeqCst);
        Some(message)
    }

    /// Resolves once a sender found the queue full (await it beside [`Self::recv`]).
    pub(super) fn overflow(&self) -> Arc<Notify> {
        Arc::clone(&self.overflow)
    }

    /// Bytes still queued (for the log line of a cut-off client).
    pub(super) fn queued(&self) -> usize {
        self.queued.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use axum::body::Bytes;

    #[tokio::test]
    async fn a_client_past_the_bound_is_flagged_and_its_frames_freed() {
        let (out, mut inbox) = outbox();
        let chunk = Bytes::from(vec![0u8; 1 << 20]);
        let mut accepted = 0;
        while out.send(Message::Binary(chunk.clone())) {
            accepted += 1;
        }
        assert_eq!(accepted, MAX_QUEUED >> 20);
        inbox.overflow().notified().await;
        assert!(inbox.recv().await.is_some());
        assert_eq!(inbox.queued(), MAX_QUEUED - (1 << 20));
        // Room again once the writer has taken a frame.
        assert!(out.send(Message::Binary(chunk)));
    }
}
