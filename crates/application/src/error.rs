//! The one error type of the use cases, with a stable code per variant for the UI and the CLI.

use idea_domain::InvalidAgentName;
use idea_domain::layout::LayoutError;
use idea_domain::ports::StoreError;
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
    #[error("unknown template \"{0}\" (known: {1})")]
    TemplateNotFound(String, String),
    #[error(transparent)]
    Layout(#[from] LayoutError),
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
            Self::TemplateNotFound(..) => "TEMPLATE_NOT_FOUND",
            Self::Layout(LayoutError::NodeNotFound(_)) => "NODE_NOT_FOUND",
            Self::Layout(LayoutError::LayoutNotFound(_)) => "LAYOUT_NOT_FOUND",
            Self::Layout(_) => "INVALID_LAYOUT_OPERATION",
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
        WireError {
            code: self.code(),
            message: self.to_string(),
        }
    }
}

/// `{code, message}`: the one error shape every front end receives.
#[derive(Debug, Clone, Serialize)]
pub struct WireError {
    pub code: &'static str,
    pub message: String,
}

pub type AppResult<T> = Result<T, AppError>;
