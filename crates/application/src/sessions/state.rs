//! Agent states (`docs/agent-states.md`): each agent session's terminal is watched for BEL,
//! OSC notifications, its CLI's screen prompts and quiet output, and its CLI's hooks report
//! through [`report_hook`]; every change is published as `SessionStateChanged`.

use super::registry::SessionRegistry;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::agent_state::{HookEvent, ScreenDetector, Signal};
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
    terminal.watch(TerminalWatch {
        detector,
        quiet_after: QUIET_AFTER,
        on_signal: Box::new(move |signal| {
            apply(
                &registry,
                events.as_ref(),
                session_id,
                Signal::Terminal(signal),
            );
        }),
    });
}

/// Applies `signal` to a session and publishes the change, if any.
pub(crate) fn apply(
    registry: &SessionRegistry,
    events: &dyn EventPublisher,
    session_id: SessionId,
    signal: Signal,
) -> Option<SessionInfo> {
    let info = registry.apply_signal(session_id, signal)?;
    events.publish(changed(&info));
    Some(info)
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
        },
    }
}

/// ReportAgentSignal: one of an agent CLI's hooks fired (`idea hook`). Returns the agent's
/// session when its state changed; `None` when it has no live terminal session (a hook of a
/// CLI IdeA no longer shows is no error: the hook must never fail the agent).
///
/// # Errors
/// `AGENT_NOT_FOUND` (not an agent id of this project).
pub fn report_hook(deps: &Deps, agent: &str, event: HookEvent) -> AppResult<Option<SessionInfo>> {
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
    Ok(apply(
        &deps.sessions,
        deps.events.as_ref(),
        live.info.session_id,
        Signal::Hook(event),
    ))
}

/// The user typed into a session (`enter`: and pressed Enter): a "needs you" from a bell or
/// notification is answered, a submitted line may start a turn.
pub(crate) fn typed(deps: &Deps, session_id: SessionId, enter: bool) {
    let signal = if enter { Signal::Submit } else { Signal::Input };
    apply(&deps.sessions, deps.events.as_ref(), session_id, signal);
}
