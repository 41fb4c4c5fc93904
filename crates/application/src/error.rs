//! The one error type of the use cases, and the one shape every front end receives: a stable
//! code with typed details ([`ErrorKind`]) and a readable message ([`WireError`]).

use idea_domain::layout::LayoutError;
use idea_domain::ports::StoreError;
use idea_domain::terminal::PtyError;
use idea_domain::turn::TurnSetupError;
use idea_domain::{AgentId, InvalidAgentName, LayoutId, NodeId};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
        agent_id: AgentId,
        layout_id: LayoutId,
        node_id: NodeId,
    },
    #[error("{0} is running: stop it first")]
    AgentRunning(String),
    #[error("cell {0} already has a running terminal: stop it first")]
    CellBusy(NodeId),
    #[error("no terminal session {0}")]
    SessionNotFound(String),
    #[error("terminal session {0} has exited")]
    SessionExited(String),
    #[error(transparent)]
    Spawn(#[from] PtyError),
    /// The agent's sandbox could not be prepared (a rule's glob, a folder); it did not start.
    #[error("cannot start the agent sandboxed: {0}")]
    Sandbox(#[from] idea_domain::ports::SandboxSetupError),
    /// The agent cannot run a JSON-mode turn (no `structured` mode IdeA can read).
    #[error(transparent)]
    NotAskable(TurnSetupError),
    /// The agent is busy elsewhere: live in a cell, answering a request, or waiting on the
    /// requester itself.
    #[error("{0}")]
    AgentBusy(String),
    #[error("{0}")]
    TurnTimeout(String),
    #[error("the request was cancelled")]
    Cancelled,
    /// The provider's usage or rate limit; `resets_at` (Unix seconds) when the CLI said.
    #[error("usage limit reached: {message}")]
    UsageLimit {
        message: String,
        resets_at: Option<u64>,
    },
    /// The turn ended without an answer; the message is the CLI's own, when it gave one.
    #[error("{0}")]
    TurnFailed(String),
    #[error("no request {0}")]
    RequestNotFound(String),
    #[error("no resume is scheduled for agent {0}")]
    ResumeNotFound(String),
    /// Params the use case refuses (a request id already used, a terminal size out of bounds).
    #[error("{0}")]
    InvalidParams(String),
    #[error("{0}")]
    InputFull(String),
    /// git could not do what a worktree use case asked.
    #[error(transparent)]
    Git(#[from] idea_domain::worktree::WorktreeError),
    /// The agent has no worktree to act on (it works in the project's tree, its worktree is
    /// archived or its folder is gone): the message says which.
    #[error("{0}")]
    NoWorktree(String),
    #[error("{0} has a worktree already")]
    WorktreeExists(String),
    #[error("the base {0} is not a branch: a squash needs a branch to move")]
    BaseNotABranch(String),
    #[error("no skill \"{0}\" (see `idea skill list`)")]
    SkillNotFound(String),
    #[error("a skill named \"{0}\" exists already")]
    SkillExists(String),
    /// A skill's name or description the Agent Skills format refuses.
    #[error("{0}")]
    InvalidSkill(String),
    #[error("no memory entry \"{0}\"")]
    MemoryNotFound(String),
    #[error("no project tool \"{0}\" (see `idea tool list`)")]
    ToolNotFound(String),
    /// A tool call's arguments do not fit the tool's parameters; nothing ran.
    #[error("{0}")]
    InvalidToolArgs(String),
    /// A permission rule (or the user) refused the tool call; nothing ran.
    #[error("{0}")]
    ToolDenied(String),
    /// The tool's program could not start.
    #[error("{0}")]
    ToolFailed(String),
    #[error("internal error: {0}")]
    Internal(String),
}

/// Every error code a front end can receive, with the details it can act on. Serialised as
/// `{"code": "AGENT_ALREADY_RUNNING", "layoutId": …, "nodeId": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, strum::EnumDiscriminants)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "code", rename_all = "SCREAMING_SNAKE_CASE")]
#[strum_discriminants(
    name(ErrorCode),
    derive(strum::IntoStaticStr, strum::EnumIter, Hash),
    strum(serialize_all = "SCREAMING_SNAKE_CASE")
)]
pub enum ErrorKind {
    NotAProject {
        path: PathBuf,
    },
    CorruptFile {
        path: PathBuf,
    },
    NewerSchema {
        path: PathBuf,
    },
    IoError {
        path: PathBuf,
    },
    /// A path in the project's state is a link (or not a regular file); IdeA refused to
    /// follow it out of the project.
    UnsafePath {
        path: PathBuf,
    },
    AgentNotFound,
    InvalidName,
    AgentNameTaken,
    ProfileNotFound,
    InvalidProfile,
    TemplateNotFound,
    LayoutNotFound,
    NodeNotFound,
    InvalidLayoutOperation,
    /// The agent runs in another cell: the UI offers "Go to cell".
    #[serde(rename_all = "camelCase")]
    AgentAlreadyRunning {
        agent_id: AgentId,
        layout_id: LayoutId,
        node_id: NodeId,
    },
    AgentRunning,
    #[serde(rename_all = "camelCase")]
    CellBusy {
        node_id: NodeId,
    },
    SessionNotFound,
    SessionExited,
    /// The terminal's program is not reading its input; what was typed was dropped.
    InputFull,
    /// The agent's CLI is not installed or not on `PATH`.
    CommandNotFound {
        command: String,
    },
    SpawnFailed {
        command: String,
    },
    /// The permission rules call for a kernel sandbox that cannot be prepared or enforced
    /// here: nothing was started. `reason` says why (the kernel's Landlock ABI, a rule's glob).
    SandboxFailed {
        reason: String,
    },
    /// The project is open in another IdeA process, which alone may change it.
    ProjectOwned {
        pid: u32,
        url: Option<String>,
    },
    /// The request's params were malformed.
    InvalidParams,
    UnknownMethod {
        method: String,
    },
    /// The client lost its connection to IdeA (raised by the front end itself).
    Disconnected,
    /// The agent has no JSON mode IdeA can run a turn in.
    NotAskable,
    /// The agent is live in a cell, answering a request, or would wait on the requester.
    AgentBusy,
    /// The turn (or its wait in the agent's queue) took too long; it was killed.
    TurnTimeout,
    /// The request was cancelled (`cancelRequest`, or the project closed).
    Cancelled,
    /// The provider's usage or rate limit; `resetsAt` (Unix seconds) when known.
    #[serde(rename_all = "camelCase")]
    UsageLimit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
        resets_at: Option<u64>,
    },
    /// The turn ended without an answer; the message says why, in the CLI's words.
    TurnFailed,
    RequestNotFound,
    ResumeNotFound,
    /// git is not installed, or older than 2.38.
    GitUnavailable,
    NotAGitRepository,
    BranchTaken,
    /// A base or ref that names no commit.
    UnknownRef,
    /// The base branch moved while IdeA merged into it; nothing changed.
    BaseMoved,
    /// Merging would conflict in these files; nothing changed.
    MergeConflict {
        files: Vec<String>,
    },
    /// A rebase, merge, cherry-pick or revert is in progress in one of the trees.
    RebaseInProgress,
    /// The user's checkout of the base has uncommitted changes.
    CheckoutDirty,
    GitFailed,
    NoWorktree,
    WorktreeExists,
    BaseNotABranch,
    SkillNotFound,
    SkillExists,
    InvalidSkill,
    MemoryNotFound,
    ToolNotFound,
    InvalidToolArgs,
    ToolDenied,
    ToolFailed,
    Internal,
}

impl ErrorCode {
    /// `AGENT_NOT_FOUND`, …
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Lets tests and callers compare a code with its wire spelling.
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl From<idea_domain::terminal::TerminalSizeError> for AppError {
    fn from(error: idea_domain::terminal::TerminalSizeError) -> Self {
        Self::InvalidParams(error.to_string())
    }
}

impl AppError {
    /// The code and details of this error.
    pub fn kind(&self) -> ErrorKind {
        use ErrorKind as K;
        match self {
            Self::Store(StoreError::NotAProject(path)) => K::NotAProject { path: path.clone() },
            Self::Store(StoreError::Corrupt { path, .. }) => K::CorruptFile { path: path.clone() },
            Self::Store(StoreError::NewerSchema { path, .. }) => {
                K::NewerSchema { path: path.clone() }
            }
            Self::Store(StoreError::Io { path, .. }) => K::IoError { path: path.clone() },
            Self::Store(StoreError::UnsafePath { path, .. }) => {
                K::UnsafePath { path: path.clone() }
            }
            Self::AgentNotFound(_) => K::AgentNotFound,
            Self::InvalidName(_) => K::InvalidName,
            Self::AgentNameTaken(_) => K::AgentNameTaken,
            Self::ProfileNotFound(_) => K::ProfileNotFound,
            Self::InvalidProfile(_) => K::InvalidProfile,
            Self::TemplateNotFound(..) => K::TemplateNotFound,
            Self::Layout(LayoutError::NodeNotFound(_)) => K::NodeNotFound,
            Self::Layout(LayoutError::LayoutNotFound(_)) => K::LayoutNotFound,
            Self::Layout(_) => K::InvalidLayoutOperation,
            Self::AgentAlreadyRunning {
                agent_id,
                layout_id,
                node_id,
                ..
            } => K::AgentAlreadyRunning {
                agent_id: *agent_id,
                layout_id: *layout_id,
                node_id: *node_id,
            },
            Self::AgentRunning(_) => K::AgentRunning,
            Self::CellBusy(node_id) => K::CellBusy { node_id: *node_id },
            Self::SessionNotFound(_) => K::SessionNotFound,
            Self::SessionExited(_) => K::SessionExited,
            Self::Spawn(PtyError::CommandNotFound(command)) => K::CommandNotFound {
                command: command.clone(),
            },
            Self::Spawn(PtyError::SpawnFailed { command, .. }) => K::SpawnFailed {
                command: command.clone(),
            },
            Self::Spawn(PtyError::Sandbox { reason, .. }) => K::SandboxFailed {
                reason: reason.clone(),
            },
            Self::Sandbox(e) => K::SandboxFailed {
                reason: e.0.clone(),
            },
            Self::Spawn(_) => K::SpawnFailed {
                command: String::new(),
            },
            Self::NotAskable(_) => K::NotAskable,
            Self::AgentBusy(_) => K::AgentBusy,
            Self::TurnTimeout(_) => K::TurnTimeout,
            Self::Cancelled => K::Cancelled,
            Self::UsageLimit { resets_at, .. } => K::UsageLimit {
                resets_at: *resets_at,
            },
            Self::TurnFailed(_) => K::TurnFailed,
            Self::RequestNotFound(_) => K::RequestNotFound,
            Self::ResumeNotFound(_) => K::ResumeNotFound,
            Self::InvalidParams(_) => K::InvalidParams,
            Self::InputFull(_) => K::InputFull,
            Self::Git(e) => git_kind(e),
            Self::NoWorktree(_) => K::NoWorktree,
            Self::WorktreeExists(_) => K::WorktreeExists,
            Self::BaseNotABranch(_) => K::BaseNotABranch,
            Self::SkillNotFound(_) => K::SkillNotFound,
            Self::SkillExists(_) => K::SkillExists,
            Self::InvalidSkill(_) => K::InvalidSkill,
            Self::MemoryNotFound(_) => K::MemoryNotFound,
            Self::ToolNotFound(_) => K::ToolNotFound,
            Self::InvalidToolArgs(_) => K::InvalidToolArgs,
            Self::ToolDenied(_) => K::ToolDenied,
            Self::ToolFailed(_) => K::ToolFailed,
            Self::Internal(_) => K::Internal,
        }
    }

    /// A stable code the UI maps to a message and the CLI to an exit status.
    pub fn code(&self) -> ErrorCode {
        ErrorCode::from(&self.kind())
    }

    /// Whether the user can fix this by changing their input or files (CLI exit 2), as opposed
    /// to a failure of the machine or of IdeA itself (exit 1).
    pub fn is_user_error(&self) -> bool {
        !matches!(
            self,
            Self::Store(StoreError::Io { .. })
                | Self::Internal(_)
                | Self::TurnFailed(_)
                | Self::Git(idea_domain::worktree::WorktreeError::Failed(_))
        )
    }

    /// The wire shape of this error.
    pub fn to_wire(&self) -> WireError {
        WireError {
            message: self.to_string(),
            kind: self.kind(),
        }
    }
}

fn git_kind(error: &idea_domain::worktree::WorktreeError) -> ErrorKind {
    use ErrorKind as K;
    use idea_domain::worktree::WorktreeError as E;
    match error {
        E::GitMissing | E::GitTooOld { .. } => K::GitUnavailable,
        E::NotARepository(_) => K::NotAGitRepository,
        E::BranchTaken(_) => K::BranchTaken,
        E::UnknownRef(_) => K::UnknownRef,
        E::Moved { .. } => K::BaseMoved,
        E::Conflicts(files) => K::MergeConflict {
            files: files.clone(),
        },
        E::InProgress { .. } => K::RebaseInProgress,
        E::CheckoutDirty(_) => K::CheckoutDirty,
        E::Failed(_) => K::GitFailed,
    }
}

/// `{code, message, …details}`: the one error shape every front end receives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct WireError {
    pub message: String,
    #[serde(flatten)]
    pub kind: ErrorKind,
}

impl WireError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            kind,
        }
    }

    pub fn code(&self) -> ErrorCode {
        ErrorCode::from(&self.kind)
    }
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code().as_str())
    }
}

pub type AppResult<T> = Result<T, AppError>;
