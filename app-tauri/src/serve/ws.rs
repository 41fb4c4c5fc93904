//! One WebSocket connection: JSON-RPC calls in text frames, terminal bytes in binary frames
//! (16-byte session uuid, then the payload), and domain events pushed as notifications.

use super::Shared;
use super::outbox::{Outbox, outbox};
use crate::api::StreamRequest;
use crate::api::params::{AckTerminalParams, AttachAnswer};
use crate::rpc::{self, RpcError};
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use idea_application::sessions;
use idea_domain::SessionId;
use idea_domain::terminal::OutputSink;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{Semaphore, broadcast};

/// Close code sent to a client that fell too far behind on events or frames (its view is
/// stale: it should reconnect and reload). 1013 = "try again later".
const LAGGED: u16 = 1013;

/// The frames going to the client, bounded in bytes (see [`super::outbox`]); events arrive
/// through a bounded broadcast channel instead.
type Outgoing = Outbox;

/// A binary frame: the session's 16 uuid bytes, then `payload`.
fn frame(session: SessionId, payload: &[u8]) -> Message {
    let mut bytes = Vec::with_capacity(16 + payload.len());
    bytes.extend_from_slice(session.as_uuid().as_bytes());
    bytes.extend_from_slice(payload);
    Message::Binary(Bytes::from(bytes))
}

/// Holds output back until `attachTerminal`'s answer has been queued, so the client sees the
/// answer, then the replay, then live output — in that order, with no gap.
#[derive(Default)]
struct Gate {
    open: bool,
    held: Vec<Message>,
}

fn output_sink(session: SessionId, out: Outgoing, gate: Arc<Mutex<Gate>>) -> OutputSink {
    Box::new(move |bytes: &[u8]| {
        let message = frame(session, bytes);
        let mut gate = gate.lock().unwrap_or_else(PoisonError::into_inner);
        if gate.open {
            // A full or closed outbox means the connection is going; its detach follows.
            let _ = out.send(message);
        } else {
            gate.held.push(message);
        }
    })
}

/// Serves one upgraded connection until the client goes away.
pub(super) async fn connection(socket: WebSocket, shared: Arc<Shared>) {
    let (mut to_client, mut from_client) = socket.split();
    let (out, mut outgoing) = outbox();
    let mut events = shared.events.subscribe();
    let overflow = outgoing.overflow();
    let mut writer = tokio::spawn(async move {
        loop {
            // Events first: one published by a call is already in the channel when the call's
            // answer is queued, so the client sees the change before the answer.
            let message = tokio::select! {
                biased;
                event = events.recv() => match event {
                    Ok(text) => Message::Text(text),
                    Err(broadcast::error::RecvError::Lagged(_)) => Message::Close(Some(CloseFrame {
                        code: LAGGED,
                        reason: Utf8Bytes::from_static("missed events: reconnect"),
                    })),
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                () = overflow.notified() => {
                    tracing::warn!(queued = outgoing.queued(), "WebSocket client too far behind: disconnected");
                    Message::Close(Some(CloseFrame {
                        code: LAGGED,
                        reason: Utf8Bytes::from_static("too far behind: reconnect"),
                    }))
                }
                message = outgoing.recv() => match message {
                    Some(message) => message,
                    None => break,
                },
            };
            let closing = matches!(message, Message::Close(_));
            if to_client.send(message).await.is_err() || closing {
                break;
            }
        }
    });
    let mut client = Client {
        shared,
        out,
        in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        attachments: HashMap::new(),
    };
    // Frames are read in arrival order: keystrokes, `writeTerminal` and `resizeTerminal` reach
    // the PTY in the order they were sent; other calls run side by side (see `on_text`).
    loop {
        // The writer ends when the client is gone or cut off: stop reading it too.
        let message = tokio::select! {
            message = from_client.next() => match message {
                Some(Ok(message)) => message,
                _ => break,
            },
            _ = &mut writer => break,
        };
        match message {
            Message::Text(text) => client.on_text(text.as_str()).await,
            Message::Binary(bytes) => client.on_keystrokes(&bytes),
            // Ping/pong are answered by the library; after Close the stream ends by itself.
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => {}
        }
    }
    client.detach_all();
    writer.abort();
}

/// Calls that act on a session's terminal in the order they were sent.
const IN_ORDER: &[&str] = &["writeTerminal", "resizeTerminal"];
/// Calls of one connection running side by side.
const MAX_IN_FLIGHT: usize = 16;

/// Any request of [`crate::api`], run off the async threads (use cases may do file I/O).
async fn api(
    shared: Arc<Shared>,
    method: String,
    params: Option<Value>,
) -> Result<Value, RpcError> {
    tokio::task::spawn_blocking(move || crate::api::call(&shared.project.deps, &method, params))
        .await
        .map_err(|e| RpcError::internal(format!("the request failed: {e}")))?
        .map_err(RpcError::from_wire)
}

/// The state of one connection: where its frames go and what it is attached to.
struct Client {
    shared: Arc<Shared>,
    out: Outgoing,
    /// Calls running side by side; reading waits while all are taken (backpressure).
    in_flight: Arc<Semaphore>,
    /// Session → attachment id, to ack and detach (one attachment per session).
    attachments: HashMap<SessionId, u64>,
}

impl Client {
    fn send(&self, text: String) {
        let _ = self.out.send(Message::Text(Utf8Bytes::from(text)));
    }

    fn reply(&self, id: Option<Value>, outcome: Result<Value, RpcError>) {
        if let Some(id) = id {
            self.send(rpc::answer(id, outcome));
        }
    }

    async fn on_text(&mut self, text: &str) {
        let call = match rpc::parse(text) {
            Ok(call) => call,
            Err(rejected) => {
                let (id, error) = *rejected;
                return self.send(rpc::error(id, &error));
            }
        };
        let rpc::Call { id, method, params } = call;
        let stream = crate::api::is_stream_method(&method)
            .then(|| rpc::stream_call(&method, params.clone()));
        let outcome = match stream {
            Some(Ok(StreamRequest::AttachTerminal(p))) => return self.attach(id, p.session_id),
            Some(Ok(StreamRequest::DetachTerminal(p))) => self.detach(p.session_id),
            Some(Ok(StreamRequest::AckTerminal(p))) => self.ack(p),
            Some(Err(e)) => Err(e),
            None if IN_ORDER.contains(&method.as_str()) => {
                api(Arc::clone(&self.shared), method, params).await
            }
            None => return self.run_aside(id, method, params).await,
        };
        self.reply(id, outcome);
    }

    /// Runs a call without holding up the next ones (a slow restart must not delay another
    /// cell's request); its answer is sent when it is ready.
    async fn run_aside(&self, id: Option<Value>, method: String, params: Option<Value>) {
        let Ok(slot) = Arc::clone(&self.in_flight).acquire_owned().await else {
            return;
        };
        let shared = Arc::clone(&self.shared);
        let out = self.out.clone();
        tokio::spawn(async move {
            let outcome = api(shared, method, params).await;
            if let Some(id) = id {
                let _ = out.send(Message::Text(Utf8Bytes::from(rpc::answer(id, outcome))));
            }
            drop(slot);
        });
    }

    fn attach(&mut self, id: Option<Value>, session: SessionId) {
        let deps = &self.shared.project.deps;
        if let Some(previous) = self.attachments.remove(&session) {
            sessions::detach(deps, session, previous);
        }
        let gate = Arc::new(Mutex::new(Gate::default()));
        let sink = output_sink(session, self.out.clone(), Arc::clone(&gate));
        // The sink gets the replay first, then live output (see `sessions::attach`); the gate
        // here only keeps all of it behind this call's answer.
        let attachment = match sessions::attach(deps, session, sink) {
            Ok(attachment) => attachment.id,
            Err(e) => return self.reply(id, Err(RpcError::from_wire(e.to_wire()))),
        };
        self.attachments.insert(session, attachment);
        let mut gate = gate.lock().unwrap_or_else(PoisonError::into_inner);
        self.reply(
            id,
            serde_json::to_value(AttachAnswer { attachment })
                .map_err(|e| RpcError::internal(e.to_string())),
        );
        for held in gate.held.drain(..) {
            let _ = self.out.send(held);
        }
        gate.open = true;
    }

    fn detach(&mut self, session: SessionId) -> Result<Value, RpcError> {
        if let Some(attachment) = self.attachments.remove(&session) {
            sessions::detach(&self.shared.project.deps, session, attachment);
        }
        Ok(Value::Null)
    }

    fn ack(&self, params: AckTerminalParams) -> Result<Value, RpcError> {
        let AckTerminalParams { session_id, bytes } = params;
        if let Some(&attachment) = self.attachments.get(&session_id) {
            let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
            sessions::ack(&self.shared.project.deps, session_id, attachment, bytes);
        }
        Ok(Value::Null)
    }

    /// Keystrokes: 16 bytes of session uuid, then the bytes to type. A frame too short, or for
    /// a session that is gone, is dropped: the client learns of an exit from `sessionExited`.
    fn on_keystrokes(&self, frame: &[u8]) {
        let Some((head, payload)) = frame.split_first_chunk::<16>() else {
            return;
        };
        let session = SessionId::from_uuid(uuid::Uuid::from_bytes(*head));
        let _ = sessions::write(&self.shared.project.deps, session, payload);
    }

    /// On disconnect: release every attachment (and the backpressure it may apply).
    fn detach_all(&mut self) {
        for (session, attachment) in self.attachments.drain() {
            sessions::detach(&self.shared.project.deps, session, attachment);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[tokio::test]
    async fn output_is_held_until_the_gate_opens() {
        let (out, mut inbox) = outbox();
        let gate = Arc::new(Mutex::new(Gate::default()));
        let session = SessionId::from_uuid(uuid::Uuid::from_u128(7));
        let sink = output_sink(session, out, Arc::clone(&gate));
        sink(b"early");
        assert_eq!(inbox.queued(), 0);
        assert_eq!(gate.lock().unwrap().held.len(), 1);
        gate.lock().unwrap().open = true;
        sink(b"live");
        let Some(Message::Binary(bytes)) = inbox.recv().await else {
            panic!("not binary");
        };
        assert_eq!(&bytes[..16], session.as_uuid().as_bytes());
        assert_eq!(&bytes[16..], b"live");
    }
}
