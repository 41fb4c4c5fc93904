//! The owner's side of the local socket: one task accepts, one task per client reads
//! newline-delimited JSON-RPC calls and answers them through [`crate::api::call`], the door
//! every transport uses; domain events go out as `event` notifications, as on the WebSocket.

use crate::api::STREAM_METHODS;
use crate::cli::Failure;
use crate::compose::OpenProject;
use crate::rpc::{self, RpcError};
use idea_application::{Deps, ErrorKind, WireError};
use idea_infrastructure::owner::{
    HelloReply, MESSAGE_MAX, OwnerError, OwnerInfo, OwnerListener, OwnerStream, PeerCredentials,
    ProjectLock, read_hello, read_line_bounded, socket_dir, socket_path, write_reply,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::{Semaphore, broadcast, mpsc};
use tokio::task::JoinHandle;

/// Clients served at once; more are turned away (each holds a task and two buffers).
const MAX_CLIENTS: usize = 64;
/// Events a slow client may fall behind by before it is disconnected.
const EVENT_BACKLOG: usize = 1024;
/// Answers queued for one client (it makes one call at a time; events have their own queue).
const ANSWER_QUEUE: usize = 16;
/// A client must say who it is this fast.
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);

/// The running owner of a project: holds its lock, listens on its socket, and says so in
/// `.ideai/.owner.json`. Dropping it stops listening, removes the socket and releases the lock.
#[derive(Debug)]
pub struct Owner {
    info: OwnerInfo,
    accepting: JoinHandle<()>,
    // Released last: the socket goes first, so no newcomer binds a path we then delete.
    lock: ProjectLock,
}

impl Owner {
    /// Binds the project's socket and publishes who owns it (`url`: where it serves a browser,
    /// without its token). Must run inside a tokio runtime.
    ///
    /// # Errors
    /// When the socket folder is unsafe or the socket cannot be bound.
    pub fn start(
        lock: ProjectLock,
        project: &OpenProject,
        url: Option<String>,
    ) -> Result<Self, Failure> {
        let id = idea_application::project::open(project.deps.store.as_ref())?
            .id
            .to_string();
        let dir = socket_dir()
            .map_err(|e| Failure::User(format!("cannot prepare the socket folder: {e}")))?;
        let path = socket_path(&dir, &id).map_err(|e| Failure::User(e.to_string()))?;
        let listener = OwnerListener::bind(&path, &lock)
            .map_err(|e| Failure::User(format!("cannot listen on {}: {e}", path.display())))?;
        let info = OwnerInfo::current(path.clone(), url);
        lock.publish(&info)
            .map_err(|e| Failure::User(format!("cannot record the project's owner: {e}")))?;
        let (events, _) = broadcast::channel::<Arc<str>>(EVENT_BACKLOG);
        let publish = events.clone();
        project.events.subscribe(move |event| {
            if let Ok(text) = rpc::notification("event", event) {
                let _ = publish.send(Arc::from(text));
            }
        });
        let deps = Arc::clone(&project.deps);
        let accepting = tokio::spawn(accept_loop(listener, deps, events));
        tracing::info!(socket = %path.display(), pid = info.pid, "owner: listening");
        Ok(Self {
            info,
            accepting,
            lock,
        })
    }

    /// Publishes where this owner serves a browser, once it knows.
    pub fn set_url(&mut self, url: String) {
        self.info.url = Some(url);
        if let Err(e) = self.lock.publish(&self.info) {
            tracing::warn!(error = %e, "owner: cannot update .owner.json");
        }
    }

    pub fn info(&self) -> &OwnerInfo {
        &self.info
    }

    /// The socket clients connect to.
    pub fn socket(&self) -> &PathBuf {
        &self.info.socket
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.accepting.abort();
        // The listener goes with the aborted task; remove its file now, while the lock is ours.
        let _ = std::fs::remove_file(&self.info.socket);
        tracing::info!(socket = %self.info.socket.display(), "owner: closed");
        let _ = &self.lock;
    }
}

async fn accept_loop(
    listener: OwnerListener,
    deps: Arc<Deps>,
    events: broadcast::Sender<Arc<str>>,
) {
    let slots = Arc::new(Semaphore::new(MAX_CLIENTS));
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                    tracing::warn!(pid = ?peer.pid, "owner: too many clients, one refused");
                    continue;
                };
                let deps = Arc::clone(&deps);
                let events = events.subscribe();
                tokio::spawn(async move {
                    serve_client(stream, peer, deps, events).await;
                    drop(slot);
                });
            }
            Err(OwnerError::ForeignPeer { uid }) => {
                tracing::warn!(uid, "owner: refused a client of another user");
            }
            Err(e) => {
                tracing::warn!(error = %e, "owner: accept failed");
                // Out of file descriptors, say: do not spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn serve_client(
    stream: OwnerStream,
    peer: PeerCredentials,
    deps: Arc<Deps>,
    mut events: broadcast::Receiver<Arc<str>>,
) {
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = BufReader::new(read);
    let hello = match tokio::time::timeout(HELLO_TIMEOUT, read_hello(&mut reader)).await {
        Ok(Ok(hello)) => hello,
        Ok(Err(e)) => {
            let _ = write_reply(&mut write, &HelloReply::refused(e.to_string())).await;
            return;
        }
        Err(_) => return,
    };
    if write_reply(&mut write, &HelloReply::accepted())
        .await
        .is_err()
    {
        return;
    }
    tracing::info!(client = ?hello, pid = ?peer.pid, "owner: client connected");
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
    tracing::info!(pid = ?peer.pid, "owner: client left");
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
    let outcome = if STREAM_METHODS.iter().any(|m| m.name == method) {
        Err(RpcError::from_wire(WireError::new(
            ErrorKind::BadRequest,
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
