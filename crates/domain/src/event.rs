//! Events published by use cases; the seam between the backend and every front end.

use crate::agent_state::StateReport;
use crate::ids::{AgentId, CellRef, LayoutId, NodeId, RequestId, SessionId};
use crate::orchestrator::{RequestOutcome, RequestRecord, RequestSource, Requester};
use crate::terminal::{ExitInfo, SessionInfo, SharedSize};
use crate::turn::TurnEvent;
use serde::{Deserialize, Serialize};

/// Which part of what the project shares with every agent changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum KnowledgePart {
    Skills,
    Memory,
    Tools,
    Context,
    Templates,
}

/// Something that happened in a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum DomainEvent {
    #[serde(rename_all = "camelCase")]
    AgentCreated { agent_id: AgentId, name: String },
    #[serde(rename_all = "camelCase")]
    AgentContextUpdated { agent_id: AgentId },
    #[serde(rename_all = "camelCase")]
    AgentDeleted { agent_id: AgentId },
    /// An agent's settings changed (what it does at a usage limit).
    #[serde(rename_all = "camelCase")]
    AgentSettingsChanged { agent_id: AgentId },
    /// Skills, memory, project tools or the shared context changed (by IdeA or on disk).
    #[serde(rename_all = "camelCase")]
    KnowledgeChanged { part: KnowledgePart },
    /// An agent called a project tool (or an `idea_*` tool) that a rule says to ask about:
    /// it waits until the user answers [`crate::tool_run::ToolApproval`].
    #[serde(rename_all = "camelCase")]
    ToolApprovalRequested {
        approval: crate::tool_run::ToolApproval,
    },
    /// The user answered, or the call gave up waiting.
    #[serde(rename_all = "camelCase")]
    ToolApprovalResolved { approval_id: String, allowed: bool },
    /// A project tool ran for an agent.
    #[serde(rename_all = "camelCase")]
    ToolRan { run: crate::tool_run::ToolRunRecord },
    /// The agent's worktree was made, squashed, archived or restored.
    #[serde(rename_all = "camelCase")]
    WorktreeChanged { agent_id: AgentId },
    /// The agent runs on another profile (engine) from now on.
    #[serde(rename_all = "camelCase")]
    AgentProfileChanged {
        agent_id: AgentId,
        profile_id: crate::ProfileId,
    },
    #[serde(rename_all = "camelCase")]
    LayoutsChanged { active: LayoutId },
    #[serde(rename_all = "camelCase")]
    CellAgentAssigned {
        layout_id: LayoutId,
        node_id: NodeId,
        agent_id: Option<AgentId>,
    },
    /// A session started (an agent launch or a plain shell).
    #[serde(rename_all = "camelCase")]
    SessionStarted { session: SessionInfo },
    /// A session's process ended (exited, crashed or was stopped).
    #[serde(rename_all = "camelCase")]
    SessionExited {
        session_id: SessionId,
        agent_id: Option<AgentId>,
        cell: Option<CellRef>,
        exit: ExitInfo,
    },
    /// A session's state changed (working, needs you, idle, exited, failed), and why.
    #[serde(rename_all = "camelCase")]
    SessionStateChanged {
        session_id: SessionId,
        agent_id: Option<AgentId>,
        cell: Option<CellRef>,
        #[serde(flatten)]
        report: StateReport,
    },
    /// A session now shows in another cell (cells swapped or moved), or in none.
    #[serde(rename_all = "camelCase")]
    SessionMoved {
        session_id: SessionId,
        cell: Option<CellRef>,
    },
    /// The size every client draws a session's terminal at changed, or which client leads it
    /// ([`crate::terminal::Viewers`]).
    #[serde(rename_all = "camelCase")]
    TerminalResized {
        session_id: SessionId,
        #[serde(flatten)]
        shared: SharedSize,
    },
    /// The scheduled resumes after usage limits changed (one was added, carried out or
    /// cancelled): the whole schedule.
    #[serde(rename_all = "camelCase")]
    ResumesChanged {
        resumes: Vec<crate::resume::ScheduledResume>,
    },
    /// The project's permissions file was edited from IdeA (hand edits are not watched).
    PermissionsChanged,
    /// A request to an agent was queued, started or ended (for a requests panel).
    #[serde(rename_all = "camelCase")]
    RequestChanged { request: RequestRecord },
    /// Something a running request's turn reported (a message, a tool call, usage), in
    /// order: `seq` counts from 0 per request. Long texts are cut
    /// ([`crate::turn::TurnEvent::capped`]) and a turn publishes at most
    /// [`crate::turn::MAX_PUBLISHED_EVENTS`]; the record's `answer` keeps the whole answer.
    #[serde(rename_all = "camelCase")]
    RequestEvent {
        request_id: RequestId,
        target: AgentId,
        seq: u32,
        event: TurnEvent,
    },
    /// A request to an agent was processed, whatever its door and outcome.
    #[serde(rename_all = "camelCase")]
    OrchestratorRequestProcessed {
        request_id: RequestId,
        source: RequestSource,
        #[cfg_attr(feature = "ts", ts(type = "string"))]
        requester: Requester,
        target: AgentId,
        outcome: RequestOutcome,
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        duration_ms: u64,
    },
}
