//! `idea serve`: the project in a browser. HTTP on 127.0.0.1 only, the embedded frontend,
//! and one WebSocket per page carrying the JSON-RPC API, terminal bytes and events (see
//! `docs/api.md`, "Transport 1").
//!
//! Files: `auth` (`Host`, `Origin`, token checks), `token` (where the token comes from),
//! `headers` (security headers on every answer), `limits` (what a connection may hold before
//! it shows the token), `assets` (the embedded frontend), `ws` (one connection), `attach` (its
//! `attachTerminal`s, coalesced); the JSON-RPC framing is `crate::rpc`, shared with the owner
//! socket. `docs/security.md` says what each lock is for.

mod assets;
mod attach;
mod auth;
mod headers;
mod limits;
mod outbox;
mod token;
mod ws;

use crate::rpc;
use crate::{OpenProject, Opener, ServerError};
use axum::Router;
use axum::extract::State;
use axum::extract::connect_info::IntoMakeServiceWithConnectInfo;
use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use axum::http::HeaderValue;
use axum::response::Response;
use axum::routing::get;
use axum::serve::ListenerExt;
use idea_application::{Deps, sessions};
use idea_domain::terminal::SessionStatus;
use idea_infrastructure::pty::PtyConfig;
use std::future::{Future, IntoFuture};
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::broadcast;

/// Events a slow connection may fall behind by before it is told to reconnect.
const EVENT_BACKLOG: usize = 1024;
/// The largest frame a client may send (keystrokes and calls are small; a pasted file is not).
const MAX_MESSAGE: usize = 16 << 20;
/// How long shutdown waits, after the PTY's SIGHUP → SIGTERM → SIGKILL escalation, for the
/// killed sessions to report their exit.
const EXIT_REPORT_WAIT: Duration = Duration::from_secs(2);

/// What every request handler shares.
#[derive(Debug)]
struct Shared {
    project: OpenProject,
    token: String,
    /// The bound port, for the `Origin` check.
    port: u16,
    /// Domain events, already encoded as JSON-RPC notifications, to every connection.
    events: broadcast::Sender<Utf8Bytes>,
}

/// A bound, not yet running, server.
#[derive(Debug)]
pub struct Server {
    listener: limits::GuardedListener,
    addr: SocketAddr,
    shared: Arc<Shared>,
}

/// Binds `127.0.0.1:port` (`0` = any free port) for `project`, guarded by `token`.
///
/// # Errors
/// When the port cannot be bound.
pub async fn bind(project: OpenProject, port: u16, token: String) -> std::io::Result<Server> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
    let addr = listener.local_addr()?;
    let listener = limits::GuardedListener::new(listener);
    limits::raise_descriptor_limit();
    let (events, _) = broadcast::channel(EVENT_BACKLOG);
    let publish = events.clone();
    // The bus has no unsubscribe: subscribe once here and fan out through the channel, which
    // each connection joins and leaves.
    project.events.subscribe(move |event| {
        if let Ok(text) = rpc::notification("event", event) {
            let _ = publish.send(Utf8Bytes::from(text));
        }
    });
    let shared = Arc::new(Shared {
        project,
        token,
        port: addr.port(),
        events,
    });
    Ok(Server {
        listener,
        addr,
        shared,
    })
}

impl Server {
    /// The bound address (always on 127.0.0.1).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL to open: it carries the token, which the page then moves out of its address.
    pub fn url(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.shared.token)
    }

    /// Serves until `shutdown` completes, then closes the project: records which agents were
    /// running (so the next start can offer to resume them) and stops every session.
    ///
    /// # Errors
    /// When accepting connections fails.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> std::io::Result<()> {
        let app = router(Arc::clone(&self.shared));
        // Not a graceful shutdown: open WebSockets would hold it forever. A use case still
        // running finishes on its blocking thread while the project closes, and every state
        // file is written atomically either way.
        let served = tokio::select! {
            // No Nagle delay: a keystroke's echo is one small frame and must not wait.
            served = axum::serve(self.listener.tap_io(|tcp| { let _ = tcp.set_nodelay(true); }), app).into_future() => served,
            () = shutdown => Ok(()),
        };
        // A failure is logged where `idea serve` reports it, with its causes.
        if served.is_ok() {
            tracing::info!("stopping");
        }
        let shared = self.shared;
        let closed = tokio::task::spawn_blocking(move || close_project(&shared.project.deps)).await;
        if let Err(e) = closed {
            tracing::error!(error = %e, "closing the project failed");
            eprintln!("idea: closing the project failed: {e}");
        }
        served
    }
}

/// The API (`/ws`) behind the token; the static shell, which holds no secret, without it;
/// `Host`/`Origin` checks and security headers on everything.
fn router(shared: Arc<Shared>) -> IntoMakeServiceWithConnectInfo<Router, limits::Ticket> {
    use axum::middleware::{from_fn_with_state, map_response_with_state};
    let policy = HeaderValue::from_str(&headers::content_policy(shared.port))
        .unwrap_or_else(|_| HeaderValue::from_static("frame-ancestors 'none'"));
    let api = Router::new()
        .route("/ws", get(upgrade))
        .route_layer(from_fn_with_state(Arc::clone(&shared), auth::require_token));
    // Only the frontend's files are compressed: the WebSocket's upgrade has no body.
    let frontend = Router::new()
        .fallback(assets::serve)
        .layer(tower_http::compression::CompressionLayer::new());
    Router::new()
        .merge(api)
        .fallback_service(frontend)
        .layer(from_fn_with_state(Arc::clone(&shared), auth::guard))
        .layer(map_response_with_state(policy, headers::harden))
        .with_state(shared)
        .into_make_service_with_connect_info::<limits::Ticket>()
}

async fn upgrade(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(MAX_MESSAGE)
        .read_buffer_size(ws::READ_BUFFER)
        .on_upgrade(move |socket| ws::connection(socket, shared))
}

/// Snapshot first (it reads which sessions are running), then kill, then give the exits a
/// moment to be recorded.
fn close_project(deps: &Deps) {
    if let Err(e) = sessions::snapshot_running_agents(deps) {
        // As `&dyn Error`, the log line lists its causes (`error.sources=[…]`).
        let error = &e as &dyn std::error::Error;
        tracing::error!(error, "could not record the running agents");
        eprintln!("idea: could not record the running agents: {e}");
    }
    sessions::stop_all(deps);
    let deadline = Instant::now() + PtyConfig::default().stop_escalation() + EXIT_REPORT_WAIT;
    let running = || {
        sessions::list(deps)
            .iter()
            .filter(|s| s.status == SessionStatus::Running)
            .count()
    };
    while Instant::now() < deadline && running() > 0 {
        std::thread::sleep(Duration::from_millis(20));
    }
    match running() {
        0 => tracing::info!("project closed"),
        left => tracing::warn!(left, "project closed with sessions still running"),
    }
}

/// Resolves on SIGINT, SIGTERM or SIGHUP. The handlers are installed before this returns, so
/// a signal that arrives while the server starts is not lost.
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut hangup = signal(SignalKind::hangup())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {},
            _ = terminate.recv() => {},
            _ = hangup.recv() => {},
        }
    })
}

#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send> {
    Ok(async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    })
}

/// Makes `dir` a project if it is not one yet (so `idea serve` just works), then opens it.
fn prepare(dir: &Path, opener: &Opener) -> Result<crate::owner::Claimed, ServerError> {
    if !dir.is_dir() {
        return Err(ServerError::User(format!(
            "{}: no such folder",
            dir.display()
        )));
    }
    let path = crate::paths::project_path(dir)?;
    let store = idea_infrastructure::store::FsProjectStore::new(path.as_path());
    let done =
        idea_application::project::init(&store, &idea_infrastructure::system::RandomIds, &path)?;
    if done.created {
        eprintln!("idea: initialised {}", path.as_path().display());
    }
    // The one owner: a second `idea serve` (or desktop window) of this project stops here.
    crate::owner::claim(path.as_path(), opener)
}

/// `idea serve [DIR] [--port P] [--token T | --token-file F]`: serves until SIGINT/SIGTERM,
/// then exits 0. Without either, the token comes from `$IDEA_TOKEN` or is made up.
///
/// # Errors
/// `ServerError::User` for a bad folder, token or port; `ServerError::Internal` when the
/// runtime fails.
pub fn run(
    dir: &Path,
    port: u16,
    token: Option<String>,
    token_file: Option<PathBuf>,
    opener: &Opener,
) -> Result<(), ServerError> {
    let token = token::choose_token(token, token_file.as_deref()).map_err(ServerError::User)?;
    if let Some(file) = &token_file {
        (opener.hide_from_agents)(file);
    }
    // Never logged (nor is the URL that carries it); masked should a dependency ever try.
    crate::logging::redact(&token);
    eprintln!(
        "idea: log: {}",
        crate::logging::current_log_file(&crate::paths::user_dir()).display()
    );
    let crate::owner::Claimed { project, lock } = prepare(dir, opener)?;
    // One async worker: the async side only moves frames (use cases run on blocking threads,
    // PTY threads write terminal output to the socket themselves), and with more workers an
    // incoming keystroke wakes one to poll the socket and another to run the connection:
    // `cargo bench --bench terminal` measured echo p50 331 µs with the default two, 232 µs
    // with one.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| ServerError::internal("cannot start the runtime", e))?;
    let outcome = runtime.block_on(async move {
        let shutdown = shutdown_signal()
            .map_err(|e| ServerError::internal("cannot install signal handlers", e))?;
        let shown = project.path.as_path().display().to_string();
        let mut owner = crate::owner::Owner::start(lock, &project, None)?;
        let door = crate::filedrop::open(&project);
        let watch = crate::worktree_watch::open(&project);
        let tool_watch = crate::tool_watch::open(&project);
        // Closed as soon as the server is told to stop, before the project closes: no
        // request may start while its sessions and requests are being stopped.
        let shutdown = async move {
            shutdown.await;
            drop(door);
            drop(watch);
            drop(tool_watch);
        };
        let server = bind(project, port, token)
            .await
            .map_err(|e| ServerError::User(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        // Published without its token: `.owner.json` lives in the project folder.
        owner.set_url(format!("http://{}/", server.addr()));
        // The address only: the URL carries the token.
        tracing::info!(project = %shown, addr = %server.addr(), "serving");
        // One line, parsed by scripts and tests; a closed stdout must not stop the server.
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "IdeA serving {shown} at {}", server.url());
        let _ = stdout.flush();
        drop(stdout);
        let served = server
            .run(shutdown)
            .await
            .map_err(|e| ServerError::internal("the server failed", e));
        // The project is closed: only now may another process own it.
        drop(owner);
        served
    });
    // Connections still open hold tasks; do not wait for them.
    runtime.shutdown_timeout(Duration::from_millis(500));
    outcome
}
