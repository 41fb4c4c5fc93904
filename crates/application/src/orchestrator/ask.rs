//! Ask: one party sends an agent a message and waits for its answer, one JSON-mode turn of
//! the agent's CLI (the flow is in ARCHITECTURE.md, "Flow: one agent asking another").

use super::registry::{Enqueued, Waited};
use super::turn::{Turn, run_turn};
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::orchestrator::{
    AskAnswer, RequestFailure, RequestOutcome, RequestRecord, RequestSource, RequestState,
    Requester,
};
use idea_domain::turn::json_mode;
use idea_domain::{Agent, DomainEvent, RequestId};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long a turn may run unless the request says otherwise.
pub const DEFAULT_TURN_TIMEOUT: Duration = Duration::from_secs(300);
/// The longest a request may ask for, and the longest it waits for the agent's earlier ones
/// (longer while the one ahead of it waits for a usage limit to reset).
pub const MAX_WAIT: Duration = Duration::from_secs(600);
/// A turn that hits a usage limit runs again after the reset, at most this many times...
pub const LIMIT_RETRIES: u32 = 3;
/// ...and only for a reset at most this far ahead (a weekly limit's included); a limit with
/// no reset, or one further off, ends the request with `USAGE_LIMIT`.
pub const LIMIT_WAIT_MAX_SECS: u64 = 8 * 24 * 3600;
/// How often a wait for a reset looks at the clock (a cancel ends it at once).
const LIMIT_POLL: Duration = Duration::from_millis(250);

/// One request to an agent.
#[derive(Debug, Clone)]
pub struct Ask {
    /// Who asks: `"user"`, or an agent's id or name.
    pub requester: String,
    /// The agent asked: its id or its name.
    pub target: String,
    pub message: String,
    /// How long the turn may run: [`DEFAULT_TURN_TIMEOUT`] when `None`, at most [`MAX_WAIT`].
    pub timeout: Option<Duration>,
    /// The door it came through (for the event).
    pub source: RequestSource,
    /// The id the request gets, chosen by the caller so that it can cancel the request (or
    /// follow its events) before the answer comes; a fresh one when `None`.
    pub request_id: Option<RequestId>,
}

/// Ask: runs one turn of the target agent and returns its answer. Blocks for the whole turn
/// (and for the agent's earlier requests: one turn per agent at a time, first in first out;
/// different agents answer in parallel).
///
/// # Errors
/// `AGENT_NOT_FOUND` (the target, or a requester that is neither `"user"` nor an agent), `PROFILE_NOT_FOUND`, `NOT_ASKABLE`,
/// `INVALID_PROFILE`, `INVALID_PARAMS` (a `request_id` already used), `AGENT_BUSY` (live in a cell, or the request would wait on itself),
/// `TURN_TIMEOUT`, `CANCELLED`, `USAGE_LIMIT`, `TURN_FAILED`, `COMMAND_NOT_FOUND`,
/// `SPAWN_FAILED`, store errors.
pub fn ask(deps: &Deps, ask: Ask) -> AppResult<AskAnswer> {
    ask_then(deps, ask, || {})
}

/// As [`ask`], calling `on_queued` as soon as the request has its place in the agent's line
/// (published as `requestChanged`), before the wait for its answer; or, when it is refused
/// first, not at all. A transport that orders its client's calls lets the next one go there.
///
/// # Errors
/// As [`ask`].
pub fn ask_then(deps: &Deps, ask: Ask, on_queued: impl FnOnce()) -> AppResult<AskAnswer> {
    let started = Instant::now();
    let manifest = deps.store.load_manifest()?;
    let target = manifest
        .find(&ask.target)
        .cloned()
        .ok_or_else(|| AppError::AgentNotFound(ask.target.clone()))?;
    let requester = if ask.requester.trim().eq_ignore_ascii_case("user") {
        Requester::User
    } else {
        manifest
            .find(&ask.requester)
            .map(|a| Requester::Agent(a.agent_id))
            .ok_or_else(|| AppError::AgentNotFound(ask.requester.clone()))?
    };
    let profile = deps
        .profiles
        .get(&target.profile_id)
        .ok_or_else(|| AppError::ProfileNotFound(target.profile_id.to_string()))?;
    json_mode(&profile).map_err(|e| {
        if e.is_not_askable() {
            AppError::NotAskable(e)
        } else {
            AppError::InvalidProfile(e.to_string())
        }
    })?;
    let request_id = ask
        .request_id
        .unwrap_or_else(|| RequestId(deps.ids.new_uuid()));
    let record = RequestRecord {
        request_id,
        requester,
        target: target.agent_id,
        source: ask.source,
        message: ask.message.clone(),
        state: RequestState::Queued,
        created_at: now_ms(),
        started_at: None,
        finished_at: None,
        answer: None,
        error: None,
        limit_resets_at: None,
    };
    let queued = match deps.requests.enqueue(record.clone()) {
        Enqueued::Queued => true,
        Enqueued::WaitsOnItself => false,
        // Nothing recorded: the id is another request's.
        Enqueued::IdTaken => {
            return Err(AppError::InvalidParams(format!(
                "the request id {request_id} is already used"
            )));
        }
    };
    let answer = if queued {
        deps.publish(DomainEvent::RequestChanged { request: record });
        on_queued();
        answer_in_turn(deps, &ask, (requester, &target), request_id, &profile)
    } else {
        deps.requests.record(record);
        let asking = match requester {
            Requester::Agent(id) => manifest.get(id).map(|a| a.name.to_string()),
            Requester::User => None,
        };
        Err(AppError::AgentBusy(format!(
            "{} is waiting for {}'s answer: asking it back would wait forever",
            target.name,
            asking.as_deref().unwrap_or(ask.requester.as_str())
        )))
    };
    let place = (requester, &target);
    finish(deps, &ask, place, request_id, started, &answer);
    if queued {
        // Only now may the agent's next request run (or a launch of it start).
        deps.requests.leave(request_id, target.agent_id);
    }
    answer
}

/// Waits for the agent's earlier requests, then runs the turn.
fn answer_in_turn(
    deps: &Deps,
    ask: &Ask,
    (requester, target): (Requester, &Agent),
    request_id: RequestId,
    profile: &idea_domain::AgentProfile,
) -> AppResult<AskAnswer> {
    loop {
        match deps
            .requests
            .wait_first(request_id, target.agent_id, MAX_WAIT)
        {
            Waited::First => break,
            Waited::Cancelled => return Err(AppError::Cancelled),
            // The one ahead waits for a usage limit: so does this one, in its place.
            Waited::TimedOut if deps.requests.front_waits_for_limit(target.agent_id) => {}
            Waited::TimedOut => {
                return Err(AppError::TurnTimeout(format!(
                    "{} was still busy with earlier requests after {} s",
                    target.name,
                    MAX_WAIT.as_secs()
                )));
            }
        }
    }
    {
        // Under the launch lock: a launch of this agent and this turn cannot both start.
        let _launching = deps.sessions.lock_launch();
        if deps.sessions.live_of_agent(target.agent_id).is_some() {
            return Err(AppError::AgentBusy(format!(
                "{} is live in a terminal cell; ask it there, or stop it first",
                target.name
            )));
        }
        let running = deps.requests.update(request_id, |r| {
            r.state = RequestState::Running;
            r.started_at = Some(now_ms());
        });
        if let Some(request) = running {
            deps.publish(DomainEvent::RequestChanged { request });
        }
    }
    let timeout = ask.timeout.unwrap_or(DEFAULT_TURN_TIMEOUT).min(MAX_WAIT);
    let turn = Turn {
        request_id,
        requester,
        agent: target,
        profile,
        message: &ask.message,
        timeout,
    };
    let mut retries = 0;
    loop {
        let answer = run_turn(deps, &turn);
        let resets_at = match &answer {
            Err(AppError::UsageLimit {
                resets_at: Some(at),
                ..
            }) if retries < LIMIT_RETRIES
                && ask.source != RequestSource::Handoff
                && *at <= deps.clock.now().saturating_add(LIMIT_WAIT_MAX_SECS) =>
            {
                *at
            }
            _ => return answer,
        };
        retries += 1;
        wait_for_reset(deps, request_id, resets_at)?;
    }
}

/// A turn hit a usage limit that resets at `resets_at` (Unix seconds): the request says so,
/// waits (keeping its place: the agent's later requests wait behind it), then runs again.
///
/// # Errors
/// `CANCELLED` when the request is cancelled meanwhile.
fn wait_for_reset(deps: &Deps, request_id: RequestId, resets_at: u64) -> AppResult<()> {
    let set = |state: RequestState, at: Option<u64>| {
        if let Some(request) = deps.requests.update(request_id, |r| {
            r.state = state;
            r.limit_resets_at = at;
        }) {
            deps.publish(DomainEvent::RequestChanged { request });
        }
    };
    tracing::info!(request = %request_id, resets_at, "request waits for a usage limit to reset");
    set(RequestState::WaitingForLimit, Some(resets_at));
    while deps.clock.now() < resets_at {
        if deps.requests.wait_cancelled(request_id, LIMIT_POLL) {
            return Err(AppError::Cancelled);
        }
    }
    set(RequestState::Running, None);
    Ok(())
}

/// Records how the request ended and publishes it.
fn finish(
    deps: &Deps,
    ask: &Ask,
    (requester, target): (Requester, &Agent),
    request_id: RequestId,
    started: Instant,
    answer: &AppResult<AskAnswer>,
) {
    let failure = answer.as_ref().err().map(|e| RequestFailure {
        code: e.code().as_str().to_owned(),
        message: e.to_string(),
    });
    let state = match answer {
        Ok(_) => RequestState::Done,
        Err(AppError::Cancelled) => RequestState::Cancelled,
        Err(_) => RequestState::Failed,
    };
    let code = failure.as_ref().map(|f| f.code.clone());
    let done = deps.requests.update(request_id, |r| {
        r.state = state;
        r.finished_at = Some(now_ms());
        r.answer = answer.as_ref().ok().map(|a| a.text.clone());
        r.error = failure;
    });
    if let Some(request) = done {
        deps.publish(DomainEvent::RequestChanged { request });
    }
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    tracing::info!(request = %request_id, %requester, target = %target.agent_id,
        outcome = code.as_deref().unwrap_or("ok"), duration_ms, "request processed");
    deps.publish(DomainEvent::OrchestratorRequestProcessed {
        request_id,
        source: ask.source,
        requester,
        target: target.agent_id,
        outcome: code.map_or(RequestOutcome::Ok, |code| RequestOutcome::Error { code }),
        duration_ms,
    });
}

/// Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
