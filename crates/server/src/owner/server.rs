//! The owner's side of the local socket: one task accepts, one task per client reads its
//! one-line hello, then serves it by what it said: the `idea` command line gets the JSON-RPC
//! API ([`super::json_rpc`]), an MCP bridge gets IdeA's MCP server ([`crate::mcp`]).

use super::json_rpc;
use crate::rpc;
use crate::{OpenProject, ServerError};
use idea_application::Deps;
use idea_application::resumes::Scheduler;
use idea_infrastructure::owner::{
    Hello, HelloReply, OwnerError, OwnerInfo, OwnerListener, OwnerStream, PeerCredentials,
    ProjectLock, read_hello, socket_dir, socket_path, write_reply,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::sync::{Semaphore, broadcast};
use tokio::task::JoinHandle;

/// Clients served at once; more are turned away (each holds a task and two buffers).
const MAX_CLIENTS: usize = 64;
/// Events a slow client may fall behind by before it is disconnected.
const EVENT_BACKLOG: usize = 1024;
/// A client must say who it is this fast.
const HELLO_TIMEOUT: Duration = Duration::from_secs(5);

/// The running owner of a project: holds its lock, listens on its socket, says so in
/// `.ideai/.owner.json`, and alone continues agents after their usage limits (a short-lived
/// `idea` command that opens the project never does). Dropping it stops listening and the
/// resumes, removes the socket and releases the lock.
#[derive(Debug)]
pub struct Owner {
    info: OwnerInfo,
    accepting: JoinHandle<()>,
    // Stopped before the lock goes: no resume runs once another process may own the project.
    _resumes: Scheduler,
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
    ) -> Result<Self, ServerError> {
        let id = idea_application::project::open(project.deps.store.as_ref())?
            .id
            .to_string();
        let dir = socket_dir()
            .map_err(|e| ServerError::User(format!("cannot prepare the socket folder: {e}")))?;
        let path = socket_path(&dir, &id).map_err(|e| ServerError::User(e.to_string()))?;
        let listener = OwnerListener::bind(&path, &lock)
            .map_err(|e| ServerError::User(format!("cannot listen on {}: {e}", path.display())))?;
        let info = OwnerInfo::current(path.clone(), url);
        lock.publish(&info)
            .map_err(|e| ServerError::User(format!("cannot record the project's owner: {e}")))?;
        let (events, _) = broadcast::channel::<Arc<str>>(EVENT_BACKLOG);
        let publish = events.clone();
        project.events.subscribe(move |event| {
            if let Ok(text) = rpc::notification("event", event) {
                let _ = publish.send(Arc::from(text));
            }
        });
        let deps = Arc::clone(&project.deps);
        let resumes = Scheduler::start(Arc::clone(&deps))
            .map_err(|e| ServerError::User(format!("cannot start the resume scheduler: {e}")))?;
        let accepting = tokio::spawn(accept_loop(listener, deps, events));
        tracing::info!(socket = %path.display(), pid = info.pid, "owner: listening");
        Ok(Self {
            info,
            accepting,
            _resumes: resumes,
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
    events: broadcast::Receiver<Arc<str>>,
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
    match hello {
        Hello::Cli => json_rpc::serve(reader, write, deps, events).await,
        // `reader` keeps whatever followed the hello line in its buffer: MCP reads it first.
        Hello::Mcp { agent } => {
            drop(events);
            crate::mcp::serve(deps, agent, reader, write).await;
        }
    }
    tracing::info!(pid = ?peer.pid, "owner: client left");
}
