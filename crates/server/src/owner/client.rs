//! The `idea` command line's side: a command that changes a project runs through the project's
//! owner when one is running (so every open UI sees the change at once), and under the project
//! lock otherwise (so no owner starts, and no other command writes, under its feet).

use super::{Claimed, lock, lock_failure};
use crate::paths::project_path;
use crate::{Opener, ServerError};
use idea_application::{ErrorKind, WireError};
use idea_infrastructure::owner::{
    Hello, MESSAGE_MAX, OwnerError, OwnerInfo, connect, read_line_bounded, read_reply, write_hello,
};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};

/// How long the CLI waits for the owner to connect and to answer.
const OWNER_TIMEOUT: Duration = Duration::from_secs(30);

/// Where a command's change goes.
#[derive(Debug)]
pub enum Route {
    /// Another process owns the project: ask it.
    Owner(OwnerInfo),
    /// Nobody does: work here, holding the lock.
    Local(Claimed),
}

/// Finds who may change the project in `dir`.
///
/// # Errors
/// Not a project, or a lock that cannot be taken or read.
pub fn route(dir: &Path, opener: &Opener) -> Result<Route, ServerError> {
    let path = project_path(dir)?;
    let project = opener.open(path.as_path())?;
    match lock(&path.as_path().join(".ideai")) {
        Ok(lock) => Ok(Route::Local(Claimed { project, lock })),
        Err(OwnerError::Owned(info)) => Ok(Route::Owner(info)),
        Err(e) => Err(lock_failure(e)),
    }
}

/// Runs the request `method(params)` on the project in `dir`, through its owner or here.
///
/// # Errors
/// The request's error, or a failure to reach the owner.
pub fn call(
    dir: &Path,
    method: &str,
    params: Value,
    opener: &Opener,
) -> Result<Value, ServerError> {
    match route(dir, opener)? {
        Route::Owner(owner) => ask_owner(&owner, method, params),
        Route::Local(claimed) => {
            crate::api::call(&claimed.project.deps, method, Some(params)).map_err(ServerError::from)
        }
    }
}

/// One call over the owner's socket: handshake as `cli`, send, wait for the answer (event
/// notifications that arrive meanwhile are skipped).
///
/// # Errors
/// The owner's error answer, or the socket failing.
pub fn ask_owner(owner: &OwnerInfo, method: &str, params: Value) -> Result<Value, ServerError> {
    ask_owner_within(owner, method, params, OWNER_TIMEOUT)
}

/// [`ask_owner`], giving up after `timeout` (`idea hook` must not hold an agent up).
///
/// # Errors
/// The owner's error answer, or the socket failing.
pub fn ask_owner_within(
    owner: &OwnerInfo,
    method: &str,
    params: Value,
    timeout: Duration,
) -> Result<Value, ServerError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServerError::internal("cannot start a runtime", e))?;
    let unreachable = |e: &dyn std::fmt::Display| {
        ServerError::internal_message(format!(
            "the project's owner (process {}) did not answer on {}: {e}",
            owner.pid,
            owner.socket.display()
        ))
    };
    runtime.block_on(async {
        let exchange = async {
            let stream = connect(&owner.socket).await.map_err(|e| unreachable(&e))?;
            let (read, mut write) = tokio::io::split(stream);
            let mut reader = BufReader::new(read);
            write_hello(&mut write, &Hello::Cli)
                .await
                .map_err(|e| unreachable(&e))?;
            let reply = read_reply(&mut reader).await.map_err(|e| unreachable(&e))?;
            if !reply.ok {
                return Err(unreachable(&reply.error.unwrap_or_default()));
            }
            let call = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
            write
                .write_all(format!("{call}\n").as_bytes())
                .await
                .map_err(|e| unreachable(&e))?;
            loop {
                let Some(line) = read_line_bounded(&mut reader, MESSAGE_MAX)
                    .await
                    .map_err(|e| unreachable(&e))?
                else {
                    return Err(unreachable(&"it closed the connection"));
                };
                let answer: Value = serde_json::from_str(&line).map_err(|e| unreachable(&e))?;
                if answer.get("id") != Some(&json!(1)) {
                    continue; // an event notification
                }
                return match answer.get("error") {
                    Some(error) => Err(ServerError::from(wire_error(error))),
                    None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
                };
            }
        };
        tokio::time::timeout(timeout, exchange)
            .await
            .unwrap_or_else(|_| Err(unreachable(&"timed out")))
    })
}

/// A JSON-RPC error answer back into IdeA's error (its `data` is `{code, ...details}`).
fn wire_error(error: &Value) -> WireError {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the owner refused the request")
        .to_owned();
    let kind = error
        .get("data")
        .cloned()
        .and_then(|data| serde_json::from_value::<ErrorKind>(data).ok())
        .unwrap_or(ErrorKind::Internal);
    WireError::new(kind, message)
}
