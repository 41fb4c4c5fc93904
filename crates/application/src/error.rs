//! The one error type of the use cases, with a stable code per variant for the UI and the CLI.

use idea_domain::layout::LayoutError;
use idea_domain::ports::StoreError;
use idea_domain::{InvalidAgentName, LayoutId, NodeId};
use serde::Serialize;

/// What went wrong in a use case.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no agent \"{0}\" in this project")]
    AgentNotFound(String),
    #[error("invalid agent name: {0}")]
    InvalidName(#[from] InvalidAgentName),
    #[error("an agent named \"{0}\" already exists")]
    AgentNameTaken(String),
    #[error("unknown profile \"{0}\" (see `idea profiles`)")]
    ProfileNotFound(String),
    #[error("invalid profile {0}")]
    InvalidProfile(String),
    #[error("unknown template \"{0}\" (known: {1})")]
    TemplateNotFound(String, String),
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("{agent} is already running in another cell")]
    AgentAlreadyRunning {
        agent: String,
        layout_id: LayoutId,
        node_id: NodeId,
    },
    #[error("{0} is running: stop it first")]
    AgentRunning(String),
    #[error("cell {0} already has a running terminal: stop it first")]
    CellBusy(String),
    #[error("no terminal session {0}")]
    SessionNotFound(String),
    #[error("terminal session {0} has exited")]
    SessionExited(String),
    #[error("{0}")]
    SpawnFailed(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// A stable code the UI maps to a message and the CLI to an exit status.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Store(StoreError::NotAProject(_)) => "NOT_A_PROJECT",
            Self::Store(StoreError::Corrupt { .. }) => "CORRUPT_FILE",
            Self::Store(StoreError::NewerSchema { .. }) => "NEWER_SCHEMA",
            Self::Store(StoreError::Io { .. }) => "IO_ERROR",
            Self::AgentNotFound(_) => "AGENT_NOT_FOUND",
            Self::InvalidName(_) => "INVALID_NAME",
            Self::AgentNameTaken(_) => "AGENT_NAME_TAKEN",
            Self::ProfileNotFound(_) => "PROFILE_NOT_FOUND",
            Self::InvalidProfile(_) => "INVALID_PROFILE",
            Self::TemplateNotFound(..) => "TEMPLATE_NOT_FOUND",
            Self::Layout(LayoutError::NodeNotFound(_)) => "NODE_NOT_FOUND",
            Self::Layout(LayoutError::LayoutNotFound(_)) => "LAYOUT_NOT_FOUND",
            Self::Layout(_) => "INVALID_LAYOUT_OPERATION",
            Self::AgentAlreadyRunning { .. } => "AGENT_ALREADY_RUNNING",
            Self::AgentRunning(_) => "AGENT_RUNNING",
            Self::CellBusy(_) => "CELL_BUSY",
            Self::SessionNotFound(_) => "SESSION_NOT_FOUND",
            Self::SessionExited(_) => "SESSION_EXITED",
            Self::SpawnFailed(_) => "SPAWN_FAILED",
            Self::Internal(_) => "INTERNAL",
        }
    }

    /// Whether the user can fix this by changing their input or files (CLI exit 2), as opposed
    /// to a failure of the machine or of IdeA itself (exit 1).
    pub fn is_user_error(&self) -> bool {
        !matches!(self, Self::Store(StoreError::Io { .. }) | Self::Internal(_))
    }

    /// The wire shape of this error.
    pub fn to_wire(&self) -> WireError {
        let data = match self {
            Self::AgentAlreadyRunning {
                layout_id, node_id, ..
            } => Some(serde_json::json!({ "layoutId": layout_id, "nodeId": node_id })),
            _ => None,
        };
        WireError {
            code: self.code(),
            message: self.to_string(),
            data,
        }
    }
}

/// `{code, message}`: the one error shape every front end receives.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct WireError {
    pub code: &'static str,
    pub message: String,
    /// Details the UI can act on (e.g. the cell where an agent already runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

pub type AppResult<T> = Result<T, AppError>;
