//! Agent states (`docs/agent-states.md`): each agent session's terminal is watched for BEL,
//! OSC notifications, its CLI's screen prompts and quiet output, and its CLI's hooks report
//! through [`report_hook`]; every change is published as `SessionStateChanged`.

use super::registry::SessionRegistry;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::resumes::{LimitSeen, ResumeInbox};
use idea_domain::agent_state::{
    AgentState, HookEvent, ScreenDetector, ScreenFinding, Signal, TerminalSignal,
};
use idea_domain::limits::{recognise_stop_failure, resolve};
use idea_domain::ports::EventPublisher;
use idea_domain::profile::{AgentProfile, CliHome};
use idea_domain::terminal::{SessionInfo, TerminalSession, TerminalWatch};
use idea_domain::{AgentId, DomainEvent, SessionId};
use std::sync::Arc;
use std::time::Duration;

/// Without any other signal, a CLI whose output stopped this long is taken as idle (spinners
/// of a working CLI redraw far more often).
pub const QUIET_AFTER: Duration = Duration::from_secs(4);

/// The screen detector for a profile's CLI.
pub(crate) fn detector(profile: &AgentProfile) -> Option<ScreenDetector> {
    profile.home.map(|home| match home {
        CliHome::ClaudeCode => ScreenDetector::ClaudeCode,
        CliHome::Codex => ScreenDetector::Codex,
        CliHome::Gemini => ScreenDetector::Gemini,
    })
}

/// Watches an agent session's terminal; every state change is published.
pub(crate) fn watch(
    deps: &Deps,
    session_id: SessionId,
    terminal: &Arc<dyn TerminalSession>,
    detector: Option<ScreenDetector>,
) {
    let registry = deps.sessions.clone();
    let events = deps.events.clone();
    let (clock, inbox) = (deps.clock.clone(), deps.resume_inbox.clone());
    terminal.watch(TerminalWatch {
        detector,
        quiet_after: QUIET_AFTER,
        on_signal: Box::new(move |signal| {
            let signal = match signal {
                // A limit on screen: its reset on the clock, and the scheduler told.
                TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(sighting))) => {
                    Signal::UsageLimit(resolve(sighting, clock.now(), &clock.zone()))
                }
                signal => Signal::Terminal(signal),
            };
            let info = apply(&registry, events.as_ref(), &inbox, session_id, signal);
            if let Some(seen) = info.as_ref().and_then(limit_seen) {
                inbox.push(seen);
            }
        }),
    });
}

/// Applies `signal` to a session and publishes the change, if any.
pub(crate) fn apply(
    registry: &SessionRegistry,
    events: &dyn EventPublisher,
    inbox: &ResumeInbox,
    session_id: SessionId,
    signal: Signal,
) -> Option<SessionInfo> {
    let before = registry.get(session_id).map(|e| e.info.state);
    let info = registry.apply_signal(session_id, signal)?;
    events.publish(changed(&info));
    if before == Some(AgentState::UsageLimited)
        && info.state == AgentState::Working
        && let Some(agent) = info.agent_id
    {
        inbox.went_on(agent);
    }
    // A relaunch after a usage limit: the nudge goes in once the CLI waits at its prompt.
    if info.state == AgentState::Idle
        && let Some((terminal, nudge)) = registry.take_nudge(session_id)
    {
        let _ = super::control::submit_line(terminal.as_ref(), &nudge);
        if let Some(submitted) = registry.apply_signal(session_id, Signal::Submit) {
            events.publish(changed(&submitted));
            return Some(submitted);
        }
    }
    Some(info)
}

/// What the scheduler needs of a session that just went `usageLimited`.
pub(crate) fn limit_seen(info: &SessionInfo) -> Option<LimitSeen> {
    if info.state != AgentState::UsageLimited {
        return None;
    }
    Some(LimitSeen {
        agent_id: info.agent_id?,
        cell: info.cell?,
        limit: info.usage_limit.clone()?,
    })
}

/// The `SessionStateChanged` event of `info`'s current state.
pub(crate) fn changed(info: &SessionInfo) -> DomainEvent {
    DomainEvent::SessionStateChanged {
        session_id: info.session_id,
        agent_id: info.agent_id,
        cell: info.cell,
        report: idea_domain::agent_state::StateReport {
            state: info.state,
            source: info.state_source,
            reason: info.state_reason.clone(),
            usage_limit: info.usage_limit.clone(),
        },
    }
}

/// ReportAgentSignal: one of an agent CLI's hooks fired (`idea hook`). Returns the agent's
/// session when its state changed; `None` when it has no live terminal session (a hook of a
/// CLI IdeA no longer shows is no error: the hook must never fail the agent). `payload` is the
/// hook's own input when it may tell of a usage limit (Claude Code's `StopFailure` with
/// `error: "rate_limit"`): the turn then ended at the limit, not done.
///
/// # Errors
/// `AGENT_NOT_FOUND` (not an agent id of this project).
pub fn report_hook(
    deps: &Deps,
    agent: &str,
    event: HookEvent,
    payload: Option<&str>,
) -> AppResult<Option<SessionInfo>> {
    let agent_id: AgentId = agent
        .parse()
        .map_err(|_| AppError::AgentNotFound(agent.to_owned()))?;
    if deps.store.load_manifest()?.get(agent_id).is_none() {
        return Err(AppError::AgentNotFound(agent.to_owned()));
    }
    let Some(live) = deps.sessions.live_of_agent(agent_id) else {
        return Ok(None);
    };
    tracing::debug!(agent = %agent_id, %event, "agent hook");
    let limit = payload
        .filter(|p| p.len() <= MAX_HOOK_PAYLOAD)
        .and_then(recognise_stop_failure);
    let signal = match limit {
        Some(sighting) => {
            tracing::info!(agent = %agent_id, message = %sighting.message, "usage limit reported by a hook");
            Signal::UsageLimit(resolve(sighting, deps.clock.now(), &deps.clock.zone()))
        }
        None => Signal::Hook(event),
    };
    let info = apply(
        &deps.sessions,
        deps.events.as_ref(),
        &deps.resume_inbox,
        live.info.session_id,
        signal,
    );
    if let Some(seen) = info.as_ref().and_then(limit_seen) {
        deps.resume_inbox.push(seen);
    }
    Ok(info)
}

/// The largest hook payload read for a limit (Claude's `StopFailure` carries the last
/// assistant message: a line or two).
pub const MAX_HOOK_PAYLOAD: usize = 64 * 1024;

/// The user typed into a session (`enter`: and pressed Enter): a "needs you" from a bell or
/// notification is answered, a submitted line may start a turn.
pub(crate) fn typed(deps: &Deps, session_id: SessionId, enter: bool) {
    let signal = if enter { Signal::Submit } else { Signal::Input };
    apply(
        &deps.sessions,
        deps.events.as_ref(),
        &deps.resume_inbox,
        session_id,
        signal,
    );
}
