//! Step 5 of LaunchAgent: which conversation the agent continues, from what the cell
//! remembers and what the CLI actually saved.

use super::registry::Entry;
use crate::deps::Deps;
use crate::pair;
use idea_domain::AgentId;
use idea_domain::invocation::{SavedConversation, SessionFacts, SessionPlan, plan_session};
use idea_domain::layout::Leaf;
use idea_domain::profile::AgentProfile;
use std::path::Path;
use std::time::Duration;

/// A resumed session that fails on its own this soon was most likely refused by the CLI.
const FAILED_RESUME_WINDOW: Duration = Duration::from_secs(15);

/// The plan for launching `agent` in `leaf`, whose cwd will be `cwd`. `previous` is the
/// cell's last session, when it is still known.
///
/// The cell continues the user's conversation with the agent ([`crate::pair`]): the id the
/// pair last stored (by a turn the user asked, a chat cell, or an earlier launch) comes first
/// when the CLI saved it here, then the id the cell remembers, then (a CLI minting its own
/// ids, in a cell that hosted the agent) the newest conversation the CLI saved in `cwd`.
pub(super) fn plan_for_cell(
    deps: &Deps,
    profile: &AgentProfile,
    agent: AgentId,
    leaf: &Leaf,
    cwd: &Path,
    previous: Option<&Entry>,
) -> SessionPlan {
    let hosted_before = leaf.agent == Some(agent);
    let saved = |id: &str| {
        profile
            .home
            .map(|home| deps.cli_homes.conversation(home, cwd, id))
    };
    let pair_session = pair::user_session(deps, profile, agent);
    let pair_saved = pair_session.as_deref().and_then(saved);
    let (cell_session, mut cell_session_saved) = match pair_session.as_deref() {
        Some(id) if matches!(pair_saved, None | Some(SavedConversation::Resumable)) => {
            (Some(id), pair_saved)
        }
        _ => {
            let own = leaf.engine_session_id.as_deref().filter(|_| hosted_before);
            (own, own.and_then(saved))
        }
    };
    // A CLI whose saved conversations IdeA cannot see: a resume it refused at once is not
    // tried again, so the cell can always start.
    if cell_session_saved.is_none()
        && cell_session.is_some()
        && previous.is_some_and(|p| refused_resume(p, cell_session))
    {
        cell_session_saved = Some(SavedConversation::Missing);
    }
    let latest = match profile.home {
        Some(home) if hosted_before && profile.can_discover_session() => {
            deps.cli_homes.latest_conversation(home, cwd)
        }
        _ => None,
    };
    plan_session(
        profile,
        SessionFacts {
            cell_session,
            cell_session_saved,
            latest_saved: latest.as_deref(),
        },
        || deps.ids.new_uuid().to_string(),
    )
}

fn refused_resume(previous: &Entry, id: Option<&str>) -> bool {
    previous.resumed
        && previous.info.engine_session_id.as_deref() == id
        && previous.info.exit.as_ref().is_some_and(|e| e.failed())
        && previous.ran_for().is_some_and(|d| d < FAILED_RESUME_WINDOW)
}
