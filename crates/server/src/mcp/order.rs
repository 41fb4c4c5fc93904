//! The MCP connection's calls in the order its client sent them. `rmcp` runs every request on
//! a task of its own, so by the time a tool runs, the order it arrived in is lost: the
//! transport keeps it instead. [`InOrder`] admits each `tools/call` to the connection's
//! [`CallOrder`] as it reads it, and hands the tool its [`Admitted`] place through the
//! request's extensions. A tool marked read-only (`read_only_hint`) runs beside the others;
//! any other tool runs its API calls from its place ([`Admitted::take`]), after the
//! client's earlier changes have taken effect (an ask: once queued, see `idea_api::order`).

use crate::api::Place;
use crate::api::{CallOrder, Effect};
use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

/// A tool call's place in its connection's order (in the request's extensions, which are
/// cloned: the place goes to whichever takes it first, and is dropped with the last clone).
#[derive(Debug, Clone)]
pub struct Admitted(Arc<Mutex<Option<Place>>>);

impl Admitted {
    /// The place, once.
    pub fn take(&self) -> Option<Place> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// A transport whose tool calls are admitted to the connection's order as they arrive.
pub struct InOrder<T> {
    inner: T,
    order: CallOrder,
    /// The tools whose calls take effect in order; any other runs beside them.
    ordered: Arc<HashSet<String>>,
    /// A message read and not yet handed over: `receive` is polled in a `select!`, and a call
    /// waiting for its admission must not be lost when another branch wins.
    pending: Option<RxJsonRpcMessage<RoleServer>>,
}

impl<T> std::fmt::Debug for InOrder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InOrder")
            .field("order", &self.order)
            .finish_non_exhaustive()
    }
}

impl<T> InOrder<T> {
    /// `inner`, ordering the calls of the tools in `ordered`.
    pub fn new(inner: T, ordered: HashSet<String>) -> Self {
        Self {
            inner,
            order: CallOrder::new(),
            ordered: Arc::new(ordered),
            pending: None,
        }
    }
}

/// The effect of a message: a tool call's (only the `ordered` tools write); `None` for
/// anything else.
fn effect(message: &RxJsonRpcMessage<RoleServer>, ordered: &HashSet<String>) -> Option<Effect> {
    match message {
        JsonRpcMessage::Request(request) => match &request.request {
            ClientRequest::CallToolRequest(call) => {
                Some(if ordered.contains(call.params.name.as_ref()) {
                    Effect::Writes
                } else {
                    Effect::Reads
                })
            }
            _ => None,
        },
        _ => None,
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for InOrder<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        if self.pending.is_none() {
            self.pending = Some(self.inner.receive().await?);
        }
        let effect = self
            .pending
            .as_ref()
            .and_then(|message| effect(message, &self.ordered));
        if let Some(effect) = effect {
            // Waits while the client has its most calls outstanding (backpressure).
            let place = self.order.admit(effect).await;
            if let Some(JsonRpcMessage::Request(request)) = self.pending.as_mut()
                && let ClientRequest::CallToolRequest(call) = &mut request.request
            {
                call.extensions
                    .insert(Admitted(Arc::new(Mutex::new(Some(place)))));
            }
        }
        self.pending.take()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
