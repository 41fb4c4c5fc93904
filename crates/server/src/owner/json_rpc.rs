//! A `cli` client of the owner's socket: newline-delimited JSON-RPC calls answered through
//! [`crate::api::run`], the door every transport uses, in the client's order
//! ([`crate::api::CallOrder`]: its writes one after another as sent, its reads beside them);
//! domain events go out as `event` notifications, as on the WebSocket.

use crate::api::CallOrder;
use crate::rpc::{self, RpcError};
use idea_application::{Deps, ErrorKind, WireError};
use idea_infrastructure::owner::{MESSAGE_MAX, read_line_bounded};
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{broadcast, mpsc};

/// Answers queued for one client (events have their own queue). A call whose answer finds it
/// full waits, and with it the client's next calls: the client is read no faster than it
/// reads its answers.
const ANSWER_QUEUE: usize = 16;

/// Serves one client until it leaves, is too far behind on events, or sends an unreadable line.
pub(super) async fn serve<R, W>(
    mut reader: R,
    mut write: W,
    deps: Arc<Deps>,
    mut events: broadcast::Receiver<Arc<str>>,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (out, mut outgoing) = mpsc::channel::<String>(ANSWER_QUEUE);
    let order = CallOrder::new();
    let writer = tokio::spawn(async move {
        loop {
            let line: String = tokio::select! {
                biased;
                event = events.recv() => match event {
                    Ok(text) => text.to_string(),
                    // Too far behind: its view is stale; it reconnects.
                    Err(_) => break,
                },
                answer = outgoing.recv() => match answer {
                    Some(answer) => answer,
                    None => break,
                },
            };
            if write.write_all(line.as_bytes()).await.is_err()
                || write.write_all(b"\n").await.is_err()
                || write.flush().await.is_err()
            {
                break;
            }
        }
    });
    loop {
        let line = match read_line_bounded(&mut reader, MESSAGE_MAX).await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let error = RpcError::new(rpc::PARSE_ERROR, format!("unreadable line: {e}"));
                let _ = out.send(rpc::error(serde_json::Value::Null, &error)).await;
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        if !start(&deps, &order, &out, &line).await {
            break;
        }
    }
    drop(out);
    let _ = writer.await;
}

/// Admits the call of one line to the client's order and starts it; `false` once the client's
/// answers have nowhere to go.
async fn start(
    deps: &Arc<Deps>,
    order: &CallOrder,
    out: &mpsc::Sender<String>,
    line: &str,
) -> bool {
    if out.is_closed() {
        return false;
    }
    let call = match rpc::parse(line) {
        Ok(call) => call,
        Err(rejected) => {
            let (id, error) = *rejected;
            return out.send(rpc::error(id, &error)).await.is_ok();
        }
    };
    let rpc::Call { id, method, params } = call;
    let request = if crate::api::is_stream_method(&method) {
        Err(WireError::new(
            ErrorKind::InvalidParams,
            "terminal streams are served on the WebSocket and in the desktop window, not on the local socket",
        ))
    } else {
        crate::api::decode(&method, params)
    };
    let request = match request {
        Ok(request) => request,
        Err(e) => {
            return match id {
                Some(id) => out
                    .send(rpc::answer(id, Err(RpcError::from_wire(e))))
                    .await
                    .is_ok(),
                None => true,
            };
        }
    };
    let place = order.admit(request.effect()).await;
    let (deps, out) = (Arc::clone(deps), out.clone());
    place.start(move |mut ticket| {
        let outcome = crate::api::run(&deps, request, &mut ticket).map_err(RpcError::from_wire);
        // Queued before the ticket goes: a client's writes are answered in the order sent.
        if let Some(id) = id {
            let _ = out.blocking_send(rpc::answer(id, outcome));
        }
    });
    true
}
