//! `attachTerminal` on a WebSocket connection: run in the connection's order on a blocking
//! thread (the replay is the terminal model written out, which first waits for the model's
//! parse to catch up: never on the async thread that serves every other connection), and
//! coalesced: of the attaches of one session a client has sent and not yet had served, only
//! the latest is served; the ones it superseded are answered with its answer, not replayed.
//! Each stays one of the client's outstanding calls until answered, so a client that repeats
//! attaches waits for them (backpressure) instead of queueing them without limit.

use super::ws::{Gate, Outgoing, SharedAttachments, lock, output_sink};
use crate::api::Ticket;
use crate::api::params::AttachAnswer;
use crate::rpc::{self, RpcError};
use axum::extract::ws::{Message, Utf8Bytes};
use idea_application::{Deps, sessions};
use idea_domain::SessionId;
use idea_domain::terminal::{ReplayScope, TerminalSize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The attaches of one connection admitted and not served yet, by session.
#[derive(Debug, Clone, Default)]
pub(super) struct Latest(Arc<Mutex<Attaching>>);

#[derive(Debug, Default)]
struct Attaching {
    /// The last turn handed out.
    turn: u64,
    sessions: HashMap<SessionId, Pending>,
}

/// The attaches of one session waiting to be served.
#[derive(Debug, Default)]
struct Pending {
    /// The turn of the latest: the only one served.
    latest: u64,
    /// The ones it superseded (their ids and tickets), answered with its answer.
    superseded: Vec<(Option<Value>, Ticket)>,
}

/// The calls one attach answers: its own and those it superseded.
type Answering = Vec<(Option<Value>, Ticket)>;

impl Latest {
    /// Makes a newly admitted attach of `session` the latest; its turn.
    pub(super) fn supersede(&self, session: SessionId) -> u64 {
        let mut attaching = lock(&self.0);
        attaching.turn += 1;
        let turn = attaching.turn;
        attaching.sessions.entry(session).or_default().latest = turn;
        turn
    }

    /// Whether the attach of `turn` is to be served: then the calls it answers. A superseded
    /// one hands over its call, which has taken effect with the latest's (its place in the
    /// order is the latest's).
    fn claim(
        &self,
        session: SessionId,
        turn: u64,
        id: Option<Value>,
        mut ticket: Ticket,
    ) -> Option<Answering> {
        let mut attaching = lock(&self.0);
        match attaching.sessions.get_mut(&session) {
            Some(pending) if pending.latest != turn => {
                ticket.took_effect();
                pending.superseded.push((id, ticket));
                None
            }
            _ => {
                let mut answering = attaching
                    .sessions
                    .remove(&session)
                    .map(|pending| pending.superseded)
                    .unwrap_or_default();
                answering.push((id, ticket));
                Some(answering)
            }
        }
    }
}

/// One admitted `attachTerminal`.
pub(super) struct Attach {
    pub deps: Arc<Deps>,
    pub out: Outgoing,
    pub attachments: SharedAttachments,
    pub attaching: Latest,
    /// Its turn among the connection's attaches ([`Latest::supersede`]).
    pub turn: u64,
    pub id: Option<Value>,
    pub session: SessionId,
    pub size: Option<TerminalSize>,
    pub scope: ReplayScope,
}

impl Attach {
    /// Serves the attach unless a later one of the same session supersedes it: the answers,
    /// then the replay, then live output, with no gap.
    pub(super) fn serve(self, ticket: Ticket) {
        let Attach {
            deps,
            out,
            attachments,
            attaching,
            turn,
            id,
            session,
            size,
            scope,
        } = self;
        let Some(answering) = attaching.claim(session, turn, id, ticket) else {
            return;
        };
        // The previous attachment goes first: its sink must not feed this connection output
        // the new replay already draws.
        lock(&attachments).detach(&deps, session);
        let gate = Arc::new(Mutex::new(Gate::default()));
        let sink = output_sink(session, out.clone(), Arc::clone(&gate));
        // The sink gets the replay first, then live output (see `sessions::attach`); the gate
        // here only keeps all of it behind this call's answers.
        let answer = match sessions::attach(&deps, session, sink, size, scope) {
            Ok(attachment) => {
                lock(&attachments).record(&deps, session, attachment.id);
                serde_json::to_value(AttachAnswer::from(attachment))
                    .map_err(|e| RpcError::internal(e.to_string()))
            }
            Err(e) => Err(RpcError::from_wire(e.to_wire())),
        };
        let mut gate = lock(&gate);
        for (id, _) in &answering {
            if let Some(id) = id {
                let answer = rpc::answer(id.clone(), answer.clone());
                let _ = out.send(Message::Text(Utf8Bytes::from(answer)));
            }
        }
        for held in gate.held.drain(..) {
            let _ = out.send(held);
        }
        gate.open = true;
        // The tickets go last: the connection's next write starts once this one is answered.
        drop(answering);
    }
}
