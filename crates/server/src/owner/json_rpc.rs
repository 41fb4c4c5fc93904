//! A `cli` client of the owner's socket: newline-delimited JSON-RPC calls answered through
//! [`crate::api::call`], the door every transport uses; domain events go out as `event`
//! notifications, as on the WebSocket.

use crate::rpc::{self, RpcError};
use idea_application::{Deps, ErrorKind, WireError};
use idea_infrastructure::owner::{MESSAGE_MAX, read_line_bounded};
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{broadcast, mpsc};

/// Answers queued for one client (it makes one call at a time; events have their own queue).
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
        if let Some(answer) = answer(&deps, &line).await
            && out.send(answer).await.is_err()
        {
            break;
        }
    }
    drop(out);
    let _ = writer.await;
}

/// The answer to one line, `None` for a notification.
async fn answer(deps: &Arc<Deps>, line: &str) -> Option<String> {
    let call = match rpc::parse(line) {
        Ok(call) => call,
        Err(rejected) => {
            let (id, error) = *rejected;
            return Some(rpc::error(id, &error));
        }
    };
    let rpc::Call { id, method, params } = call;
    let outcome = if crate::api::is_stream_method(&method) {
        Err(RpcError::from_wire(WireError::new(
            ErrorKind::InvalidParams,
            "terminal streams are served on the WebSocket and in the desktop window, not on the local socket",
        )))
    } else {
        let deps = Arc::clone(deps);
        tokio::task::spawn_blocking(move || crate::api::call(&deps, &method, params))
            .await
            .map_err(|e| RpcError::internal(format!("the request failed: {e}")))
            .and_then(|answer| answer.map_err(RpcError::from_wire))
    };
    id.map(|id| rpc::answer(id, outcome))
}
