//! The file-drop door: an agent with no MCP tools asks another agent by writing
//! `.ideai/requests/<folder>/<id>.json`; IdeA answers with `<id>.response.json` or
//! `<id>.error.json` beside it. This module holds the door's pure rules: the files' shapes,
//! which file name means what, which agent a folder stands for, what to do with a request
//! given the files around it, and the text that teaches an agent the door. The watching and
//! the file work are `idea_infrastructure::filedrop`; running a request is the application's.

use crate::ids::RequestId;
use crate::{Agent, AgentManifest};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The door's folder, under `.ideai/`.
pub const REQUESTS_DIR: &str = "requests";
/// The largest request file read; a larger one is refused unread.
pub const MAX_REQUEST_BYTES: u64 = 256 * 1024;
/// The longest request id.
pub const MAX_ID_CHARS: usize = 64;

const RESPONSE: &str = ".response.json";
const ERROR: &str = ".error.json";
const CLAIM: &str = ".claimed";
const REQUEST: &str = ".json";

/// A request as an agent writes it. Unknown fields are refused, so a misspelt `timeoutSecs`
/// says so instead of being ignored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileRequest {
    /// The agent asked: its name, slug or id.
    pub to: String,
    pub message: String,
    /// How long its turn may run (default and cap: the orchestrator's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
}

impl FileRequest {
    /// Reads a request file's content.
    ///
    /// # Errors
    /// [`DropRefusal::Malformed`]: not JSON, not an object of these fields, an empty `to` or
    /// `message`.
    pub fn parse(bytes: &[u8]) -> Result<Self, DropRefusal> {
        let malformed = |e: serde_json::Error| DropRefusal::Malformed(e.to_string());
        let value: serde_json::Value = serde_json::from_slice(bytes).map_err(malformed)?;
        // Serde would also take an array for a struct: a request is an object.
        if !value.is_object() {
            return Err(DropRefusal::Malformed("a request is a JSON object".into()));
        }
        let request: Self = serde_json::from_value(value).map_err(malformed)?;
        if request.to.trim().is_empty() {
            return Err(DropRefusal::Malformed("\"to\" is empty".into()));
        }
        if request.message.trim().is_empty() {
            return Err(DropRefusal::Malformed("\"message\" is empty".into()));
        }
        Ok(request)
    }
}

/// `<id>.response.json`: the asked agent's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileResponse {
    /// The agent that answered (its name).
    pub from: String,
    pub answer: String,
    /// The request's id in IdeA's requests list.
    pub request_id: RequestId,
}

/// `<id>.error.json`: why there is no answer. `code` is one of the API's error codes
/// (`AGENT_NOT_FOUND`, `TURN_TIMEOUT`, …) or one of [`DropRefusal`]'s.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    pub code: String,
    pub message: String,
}

/// A request the door took: the folder it was dropped in (its requester: an agent's slug,
/// name or id, see [`find_agent`]) and its parsed content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub folder: String,
    pub request: FileRequest,
}

/// How a request ended: the one file written beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropAnswer {
    Response(FileResponse),
    Error(FileError),
}

impl DropAnswer {
    /// The answer file's name for request `stem`.
    pub fn file_name(&self, stem: &str) -> String {
        match self {
            Self::Response(_) => response_name(stem),
            Self::Error(_) => error_name(stem),
        }
    }
}

impl From<DropRefusal> for DropAnswer {
    fn from(refusal: DropRefusal) -> Self {
        Self::Error(FileError {
            code: refusal.code().to_owned(),
            message: refusal.to_string(),
        })
    }
}

/// Why the door answers a request without running it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DropRefusal {
    #[error(
        "\"{0}\" is not a request id: use 1 to {MAX_ID_CHARS} letters, digits, '-' or '_', then .json"
    )]
    BadId(String),
    #[error(
        "the request is not valid JSON of the form {{\"to\": \"<agent>\", \"message\": \"…\", \"timeoutSecs\"?: n}}: {0}"
    )]
    Malformed(String),
    #[error("the request file is a symbolic link, which IdeA never follows; write a regular file")]
    Link,
    #[error("the request is not a regular file")]
    NotRegular,
    #[error("the request file has {size} bytes; at most {max} are read", max = MAX_REQUEST_BYTES)]
    TooLarge { size: u64 },
    #[error(
        "the IdeA that took this request stopped before it answered; the request is not run again (ask again under a new id)"
    )]
    Interrupted,
}

impl DropRefusal {
    /// Its code in `<id>.error.json`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadId(_) | Self::Malformed(_) | Self::TooLarge { .. } => "INVALID_PARAMS",
            Self::Link | Self::NotRegular => "UNSAFE_PATH",
            Self::Interrupted => "INTERRUPTED",
        }
    }
}

/// What a file in a requester's folder is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropEntry<'a> {
    /// `<stem>.json`: a request (its stem may still be a bad id).
    Request(&'a str),
    /// `<stem>.response.json` or `<stem>.error.json`.
    Answer(&'a str),
    /// `<stem>.claimed`: IdeA took the request.
    Claim(&'a str),
    /// Anything else, and every hidden file (`.x.json.tmp`, an editor's swap file): a request
    /// written under a hidden name and then renamed is seen once, whole.
    Other,
}

/// Names a file of a requester's folder.
pub fn classify(name: &str) -> DropEntry<'_> {
    if name.starts_with('.') {
        return DropEntry::Other;
    }
    if let Some(stem) = name
        .strip_suffix(RESPONSE)
        .or_else(|| name.strip_suffix(ERROR))
    {
        return DropEntry::Answer(stem);
    }
    if let Some(stem) = name.strip_suffix(CLAIM) {
        return DropEntry::Claim(stem);
    }
    match name.strip_suffix(REQUEST) {
        Some(stem) if !stem.is_empty() => DropEntry::Request(stem),
        _ => DropEntry::Other,
    }
}

/// Whether `id` may name a request: 1 to [`MAX_ID_CHARS`] ASCII letters, digits, `-`, `_`.
pub fn is_valid_request_id(id: &str) -> bool {
    (1..=MAX_ID_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub fn response_name(stem: &str) -> String {
    format!("{stem}{RESPONSE}")
}

pub fn error_name(stem: &str) -> String {
    format!("{stem}{ERROR}")
}

pub fn claim_name(stem: &str) -> String {
    format!("{stem}{CLAIM}")
}

/// What is known of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Seen {
    /// Its response or error file exists.
    pub answered: bool,
    /// Its claim file exists.
    pub claimed: bool,
    /// This owner is running it now.
    pub in_flight: bool,
}

/// What the door does with a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Answered, or being answered here: nothing.
    Leave,
    /// Claimed by an owner that is gone (only one owner runs at a time, and this one did not
    /// claim it): it may have run, so it is answered [`DropRefusal::Interrupted`], never run again.
    Interrupted,
    /// New: claim it, then run it.
    Dispatch,
}

/// The one rule that makes a request run at most once, also across restarts: it runs only
/// when nothing says it was taken before.
pub fn next_step(seen: Seen) -> Step {
    if seen.answered || seen.in_flight {
        Step::Leave
    } else if seen.claimed {
        Step::Interrupted
    } else {
        Step::Dispatch
    }
}

/// An agent's own folder name: the slug of its persona file (`agents/<slug>.md`), lowercase
/// `[a-z0-9-]`, unique in the project and safe as a path.
pub fn requester_folder(agent: &Agent) -> String {
    agent
        .md_path
        .strip_prefix("agents/")
        .and_then(|p| p.strip_suffix(".md"))
        .map_or_else(|| agent.name.slug(), str::to_owned)
}

/// The agent a folder under `requests/` (or a request's `to`) stands for: its slug
/// ([`requester_folder`]) or, failing that, its name (any case) or id.
pub fn find_agent<'m>(manifest: &'m AgentManifest, folder: &str) -> Option<&'m Agent> {
    manifest
        .entries
        .iter()
        .find(|a| requester_folder(a) == folder)
        .or_else(|| manifest.find(folder))
}

/// The convention file's section for an agent that reaches the others through files: where to
/// write, what, where the answer comes, and one worked example.
pub fn file_drop_guide(agent: &Agent, project_root: &Path) -> String {
    let folder = project_root
        .join(".ideai")
        .join(REQUESTS_DIR)
        .join(requester_folder(agent));
    let folder = folder.display();
    format!(
        "\
To ask another agent of this project, drop a request file; IdeA runs one turn of that agent \
and writes its answer beside your file.

1. Write `{folder}/<id>.json` (your folder; create it if it is missing), where `<id>` is a new \
   name of letters, digits, `-` and `_` (at most {MAX_ID_CHARS}), never used before:
   `{{\"to\": \"<agent name>\", \"message\": \"<what you ask>\", \"timeoutSecs\": 300}}`
   (`timeoutSecs` is optional: 300 by default, at most 600). Write the file in one go, or \
   write a hidden `.<id>.tmp` and rename it.
2. Wait for `<id>.response.json` (`{{\"from\", \"answer\", \"requestId\"}}`) or \
   `<id>.error.json` (`{{\"code\", \"message\"}}`) to appear in the same folder; check every \
   few seconds. Each request runs once: to ask again, use a new id.

Example: to have the agent named Reviewer check a change, write \
`{folder}/review-1.json` containing
`{{\"to\": \"Reviewer\", \"message\": \"Review the error handling in src/store.rs.\"}}`
then read `{folder}/review-1.response.json` (the answer is its `answer`)."
    )
}

#[cfg(test)]
mod tests;
