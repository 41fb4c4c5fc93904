//! A pair's CLI conversation, kept in `.ideai/conversations/<pairId>/providers.json` under
//! the provider of the agent's JSON mode. The user has one conversation with an agent
//! (`ConversationId::for_pair(user, agent)`, which is also the `conversationId` of a cell
//! showing it): the agent's terminal cell, a chat cell and the user's asks all continue it.

use crate::deps::Deps;
use crate::error::AppResult;
use idea_domain::conversation::is_engine_session_id;
use idea_domain::profile::AgentProfile;
use idea_domain::{AgentId, ConversationId, Party};

/// The user's conversation with `agent`.
pub(crate) fn user_pair(agent: AgentId) -> ConversationId {
    ConversationId::for_pair(Party::User, Party::Agent(agent))
}

/// The CLI's id of the user's conversation with `agent`, when a turn or a launch stored one
/// (only a profile with a JSON mode has a provider to store it under). A `providers.json`
/// that cannot be read counts as none: a cell still starts.
pub(crate) fn user_session(deps: &Deps, profile: &AgentProfile, agent: AgentId) -> Option<String> {
    let provider = &profile.structured.as_ref()?.provider;
    match deps.store.load_providers(user_pair(agent)) {
        Ok(providers) => providers.engine_session(provider, agent).map(str::to_owned),
        Err(e) => {
            tracing::warn!(%agent, error = %e, "the user's conversation id could not be read");
            None
        }
    }
}

/// Records (or forgets) `agent`'s conversation id for `pair` under `provider`, when it
/// changed.
///
/// # Errors
/// Store errors.
pub(crate) fn remember(
    deps: &Deps,
    pair: ConversationId,
    provider: &str,
    agent: AgentId,
    id: Option<&str>,
) -> AppResult<()> {
    if let Some(id) = id.filter(|id| !is_engine_session_id(id)) {
        tracing::warn!(%agent, id, "not keeping a conversation id that is not plain");
        return Ok(());
    }
    let _state = deps.lock_state();
    let mut providers = deps.store.load_providers(pair)?;
    if providers.engine_session(provider, agent) == id {
        return Ok(());
    }
    providers.set_engine_session(provider, agent, id);
    Ok(deps.store.save_providers(pair, &providers)?)
}
