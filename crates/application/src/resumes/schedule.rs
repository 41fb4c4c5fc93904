//! The schedule of resumes, and continuing an agent once its limit has lifted.

use super::LimitSeen;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::sessions::{self, LaunchAgent};
use idea_domain::agent::LimitPolicy;
use idea_domain::agent_state::AgentState;
use idea_domain::invocation::agent_cwd;
use idea_domain::limits::{LimitReset, LimitSighting, LimitSource, SightedReset, resolve};
use idea_domain::resume::{FAILOVER_NUDGE, RESUMES_VERSION, Resumes, ScheduledResume, due_at};
use idea_domain::terminal::TerminalSize;
use idea_domain::{AgentId, DomainEvent, ProfileId};

/// Every scheduled resume, soonest first.
///
/// # Errors
/// Store codes (`CORRUPT_FILE` for a bad `resumes.json`, left untouched).
pub fn list(deps: &Deps) -> AppResult<Vec<ScheduledResume>> {
    let mut resumes = load(deps)?.resumes;
    resumes.sort_by_key(|r| r.due_at);
    Ok(resumes)
}

/// Schedules the limits the watchers saw (and those the CLIs' files record), then continues every agent whose resume is due.
/// Returns how many were continued. Each due resume leaves the schedule before its agent is
/// continued, so none is continued twice.
///
/// # Errors
/// Store codes; a failure to continue one agent is logged and does not stop the others.
pub fn tick(deps: &Deps) -> AppResult<usize> {
    super::files::look(deps);
    let (seen, went_on) = deps.resume_inbox.take();
    let seen = seen
        .into_iter()
        .map(|seen| with_recorded_reset(deps, seen))
        .collect();
    let (failovers, seen) = by_policy(deps, seen);
    let now = deps.clock.now();
    let due = {
        let _guard = deps.lock_state();
        let mut file = load(deps)?;
        let before = file.resumes.clone();
        file.resumes.retain(|r| !went_on.contains(&r.agent_id));
        for seen in seen {
            let probes = deps.resume_inbox.probes_of(seen.agent_id, &seen.limit);
            schedule(&mut file, seen, now, probes);
        }
        let (due, later): (Vec<_>, Vec<_>) = file.resumes.drain(..).partition(|r| r.due_at <= now);
        file.resumes = later;
        if file.resumes != before {
            save(deps, &file)?;
        }
        due
    };
    for (seen, profile_id) in failovers {
        let agent = seen.agent_id;
        if let Err(e) = fail_over(deps, seen, profile_id) {
            let error = &e as &dyn std::error::Error;
            tracing::warn!(%agent, error, "usage limit: could not continue on the failover engine");
        }
    }
    let continued = due.len();
    for resume in &due {
        deps.resume_inbox.probed(resume);
        if let Err(e) = continue_agent(deps, resume) {
            let error = &e as &dyn std::error::Error;
            tracing::warn!(agent = %resume.agent_id, error, "could not continue after the usage limit");
        }
    }
    Ok(continued)
}

/// A limit read off the screen (a reset in words, to the minute, or none) with the reset the
/// CLI recorded in its own file when it did (Claude's `resetsAt`, Codex's `resets_at`): the
/// structured time wins.
fn with_recorded_reset(deps: &Deps, mut seen: LimitSeen) -> LimitSeen {
    if seen.limit.source != LimitSource::Screen {
        return seen;
    }
    let Some(recorded) = recorded_limit(deps, &seen) else {
        return seen;
    };
    if !matches!(recorded.reset, SightedReset::Epoch(_)) {
        return seen;
    }
    let resolved = resolve(recorded, deps.clock.now(), &deps.clock.zone());
    if matches!(resolved.reset, LimitReset::At { .. }) {
        tracing::info!(agent = %seen.agent_id, reset = ?resolved.reset, "usage limit: the reset the CLI recorded in its file");
        seen.limit.reset = resolved.reset;
        seen.limit.window = seen.limit.window.or(resolved.window);
    }
    seen
}

/// The limit the agent's CLI file ends in: its live session's conversation, else the newest
/// one the CLI saved in the agent's folder.
fn recorded_limit(deps: &Deps, seen: &LimitSeen) -> Option<LimitSighting> {
    let agent = deps.store.load_manifest().ok()?.get(seen.agent_id)?.clone();
    let profile = deps.profiles.get(&agent.profile_id)?;
    let home = profile.home?;
    let run_dir = deps.store.prepare_run_dir(agent.agent_id).ok()?;
    let cwd = agent_cwd(&profile, &deps.store.root(), &run_dir);
    let id = deps
        .sessions
        .live_of_agent(agent.agent_id)
        .and_then(|live| live.info.engine_session_id)
        .or_else(|| deps.cli_homes.latest_conversation(home, &cwd))?;
    deps.cli_homes.limit_at_end(home, &cwd, &id)
}

/// Splits the limits seen by their agents' policies: those to fail over now (with the profile
/// to move to), and those to wait for (an agent already on its failover profile waits there;
/// one whose policy is to do nothing is left to the user).
fn by_policy(deps: &Deps, seen: Vec<LimitSeen>) -> (Vec<(LimitSeen, ProfileId)>, Vec<LimitSeen>) {
    let Ok(manifest) = deps.store.load_manifest() else {
        // Unreadable: waiting is what every agent gets by default.
        return (Vec::new(), seen);
    };
    let mut failovers = Vec::new();
    let mut wait = Vec::new();
    for limit in seen {
        let Some(agent) = manifest.get(limit.agent_id) else {
            continue;
        };
        match &agent.on_limit {
            LimitPolicy::FailOver { profile_id } if *profile_id != agent.profile_id => {
                failovers.push((limit, profile_id.clone()));
            }
            LimitPolicy::Nothing => {
                tracing::info!(agent = %limit.agent_id, "usage limit: left to the user, as its policy says");
            }
            _ => wait.push(limit),
        }
    }
    (failovers, wait)
}

/// Moves the agent to `profile_id` with a handoff drafted from its conversation, and types
/// the failover nudge once it is idle there. A move that fails (not installed, busy) falls
/// back to waiting for the reset.
fn fail_over(deps: &Deps, seen: LimitSeen, profile_id: ProfileId) -> AppResult<()> {
    let agent = seen.agent_id;
    let moved = crate::agents::change_agent_profile(
        deps,
        crate::agents::ChangeAgentProfile {
            agent_id: agent,
            profile_id: profile_id.clone(),
            handoff: None,
        },
    );
    let session = match moved {
        Ok(moved) => moved.session,
        Err(e) => {
            let error = &e as &dyn std::error::Error;
            tracing::warn!(%agent, to = %profile_id, error, "usage limit: the failover failed, waiting for the reset instead");
            let _guard = deps.lock_state();
            let mut file = load(deps)?;
            let probes = deps.resume_inbox.probes_of(agent, &seen.limit);
            schedule(&mut file, seen, deps.clock.now(), probes);
            return save(deps, &file);
        }
    };
    let session = match session {
        Some(session) => session,
        // It had exited at its limit: started on the new engine in its cell.
        None => sessions::launch_agent(
            deps,
            LaunchAgent {
                agent_id: agent,
                cell: seen.cell,
                size: TerminalSize::default(),
                fresh: false,
            },
        )?,
    };
    tracing::info!(%agent, to = %profile_id, session = %session.session_id, "usage limit: failed over, the nudge follows once it is idle");
    deps.sessions
        .nudge_when_idle(session.session_id, FAILOVER_NUDGE.to_owned());
    Ok(())
}

/// Cancels an agent's scheduled resume (it then waits for the user).
///
/// # Errors
/// `RESUME_NOT_FOUND`, store codes.
pub fn cancel(deps: &Deps, agent: AgentId) -> AppResult<()> {
    take(deps, agent).map(|_| ())
}

/// Continues an agent now instead of at its resume's time.
///
/// # Errors
/// `RESUME_NOT_FOUND`, store codes, and the launch's codes when it had exited.
pub fn run_now(deps: &Deps, agent: AgentId) -> AppResult<()> {
    let resume = take(deps, agent)?;
    deps.resume_inbox.probed(&resume);
    continue_agent(deps, &resume)
}

/// Adds (or replaces) the resume of the agent that hit `seen.limit`; a limit no reset lifts
/// schedules nothing (the cell says the user must act). `probes`: how many probes of an
/// unknown reset already failed (each next one waits longer).
fn schedule(file: &mut Resumes, seen: LimitSeen, now: u64, probes: u32) {
    file.resumes.retain(|r| r.agent_id != seen.agent_id);
    let Some(due_at) = due_at(&seen.limit, now, probes) else {
        return;
    };
    if file.resumes.len() >= idea_domain::resume::MAX_RESUMES {
        tracing::warn!(agent = %seen.agent_id, "too many scheduled resumes: this one is dropped");
        return;
    }
    tracing::info!(agent = %seen.agent_id, due_at, "usage limit: resume scheduled");
    file.resumes.push(ScheduledResume {
        agent_id: seen.agent_id,
        cell: seen.cell,
        limit: seen.limit,
        due_at,
        probes,
    });
}

/// Removes and returns an agent's resume.
fn take(deps: &Deps, agent: AgentId) -> AppResult<ScheduledResume> {
    let _guard = deps.lock_state();
    let mut file = load(deps)?;
    let at = file
        .resumes
        .iter()
        .position(|r| r.agent_id == agent)
        .ok_or_else(|| AppError::ResumeNotFound(agent.to_string()))?;
    let resume = file.resumes.remove(at);
    save(deps, &file)?;
    Ok(resume)
}

/// Continues the agent: the nudge typed where it waits at its prompt, or a relaunch in its
/// conversation (the nudge typed once it is idle) when it exited. An agent that already went
/// on by itself is left alone: it must never be continued twice.
fn continue_agent(deps: &Deps, resume: &ScheduledResume) -> AppResult<()> {
    let nudge = crate::project::resume_nudge(deps);
    if let Some(live) = deps.sessions.live_of_agent(resume.agent_id) {
        return match live.info.state {
            AgentState::UsageLimited | AgentState::Idle => {
                tracing::info!(agent = %resume.agent_id, "usage limit lifted: nudge typed");
                sessions::type_line(deps, live.info.session_id, &nudge)
            }
            state => {
                tracing::info!(agent = %resume.agent_id, ?state, "usage limit lifted: it already went on");
                Ok(())
            }
        };
    }
    let size = deps
        .sessions
        .of_cell(resume.cell)
        .and_then(|old| sessions::shared_size(deps, old.info.session_id).ok())
        .map_or_else(TerminalSize::default, |shared| shared.size);
    let launched = sessions::launch_agent(
        deps,
        LaunchAgent {
            agent_id: resume.agent_id,
            cell: resume.cell,
            size,
            fresh: false,
        },
    )?;
    tracing::info!(agent = %resume.agent_id, session = %launched.session_id,
        "usage limit lifted: relaunched, the nudge follows once it is idle");
    deps.sessions.nudge_when_idle(launched.session_id, nudge);
    Ok(())
}

fn load(deps: &Deps) -> AppResult<Resumes> {
    Ok(deps.store.load_resumes()?.unwrap_or(Resumes {
        version: RESUMES_VERSION,
        resumes: Vec::new(),
    }))
}

fn save(deps: &Deps, file: &Resumes) -> AppResult<()> {
    deps.store.save_resumes(file)?;
    deps.publish(DomainEvent::ResumesChanged {
        resumes: file.resumes.clone(),
    });
    deps.resume_inbox.poke();
    Ok(())
}
