//! Tests of the layout module: one file per concern, plus property tests over random edits.

mod depth;
mod layouts;
mod props;
mod serde_shape;
mod tree_ops;

use uuid::Uuid;

use crate::ids::{AgentId, ConversationId, LayoutId, NodeId};

/// A readable, deterministic node id.
fn n(value: u128) -> NodeId {
    NodeId(Uuid::from_u128(value))
}

fn agent(value: u128) -> AgentId {
    AgentId(Uuid::from_u128(value))
}

fn conversation(value: u128) -> ConversationId {
    ConversationId(Uuid::from_u128(value))
}

fn layout(value: u128) -> LayoutId {
    LayoutId(Uuid::from_u128(value))
}
