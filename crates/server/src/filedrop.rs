//! The file-drop door of the project this process owns (`idea serve` or the desktop window):
//! requests dropped in `.ideai/requests/<folder>/` run through the same use case as an MCP
//! `idea_ask_agent` (`idea_application::filedrop::answer`, source `file`). The door is opened
//! after the project is claimed and closed before its sessions and requests are stopped, so
//! no request starts while the project closes (docs/file-drop.md).

use crate::OpenProject;
use idea_infrastructure::filedrop::{DropHandler, FileDrop};
use std::sync::Arc;

/// Opens the door; a project whose requests folder is unusable (a link, say) is served
/// without it, and the log says why.
pub fn open(project: &OpenProject) -> Option<FileDrop> {
    let deps = Arc::clone(&project.deps);
    let handler: DropHandler =
        Arc::new(move |dropped| idea_application::filedrop::answer(&deps, dropped));
    match FileDrop::start(project.path.as_path(), handler) {
        Ok(door) => Some(door),
        Err(e) => {
            let error = &e as &dyn std::error::Error;
            tracing::warn!(error, "file drop: not open");
            eprintln!("idea: file-drop requests are off: {e}");
            None
        }
    }
}
