//! The Tauri desktop shell: a window over the web frontend and four commands that forward to
//! the transport-agnostic [`crate::api`] and the terminal streams. No logic lives here.

use crate::api;
use crate::cli::Failure;
use crate::compose::{OpenProject, open_project};
use idea_application::{WireError, sessions};
use idea_domain::SessionId;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use tauri::ipc::{Channel, InvokeResponseBody};
use tauri::{Emitter, Manager, RunEvent};

struct Desktop {
    project: OpenProject,
    /// This window's attachment per session (the window attaches each terminal once).
    attachments: Mutex<HashMap<SessionId, u64>>,
}

#[tauri::command]
fn api_request(
    state: tauri::State<'_, Desktop>,
    request: serde_json::Value,
) -> Result<serde_json::Value, WireError> {
    api::handle(&state.project.deps, api::decode(request)?)
}

#[tauri::command]
fn attach_terminal(
    state: tauri::State<'_, Desktop>,
    session_id: SessionId,
    on_output: Channel<InvokeResponseBody>,
) -> Result<serde_json::Value, WireError> {
    let deps = &state.project.deps;
    let sink = Box::new(move |bytes: &[u8]| {
        // Raw bytes reach the page as an ArrayBuffer, not a JSON array of numbers.
        let _ = on_output.send(InvokeResponseBody::Raw(bytes.to_vec()));
    });
    let attachment = sessions::attach(deps, session_id, sink).map_err(|e| e.to_wire())?;
    let previous = state
        .attachments
        .lock()
        .ok()
        .and_then(|mut a| a.insert(session_id, attachment.id));
    if let Some(previous) = previous {
        sessions::detach(deps, session_id, previous);
    }
    Ok(serde_json::json!({ "attachment": attachment.id }))
}

#[tauri::command]
fn detach_terminal(state: tauri::State<'_, Desktop>, session_id: SessionId) {
    if let Some(id) = state
        .attachments
        .lock()
        .ok()
        .and_then(|mut a| a.remove(&session_id))
    {
        sessions::detach(&state.project.deps, session_id, id);
    }
}

#[tauri::command]
fn ack_terminal(state: tauri::State<'_, Desktop>, session_id: SessionId, bytes: usize) {
    if let Some(id) = state
        .attachments
        .lock()
        .ok()
        .and_then(|a| a.get(&session_id).copied())
    {
        sessions::ack(&state.project.deps, session_id, id, bytes);
    }
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
                eprintln!("idea: could not record the running agents: {e}");
            }
            sessions::stop_all(deps);
        }
    });
    Ok(())
}
