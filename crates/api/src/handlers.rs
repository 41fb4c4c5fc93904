//! One function per request: unpacks the params and calls the use case. Each returns exactly
//! the result type its declaration in [`crate::methods`] names.

use crate::params::*;
use idea_application::agents::{self, NewAgent};
use idea_application::layouts::{self, MoveCell};
use idea_application::orchestrator::{self, Ask};
use idea_application::permissions::{self, PermissionEdit, PermissionsView};
use idea_application::resumes;
use idea_application::sessions::{self, LaunchAgent};
use idea_application::worktrees;
use idea_application::{AppResult, Deps};
use idea_domain::handoff::Handoff;
use idea_domain::layout::{Layouts, NamedLayout, Side};
use idea_domain::orchestrator::{AskAnswer, RequestRecord, RequestSource};
use idea_domain::permissions::RuleChange;
use idea_domain::resume::ScheduledResume;
use idea_domain::terminal::SessionInfo;
use idea_domain::worktree::{PullRequest, RebaseOutcome, Removed, SquashPlan, WorktreeStatus};
use idea_domain::{Agent, CellRef, NodeId, Project};
use std::time::Duration;

pub(crate) fn get_project(deps: &Deps, (): ()) -> AppResult<Project> {
    idea_application::project::open(deps.store.as_ref())
}

pub(crate) fn list_profiles(deps: &Deps, (): ()) -> AppResult<ProfilesAnswer> {
    let profiles = deps.profiles.profiles();
    let missing = profiles
        .iter()
        .filter(|p| !deps.profiles.is_installed(p))
        .map(|p| p.id.clone())
        .collect();
    Ok(ProfilesAnswer {
        profiles,
        problems: deps.profiles.problems(),
        missing,
    })
}

pub(crate) fn list_agents(deps: &Deps, (): ()) -> AppResult<Vec<Agent>> {
    agents::list(deps)
}

pub(crate) fn create_agent(deps: &Deps, p: CreateAgentParams) -> AppResult<Agent> {
    let new = NewAgent {
        name: p.name,
        profile_id: p.profile_id,
    };
    match p.template {
        Some(template) => agents::create_from_template(deps, new, &template),
        None => agents::create_from_scratch(deps, new),
    }
}

pub(crate) fn read_agent_context(deps: &Deps, p: AgentParams) -> AppResult<String> {
    agents::read_context(deps, p.agent_id)
}

pub(crate) fn update_agent_context(deps: &Deps, p: UpdateAgentContextParams) -> AppResult<()> {
    agents::update_context(deps, p.agent_id, &p.content)
}

pub(crate) fn delete_agent(deps: &Deps, p: AgentParams) -> AppResult<Agent> {
    agents::delete(deps, p.agent_id)
}

pub(crate) fn set_resume_nudge(deps: &Deps, p: SetResumeNudgeParams) -> AppResult<Project> {
    idea_application::project::set_resume_nudge(deps, p.text.as_deref())
}

pub(crate) fn set_limit_policy(deps: &Deps, p: SetLimitPolicyParams) -> AppResult<Agent> {
    agents::set_limit_policy(deps, p.agent_id, p.policy)
}

pub(crate) fn draft_handoff(deps: &Deps, p: AgentParams) -> AppResult<Handoff> {
    agents::draft_handoff(deps, p.agent_id)
}

pub(crate) fn change_agent_profile(
    deps: &Deps,
    p: ChangeAgentProfileParams,
) -> AppResult<agents::ProfileChanged> {
    agents::change_agent_profile(
        deps,
        agents::ChangeAgentProfile {
            agent_id: p.agent_id,
            profile_id: p.profile_id,
            handoff: p.handoff,
        },
    )
}

pub(crate) fn list_resumable_agents(
    deps: &Deps,
    (): (),
) -> AppResult<Vec<idea_application::sessions::ResumableAgent>> {
    sessions::list_resumable(deps)
}

pub(crate) fn list_resumes(deps: &Deps, (): ()) -> AppResult<Vec<ScheduledResume>> {
    resumes::list(deps)
}

pub(crate) fn cancel_resume(deps: &Deps, p: AgentParams) -> AppResult<()> {
    resumes::cancel(deps, p.agent_id)
}

pub(crate) fn resume_now(deps: &Deps, p: AgentParams) -> AppResult<()> {
    resumes::run_now(deps, p.agent_id)
}

pub(crate) fn get_layouts(deps: &Deps, (): ()) -> AppResult<Layouts> {
    layouts::get(deps)
}

pub(crate) fn create_layout(deps: &Deps, p: NameParams) -> AppResult<NamedLayout> {
    layouts::create(deps, &p.name)
}

pub(crate) fn rename_layout(deps: &Deps, p: RenameLayoutParams) -> AppResult<()> {
    layouts::rename(deps, p.layout_id, &p.name)
}

pub(crate) fn delete_layout(deps: &Deps, p: LayoutParams) -> AppResult<()> {
    layouts::delete(deps, p.layout_id)
}

pub(crate) fn set_active_layout(deps: &Deps, p: LayoutParams) -> AppResult<()> {
    layouts::set_active(deps, p.layout_id)
}

pub(crate) fn split_cell(deps: &Deps, p: SplitCellParams) -> AppResult<NodeId> {
    layouts::split(deps, p.cell, p.direction)
}

pub(crate) fn close_cell(deps: &Deps, cell: CellRef) -> AppResult<()> {
    layouts::close(deps, cell)
}

pub(crate) fn move_cell(deps: &Deps, p: MoveCellParams) -> AppResult<()> {
    layouts::move_cell(
        deps,
        MoveCell {
            cell: p.cell,
            target: p.target_id,
            direction: p.direction,
            side: p.side.unwrap_or(Side::After),
        },
    )
}

pub(crate) fn swap_cells(deps: &Deps, p: SwapCellsParams) -> AppResult<()> {
    layouts::swap(deps, p.layout_id, p.a, p.b)
}

pub(crate) fn resize_split(deps: &Deps, p: ResizeSplitParams) -> AppResult<()> {
    layouts::resize(deps, p.layout_id, p.split_id, p.ratios)
}

pub(crate) fn assign_agent(deps: &Deps, p: AssignAgentParams) -> AppResult<()> {
    layouts::assign_agent(deps, p.cell, p.agent_id)
}

pub(crate) fn launch_agent(deps: &Deps, p: LaunchAgentParams) -> AppResult<SessionInfo> {
    sessions::launch_agent(
        deps,
        LaunchAgent {
            agent_id: p.agent_id,
            cell: p.cell,
            size: p.size,
            fresh: p.fresh,
        },
    )
}

pub(crate) fn report_agent_signal(
    deps: &Deps,
    p: AgentSignalParams,
) -> AppResult<Option<SessionInfo>> {
    sessions::report_hook(deps, &p.agent_id, p.event, p.payload.as_deref())
}

pub(crate) fn open_shell(deps: &Deps, p: OpenShellParams) -> AppResult<SessionInfo> {
    sessions::open_shell(deps, p.cell, p.size)
}

pub(crate) fn stop_session(deps: &Deps, p: SessionParams) -> AppResult<()> {
    sessions::stop(deps, p.session_id)
}

pub(crate) fn restart_session(deps: &Deps, p: SessionSizeParams) -> AppResult<SessionInfo> {
    sessions::restart(deps, p.session_id, p.size)
}

pub(crate) fn compact_agent(deps: &Deps, p: SessionParams) -> AppResult<()> {
    sessions::compact(deps, p.session_id)
}

pub(crate) fn list_sessions(deps: &Deps, (): ()) -> AppResult<Vec<SessionInfo>> {
    Ok(sessions::list(deps))
}

pub(crate) fn write_terminal(deps: &Deps, p: WriteTerminalParams) -> AppResult<()> {
    sessions::write(deps, p.session_id, p.data.as_bytes())
}

pub(crate) fn resize_terminal(deps: &Deps, p: SessionSizeParams) -> AppResult<()> {
    sessions::resize(deps, p.session_id, p.size)
}

pub(crate) fn ask_agent(deps: &Deps, p: AskAgentParams) -> AppResult<AskAnswer> {
    ask_agent_then(deps, p, || {})
}

/// As [`ask_agent`], calling `queued` once the request is in its agent's line.
pub(crate) fn ask_agent_then(
    deps: &Deps,
    p: AskAgentParams,
    queued: impl FnOnce(),
) -> AppResult<AskAnswer> {
    let requester = p.requester.unwrap_or_else(|| "user".to_owned());
    // An agent asks through its MCP bridge, the user through a front end. (The file-drop
    // folder calls the use case itself.)
    let source = if requester.trim().eq_ignore_ascii_case("user") {
        RequestSource::Ui
    } else {
        RequestSource::Mcp
    };
    let ask = Ask {
        requester,
        target: p.target,
        message: p.message,
        timeout: p.timeout_secs.map(|s| Duration::from_secs(s.max(1))),
        source,
        request_id: p.request_id,
    };
    orchestrator::ask_then(deps, ask, queued)
}

pub(crate) fn list_requests(deps: &Deps, (): ()) -> AppResult<Vec<RequestRecord>> {
    Ok(orchestrator::list(deps))
}

pub(crate) fn cancel_request(deps: &Deps, p: RequestParams) -> AppResult<()> {
    orchestrator::cancel(deps, p.request_id)
}

pub(crate) fn get_permissions(deps: &Deps, (): ()) -> AppResult<PermissionsView> {
    Ok(permissions::get(deps))
}

pub(crate) fn save_permissions(
    deps: &Deps,
    p: SavePermissionsParams,
) -> AppResult<PermissionsView> {
    let changes = |rules: Vec<PermissionRuleParams>| {
        rules
            .into_iter()
            .map(|r| RuleChange {
                kind: r.kind,
                rule: r.rule,
            })
            .collect()
    };
    let edit = PermissionEdit {
        add: changes(p.add),
        remove: changes(p.remove),
    };
    permissions::save(deps, &edit)
}

pub(crate) fn list_worktrees(deps: &Deps, (): ()) -> AppResult<Vec<WorktreeStatus>> {
    worktrees::list(deps)
}

pub(crate) fn create_worktree(deps: &Deps, p: CreateWorktreeParams) -> AppResult<WorktreeStatus> {
    worktrees::create(deps, &p.agent_id.to_string(), p.base.as_deref())
}

pub(crate) fn worktree_diff(deps: &Deps, p: WorktreeDiffParams) -> AppResult<String> {
    worktrees::diff(deps, &p.agent_id.to_string(), &p.path)
}

pub(crate) fn plan_squash(deps: &Deps, p: AgentParams) -> AppResult<SquashPlan> {
    worktrees::plan_squash(deps, &p.agent_id.to_string())
}

pub(crate) fn squash_worktree(deps: &Deps, p: SquashWorktreeParams) -> AppResult<SquashPlan> {
    worktrees::squash(deps, &p.agent_id.to_string(), p.message.as_deref())
}

pub(crate) fn archive_worktree(deps: &Deps, p: AgentParams) -> AppResult<WorktreeStatus> {
    worktrees::archive(deps, &p.agent_id.to_string())
}

pub(crate) fn restore_worktree(deps: &Deps, p: AgentParams) -> AppResult<WorktreeStatus> {
    worktrees::restore(deps, &p.agent_id.to_string())
}

pub(crate) fn rebase_worktree(deps: &Deps, p: AgentParams) -> AppResult<RebaseOutcome> {
    worktrees::rebase(deps, &p.agent_id.to_string())
}

pub(crate) fn abort_rebase(deps: &Deps, p: AgentParams) -> AppResult<WorktreeStatus> {
    worktrees::abort_rebase(deps, &p.agent_id.to_string())
}

pub(crate) fn run_worktree_setup(deps: &Deps, p: RunWorktreeSetupParams) -> AppResult<SessionInfo> {
    worktrees::run_setup(deps, &p.agent_id.to_string(), p.cell, p.size)
}

pub(crate) fn create_pull_request(deps: &Deps, p: AgentParams) -> AppResult<PullRequest> {
    worktrees::pull_request(deps, &p.agent_id.to_string())
}

pub(crate) fn remove_worktree(deps: &Deps, p: AgentParams) -> AppResult<Removed> {
    worktrees::remove(deps, &p.agent_id.to_string())
}
