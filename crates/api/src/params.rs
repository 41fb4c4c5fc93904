//! The params of each method, and the results that exist only on the wire. A method whose
//! params are one domain value takes that value itself (`CellRef`, …).

use idea_domain::agent::LimitPolicy;
use idea_domain::agent_state::HookEvent;
use idea_domain::handoff::Handoff;
use idea_domain::layout::{Direction, Side};
use idea_domain::permissions::RuleKind;
use idea_domain::ports::ProfileProblem;
use idea_domain::terminal::{ReplayScope, SharedSize, TerminalSize};
use idea_domain::{
    AgentId, AgentProfile, CellRef, LayoutId, NodeId, ProfileId, RequestId, SessionId,
};
use serde::{Deserialize, Serialize};

/// Derives what every params type needs (decoding, and its TypeScript twin).
macro_rules! params {
    ($($item:item)*) => {$(
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS))]
        #[serde(rename_all = "camelCase")]
        $item
    )*};
}
pub(crate) use params;

params! {
    pub struct CreateWorktreeParams {
        pub agent_id: AgentId,
        /// The ref the branch starts from; the current branch's HEAD when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub base: Option<String>,
    }

    pub struct WorktreeDiffParams {
        pub agent_id: AgentId,
        /// One of the files its Review lists.
        pub path: String,
    }

    pub struct RunWorktreeSetupParams {
        pub agent_id: AgentId,
        #[serde(flatten)]
        pub cell: CellRef,
        #[serde(flatten)]
        pub size: TerminalSize,
    }

    pub struct SquashWorktreeParams {
        pub agent_id: AgentId,
        /// The commit's message; "<agent>: work from <branch>" when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub message: Option<String>,
    }

    pub struct CreateAgentParams {
        pub name: String,
        pub profile_id: ProfileId,
        /// A persona template id (`architect`, …); an empty persona when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub template: Option<String>,
    }

    pub struct AgentParams {
        pub agent_id: AgentId,
    }

    pub struct SetResumeNudgeParams {
        /// `null` restores the built-in nudge.
        pub text: Option<String>,
    }

    pub struct SetLimitPolicyParams {
        pub agent_id: AgentId,
        pub policy: LimitPolicy,
    }

    pub struct ChangeAgentProfileParams {
        pub agent_id: AgentId,
        pub profile_id: ProfileId,
        /// What to hand the new engine; drafted from the conversation when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub handoff: Option<Handoff>,
    }

    pub struct UpdateAgentContextParams {
        pub agent_id: AgentId,
        pub content: String,
    }

    pub struct NameParams {
        pub name: String,
    }

    pub struct LayoutParams {
        pub layout_id: LayoutId,
    }

    pub struct RenameLayoutParams {
        pub layout_id: LayoutId,
        pub name: String,
    }

    pub struct SplitCellParams {
        #[serde(flatten)]
        pub cell: CellRef,
        pub direction: Direction,
    }

    pub struct MoveCellParams {
        #[serde(flatten)]
        pub cell: CellRef,
        pub target_id: NodeId,
        pub direction: Direction,
        /// Where next to the target; after (right/below) when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub side: Option<Side>,
    }

    pub struct SwapCellsParams {
        pub layout_id: LayoutId,
        pub a: NodeId,
        pub b: NodeId,
    }

    pub struct ResizeSplitParams {
        pub layout_id: LayoutId,
        pub split_id: NodeId,
        pub ratios: Vec<f64>,
    }

    pub struct AssignAgentParams {
        #[serde(flatten)]
        pub cell: CellRef,
        pub agent_id: Option<AgentId>,
    }

    pub struct AgentSignalParams {
        /// The agent's id.
        pub agent_id: String,
        pub event: HookEvent,
        /// The hook's own input when it may report a usage limit (Claude Code's
        /// `StopFailure`), at most 64 KiB.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub payload: Option<String>,
    }

    pub struct LaunchAgentParams {
        #[serde(flatten)]
        pub cell: CellRef,
        pub agent_id: AgentId,
        #[serde(flatten)]
        pub size: TerminalSize,
        /// A new conversation instead of resuming the cell's ("Start fresh").
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional, as = "Option<bool>"))]
        pub fresh: bool,
    }

    pub struct OpenShellParams {
        #[serde(flatten)]
        pub cell: CellRef,
        #[serde(flatten)]
        pub size: TerminalSize,
    }

    pub struct SessionParams {
        pub session_id: SessionId,
    }

    pub struct AttachTerminalParams {
        pub session_id: SessionId,
        /// The client's terminal size: the session is resized to it before the replay is
        /// drawn, so the replay fits the client. Without it the replay has the session's size.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub size: Option<TerminalSize>,
        /// What the replay draws: the whole terminal (the default), or its screen alone for
        /// a client that skips a backlog it fell behind on (docs/many-agents.md).
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional, as = "Option<ReplayScope>"))]
        pub replay: ReplayScope,
    }

    pub struct SessionSizeParams {
        pub session_id: SessionId,
        #[serde(flatten)]
        pub size: TerminalSize,
    }

    pub struct WriteTerminalParams {
        pub session_id: SessionId,
        /// UTF-8 text typed into the terminal.
        pub data: String,
    }

    pub struct AckTerminalParams {
        pub session_id: SessionId,
        /// How many more bytes of output the client has processed.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        pub bytes: u64,
    }

    pub struct AskAgentParams {
        /// `"user"` (the default), or the asking agent's id or name.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub requester: Option<String>,
        /// The agent asked: its id or its name.
        pub target: String,
        pub message: String,
        /// How long the turn may run (default 300, at most 600).
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
        pub timeout_secs: Option<u64>,
        /// The id the request gets (a fresh uuid), so that the caller can follow its
        /// `requestEvent`s or cancel it before the answer comes; a fresh one when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub request_id: Option<RequestId>,
    }

    pub struct RequestParams {
        pub request_id: RequestId,
    }

    /// Changes to the project's permissions file: `remove` first (every copy of the rule in
    /// its list), then `add` (appended unless already there).
    pub struct SavePermissionsParams {
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(as = "Option<Vec<PermissionRuleParams>>", optional))]
        pub add: Vec<PermissionRuleParams>,
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(as = "Option<Vec<PermissionRuleParams>>", optional))]
        pub remove: Vec<PermissionRuleParams>,
    }

    /// One rule and its family, e.g. `{kind: "deny", rule: "Bash(rm *)"}`.
    pub struct PermissionRuleParams {
        pub kind: RuleKind,
        pub rule: String,
    }

    /// `listProfiles`' answer: the merged catalogue and what was wrong in the user's file.
    pub struct ProfilesAnswer {
        pub profiles: Vec<AgentProfile>,
        pub problems: Vec<ProfileProblem>,
        /// Profiles whose program is not found on the PATH an agent would get (their
        /// `installHint` says how to install it).
        pub missing: Vec<ProfileId>,
    }

    /// `attachTerminal`'s answer; the output follows on the transport's terminal stream.
    pub struct AttachAnswer {
        /// This client's attachment id (one per session and client).
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        pub attachment: u64,
        /// The size the session has for every client now, and which attachment leads it.
        #[serde(flatten)]
        pub shared: SharedSize,
        /// The size the replay is drawn at: parsed at it, then resized to `size`.
        pub replay_size: TerminalSize,
        /// The replay's length in bytes: the first of the output; live output follows.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        pub replay_bytes: u64,
    }
}

impl From<idea_application::sessions::Attached> for AttachAnswer {
    fn from(attached: idea_application::sessions::Attached) -> Self {
        Self {
            attachment: attached.id,
            shared: attached.shared,
            replay_size: attached.replay_size,
            replay_bytes: attached.replay_bytes,
        }
    }
}
