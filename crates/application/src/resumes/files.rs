//! Limits the screen did not show, read from the CLIs' own files: at each tick the
//! conversation file of every running Claude Code or Codex cell is read again when it changed
//! (its length or time; a `stat` otherwise), and a usage limit it ends in turns the cell
//! `usageLimited` and is scheduled like one seen on screen. Only a limit whose reset is still
//! ahead counts: one whose reset has passed is history (a conversation resumed after it), and
//! one with no reset at all cannot be told from an old one.

use crate::deps::Deps;
use crate::sessions::state::{apply, limit_seen};
use idea_domain::agent_state::{AgentState, Signal};
use idea_domain::invocation::agent_cwd;
use idea_domain::limits::{LimitReset, resolve};

/// Hands every limit found in a changed file to the inbox (and the cell's state).
pub(super) fn look(deps: &Deps) {
    let running: Vec<_> = deps
        .sessions
        .running()
        .into_iter()
        .filter(|e| e.info.agent_id.is_some() && e.info.engine_session_id.is_some())
        .collect();
    if running.is_empty() {
        return;
    }
    let Ok(manifest) = deps.store.load_manifest() else {
        return;
    };
    let now = deps.clock.now();
    for entry in running {
        let info = &entry.info;
        if info.state == AgentState::UsageLimited {
            continue;
        }
        let (Some(agent_id), Some(engine)) = (info.agent_id, info.engine_session_id.as_deref())
        else {
            continue;
        };
        let Some(profile) = manifest
            .get(agent_id)
            .and_then(|agent| deps.profiles.get(&agent.profile_id))
        else {
            continue;
        };
        let Some(home) = profile.home else {
            continue;
        };
        let Ok(run_dir) = deps.store.prepare_run_dir(agent_id) else {
            continue;
        };
        let cwd = agent_cwd(&profile, &deps.store.root(), &run_dir);
        let Some(sighting) = deps.cli_homes.limit_in_changed_file(home, &cwd, engine) else {
            continue;
        };
        let limit = resolve(sighting, now, &deps.clock.zone());
        if !matches!(limit.reset, LimitReset::At { epoch } if epoch > now) {
            continue;
        }
        tracing::info!(agent = %agent_id, reset = ?limit.reset, "usage limit: recorded in the CLI's file");
        let signal = Signal::UsageLimit(limit);
        let changed = apply(
            &deps.sessions,
            deps.events.as_ref(),
            &deps.resume_inbox,
            info.session_id,
            signal,
        );
        if let Some(seen) = changed.as_ref().and_then(limit_seen) {
            deps.resume_inbox.push(seen);
        }
    }
}
