//! Events published by use cases; the seam between the backend and every front end.

use crate::ids::{AgentId, CellRef, LayoutId, NodeId, SessionId};
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
    /// A session now shows in another cell (cells swapped or moved), or in none.
    #[serde(rename_all = "camelCase")]
    SessionMoved {
        session_id: SessionId,
        cell: Option<CellRef>,
    },
}
