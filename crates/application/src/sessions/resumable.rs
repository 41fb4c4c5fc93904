//! ListResumableAgents: what the project's resume prompt offers when it opens (spec §2): each
//! cell whose agent was running when IdeA last closed and is not live now. An agent the user
//! had stopped is not offered (its cell still offers its conversation by itself). Nothing is
//! resumed here: the user chooses, per cell or all at once (`launchAgent`, with `fresh` to
//! start over).

use crate::deps::Deps;
use crate::error::AppResult;
use idea_domain::conversation::ConversationGlance;
use idea_domain::invocation::agent_cwd;
use idea_domain::profile::AgentProfile;
use idea_domain::{AgentId, CellRef, ProfileId};
use serde::Serialize;

/// One cell the prompt offers to resume.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ResumableAgent {
    pub cell: CellRef,
    /// The layout tab's title.
    pub layout_name: String,
    pub agent_id: AgentId,
    pub agent_name: String,
    pub profile_id: ProfileId,
    /// The profile's name; `None` when it is gone (the launch would fail: the prompt says so).
    pub profile_name: Option<String>,
    /// The conversation the cell shows, if any (`None`: the launch starts one).
    pub has_conversation: bool,
    /// Its CLI can reopen a conversation: "resume" continues it; otherwise the agent starts
    /// fresh whatever the user picks, and the prompt says so.
    pub resumes_conversation: bool,
    /// Its title, last activity and number of asks, from the CLI's own store when IdeA can
    /// read it there.
    pub conversation: Option<ConversationGlance>,
}

/// The cells to offer, layout by layout (the cells in the layout tree's order; the prompt
/// sorts them as it shows them).
///
/// # Errors
/// Store errors reading the layouts or the agents.
pub fn list_resumable(deps: &Deps) -> AppResult<Vec<ResumableAgent>> {
    let layouts = crate::layouts::get(deps)?;
    let manifest = deps.store.load_manifest()?;
    let mut out = Vec::new();
    for layout in &layouts.layouts {
        for leaf in layout.tree.leaves() {
            let Some(agent) = leaf.agent.and_then(|id| manifest.get(id)) else {
                continue;
            };
            if !leaf.agent_was_running || deps.sessions.live_of_agent(agent.agent_id).is_some() {
                continue;
            }
            let profile = deps.profiles.get(&agent.profile_id);
            let conversation = profile
                .as_ref()
                .and_then(|p| glance(deps, p, agent.agent_id, leaf.engine_session_id.as_deref()));
            out.push(ResumableAgent {
                cell: CellRef::new(layout.id, leaf.id),
                layout_name: layout.name.clone(),
                agent_id: agent.agent_id,
                agent_name: agent.name.to_string(),
                profile_id: agent.profile_id.clone(),
                profile_name: profile.as_ref().map(|p| p.name.clone()),
                has_conversation: leaf.conversation_id.is_some(),
                resumes_conversation: profile.is_some_and(|p| p.can_resume_session()),
                conversation,
            });
        }
    }
    Ok(out)
}

/// What the CLI saved of the agent's conversation (the pair's id first, then the cell's).
fn glance(
    deps: &Deps,
    profile: &AgentProfile,
    agent: AgentId,
    cell_session: Option<&str>,
) -> Option<ConversationGlance> {
    let home = profile.home?;
    let id = crate::pair::user_session(deps, profile, agent)
        .or_else(|| cell_session.map(str::to_owned))?;
    let run_dir = deps.store.prepare_run_dir(agent).ok()?;
    let cwd = agent_cwd(profile, &deps.store.root(), &run_dir);
    deps.cli_homes.glance(home, &cwd, &id)
}
