//! LaunchAgent (the steps of ARCHITECTURE.md's "Flow: launching an agent", in that order)
//! and plain shell cells.

use super::plan::plan_for_cell;
use super::registry::Entry;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::pair::user_pair;
use crate::prepare::{
    AgentStart, StartKind, start_additions, trust_handed_folders, write_context_files,
};
use idea_domain::agent_state::{AgentState, ScreenDetector, StateSource};
use idea_domain::invocation::{
    InvocationInputs, STRIPPED_ENV, SessionFacts, SessionPlan, agent_cwd, plan_session,
    prepare_invocation,
};
use idea_domain::layout::Layouts;
use idea_domain::profile::AgentProfile;
use idea_domain::sandbox::SandboxSummary;
use idea_domain::terminal::{ExitInfo, SessionInfo, SessionStatus, SpawnSpec, TerminalSize};
use idea_domain::{AgentId, CellRef, ConversationId, DomainEvent, SessionId};
use std::collections::BTreeMap;

/// Where and how to launch an agent.
#[derive(Debug, Clone, Copy)]
pub struct LaunchAgent {
    pub agent_id: AgentId,
    pub cell: CellRef,
    pub size: TerminalSize,
    /// Start a new conversation, whatever the cell and the pair remember ("Start fresh" in
    /// the resume prompt); otherwise the cell's conversation is resumed where it can be.
    pub fresh: bool,
}

/// LaunchAgent: starts `agent` in a cell, or returns its live session there.
///
/// # Errors
/// `INVALID_PARAMS` (a size out of [`TerminalSize`]'s bound), `AGENT_NOT_FOUND`,
/// `AGENT_ALREADY_RUNNING` (live in another cell), `AGENT_BUSY` (a turn of it runs),
/// `CELL_BUSY` (another session runs in the cell), `PROFILE_NOT_FOUND`, `LAYOUT_NOT_FOUND`,
/// `NODE_NOT_FOUND`, `SPAWN_FAILED`, store errors.
pub fn launch_agent(deps: &Deps, request: LaunchAgent) -> AppResult<SessionInfo> {
    let launched = launch(deps, request);
    if let Err(e) = &launched {
        let (agent, cell) = (request.agent_id, request.cell);
        // As `&dyn Error`, the log line lists the causes too.
        let error = e as &dyn std::error::Error;
        if e.is_user_error() {
            tracing::warn!(%agent, %cell, error, "launch refused");
        } else {
            tracing::error!(%agent, %cell, error, "launch failed");
        }
    }
    launched
}

fn launch(deps: &Deps, request: LaunchAgent) -> AppResult<SessionInfo> {
    let LaunchAgent {
        agent_id,
        cell,
        size,
        fresh,
    } = request;
    let size = size.checked()?;
    let _launching = deps.sessions.lock_launch();
    // 1. the agent
    let agent = deps
        .store
        .load_manifest()?
        .get(agent_id)
        .cloned()
        .ok_or_else(|| AppError::AgentNotFound(agent_id.to_string()))?;
    // 2. one live session per agent
    if let Some(live) = deps.sessions.live_of_agent(agent_id) {
        return match live.info.cell {
            Some(here) if here == cell => Ok(live.info),
            Some(there) => Err(AppError::AgentAlreadyRunning {
                agent: agent.name.to_string(),
                agent_id,
                layout_id: there.layout_id,
                node_id: there.node_id,
            }),
            // Its cell is gone and it is being stopped.
            None => Err(AppError::AgentRunning(agent.name.to_string())),
        };
    }
    // …nor while it answers a request in its JSON mode (one CLI of an agent at a time).
    if deps.requests.is_answering(agent_id) {
        return Err(AppError::AgentBusy(format!(
            "{} is answering a request; launch it once the answer is in (or cancel the request)",
            agent.name
        )));
    }
    // The cell's last session tells whether a resume was just refused (see `plan`).
    let previous = deps.sessions.of_cell(cell);
    ensure_cell_free(deps, cell)?;
    // 3. profile (the persona is read with the convention file, step 8)
    let profile = deps
        .profiles
        .get(&agent.profile_id)
        .ok_or_else(|| AppError::ProfileNotFound(agent.profile_id.to_string()))?;
    // 4. the isolated run dir
    let run_dir = deps.store.prepare_run_dir(agent_id)?;
    // 5. the session plan, from the cell and what the CLI saved
    let layouts = crate::layouts::get(deps)?;
    let leaf = layouts
        .tree(cell.layout_id)?
        .leaf(cell.node_id)
        .cloned()
        .ok_or(idea_domain::layout::LayoutError::NodeNotFound(cell.node_id))?;
    let state_root = deps.store.root();
    let root = crate::worktrees::agent_root(deps, &agent)?;
    let cwd = agent_cwd(&profile, &root, &run_dir);
    let plan = if fresh {
        plan_session(&profile, SessionFacts::default(), || {
            deps.ids.new_uuid().to_string()
        })
    } else {
        plan_for_cell(deps, &profile, agent_id, &leaf, &cwd, previous.as_ref())
    };
    let (plan_kind, engine_session) = match &plan {
        SessionPlan::Resume(id) => ("resume", Some(id.as_str())),
        SessionPlan::Assign(id) => ("assign", Some(id.as_str())),
        SessionPlan::None => ("fresh", None),
    };
    tracing::info!(agent = %agent_id, name = %agent.name, profile = %profile.id, %cell,
        plan = plan_kind, engine_session, "launching agent");
    // 6. the folders it is handed, trusted in the CLI's own record
    let start = AgentStart {
        agent: &agent,
        profile: &profile,
        project_root: &root,
        state_root: &state_root,
        run_dir: &run_dir,
        cwd: &cwd,
    };
    trust_handed_folders(deps, &start);
    // 7. the invocation
    let invocation = InvocationInputs {
        profile: &profile,
        project_root: &root,
        run_dir: &run_dir,
        plan: &plan,
        login_shell: &deps.login_shell,
        size,
    };
    let (mut spec, context) = prepare_invocation(&invocation);
    // The kernel sandbox from the permission rules (none without rules) and what the CLI's own
    // settings need under it, IdeA's MCP server, and the hooks that report the agent's state:
    // their options before all others.
    let extra = start_additions(deps, &start, StartKind::Cell)?;
    spec.sandbox = extra.sandbox;
    spec.args.splice(0..0, extra.lead_args);
    spec.env.extend(extra.env);
    spec.env
        .extend(crate::worktrees::agent_env(deps, &agent, &root)?);
    // Step 4's per-CLI seeds (now that paths are known), then 8. the convention file.
    write_context_files(deps, &start, context.file.as_deref(), &extra.orchestration)?;
    // The cell now shows this agent and remembers its conversation.
    let (conversation_id, engine_session_id) = match &plan {
        SessionPlan::Resume(id) | SessionPlan::Assign(id) => {
            (Some(user_pair(agent_id)), Some(id.clone()))
        }
        SessionPlan::None => (
            leaf.conversation_id
                .filter(|_| leaf.agent == Some(agent_id)),
            None,
        ),
    };
    // 9–10. spawn, register, publish; the cell remembers the conversation only once the CLI
    // is running, so a failed launch never leaves a conversation to "resume".
    let info = spawn_and_register(
        deps,
        NewSession {
            spec: &spec,
            agent_id: Some(agent_id),
            cell: Some(cell),
            conversation: (conversation_id, engine_session_id.clone()),
            resumed: matches!(plan, SessionPlan::Resume(_)),
            failure_hint: failure_hint(deps, &profile, &spec, &plan),
            watch: Some(super::state::detector(&profile)),
        },
    )?;
    remember_on_cell(
        deps,
        cell,
        agent_id,
        (conversation_id, engine_session_id.clone()),
    )?;
    // The user's asks to the agent continue the cell's conversation (see `crate::pair`).
    if let (Some(mode), Some(id)) = (&profile.structured, engine_session_id.as_deref()) {
        crate::pair::remember(
            deps,
            user_pair(agent_id),
            &mode.provider,
            agent_id,
            Some(id),
        )?;
    }
    Ok(info)
}

/// What to tell the user if this launch fails on its own: what the CLI still needs, or that
/// the conversation could not be reopened (the next launch then starts a new one).
fn failure_hint(
    deps: &Deps,
    profile: &AgentProfile,
    spec: &SpawnSpec,
    plan: &SessionPlan,
) -> Option<String> {
    let setup = profile
        .home
        .and_then(|home| deps.cli_homes.setup_problem(home, &spec.env));
    // Where IdeA can see the CLI's saved conversations it resumes only existing ones.
    setup.or_else(|| match plan {
        SessionPlan::Resume(id) if profile.home.is_none() => Some(format!(
            "If {} could not reopen conversation {id}, launch it again: the next launch in \
             this cell starts a new conversation.",
            profile.name
        )),
        _ => None,
    })
}

/// The cell now shows the agent and remembers its conversation (saved at once).
fn remember_on_cell(
    deps: &Deps,
    cell: CellRef,
    agent_id: AgentId,
    (conversation_id, engine_session_id): (Option<ConversationId>, Option<String>),
) -> AppResult<()> {
    let _guard = deps.lock_state();
    let mut layouts =
        deps.store
            .load_layouts()?
            .ok_or(idea_domain::layout::LayoutError::LayoutNotFound(
                cell.layout_id,
            ))?;
    let tree = layouts.tree_mut(cell.layout_id)?;
    tree.assign_agent(cell.node_id, Some(agent_id))?;
    tree.set_conversation(cell.node_id, conversation_id, engine_session_id)?;
    deps.store.save_layouts(&layouts)?;
    // After `sessionStarted`: a client that read the layouts on that event may have read them
    // before this save (found under load: the cell never learnt whose session it showed).
    deps.publish(idea_domain::DomainEvent::CellAgentAssigned {
        layout_id: cell.layout_id,
        node_id: cell.node_id,
        agent_id: Some(agent_id),
    });
    Ok(())
}

/// OpenShell: a plain terminal (the user's login shell at the project root) in a cell.
///
/// # Errors
/// `INVALID_PARAMS` (a size out of [`TerminalSize`]'s bound), `CELL_BUSY`, `LAYOUT_NOT_FOUND`,
/// `NODE_NOT_FOUND`, `SPAWN_FAILED`, store errors.
pub fn open_shell(deps: &Deps, cell: CellRef, size: TerminalSize) -> AppResult<SessionInfo> {
    shell_in_cell(
        deps,
        cell,
        size,
        ShellRun {
            cwd: deps.store.root(),
            env: BTreeMap::new(),
            script: None,
        },
    )
}

/// What a shell cell runs: an interactive login shell, or one command line (`-c`).
pub(crate) struct ShellRun {
    pub cwd: std::path::PathBuf,
    pub env: BTreeMap<String, String>,
    pub script: Option<String>,
}

/// A login shell in `cell`, interactive or running `run.script`.
pub(crate) fn shell_in_cell(
    deps: &Deps,
    cell: CellRef,
    size: TerminalSize,
    run: ShellRun,
) -> AppResult<SessionInfo> {
    let size = size.checked()?;
    let _launching = deps.sessions.lock_launch();
    ensure_cell_free(deps, cell)?;
    let layouts: Layouts = crate::layouts::get(deps)?;
    if layouts.tree(cell.layout_id)?.leaf(cell.node_id).is_none() {
        return Err(idea_domain::layout::LayoutError::NodeNotFound(cell.node_id).into());
    }
    let mut args = vec!["-l".to_owned()];
    args.extend(
        run.script
            .into_iter()
            .flat_map(|script| ["-c".to_owned(), script]),
    );
    let spec = SpawnSpec {
        command: deps.login_shell.clone(),
        args,
        env: run.env,
        env_remove: STRIPPED_ENV.iter().map(|s| (*s).to_owned()).collect(),
        cwd: run.cwd,
        size,
        stdin_injection: None,
        sandbox: None,
    };
    spawn_and_register(
        deps,
        NewSession {
            spec: &spec,
            agent_id: None,
            cell: Some(cell),
            conversation: (None, None),
            resumed: false,
            failure_hint: None,
            watch: None,
        },
    )
}

fn ensure_cell_free(deps: &Deps, cell: CellRef) -> AppResult<()> {
    match deps.sessions.of_cell(cell) {
        Some(entry) if entry.info.status == SessionStatus::Running => {
            Err(AppError::CellBusy(cell.node_id))
        }
        Some(_) => {
            deps.sessions.remove_exited_of_cell(cell);
            Ok(())
        }
        None => Ok(()),
    }
}

/// What [`spawn_and_register`] starts.
struct NewSession<'a> {
    spec: &'a SpawnSpec,
    agent_id: Option<AgentId>,
    /// Where it shows; `None` for a session no cell shows.
    cell: Option<CellRef>,
    conversation: (Option<ConversationId>, Option<String>),
    resumed: bool,
    /// Added to the exit report when the process fails on its own.
    failure_hint: Option<String>,
    /// An agent's terminal is watched for its state (a shell's is not).
    watch: Option<Option<ScreenDetector>>,
}

fn spawn_and_register(deps: &Deps, new: NewSession<'_>) -> AppResult<SessionInfo> {
    let NewSession {
        spec,
        agent_id,
        cell,
        conversation: (conversation_id, engine_session_id),
        resumed,
        failure_hint,
        watch,
    } = new;
    let session_id = SessionId(deps.ids.new_uuid());
    let registry = deps.sessions.clone();
    let events = deps.events.clone();
    let hint = failure_hint.clone();
    let on_exit = Box::new(move |exit: ExitInfo| {
        let exit = with_hint(exit, hint);
        if let Some(info) = registry.mark_exited(session_id, exit.clone()) {
            events.publish(super::state::changed(&info));
            events.publish(DomainEvent::SessionExited {
                session_id,
                agent_id: info.agent_id,
                cell: info.cell,
                exit,
            });
        }
    });
    let terminal = deps
        .terminals
        .spawn(session_id, spec, on_exit)
        .map_err(|e| {
            tracing::warn!(program = %spec.command, args = ?loggable_args(&spec.args),
                cwd = %spec.cwd.display(), error = &e as &dyn std::error::Error, "spawn failed");
            AppError::Spawn(e)
        })?;
    // argv and cwd only: the environment may hold API keys.
    tracing::info!(session = %session_id, pid = terminal.pid(), program = %spec.command,
        args = ?loggable_args(&spec.args), cwd = %spec.cwd.display(), "spawned");
    let info = SessionInfo {
        session_id,
        agent_id,
        cell,
        pid: terminal.pid(),
        status: SessionStatus::Running,
        exit: None,
        conversation_id,
        engine_session_id,
        state: AgentState::Working,
        state_source: StateSource::Start,
        state_reason: None,
        usage_limit: None,
        sandbox: spec.sandbox.as_ref().map(SandboxSummary::of),
    };
    deps.sessions.insert(Entry::new(
        info.clone(),
        terminal.clone(),
        spec.size,
        resumed,
    ));
    deps.publish(DomainEvent::SessionStarted {
        session: info.clone(),
    });
    if let Some(detector) = watch {
        super::state::watch(deps, session_id, &terminal, detector);
    }
    // A process that died before it was registered had its exit handler find nothing:
    // report the exit here (`mark_exited` reports each exit once).
    if let Some(exit) = terminal.exit_status()
        && let exit = with_hint(exit, failure_hint)
        && let Some(done) = deps.sessions.mark_exited(session_id, exit.clone())
    {
        deps.publish(super::state::changed(&done));
        deps.publish(DomainEvent::SessionExited {
            session_id,
            agent_id,
            cell,
            exit,
        });
        return Ok(done);
    }
    Ok(info)
}

fn with_hint(mut exit: ExitInfo, hint: Option<String>) -> ExitInfo {
    if exit.failed() && exit.hint.is_none() {
        exit.hint = hint;
    }
    exit
}

/// `args` for the log, the value of any flag that looks like a credential (`--api-key X`,
/// `--token=X`) masked: a user's profile may pass one on the command line.
fn loggable_args(args: &[String]) -> Vec<String> {
    let secret_flag = |flag: &str| {
        let flag = flag.to_ascii_lowercase();
        flag.starts_with('-')
            && ["key", "token", "secret", "password"]
                .iter()
                .any(|word| flag.contains(word))
    };
    let mut shown = Vec::with_capacity(args.len());
    let mut mask_next = false;
    for arg in args {
        if std::mem::take(&mut mask_next) {
            shown.push("<redacted>".to_owned());
            continue;
        }
        match arg.split_once('=') {
            Some((flag, _)) if secret_flag(flag) => shown.push(format!("{flag}=<redacted>")),
            _ => {
                mask_next = secret_flag(arg);
                shown.push(arg.clone());
            }
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::loggable_args;

    #[test]
    fn credentials_in_arguments_are_masked_for_the_log() {
        let args = ["-m", "m", "--api-key", "sk-1", "--auth-token=t", "x"].map(String::from);
        let masked = ["--api-key", "<redacted>", "--auth-token=<redacted>", "x"];
        assert_eq!(loggable_args(&args)[2..], masked);
    }
}
