//! One WebSocket connection: JSON-RPC calls in text frames, terminal bytes in binary frames
//! (16-byte session uuid, then the payload), and domain events pushed as notifications.

use super::Shared;
use super::attach::{Attach, Latest};
use super::outbox::{Outbox, outbox};
use crate::api::params::{AckTerminalParams, AttachTerminalParams};
use crate::api::{Attachments, CallOrder, Place, StreamRequest};
use crate::rpc::{self, RpcError};
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{Sink, StreamExt};

use idea_application::{AppResult, Deps, sessions};
use idea_domain::SessionId;
use idea_domain::terminal::OutputSink;
use serde_json::Value;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker, ready};
use tokio::sync::{Notify, broadcast};

/// The connection's read buffer. What a client sends is small (keystrokes, calls, acks), and
/// the WebSocket library zeroes this much before every read of the socket: at its default
/// (128 KiB) that was the largest single cost of handling a keystroke or an ack.
pub(super) const READ_BUFFER: usize = 4 * 1024;

/// Close code sent to a client that fell too far behind on events or frames (its view is
/// stale: it should reconnect and reload). 1013 = "try again later".
const LAGGED: u16 = 1013;

/// The frames going to the client.
///
/// Terminal output is written to the socket by the PTY thread that read it, whenever nothing
/// is queued or being written ahead of it ([`Outgoing::write_now`]): a keystroke's echo goes
/// out without waking the async runtime. Everything else (answers, replays, and output that
/// finds the socket busy) is queued in the [`Outbox`], bounded in bytes (see
/// [`super::outbox`]), for the connection's writer task; events arrive through a bounded
/// broadcast channel instead. A direct write never waits: it leaves the socket to the writer
/// task as soon as the socket would block.
pub(super) struct Outgoing<S = SplitSink<WebSocket, Message>> {
    outbox: Outbox,
    wire: Arc<Wire<S>>,
}

impl<S> Clone for Outgoing<S> {
    fn clone(&self) -> Self {
        Self {
            outbox: self.outbox.clone(),
            wire: Arc::clone(&self.wire),
        }
    }
}

/// The socket's sending half, shared by the writer task and direct writes.
struct Wire<S> {
    state: Mutex<WireState<S>>,
    /// A direct write left a flush unfinished: the writer task must finish it.
    flush_owed: Notify,
}

struct WireState<S> {
    /// `None` once the writer task has ended: nothing is written after that.
    sink: Option<S>,
    /// Frames put in the outbox and not yet handed to the sink: direct writes wait behind them.
    queued: usize,
    /// The writer task has handed the sink a frame it has not flushed yet (or owes a direct
    /// write's flush): direct writes wait, as they would replace its waker with one that does
    /// nothing.
    busy: bool,
}

/// The connection is gone.
struct Closed;

impl<S: Sink<Message> + Unpin> Wire<S> {
    fn new(sink: S) -> Self {
        Self {
            state: Mutex::new(WireState {
                sink: Some(sink),
                queued: 0,
                busy: false,
            }),
            flush_owed: Notify::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, WireState<S>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The writer task's write: hands `message` (if any) to the sink, then flushes. Pending
    /// while the socket is full; an error once the connection is gone.
    fn write(
        &self,
        cx: &mut Context<'_>,
        message: &mut Option<Message>,
        from_outbox: bool,
    ) -> Poll<Result<(), Closed>> {
        let mut state = self.state();
        let WireState { sink, queued, busy } = &mut *state;
        let Some(socket) = sink.as_mut() else {
            return Poll::Ready(Err(Closed));
        };
        *busy = true;
        let mut send = || {
            if message.is_some() {
                ready!(Pin::new(&mut *socket).poll_ready(cx)).map_err(|_| Closed)?;
                if let Some(message) = message.take() {
                    if from_outbox {
                        *queued = queued.saturating_sub(1);
                    }
                    Pin::new(&mut *socket)
                        .start_send(message)
                        .map_err(|_| Closed)?;
                }
            }
            Pin::new(&mut *socket).poll_flush(cx).map_err(|_| Closed)
        };
        let outcome = send();
        match outcome {
            Poll::Ready(Ok(())) => *busy = false,
            Poll::Ready(Err(Closed)) => *sink = None,
            Poll::Pending => {}
        }
        outcome
    }

    /// No more frames: drops the sending half.
    fn close(&self) {
        self.state().sink = None;
    }
}

impl<S: Sink<Message> + Unpin> Outgoing<S> {
    fn new(outbox: Outbox, sink: S) -> Self {
        Self {
            outbox,
            wire: Arc::new(Wire::new(sink)),
        }
    }

    /// Queues `message` for the writer task; `false` when the client is gone or too far
    /// behind (see [`Outbox::send`]).
    pub(super) fn send(&self, message: Message) -> bool {
        self.queue(self.wire.state(), message)
    }

    /// Counts `message` as queued while still holding the wire (so no direct write can go
    /// ahead of it), then queues it.
    fn queue(&self, mut state: MutexGuard<'_, WireState<S>>, message: Message) -> bool {
        state.queued += 1;
        drop(state);
        let queued = self.outbox.send(message);
        if !queued {
            let mut state = self.wire.state();
            state.queued = state.queued.saturating_sub(1);
        }
        queued
    }

    /// Writes `message` to the socket now if nothing is queued or being written ahead of it
    /// and the socket takes it without waiting; queues it otherwise. A closed connection
    /// drops it (its detach is on the way).
    fn write_now(&self, message: Message) {
        let mut state = self.wire.state();
        let WireState { sink, queued, busy } = &mut *state;
        let Some(socket) = sink.as_mut() else {
            return;
        };
        if *busy || *queued > 0 {
            self.queue(state, message);
            return;
        }
        // A waker that does nothing: whenever the socket is not ready, the writer task takes
        // over and polls with its own.
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(&mut *socket).poll_ready(&mut cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(_)) => return *sink = None,
            Poll::Pending => {
                self.queue(state, message);
                return;
            }
        }
        if Pin::new(&mut *socket).start_send(message).is_err() {
            return *sink = None;
        }
        match Pin::new(&mut *socket).poll_flush(&mut cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(_)) => *sink = None,
            Poll::Pending => {
                *busy = true;
                self.wire.flush_owed.notify_one();
            }
        }
    }
}

/// Stops all writing when the writer task ends, however it ends (including `abort`).
struct CloseOnDrop<S: Sink<Message> + Unpin>(Arc<Wire<S>>);

impl<S: Sink<Message> + Unpin> Drop for CloseOnDrop<S> {
    fn drop(&mut self) {
        self.0.close();
    }
}

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
pub(super) struct Gate {
    pub open: bool,
    pub held: Vec<Message>,
}

/// The sink of one attachment. It runs on the session's PTY threads and writes from there
/// (see [`Outgoing`]).
pub(super) fn output_sink<S>(
    session: SessionId,
    out: Outgoing<S>,
    gate: Arc<Mutex<Gate>>,
) -> OutputSink
where
    S: Sink<Message> + Unpin + Send + 'static,
{
    Box::new(move |bytes: &[u8]| {
        let message = frame(session, bytes);
        let mut gate = gate.lock().unwrap_or_else(PoisonError::into_inner);
        if gate.open {
            // The held frames were queued before the gate opened: this one stays behind them.
            drop(gate);
            // A full or closed outbox means the connection is going; its detach follows.
            out.write_now(message);
        } else {
            gate.held.push(message);
        }
    })
}

/// Serves one upgraded connection until the client goes away.
pub(super) async fn connection(socket: WebSocket, shared: Arc<Shared>) {
    tracing::info!("client connected");
    let (to_client, mut from_client) = socket.split();
    let (outbox, mut outgoing) = outbox();
    let out = Outgoing::new(outbox, to_client);
    let wire = CloseOnDrop(Arc::clone(&out.wire));
    let mut events = shared.events.subscribe();
    let overflow = outgoing.overflow();
    let mut writer = tokio::spawn(async move {
        let wire = wire;
        loop {
            // Events first: one published by a call is already in the channel when the call's
            // answer is queued, so the client sees the change before the answer.
            let (message, from_outbox) = tokio::select! {
                biased;
                event = events.recv() => match event {
                    Ok(text) => (Some(Message::Text(text)), false),
                    Err(broadcast::error::RecvError::Lagged(_)) => (Some(Message::Close(Some(CloseFrame {
                        code: LAGGED,
                        reason: Utf8Bytes::from_static("missed events: reconnect"),
                    }))), false),
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                () = overflow.notified() => {
                    tracing::warn!(queued = outgoing.queued(), "WebSocket client too far behind: disconnected");
                    (Some(Message::Close(Some(CloseFrame {
                        code: LAGGED,
                        reason: Utf8Bytes::from_static("too far behind: reconnect"),
                    }))), false)
                }
                message = outgoing.recv() => match message {
                    Some(message) => (Some(message), true),
                    None => break,
                },
                // A direct write found the socket full: finish its flush.
                () = wire.0.flush_owed.notified() => (None, false),
            };
            let closing = matches!(message, Some(Message::Close(_)));
            let mut message = message;
            let written =
                std::future::poll_fn(|cx| wire.0.write(cx, &mut message, from_outbox)).await;
            if written.is_err() || closing {
                break;
            }
        }
    });
    let mut client = Client {
        shared,
        out,
        order: CallOrder::new(),
        attachments: Arc::default(),
        attaching: Latest::default(),
    };
    // Frames are read in arrival order: calls are admitted to the connection's order in the
    // order they were sent (see `on_text`), and keystrokes reach the PTY in that order too.
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
    // An attach still queued undoes itself when it ends (see `Attachments::record`).
    lock(&client.attachments).detach_all(&client.shared.project.deps);
    writer.abort();
}

/// The connection's attachments, shared with its attach calls running on blocking threads.
pub(super) type SharedAttachments = Arc<Mutex<Attachments>>;

/// `mutex`'s value, also after a panic elsewhere (the maps it guards stay valid).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state of one connection: where its frames go and what it is attached to.
struct Client {
    shared: Arc<Shared>,
    out: Outgoing,
    /// The order its calls take effect in: writes one after another as sent, reads beside
    /// them, all on blocking threads; reading waits while 16 are outstanding (backpressure).
    order: CallOrder,
    /// Session → attachment id, to ack and detach (one attachment per session).
    attachments: SharedAttachments,
    /// The attaches admitted and not served yet: only the latest of a session is served.
    attaching: Latest,
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
        if crate::api::is_stream_method(&method) {
            let request = match rpc::stream_call(&method, params) {
                Ok(request) => request,
                Err(e) => return self.reply(id, Err(e)),
            };
            // Attach and detach are writes; an ack reads (see the method table).
            let place = self.order.admit(request.effect()).await;
            return match request {
                StreamRequest::AttachTerminal(p) => self.attach(place, id, p),
                StreamRequest::DetachTerminal(p) => self.detach(place, id, p.session_id),
                StreamRequest::FocusTerminal(p) => self.in_order(place, id, move |deps, a| {
                    a.lead(deps, p.session_id);
                    Ok(())
                }),
                StreamRequest::FitTerminal(p) => {
                    self.in_order(place, id, move |deps, a| a.fit(deps, p.session_id, p.size));
                }
                // Flow control of output already delivered: answered here, at once.
                StreamRequest::AckTerminal(p) => {
                    drop(place);
                    self.ack(p);
                    self.reply(id, Ok(Value::Null));
                }
            };
        }
        let request = match crate::api::decode(&method, params) {
            Ok(request) => request,
            Err(e) => return self.reply(id, Err(RpcError::from_wire(e))),
        };
        let place = self.order.admit(request.effect()).await;
        let shared = Arc::clone(&self.shared);
        let out = self.out.clone();
        place.start(move |mut ticket| {
            let outcome = crate::api::run(&shared.project.deps, request, &mut ticket)
                .map_err(RpcError::from_wire);
            // Queued before the ticket goes: a client's writes are answered in the order sent.
            if let Some(id) = id {
                let _ = out.send(Message::Text(Utf8Bytes::from(rpc::answer(id, outcome))));
            }
        });
    }

    /// Attaches in the connection's order, off the async thread (the replay is the terminal
    /// model written out, which waits for its parse to catch up): see [`super::attach`].
    fn attach(&self, place: Place, id: Option<Value>, params: AttachTerminalParams) {
        let session = params.session_id;
        let attach = Attach {
            deps: Arc::clone(&self.shared.project.deps),
            out: self.out.clone(),
            attachments: Arc::clone(&self.attachments),
            attaching: self.attaching.clone(),
            turn: self.attaching.supersede(session),
            id,
            session,
            size: params.size,
            scope: params.replay,
        };
        place.start(move |ticket| attach.serve(ticket));
    }

    fn detach(&self, place: Place, id: Option<Value>, session: SessionId) {
        self.in_order(place, id, move |deps, a| {
            a.detach(deps, session);
            Ok(())
        });
    }

    /// Runs `work` on the client's attachments in the connection's order, off the async
    /// thread (a resize may wait for the terminal model), and answers it.
    fn in_order(
        &self,
        place: Place,
        id: Option<Value>,
        work: impl FnOnce(&Deps, &mut Attachments) -> AppResult<()> + Send + 'static,
    ) {
        let deps = Arc::clone(&self.shared.project.deps);
        let attachments = Arc::clone(&self.attachments);
        let out = self.out.clone();
        place.start(move |_ticket| {
            let outcome = work(&deps, &mut lock(&attachments))
                .map(|()| Value::Null)
                .map_err(|e| RpcError::from_wire(e.to_wire()));
            if let Some(id) = id {
                let _ = out.send(Message::Text(Utf8Bytes::from(rpc::answer(id, outcome))));
            }
        });
    }

    fn ack(&self, params: AckTerminalParams) {
        let AckTerminalParams { session_id, bytes } = params;
        let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
        lock(&self.attachments).ack(&self.shared.project.deps, session_id, bytes);
    }

    /// Keystrokes: 16 bytes of session uuid, then the bytes to type. A frame too short, or for
    /// a session that is gone, is dropped: the client learns of an exit from `sessionExited`.
    /// Typed at once, in the order sent, not behind the connection's pending calls: a slow
    /// restart in one cell must not hold up typing in another.
    fn on_keystrokes(&self, frame: &[u8]) {
        let Some((head, payload)) = frame.split_first_chunk::<16>() else {
            return;
        };
        let session = SessionId::from_uuid(uuid::Uuid::from_bytes(*head));
        let deps = &self.shared.project.deps;
        // The user types here: this client's cell gives the terminal its size, before the
        // keystroke reaches the program (its echo is drawn for it).
        lock(&self.attachments).lead(deps, session);
        let _ = sessions::write(deps, session, payload);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    /// The frames the socket has been given, as bytes.
    fn written(out: &Outgoing<Vec<Message>>) -> Vec<Vec<u8>> {
        let state = out.wire.state();
        let sink = state.sink.as_ref().unwrap();
        sink.iter()
            .map(|message| match message {
                Message::Binary(bytes) => bytes.to_vec(),
                Message::Text(text) => text.as_bytes().to_vec(),
                _ => panic!("unexpected frame"),
            })
            .collect()
    }

    fn text(text: &'static str) -> Message {
        Message::Text(Utf8Bytes::from_static(text))
    }

    /// What the writer task does with one frame it took from the outbox.
    fn write_from_outbox(out: &Outgoing<Vec<Message>>, message: Message) {
        let mut message = Some(message);
        let mut cx = Context::from_waker(Waker::noop());
        assert!(matches!(
            out.wire.write(&mut cx, &mut message, true),
            Poll::Ready(Ok(()))
        ));
    }

    #[tokio::test]
    async fn output_is_held_until_the_gate_opens_then_written_at_once() {
        let (outbox, inbox) = outbox();
        let out = Outgoing::new(outbox, Vec::new());
        let gate = Arc::new(Mutex::new(Gate::default()));
        let session = SessionId::from_uuid(uuid::Uuid::from_u128(7));
        let sink = output_sink(session, out.clone(), Arc::clone(&gate));
        sink(b"early");
        assert_eq!(inbox.queued(), 0);
        assert!(written(&out).is_empty());
        assert_eq!(gate.lock().unwrap().held.len(), 1);
        gate.lock().unwrap().open = true;
        sink(b"live");
        assert_eq!(inbox.queued(), 0, "not queued: written directly");
        let written = written(&out);
        let [bytes] = written.as_slice() else {
            panic!("one frame expected");
        };
        assert_eq!(&bytes[..16], session.as_uuid().as_bytes());
        assert_eq!(&bytes[16..], b"live");
    }

    #[tokio::test]
    async fn output_stays_behind_what_is_queued_until_the_writer_task_has_written_it() {
        let (outbox, mut inbox) = outbox();
        let out = Outgoing::new(outbox, Vec::new());
        assert!(out.send(text("answer")));
        out.write_now(text("output"));
        assert!(
            written(&out).is_empty(),
            "nothing may overtake the queued answer"
        );
        let answer = inbox.recv().await.unwrap();
        // Taken by the writer task but not yet written: still nothing may overtake it.
        out.write_now(text("more output"));
        assert!(written(&out).is_empty());
        write_from_outbox(&out, answer);
        for _ in 0..2 {
            let output = inbox.recv().await.unwrap();
            write_from_outbox(&out, output);
        }
        out.write_now(text("direct again"));
        assert_eq!(inbox.queued(), 0);
        assert_eq!(
            written(&out),
            [
                b"answer".to_vec(),
                b"output".to_vec(),
                b"more output".to_vec(),
                b"direct again".to_vec()
            ]
        );
    }

    #[tokio::test]
    async fn nothing_is_written_once_the_writer_task_has_ended() {
        let (outbox, inbox) = outbox();
        let out = Outgoing::new(outbox, Vec::new());
        drop(CloseOnDrop(Arc::clone(&out.wire)));
        out.write_now(text("late output"));
        assert!(out.wire.state().sink.is_none());
        drop(inbox);
        assert!(!out.send(text("late answer")));
        assert_eq!(out.wire.state().queued, 0);
    }
}
