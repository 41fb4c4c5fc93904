//! A tool call the client cancels (`notifications/cancelled`, or its connection gone): the
//! orchestrator request it started is cancelled too, so the asked agent's turn is killed
//! rather than left to run for nobody.

use super::call::call;
use idea_application::{Deps, WireError};
use serde_json::{Value, json};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often a cancel is tried again while the request is not registered yet.
const RETRY: Duration = Duration::from_millis(20);

/// Awaits `answer`, the `askAgent` call of request `request_id`; once `cancelled` fires,
/// cancels that request and still awaits `answer` (then `CANCELLED`, or the answer that came
/// first), so the request is over when the tool returns.
pub async fn on_cancel(
    deps: &Arc<Deps>,
    request_id: uuid::Uuid,
    answer: impl Future<Output = Result<Value, WireError>>,
    cancelled: &CancellationToken,
) -> Result<Value, WireError> {
    tokio::pin!(answer);
    tokio::select! {
        result = &mut answer => return result,
        () = cancelled.cancelled() => {}
    }
    tracing::info!(request = %request_id, "mcp: the client cancelled an ask");
    let params = json!({ "requestId": request_id });
    loop {
        tokio::select! {
            result = &mut answer => return result,
            // `REQUEST_NOT_FOUND` while the ask is still on its way to the registry: again.
            done = call(deps, "cancelRequest", params.clone()) => match done {
                Ok(_) => return answer.await,
                Err(e) if e.code().as_str() == "REQUEST_NOT_FOUND" => {
                    tokio::time::sleep(RETRY).await;
                }
                Err(e) => {
                    tracing::warn!(request = %request_id, error = %e.message, "mcp: cancel failed");
                    return answer.await;
                }
            },
        }
    }
}
