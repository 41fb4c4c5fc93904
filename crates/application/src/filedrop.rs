//! The file-drop door's use case: one request file, found, read and parsed by the door
//! (`idea_infrastructure::filedrop`), run through [`orchestrator::ask`] exactly as an MCP
//! call is, with source `file`; what it comes to is the one file written beside the request.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::orchestrator::{self, Ask};
use idea_domain::filedrop::{DropAnswer, Dropped, FileError, FileResponse, find_agent};
use idea_domain::orchestrator::RequestSource;
use std::time::Duration;

/// Runs the request and says what to write: the answer, or the error with its API code
/// (`AGENT_NOT_FOUND` for a folder that names no agent or an unknown `to`, `NOT_ASKABLE`,
/// `TURN_TIMEOUT`, `AGENT_BUSY`, …). Blocks for the whole turn.
pub fn answer(deps: &Deps, dropped: &Dropped) -> DropAnswer {
    match run(deps, dropped) {
        Ok(response) => DropAnswer::Response(response),
        Err(Refused::App(e)) => DropAnswer::Error(FileError {
            code: e.code().as_str().to_owned(),
            message: e.to_string(),
        }),
        Err(Refused::NoRequester) => DropAnswer::Error(FileError {
            code: "AGENT_NOT_FOUND".to_owned(),
            message: format!(
                "the folder \"{}\" under .ideai/requests/ names no agent of this project: \
                 write your requests in your own folder (your agent's name or the slug of its \
                 persona file)",
                dropped.folder
            ),
        }),
    }
}

enum Refused {
    App(AppError),
    NoRequester,
}

impl From<AppError> for Refused {
    fn from(e: AppError) -> Self {
        Self::App(e)
    }
}

fn run(deps: &Deps, dropped: &Dropped) -> Result<FileResponse, Refused> {
    let manifest = deps.store.load_manifest().map_err(AppError::from)?;
    let requester = find_agent(&manifest, &dropped.folder).ok_or(Refused::NoRequester)?;
    let request = &dropped.request;
    // `to` may also be the agent's slug, as folders are; an unknown one is left for `ask`
    // to refuse like any other door's.
    let target = find_agent(&manifest, request.to.trim());
    let from = target.map_or_else(|| request.to.clone(), |a| a.name.to_string());
    let answer: AppResult<_> = orchestrator::ask(
        deps,
        Ask {
            requester: requester.agent_id.to_string(),
            target: target.map_or_else(|| request.to.clone(), |a| a.agent_id.to_string()),
            message: request.message.clone(),
            timeout: request.timeout_secs.map(|s| Duration::from_secs(s.max(1))),
            source: RequestSource::File,
            request_id: None,
        },
    );
    let answer = answer?;
    Ok(FileResponse {
        from,
        answer: answer.text,
        request_id: answer.request_id,
    })
}
