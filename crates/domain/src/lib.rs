//! IdeA's domain: entities, value objects, pure rules, events and the port traits the
//! application talks to. No I/O and no async runtime here.

pub mod agent;
pub mod agent_state;
pub mod convention;
pub mod conversation;
pub mod event;
pub mod filedrop;
pub mod front_matter;
pub mod handoff;
pub mod ids;
pub mod invocation;
pub mod knowledge;
pub mod layout;
pub mod limits;
pub mod manifest;
pub mod mcp_handoff;
pub mod memory;
pub mod orchestrator;
pub mod permissions;
pub mod placeholders;
pub mod ports;
pub mod profile;
pub mod project;
pub mod project_tool;
pub mod resume;
pub mod sandbox;
pub mod skill;
pub mod terminal;
pub mod tool_run;
pub mod turn;
pub mod worktree;

pub use agent::{Agent, AgentName, AgentOrigin, InvalidAgentName, slugify};
pub use event::DomainEvent;
pub use ids::{
    AgentId, CellRef, ConversationId, LayoutId, NodeId, Party, ProjectId, RequestId, SessionId,
};
pub use manifest::{AgentManifest, ManifestError};
pub use profile::{AgentProfile, ContextInjection, CwdTemplate, ProfileId, SessionStrategy};
pub use project::{Project, ProjectPath};
