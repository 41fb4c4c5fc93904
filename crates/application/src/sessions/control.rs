//! Stop, restart, terminal I/O, and the snapshot of running agents.

use super::launch::{LaunchAgent, launch_agent, open_shell};
use super::registry::Entry;
use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::agent_state::AgentState;
use idea_domain::profile::CliHome;
use idea_domain::terminal::{PtyError, SessionInfo, SessionStatus, TerminalSession, TerminalSize};
use idea_domain::{CellRef, DomainEvent, SessionId};
use std::time::Duration;

/// How long a restart waits for the old process to go: a program that ignores SIGHUP and
/// SIGTERM gets SIGKILL after 3 s, and a background grandchild holding its terminal delays
/// the exit by up to 2 s more (the PTY adapter's defaults); doubled for a busy machine (a
/// fuzz run beside a CPU hog found 5 s too short).
const STOP_WAIT: Duration = Duration::from_secs(10);

pub(super) fn entry(deps: &Deps, id: SessionId) -> AppResult<Entry> {
    deps.sessions
        .get(id)
        .ok_or_else(|| AppError::SessionNotFound(id.to_string()))
}

pub(super) fn live(deps: &Deps, id: SessionId) -> AppResult<Entry> {
    let entry = entry(deps, id)?;
    if entry.info.status == SessionStatus::Exited {
        return Err(AppError::SessionExited(id.to_string()));
    }
    Ok(entry)
}

/// ListSessions: every session of the project (live and exited).
pub fn list(deps: &Deps) -> Vec<SessionInfo> {
    deps.sessions.list()
}

/// StopAgent / stop a shell cell: kills the process; `SessionExited` follows.
///
/// # Errors
/// `SESSION_NOT_FOUND`.
pub fn stop(deps: &Deps, id: SessionId) -> AppResult<()> {
    let entry = entry(deps, id)?;
    if entry.info.status == SessionStatus::Running {
        entry.terminal.kill();
    }
    Ok(())
}

/// RestartAgent: stops the session, waits for it to end, and starts the same agent (or shell)
/// in the same cell, resuming its conversation when the profile can.
///
/// # Errors
/// `INVALID_PARAMS` (a size out of bounds; the old process is left alone), `SESSION_NOT_FOUND`,
/// `INTERNAL` when the old process will not die, launch errors.
pub fn restart(deps: &Deps, id: SessionId, size: TerminalSize) -> AppResult<SessionInfo> {
    let size = size.checked()?;
    let old = entry(deps, id)?;
    if old.info.status == SessionStatus::Running {
        old.terminal.kill();
        if !deps.sessions.wait_exited(id, STOP_WAIT) {
            return Err(AppError::Internal(format!(
                "session {id} did not stop within {}s",
                STOP_WAIT.as_secs()
            )));
        }
    }
    // A session no cell shows has nowhere to start again.
    let cell = old
        .info
        .cell
        .ok_or_else(|| AppError::SessionNotFound(id.to_string()))?;
    match old.info.agent_id {
        Some(agent_id) => launch_agent(
            deps,
            LaunchAgent {
                agent_id,
                cell,
                size,
                fresh: false,
            },
        ),
        None => open_shell(deps, cell, size),
    }
}

/// Types bytes into a session; writes are applied in call order.
///
/// # Errors
/// `SESSION_NOT_FOUND`, `SESSION_EXITED`.
pub fn write(deps: &Deps, id: SessionId, bytes: &[u8]) -> AppResult<()> {
    live(deps, id)?.terminal.write(bytes).map_err(|e| match e {
        PtyError::InputFull { .. } => AppError::InputFull(e.to_string()),
        _ => AppError::SessionExited(id.to_string()),
    })?;
    // The terminal's own replies (focus events, cursor reports…) answer no prompt.
    if idea_domain::agent_state::is_typed_by_user(bytes) {
        super::state::typed(deps, id, idea_domain::agent_state::submits_a_line(bytes));
    }
    Ok(())
}

/// Types `text`, then Enter, into a session as a user would: two writes, since a TUI takes
/// a burst that ends in a newline for a paste.
///
/// # Errors
/// As [`write`].
pub fn type_line(deps: &Deps, id: SessionId, text: &str) -> AppResult<()> {
    write(deps, id, text.as_bytes())?;
    std::thread::sleep(SUBMIT_PAUSE);
    write(deps, id, b"\r")
}

/// Between typing a line and its Enter: a TUI takes keys that come in one burst for a paste,
/// and Codex then inserts the Enter as a newline instead of submitting (found by the real-CLI
/// suite: a nudge typed in one go sat unsent at Codex's prompt). A user's Enter comes later.
const SUBMIT_PAUSE: Duration = Duration::from_millis(300);

/// Types `text` into `terminal`, then Enter after [`SUBMIT_PAUSE`] (the caller tells the
/// session's state the line was submitted).
///
/// # Errors
/// The terminal's write errors.
pub(crate) fn submit_line(terminal: &dyn TerminalSession, text: &str) -> Result<(), PtyError> {
    terminal.write(text.as_bytes())?;
    std::thread::sleep(SUBMIT_PAUSE);
    terminal.write(b"\r")
}

/// Compact: types the agent's CLI's own compaction command (`/compact`, Gemini `/compress`)
/// at its prompt, so the CLI summarises its conversation as it would for its user. Only while
/// the agent is idle: typed into a running turn it would be taken for a message.
///
/// # Errors
/// `SESSION_NOT_FOUND`, `SESSION_EXITED`, `INVALID_PARAMS` (a shell, or a CLI IdeA knows no
/// compaction command of), `AGENT_BUSY` (not idle).
pub fn compact(deps: &Deps, id: SessionId) -> AppResult<()> {
    let entry = live(deps, id)?;
    let agent = entry
        .info
        .agent_id
        .and_then(|agent| deps.store.load_manifest().ok()?.get(agent).cloned())
        .ok_or_else(|| AppError::InvalidParams("a shell has no conversation to compact".into()))?;
    let command = deps
        .profiles
        .get(&agent.profile_id)
        .and_then(|profile| profile.home)
        .map(CliHome::compact_command)
        .ok_or_else(|| {
            AppError::InvalidParams(format!(
                "{}'s CLI has no compaction command IdeA knows of",
                agent.name
            ))
        })?;
    if entry.info.state != AgentState::Idle {
        return Err(AppError::AgentBusy(format!(
            "{} is not idle: compact it once its turn is done",
            agent.name
        )));
    }
    tracing::info!(session = %id, agent = %agent.agent_id, command, "compacting");
    type_line(deps, id, command)
}

/// Acknowledges output a client has processed (flow control).
pub fn ack(deps: &Deps, id: SessionId, attachment: u64, bytes: usize) {
    if let Some(entry) = deps.sessions.get(id) {
        entry.terminal.ack(attachment, bytes);
    }
}

/// SnapshotRunningAgents: records on every cell whether its agent is running now, so the
/// next start can offer to resume exactly those. Run before killing the PTYs.
///
/// # Errors
/// Store errors.
pub fn snapshot_running_agents(deps: &Deps) -> AppResult<()> {
    let _guard = deps.lock_state();
    let Some(mut layouts) = deps.store.load_layouts()? else {
        return Ok(());
    };
    let running: Vec<_> = deps
        .sessions
        .running()
        .into_iter()
        .filter(|e| e.info.agent_id.is_some())
        .filter_map(|e| e.info.cell)
        .collect();
    let mut changed = false;
    for layout in &mut layouts.layouts {
        let layout_id = layout.id;
        for leaf in layout.tree.leaves_mut() {
            let was_running =
                leaf.agent.is_some() && running.contains(&CellRef::new(layout_id, leaf.id));
            changed |= leaf.agent_was_running != was_running;
            leaf.agent_was_running = was_running;
        }
    }
    if changed {
        deps.store.save_layouts(&layouts)?;
        deps.publish(DomainEvent::LayoutsChanged {
            active: layouts.active,
        });
    }
    Ok(())
}

/// Stops the terminals of cells that no longer exist (a closed cell, a deleted layout) and
/// forgets them once they have exited.
///
/// # Errors
/// Store errors.
pub fn stop_orphaned(deps: &Deps) -> AppResult<()> {
    let layouts = deps.store.load_layouts()?;
    let gone = |cell: CellRef| {
        layouts
            .as_ref()
            .and_then(|l| l.get(cell.layout_id))
            .is_none_or(|l| l.tree.leaf(cell.node_id).is_none())
    };
    for entry in deps.sessions.discard_cells(gone) {
        deps.publish(DomainEvent::SessionMoved {
            session_id: entry.info.session_id,
            cell: None,
        });
        entry.terminal.kill();
    }
    Ok(())
}

/// Kills every running session and cancels every request in flight (project close, process
/// exit). Snapshot first.
pub fn stop_all(deps: &Deps) {
    crate::orchestrator::cancel_all(deps);
    for entry in deps.sessions.running() {
        entry.terminal.kill();
    }
}
