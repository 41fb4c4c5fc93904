//! The Tauri desktop shell: a window over the web frontend, four async commands that forward
//! to [`idea_server::api::call`] and the terminal streams, off the main thread, and one that shows a
//! native notification ([`notifications`]); a click on one raises the window and tells the
//! page. No logic lives here.

mod notifications;

use crate::compose::open_project;
use idea_application::Deps;
use idea_application::{ErrorKind, WireError, sessions};
use idea_domain::SessionId;
use idea_domain::terminal::{ReplayScope, TerminalSize};
use idea_infrastructure::filedrop::FileDrop;
use idea_infrastructure::owner::OwnerError;
use idea_server::api::{self, Attachments, params::AttachAnswer};
use idea_server::owner::{self, Owner};
use idea_server::paths::project_path;
use idea_server::{OpenProject, ServerError};
use notifications::{Note, Notifications};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tauri::ipc::{Channel, InvokeResponseBody};
use tauri::{Emitter, Manager, RunEvent};

struct Desktop {
    /// The project this window owns, or why it may not (another IdeA owns it): then every
    /// request answers `PROJECT_OWNED` and the window says who the owner is.
    project: Result<OpenProject, WireError>,
    /// Its local socket, for `idea` commands (held for its Drop, at exit).
    owner: Mutex<Option<Owner>>,
    /// Its file-drop door, closed first at exit.
    door: Mutex<Option<FileDrop>>,
    /// The watch on the agents' worktrees (their Review follows their work).
    _worktree_watch: Option<idea_infrastructure::git::WorktreeWatch>,
    /// The watch on the project's tools (the Tools view follows their files).
    _tool_watch: Option<idea_server::tool_watch::ToolWatch>,
    /// This window's attachment per session (the window attaches each terminal once).
    attachments: Mutex<Attachments>,
}

impl Desktop {
    fn deps(&self) -> Result<Arc<Deps>, WireError> {
        self.project
            .as_ref()
            .map(|p| Arc::clone(&p.deps))
            .map_err(Clone::clone)
    }

    /// The window's attachments (a panic elsewhere leaves the map itself valid).
    fn attachments(&self) -> MutexGuard<'_, Attachments> {
        self.attachments
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `work` on a blocking thread: a request may do file I/O or wait for a process, and
/// none may hold up the window's main thread or the async runtime.
async fn off_main<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WireError> + Send + 'static,
) -> Result<T, WireError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| {
            Err(WireError::new(
                ErrorKind::Internal,
                format!("the request failed: {e}"),
            ))
        })
}

#[tauri::command]
async fn api_request(
    state: tauri::State<'_, Desktop>,
    method: String,
    params: Option<serde_json::Value>,
) -> Result<serde_json::Value, WireError> {
    let deps = state.deps()?;
    off_main(move || api::call(&deps, &method, params)).await
}

#[tauri::command]
async fn attach_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    // Decoded here rather than by Tauri so that a size out of bounds answers `INVALID_PARAMS`
    // with the bound's message, as it does on every other transport.
    size: Option<serde_json::Value>,
    replay: Option<ReplayScope>,
    on_output: Channel<InvokeResponseBody>,
) -> Result<AttachAnswer, WireError> {
    let size = size
        .filter(|size| !size.is_null())
        .map(serde_json::from_value::<TerminalSize>)
        .transpose()
        .map_err(|e| WireError::new(ErrorKind::InvalidParams, format!("size: {e}")))?;
    let deps = state.deps()?;
    let sink = Box::new(move |bytes: &[u8]| {
        // Raw bytes reach the page as an ArrayBuffer, not a JSON array of numbers.
        let _ = on_output.send(InvokeResponseBody::Raw(bytes.to_vec()));
    });
    let attaching = Arc::clone(&deps);
    let attachment = off_main(move || {
        sessions::attach(
            &attaching,
            session_id,
            sink,
            size,
            replay.unwrap_or_default(),
        )
        .map_err(|e| e.to_wire())
    })
    .await?;
    state.attachments().record(&deps, session_id, attachment.id);
    Ok(AttachAnswer::from(attachment))
}

/// The user typed in this window's terminal (or asked to fit it here): the window leads its
/// size. Off the main thread: the resize may wait for the terminal's model.
#[tauri::command]
async fn focus_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
) -> Result<(), WireError> {
    let deps = state.deps()?;
    let leading = Arc::clone(&deps);
    let attachment = state.attachments().attachment(session_id);
    off_main(move || {
        if let Some(attachment) = attachment {
            sessions::lead(&leading, session_id, attachment);
        }
        Ok(())
    })
    .await
}

/// The window's cell for the session changed size.
#[tauri::command]
async fn fit_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    size: serde_json::Value,
) -> Result<(), WireError> {
    let size = serde_json::from_value::<TerminalSize>(size)
        .map_err(|e| WireError::new(ErrorKind::InvalidParams, format!("size: {e}")))?;
    let deps = state.deps()?;
    let attachment = state.attachments().attachment(session_id);
    off_main(move || match attachment {
        Some(attachment) => {
            sessions::fit(&deps, session_id, attachment, size).map_err(|e| e.to_wire())
        }
        None => Ok(()),
    })
    .await
}

#[tauri::command]
async fn detach_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
) -> Result<(), ()> {
    if let Ok(deps) = state.deps() {
        state.attachments().detach(&deps, session_id);
    }
    Ok(())
}

#[tauri::command]
async fn ack_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    bytes: usize,
) -> Result<(), ()> {
    if let Ok(deps) = state.deps() {
        state.attachments().ack(&deps, session_id, bytes);
    }
    Ok(())
}

#[tauri::command]
async fn show_notification(
    notifications: tauri::State<'_, Notifications>,
    note: Note,
) -> Result<(), ()> {
    if let Err(e) = notifications.show(note).await {
        let error = &e as &dyn std::error::Error;
        tracing::warn!(error, "no native notification");
    }
    Ok(())
}

/// What a click on a notification does: the window comes to the front and the page hears
/// the notification's tag (it goes to that agent's cell, if it still has one).
fn answer_click(app: &tauri::AppHandle, tag: String) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    let _ = app.emit("idea://notification-click", tag);
}

/// Opens `dir` in a desktop window and blocks until it is closed. On quit, the running agents
/// are recorded on their cells (so the next start offers to resume them), then stopped.
///
/// # Errors
/// `ServerError::User` when there is no display or the folder is not a project.
pub fn run(dir: &Path) -> Result<(), ServerError> {
    if !idea_infrastructure::probe::display_present() {
        return Err(ServerError::User(
            "no display (DISPLAY/WAYLAND_DISPLAY unset): use `idea serve` instead".into(),
        ));
    }
    let path = project_path(dir)?;
    let project = open_project(path.as_path())?;
    let (project, owner) = match owner::lock(&path.as_path().join(".ideai")) {
        Ok(lock) => {
            let started =
                tauri::async_runtime::block_on(async { Owner::start(lock, &project, None) })?;
            (Ok(project), Some(started))
        }
        // The window opens anyway and says who owns the project.
        Err(OwnerError::Owned(info)) => (Err(owner::owned_error(&info)), None),
        Err(e) => return Err(owner::lock_failure(e)),
    };
    let door = project.as_ref().ok().and_then(idea_server::filedrop::open);
    let worktree_watch = project
        .as_ref()
        .ok()
        .and_then(idea_server::worktree_watch::open);
    let tool_watch = project
        .as_ref()
        .ok()
        .and_then(idea_server::tool_watch::open);
    let events = project.as_ref().ok().map(|p| p.events.clone());
    let app = tauri::Builder::default()
        .manage(Desktop {
            project,
            owner: Mutex::new(owner),
            door: Mutex::new(door),
            _worktree_watch: worktree_watch,
            _tool_watch: tool_watch,
            attachments: Mutex::default(),
        })
        .invoke_handler(tauri::generate_handler![
            api_request,
            attach_terminal,
            detach_terminal,
            ack_terminal,
            focus_terminal,
            fit_terminal,
            show_notification
        ])
        .setup(move |app| {
            let handle = app.handle().clone();
            let clicks = handle.clone();
            app.manage(Notifications::new(move |tag| answer_click(&clicks, tag)));
            if let Some(events) = events {
                events.subscribe(move |event| {
                    let _ = handle.emit("idea://event", event);
                });
            }
            Ok(())
        })
        .build(tauri::generate_context!())
        .map_err(|e| {
            ServerError::internal_message(format!("the desktop window failed to start: {e}"))
        })?;
    // `run_return`, not `run`: `run` exits the process, and the log guard would never flush.
    let _ = app.run_return(|app, event| {
        if let RunEvent::Exit = event {
            let desktop = app.state::<Desktop>();
            let Ok(project) = &desktop.project else {
                return;
            };
            let deps = &project.deps;
            // No request may start while the project closes.
            if let Ok(mut door) = desktop.door.lock() {
                door.take();
            }
            if let Err(e) = sessions::snapshot_running_agents(deps) {
                let error = &e as &dyn std::error::Error;
                tracing::error!(error, "could not record the running agents");
                eprintln!("idea: could not record the running agents: {e}");
            }
            sessions::stop_all(deps);
            // Only now may another process own the project.
            if let Ok(mut owner) = desktop.owner.lock() {
                owner.take();
            }
        }
    });
    Ok(())
}
