//! One turn of an asked agent: its run dir prepared like a launch's, its conversation with
//! the requester continued (the CLI's id kept in the pair's `providers.json`), the process run
//! behind the `TurnRunner` port with a timeout, and what it came to.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::pair::remember;
use crate::prepare::{
    AgentStart, StartKind, start_additions, trust_handed_folders, write_context_files,
};
use idea_domain::invocation::{
    SessionCaps, SessionFacts, SessionPlan, agent_cwd, plan_conversation,
};
use idea_domain::limits::{LimitReset, resolve};
use idea_domain::orchestrator::{AskAnswer, Requester};
use idea_domain::ports::TurnExit;
use idea_domain::profile::AgentProfile;
use idea_domain::turn::{TurnError, TurnInputs, TurnSetupError, json_mode, turn_invocation};
use idea_domain::{Agent, ConversationId, Party, RequestId};
use std::sync::Arc;
use std::time::Duration;

/// How long a killed turn may take to go.
const KILL_WAIT: Duration = Duration::from_secs(10);

/// What [`run_turn`] runs.
pub(super) struct Turn<'a> {
    pub request_id: RequestId,
    pub requester: Requester,
    pub agent: &'a Agent,
    pub profile: &'a AgentProfile,
    pub message: &'a str,
    pub timeout: Duration,
}

fn setup_error(e: TurnSetupError) -> AppError {
    if e.is_not_askable() {
        AppError::NotAskable(e)
    } else {
        AppError::InvalidProfile(e.to_string())
    }
}

/// Whether a cell of a layout hosts (or hosted) `agent`.
fn hosted_in_a_cell(deps: &Deps, agent: idea_domain::AgentId) -> bool {
    deps.store
        .load_layouts()
        .ok()
        .flatten()
        .is_some_and(|mut layouts| !layouts.leaves_of_agent_mut(agent).is_empty())
}

/// Runs the turn; the caller holds the agent's place in line.
pub(super) fn run_turn(deps: &Deps, turn: &Turn<'_>) -> AppResult<AskAnswer> {
    let (agent, profile) = (turn.agent, turn.profile);
    let (mode, _) = json_mode(profile).map_err(setup_error)?;
    let state_root = deps.store.root();
    let root = crate::worktrees::agent_root(deps, agent)?;
    let run_dir = deps.store.prepare_run_dir(agent.agent_id)?;
    let cwd = agent_cwd(profile, &root, &run_dir);
    let start = AgentStart {
        agent,
        profile,
        project_root: &root,
        state_root: &state_root,
        run_dir: &run_dir,
        cwd: &cwd,
    };
    // The agent's own conversation with this requester, as its CLI knows it.
    let pair = ConversationId::for_pair(turn.requester.party(), Party::Agent(agent.agent_id));
    let providers = deps.store.load_providers(pair)?;
    let stored = providers.engine_session(&mode.provider, agent.agent_id);
    let saved = stored.and_then(|id| {
        profile
            .home
            .map(|home| deps.cli_homes.conversation(home, &cwd, id))
    });
    let caps = SessionCaps {
        resume: true,
        assign: mode.assigns_ids(),
    };
    // A CLI that mints its own ids (Codex) learns a cell's id only when the cell relaunches:
    // until then, the user's conversation with an agent a cell hosted is the newest one the
    // CLI saved in the agent's folder (found by the real-CLI suite: an ask after the cell
    // stopped started afresh).
    let latest = match (turn.requester, stored, profile.home) {
        (Requester::User, None, Some(home))
            if !mode.assigns_ids() && hosted_in_a_cell(deps, agent.agent_id) =>
        {
            deps.cli_homes.latest_conversation(home, &cwd)
        }
        _ => None,
    };
    let facts = SessionFacts {
        cell_session: stored,
        cell_session_saved: saved,
        latest_saved: latest.as_deref(),
    };
    let plan = plan_conversation(caps, facts, || deps.ids.new_uuid().to_string());
    trust_handed_folders(deps, &start);
    let mut invocation = turn_invocation(&TurnInputs {
        profile,
        project_root: &root,
        run_dir: &run_dir,
        message: turn.message,
        session: &plan,
    })
    .map_err(setup_error)?;
    // The sandbox and the CLI's settings under it, and IdeA's MCP server (the asked agent can
    // ask others in turn): options before a subcommand such as Codex's `exec`.
    let extra = start_additions(deps, &start, StartKind::Turn)?;
    invocation.sandbox = extra.sandbox;
    invocation.args.splice(0..0, extra.lead_args);
    invocation.env.extend(extra.env);
    write_context_files(
        deps,
        &start,
        invocation.context_file.as_deref(),
        &extra.orchestration,
    )?;
    let request = turn.request_id;
    if deps.requests.is_cancelled(request) {
        return Err(AppError::Cancelled);
    }
    tracing::info!(%request, agent = %agent.agent_id, profile = %profile.id,
        plan = ?plan, program = %invocation.program, "turn starting");
    let running = deps
        .turns
        .start(
            &invocation,
            super::events::publisher(Arc::clone(&deps.events), request, agent.agent_id),
        )
        .map_err(AppError::Spawn)?;
    deps.requests.set_turn(request, running.clone());
    let exit = running.wait(turn.timeout);
    // A turn that ended on its own before the cancel keeps its answer.
    let ended_alone = exit.as_ref().is_some_and(|e| !e.exit.stopped);
    if !ended_alone && deps.requests.is_cancelled(request) {
        running.kill();
        running.wait(KILL_WAIT);
        return Err(AppError::Cancelled);
    }
    let Some(exit) = exit else {
        running.kill();
        running.wait(KILL_WAIT);
        return Err(AppError::TurnTimeout(format!(
            "{} did not answer within {} s; its turn was stopped",
            agent.name,
            turn.timeout.as_secs()
        )));
    };
    let provider = &mode.provider;
    answer(deps, (pair, provider), turn, &plan, exit)
}

/// What the turn came to; the conversation's id is kept for the next turn.
fn answer(
    deps: &Deps,
    (pair, provider): (ConversationId, &str),
    turn: &Turn<'_>,
    plan: &SessionPlan,
    exit: TurnExit,
) -> AppResult<AskAnswer> {
    let TurnExit { outcome, exit } = exit;
    let agent = turn.agent.agent_id;
    match outcome.error {
        None if !outcome.text.is_empty() || !exit.failed() => {
            let id = outcome.engine_session_id.clone().or(match plan {
                SessionPlan::Resume(id) | SessionPlan::Assign(id) => Some(id.clone()),
                SessionPlan::None => None,
            });
            remember(deps, pair, provider, agent, id.as_deref())?;
            Ok(AskAnswer {
                request_id: turn.request_id,
                text: outcome.text,
                engine_session_id: id,
                usage: outcome.usage,
            })
        }
        None => Err(AppError::TurnFailed(format!(
            "{} ended (exit status {}) without an answer",
            turn.agent.name, exit.code
        ))),
        Some(error @ TurnError::UsageLimit { .. }) => {
            // The reset as the clock reckons it (Codex says "7:49 PM", local time).
            let resets_at = error.limit_sighting().and_then(|sighting| {
                match resolve(sighting, deps.clock.now(), &deps.clock.zone()).reset {
                    LimitReset::At { epoch } => Some(epoch),
                    LimitReset::Unknown | LimitReset::NeedsUser => None,
                }
            });
            let message = match error {
                TurnError::UsageLimit { message, .. } => message,
                _ => String::new(),
            };
            Err(AppError::UsageLimit { message, resets_at })
        }
        Some(error) => {
            // A conversation the CLI would not reopen is not tried again: the next turn
            // starts a new one.
            if matches!(plan, SessionPlan::Resume(_)) && matches!(error, TurnError::Cli { .. }) {
                remember(deps, pair, provider, agent, None)?;
            }
            Err(AppError::TurnFailed(error.to_string()))
        }
    }
}
