//! Events published by use cases; the seam between the backend and every front end.

use crate::ids::{AgentId, LayoutId, NodeId, SessionId};
use crate::profile::ProfileId;
use crate::terminal::{ExitInfo, SessionInfo};
use serde::{Deserialize, Serialize};

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
    #[serde(rename_all = "camelCase")]
    AgentProfileChanged {
        agent_id: AgentId,
        profile_id: ProfileId,
    },
    #[serde(rename_all = "camelCase")]
    LayoutsChanged { active: LayoutId },
    #[serde(rename_all = "camelCase")]
    CellAgentAssigned {
        layout_id: LayoutId,
        node_id: NodeId,
        agent_id: Option<AgentId>,
    },
    /// A terminal session started in a cell (an agent launch or a plain shell).
    #[serde(rename_all = "camelCase")]
    SessionStarted { session: SessionInfo },
    /// A session's process ended (exited, crashed or was stopped).
    #[serde(rename_all = "camelCase")]
    SessionExited {
        session_id: SessionId,
        agent_id: Option<AgentId>,
        layout_id: LayoutId,
        node_id: NodeId,
        exit: ExitInfo,
    },
}
