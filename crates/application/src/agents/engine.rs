//! ChangeAgentProfile: an agent moves to another engine mid-task, with a handoff. The user's
//! conversation with it (the pair) stays; the old engine's session id is never given to the
//! new one (`providers.json` keeps each engine's own, so moving back resumes it natively); a
//! live agent is relaunched in its cell on the new engine, the handoff injected as its
//! convention file's `# Conversation resume`.

use super::get;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::pair::user_pair;
use crate::sessions;
use idea_domain::agent::{Agent, LimitPolicy};
use idea_domain::handoff::{self, HANDOFF_VERSION, Handoff, StoredHandoff};
use idea_domain::invocation::agent_cwd;
use idea_domain::profile::AgentProfile;
use idea_domain::terminal::{PtyError, SessionInfo};
use idea_domain::{AgentId, DomainEvent, ProfileId};

/// Move `agent_id` to `profile_id`, handing it `handoff` (drafted when `None`).
#[derive(Debug, Clone)]
pub struct ChangeAgentProfile {
    pub agent_id: AgentId,
    pub profile_id: ProfileId,
    pub handoff: Option<Handoff>,
}

/// The agent on its new profile, and its new session when it was live.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ProfileChanged {
    pub agent: Agent,
    pub session: Option<SessionInfo>,
}

/// What the agent would be handed if it moved now, and the user edits before the move: the
/// old engine's own summary when it can take a turn ([`summary_turn`]), else its first ask
/// and newest exchanges from its CLI's saved conversation; with the project's uncommitted
/// changes either way.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `PROFILE_NOT_FOUND`, store errors.
pub fn draft_handoff(deps: &Deps, agent_id: AgentId) -> AppResult<Handoff> {
    let agent = get(deps, agent_id)?;
    let profile = profile(deps, &agent.profile_id)?;
    if let Some(written) = summary_turn(deps, &agent, &profile) {
        return Ok(written);
    }
    let exchanges = match (profile.home, engine_session(deps, &profile, agent_id)) {
        (Some(home), Some(id)) => {
            let run_dir = deps.store.prepare_run_dir(agent_id)?;
            let cwd = agent_cwd(&profile, &deps.store.root(), &run_dir);
            deps.cli_homes.exchanges(home, &cwd, &id)
        }
        _ => Vec::new(),
    };
    Ok(handoff::draft(
        &exchanges,
        deps.store.work_in_progress().as_deref(),
    ))
}

/// How long the old engine may take to write its summary.
const SUMMARY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// The handoff the old engine writes itself, in a JSON-mode turn of the agent's conversation
/// with the user: only when its CLI has a JSON mode, it has a conversation to summarise, it is
/// not live in a cell (one conversation cannot take two turns at once) and not waiting for a
/// usage limit. `None` otherwise, or when the turn fails or its answer lacks a part.
fn summary_turn(deps: &Deps, agent: &Agent, profile: &AgentProfile) -> Option<Handoff> {
    idea_domain::turn::json_mode(profile).ok()?;
    engine_session(deps, profile, agent.agent_id)?;
    if deps.sessions.live_of_agent(agent.agent_id).is_some() {
        return None;
    }
    let limited = crate::resumes::list(deps)
        .is_ok_and(|all| all.iter().any(|r| r.agent_id == agent.agent_id));
    if limited {
        return None;
    }
    let asked = crate::orchestrator::ask(
        deps,
        crate::orchestrator::Ask {
            requester: "user".into(),
            target: agent.agent_id.to_string(),
            message: handoff::SUMMARY_ASK.into(),
            timeout: Some(SUMMARY_TIMEOUT),
            source: idea_domain::orchestrator::RequestSource::Handoff,
            request_id: None,
        },
    );
    match asked {
        Ok(answer) => {
            let written =
                handoff::from_summary(&answer.text, deps.store.work_in_progress().as_deref());
            if written.is_none() {
                tracing::info!(agent = %agent.agent_id, "handoff: the summary turn's answer lacked a part; drafted from the transcript");
            }
            written
        }
        Err(e) => {
            let error = &e as &dyn std::error::Error;
            tracing::info!(agent = %agent.agent_id, error, "handoff: no summary turn; drafted from the transcript");
            None
        }
    }
}

/// ChangeAgentProfile.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `PROFILE_NOT_FOUND`, `INVALID_PARAMS` (already on that profile),
/// `COMMAND_NOT_FOUND` (the new profile's CLI is not installed: nothing changes), `AGENT_BUSY`
/// (answering a request), store errors, and the relaunch's codes (the move itself is kept:
/// the cell offers a restart).
pub fn change_agent_profile(deps: &Deps, request: ChangeAgentProfile) -> AppResult<ProfileChanged> {
    let ChangeAgentProfile {
        agent_id,
        profile_id,
        handoff,
    } = request;
    let agent = get(deps, agent_id)?;
    let from = agent.profile_id.clone();
    let new_profile = profile(deps, &profile_id)?;
    if agent.profile_id == profile_id {
        return Err(AppError::InvalidParams(format!(
            "{} already runs on {}",
            agent.name, new_profile.name
        )));
    }
    if !deps.profiles.is_installed(&new_profile) {
        return Err(AppError::Spawn(PtyError::CommandNotFound(
            new_profile.command.clone(),
        )));
    }
    if deps.requests.is_answering(agent_id) {
        return Err(AppError::AgentBusy(format!(
            "{} is answering a request; change its engine once the answer is in (or cancel the request)",
            agent.name
        )));
    }
    let handoff = match handoff {
        Some(given) => given.bounded(),
        None => draft_handoff(deps, agent_id)?,
    };
    // A later handoff replaces an earlier one: it covers what happened meanwhile.
    deps.store.save_handoff(
        user_pair(agent_id),
        &StoredHandoff {
            version: HANDOFF_VERSION,
            for_profile: profile_id.clone(),
            from_profile: agent.profile_id.clone(),
            written_at: deps.clock.now(),
            handoff,
        },
    )?;
    let agent = {
        let _guard = deps.lock_state();
        let mut manifest = deps.store.load_manifest()?;
        let entry = manifest
            .get_mut(agent_id)
            .ok_or_else(|| AppError::AgentNotFound(agent_id.to_string()))?;
        entry.profile_id = profile_id.clone();
        let agent = entry.clone();
        deps.store.save_manifest(&manifest)?;
        // The cells remember the old engine's session: never handed to the new one.
        if let Some(mut layouts) = deps.store.load_layouts()? {
            let mut changed = false;
            for leaf in layouts.leaves_of_agent_mut(agent_id) {
                changed |= leaf.engine_session_id.take().is_some() || leaf.agent_was_running;
                leaf.agent_was_running = false;
            }
            if changed {
                deps.store.save_layouts(&layouts)?;
            }
        }
        agent
    };
    // A resume scheduled for the old engine's limit has nothing left to wait for.
    let _ = crate::resumes::cancel(deps, agent_id);
    tracing::info!(agent = %agent_id, name = %agent.name, from = %from, to = %profile_id, "agent changed engine");
    deps.publish(DomainEvent::AgentProfileChanged {
        agent_id,
        profile_id,
    });
    let session = match deps.sessions.live_of_agent(agent_id) {
        Some(live) => {
            let size = sessions::shared_size(deps, live.info.session_id)?.size;
            Some(sessions::restart(deps, live.info.session_id, size)?)
        }
        None => None,
    };
    Ok(ProfileChanged { agent, session })
}

fn profile(deps: &Deps, id: &ProfileId) -> AppResult<AgentProfile> {
    deps.profiles
        .get(id)
        .ok_or_else(|| AppError::ProfileNotFound(id.to_string()))
}

/// The current engine's id of the user's conversation with the agent: its live session's,
/// else the pair's, else the one a cell of it remembers.
fn engine_session(deps: &Deps, profile: &AgentProfile, agent: AgentId) -> Option<String> {
    if let Some(id) = deps
        .sessions
        .live_of_agent(agent)
        .and_then(|live| live.info.engine_session_id)
    {
        return Some(id);
    }
    if let Some(id) = crate::pair::user_session(deps, profile, agent) {
        return Some(id);
    }
    let mut layouts = deps.store.load_layouts().ok()??;
    layouts
        .leaves_of_agent_mut(agent)
        .into_iter()
        .find_map(|leaf| leaf.engine_session_id.clone())
}

/// SetLimitPolicy: what IdeA does when the agent hits a usage limit.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `PROFILE_NOT_FOUND` (a failover to an unknown profile), `INVALID_PARAMS`
/// (a failover to the profile it runs on), store errors.
pub fn set_limit_policy(deps: &Deps, agent_id: AgentId, policy: LimitPolicy) -> AppResult<Agent> {
    let _guard = deps.lock_state();
    let mut manifest = deps.store.load_manifest()?;
    let agent = manifest
        .get_mut(agent_id)
        .ok_or_else(|| AppError::AgentNotFound(agent_id.to_string()))?;
    if let LimitPolicy::FailOver { profile_id } = &policy {
        let target = profile(deps, profile_id)?;
        if *profile_id == agent.profile_id {
            return Err(AppError::InvalidParams(format!(
                "{} already runs on {}: fail over to another profile",
                agent.name, target.name
            )));
        }
    }
    agent.on_limit = policy;
    let agent = agent.clone();
    deps.store.save_manifest(&manifest)?;
    deps.publish(DomainEvent::AgentSettingsChanged { agent_id });
    Ok(agent)
}
