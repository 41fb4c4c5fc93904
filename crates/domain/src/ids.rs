//! Identifiers. Each is a newtype so an agent id can never be passed where a node id is expected.

use serde::{Deserialize, Serialize};
use std::fmt;
use uuid::Uuid;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// Wraps an existing uuid.
            pub const fn from_uuid(uuid: Uuid) -> Self {
                Self(uuid)
            }
            /// The underlying uuid.
            pub const fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map(Self)
            }
        }
    };
}

uuid_id!(
    /// Identifies an agent for its whole life, across renames and profile changes.
    AgentId
);
uuid_id!(
    /// Identifies a project (`.ideai/project.json`).
    ProjectId
);
uuid_id!(
    /// Identifies a node (split or leaf) inside a layout tree.
    NodeId
);
uuid_id!(
    /// Identifies a named layout (a tab).
    LayoutId
);
uuid_id!(
    /// Identifies one live terminal session (a PTY and its process).
    SessionId
);
uuid_id!(
    /// Identifies a conversation between two parties; see [`ConversationId::for_pair`].
    ConversationId
);
uuid_id!(
    /// Identifies one request to an agent (an ask), from its arrival to its answer.
    RequestId
);

/// One side of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Party {
    /// The human in front of IdeA.
    User,
    /// One of the project's agents.
    Agent(AgentId),
}

impl ConversationId {
    /// The conversation id of a pair of parties; deterministic, so the same pair finds the same
    /// conversation after a restart.
    ///
    /// user↔agent is the agent's own uuid (so a cell's conversation is the agent's);
    /// agent↔agent is a commutative combination: a UUIDv5-style digest of the two ids sorted,
    /// so `for_pair(a, b) == for_pair(b, a)`. user↔user has no meaning and maps to the nil id.
    pub fn for_pair(a: Party, b: Party) -> Self {
        match (a, b) {
            (Party::User, Party::Agent(id)) | (Party::Agent(id), Party::User) => Self(id.0),
            (Party::Agent(x), Party::Agent(y)) => {
                let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
                let mut bytes = [0u8; 32];
                bytes[..16].copy_from_slice(lo.0.as_bytes());
                bytes[16..].copy_from_slice(hi.0.as_bytes());
                Self(Uuid::new_v5(&PAIR_NAMESPACE, &bytes))
            }
            (Party::User, Party::User) => Self(Uuid::nil()),
        }
    }
}

/// Fixed namespace for agent↔agent conversation ids; changing it would orphan every saved pair.
const PAIR_NAMESPACE: Uuid = Uuid::from_u128(0x6a1d_ea00_5eed_4a1e_9c0e_1dea_0000_0001);

/// One cell of one layout: where a session is shown, where an agent is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct CellRef {
    pub layout_id: LayoutId,
    pub node_id: NodeId,
}

impl CellRef {
    pub fn new(layout_id: LayoutId, node_id: NodeId) -> Self {
        Self { layout_id, node_id }
    }
}

impl std::fmt::Display for CellRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.layout_id, self.node_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn agent(n: u128) -> Party {
        Party::Agent(AgentId(Uuid::from_u128(n)))
    }

    #[test]
    fn user_and_agent_share_the_agents_uuid() {
        let id = AgentId(Uuid::from_u128(7));
        assert_eq!(
            ConversationId::for_pair(Party::User, Party::Agent(id)).0,
            id.0
        );
        assert_eq!(
            ConversationId::for_pair(Party::Agent(id), Party::User).0,
            id.0
        );
    }

    #[test]
    fn pair_id_is_stable_across_runs() {
        // A literal: if this changes, every saved agent↔agent conversation is lost.
        let id = ConversationId::for_pair(agent(1), agent(2));
        assert_eq!(id.to_string(), "822345c6-cf1d-5a56-9ab8-79c62c9ecba7");
    }

    proptest! {
        #[test]
        fn pair_id_is_commutative(a in any::<u128>(), b in any::<u128>()) {
            prop_assert_eq!(ConversationId::for_pair(agent(a), agent(b)), ConversationId::for_pair(agent(b), agent(a)));
        }

        #[test]
        fn distinct_pairs_get_distinct_ids(a in any::<u128>(), b in any::<u128>(), c in any::<u128>()) {
            prop_assume!(b != c);
            prop_assert_ne!(ConversationId::for_pair(agent(a), agent(b)), ConversationId::for_pair(agent(a), agent(c)));
        }
    }
}
