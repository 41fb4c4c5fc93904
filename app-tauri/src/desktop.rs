//! The Tauri desktop shell: a window over the web frontend, and one command that forwards
//! requests to the transport-agnostic [`crate::api`]. No logic lives here.

use crate::api;
use crate::cli::Failure;
use crate::compose::{OpenProject, open_project};
use std::path::Path;

#[tauri::command]
fn api_request(
    state: tauri::State<'_, OpenProject>,
    request: serde_json::Value,
) -> Result<serde_json::Value, idea_application::WireError> {
    api::handle(&state.deps, api::decode(request)?)
}

/// Opens `dir` in a desktop window and blocks until it is closed.
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
    tauri::Builder::default()
        .manage(project)
        .invoke_handler(tauri::generate_handler![api_request])
        .run(tauri::generate_context!())
        .map_err(|e| Failure::Internal(anyhow::anyhow!("the desktop window failed: {e}")))
}
