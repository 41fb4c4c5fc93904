//! The Tauri desktop shell: a window over the web frontend and four async commands that
//! forward to [`crate::api::call`] and the terminal streams, off the main thread. No logic
//! lives here.

use crate::api;
use crate::api::params::AttachAnswer;
use crate::cli::Failure;
use crate::compose::{OpenProject, open_project};
use idea_application::{ErrorKind, WireError, sessions};
use idea_domain::SessionId;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use tauri::ipc::{Channel, InvokeResponseBody};
use tauri::{Emitter, Manager, RunEvent};

struct Desktop {
    project: OpenProject,
    /// This window's attachment per session (the window attaches each terminal once).
    attachments: Mutex<HashMap<SessionId, u64>>,
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
    let deps = Arc::clone(&state.project.deps);
    off_main(move || api::call(&deps, &method, params)).await
}

#[tauri::command]
async fn attach_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    on_output: Channel<InvokeResponseBody>,
) -> Result<AttachAnswer, WireError> {
    let deps = Arc::clone(&state.project.deps);
    let sink = Box::new(move |bytes: &[u8]| {
        // Raw bytes reach the page as an ArrayBuffer, not a JSON array of numbers.
        let _ = on_output.send(InvokeResponseBody::Raw(bytes.to_vec()));
    });
    let attachment =
        off_main(move || sessions::attach(&deps, session_id, sink).map_err(|e| e.to_wire()))
            .await?;
    let previous = state
        .attachments
        .lock()
        .ok()
        .and_then(|mut a| a.insert(session_id, attachment.id));
    if let Some(previous) = previous {
        sessions::detach(&state.project.deps, session_id, previous);
    }
    Ok(AttachAnswer {
        attachment: attachment.id,
    })
}

#[tauri::command]
async fn detach_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
) -> Result<(), ()> {
    if let Some(id) = state
        .attachments
        .lock()
        .ok()
        .and_then(|mut a| a.remove(&session_id))
    {
        sessions::detach(&state.project.deps, session_id, id);
    }
    Ok(())
}

#[tauri::command]
async fn ack_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    bytes: usize,
) -> Result<(), ()> {
    if let Some(id) = state
        .attachments
        .lock()
        .ok()
        .and_then(|a| a.get(&session_id).copied())
    {
        sessions::ack(&state.project.deps, session_id, id, bytes);
    }
    Ok(())
}

/// Opens `dir` in a desktop window and blocks until it is closed. On quit, the running agents
/// are recorded on their cells (so the next start offers to resume them), then stopped.
///
/// # Errors
/// `Failure::User` when there is no display or the folder is not a project.
pub fn run(dir: &Path) -> Result<(), Failure> {
    if !idea_infrastructure::probe::display_present() {
        return Err(Failure::User(
            "no display (DISPLAY/WAYLAND_DISPLAY unset): use `idea serve` instead".into(),
        ));
    }
    let project = open_project(dir)?;
    let events = project.events.clone();
    let app = tauri::Builder::default()
        .manage(Desktop {
            project,
            attachments: Mutex::default(),
        })
        .invoke_handler(tauri::generate_handler![
            api_request,
            attach_terminal,
            detach_terminal,
            ack_terminal
        ])
        .setup(move |app| {
            let handle = app.handle().clone();
            events.subscribe(move |event| {
                let _ = handle.emit("idea://event", event);
            });
            Ok(())
        })
        .build(tauri::generate_context!())
        .map_err(|e| {
            Failure::Internal(anyhow::anyhow!("the desktop window failed to start: {e}"))
        })?;
    app.run(|app, event| {
        if let RunEvent::Exit = event {
            let deps = &app.state::<Desktop>().project.deps;
            if let Err(e) = sessions::snapshot_running_agents(deps) {
                let error = &e as &dyn std::error::Error;
                tracing::error!(error, "could not record the running agents");
                eprintln!("idea: could not record the running agents: {e}");
            }
            sessions::stop_all(deps);
        }
    });
    Ok(())
}
