//! `.ideai/conversations/<pairId>/providers.json`: the CLIs' own ids of one pair's
//! conversation. In an agent↔agent pair each side may answer the other with its own CLI, so
//! an id is kept per provider (`claude`, `codex`…) **and** per answering agent:
//! `{"version":1,"providers":{"claude":{"<agentId>":"<engine session id>"}}}`.

use crate::ids::AgentId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Schema version of `providers.json`.
pub const PROVIDERS_VERSION: u32 = 1;

/// The engine session ids of one conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConversationProviders {
    pub version: u32,
    #[serde(default)]
    pub providers: BTreeMap<String, BTreeMap<AgentId, String>>,
}

impl Default for ConversationProviders {
    fn default() -> Self {
        Self {
            version: PROVIDERS_VERSION,
            providers: BTreeMap::new(),
        }
    }
}

impl ConversationProviders {
    /// The id under which `agent`'s CLI of `provider` keeps this conversation.
    pub fn engine_session(&self, provider: &str, agent: AgentId) -> Option<&str> {
        self.providers
            .get(provider)
            .and_then(|ids| ids.get(&agent))
            .map(String::as_str)
    }

    /// Records (or, with `None`, forgets) `agent`'s id for `provider`.
    pub fn set_engine_session(&mut self, provider: &str, agent: AgentId, id: Option<&str>) {
        let ids = self.providers.entry(provider.to_owned()).or_default();
        match id {
            Some(id) => {
                ids.insert(agent, id.to_owned());
            }
            None => {
                ids.remove(&agent);
            }
        }
        self.providers.retain(|_, ids| !ids.is_empty());
    }

    /// Every id must be one a CLI could have minted: the file may come from a cloned
    /// repository, and an id is handed to the CLI on its command line.
    ///
    /// # Errors
    /// The first id that is not plain, named.
    pub fn validate(&self) -> Result<(), String> {
        for (provider, ids) in &self.providers {
            for (agent, id) in ids {
                if !is_engine_session_id(id) {
                    return Err(format!(
                        "providers.{provider}.{agent}: \"{id}\" is not a conversation id"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Letters, digits, `-`, `_`, `.`, `:`, not starting with `-`, at most 128 characters: never
/// an option or a path.
pub fn is_engine_session_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && !id.starts_with(['-', '.'])
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'))
}

/// What the resume prompt shows of a CLI's saved conversation, best-effort from the CLI's own
/// store (a file's size says nothing: Claude Code writes tens of KB per turn).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ConversationGlance {
    /// The CLI's title for it, else the first ask (cut).
    pub title: Option<String>,
    /// Seconds since the epoch of its newest message.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub last_activity: Option<u64>,
    /// How many times the user asked something; `None` when unknown.
    pub asks: Option<u32>,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_kept_per_provider_and_answering_agent() {
        let (a, b) = (
            AgentId(uuid::Uuid::from_u128(1)),
            AgentId(uuid::Uuid::from_u128(2)),
        );
        let mut p = ConversationProviders::default();
        p.set_engine_session("claude", a, Some("s-a"));
        p.set_engine_session("claude", b, Some("s-b"));
        assert_eq!(p.engine_session("claude", a), Some("s-a"));
        assert_eq!(p.engine_session("codex", a), None);
        p.set_engine_session("claude", a, None);
        p.set_engine_session("claude", b, None);
        assert!(p.providers.is_empty());
        let json = serde_json::json!({"version": 1, "providers": {"claude": {a.to_string(): "x"}}});
        let read: ConversationProviders = serde_json::from_value(json).unwrap();
        assert_eq!(read.engine_session("claude", a), Some("x"));
        assert!(read.validate().is_ok());
    }

    #[test]
    fn an_id_that_could_be_read_as_an_option_or_a_path_is_refused() {
        for bad in [
            "",
            "--dangerously-skip-permissions",
            "../x",
            "a b",
            "a/b",
            ".x",
        ] {
            assert!(!is_engine_session_id(bad), "{bad:?}");
        }
        assert!(is_engine_session_id("019a2b3c-7d8e-7f00-8000-000000000001"));
    }
}
