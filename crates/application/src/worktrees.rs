//! An agent on its own branch (`docs/worktrees.md`): creating its worktree from a chosen base,
//! its Review listing and diffs, squashing its work into the base, archiving and restoring it.
//! A launch of the agent then works in the worktree ([`agent_root`]).
//!
//! The manifest records only the branch and the base: the folder is always derived from the
//! user's data folder, the project's id and the agent's slug, so a hostile `.ideai/` cannot
//! point an agent's write grant anywhere else.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::worktree::{
    AgentWorktree, DEFAULT_BRANCH_PREFIX, Overlap, PullRequest, RebaseOutcome, Removed, SquashPlan,
    WorktreeStatus, branch_name, overlaps, worktree_dir,
};
use idea_domain::{Agent, AgentId};
use std::path::{Path, PathBuf};

/// The folder an agent's worktree lives in.
///
/// # Errors
/// Store errors (the project file).
pub fn folder_of(deps: &Deps, agent: &Agent) -> AppResult<PathBuf> {
    let env = deps.sandbox.environment().cli;
    let data_home = env
        .xdg_data_home
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| env.home.join(".local").join("share"));
    let project = deps.store.load_project()?;
    Ok(worktree_dir(
        &data_home,
        &project.id.0.to_string(),
        &slug(agent),
    ))
}

/// The agent's slug: its persona file's stem, when that is a plain slug (the manifest is
/// untrusted), else one made from its name.
fn slug(agent: &Agent) -> String {
    let stem = Path::new(&agent.md_path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if !stem.is_empty() && idea_domain::agent::slugify(stem) == stem {
        stem.to_owned()
    } else {
        agent.name.slug()
    }
}

/// Where a launch of `agent` works: its worktree when it has one, the project's root
/// otherwise.
///
/// # Errors
/// `NO_WORKTREE` when its worktree is archived or its folder is gone (the user restores it
/// or makes it again: launching in the project's tree instead would surprise them).
pub(crate) fn agent_root(deps: &Deps, agent: &Agent) -> AppResult<PathBuf> {
    let Some(record) = &agent.worktree else {
        return Ok(deps.store.root());
    };
    checked(agent, record)?;
    let dir = folder_of(deps, agent)?;
    if record.archived {
        return Err(AppError::NoWorktree(format!(
            "{}'s worktree is archived: restore it first (idea worktree restore {})",
            agent.name, agent.name
        )));
    }
    if !deps.worktrees.is_worktree_of(&deps.store.root(), &dir) {
        return Err(AppError::NoWorktree(format!(
            "{}'s worktree {} is gone (deleted by hand?): its branch {} is kept; archive and restore it, or remove the agent's worktree record",
            agent.name,
            dir.display(),
            record.branch
        )));
    }
    Ok(dir)
}

/// What an agent in its own worktree finds in its environment: `IDEA_WORKTREE_ROOT`,
/// `IDEA_MAIN_ROOT`, `IDEA_BASE_REF` and `IDEA_PORT`, the first of the 10 ports its worktree
/// gets: the same block on every run while it is free (checked by binding), else the next free
/// one. Nothing for an agent in the project's tree.
///
/// # Errors
/// Store errors (the project file).
pub(crate) fn agent_env(
    deps: &Deps,
    agent: &Agent,
    worktree: &Path,
) -> AppResult<Vec<(String, String)>> {
    use idea_domain::worktree::{PORTS_PER_WORKTREE, port_block};
    let Some(record) = &agent.worktree else {
        return Ok(Vec::new());
    };
    let project = deps.store.load_project()?.id.0.to_string();
    let slug = slug(agent);
    let mut env = vec![
        ("IDEA_WORKTREE_ROOT".into(), worktree.display().to_string()),
        (
            "IDEA_MAIN_ROOT".into(),
            deps.store.root().display().to_string(),
        ),
        ("IDEA_BASE_REF".into(), record.base_ref.clone()),
    ];
    // A machine whose ports are all taken gets no `IDEA_PORT` rather than a taken one.
    if let Some(port) = (0..64)
        .map(|attempt| port_block(&project, &slug, attempt))
        .find(|first| deps.worktrees.ports_free(*first, PORTS_PER_WORKTREE))
    {
        env.push(("IDEA_PORT".into(), port.to_string()));
    }
    Ok(env)
}

fn find(deps: &Deps, agent: &str) -> AppResult<Agent> {
    crate::agents::find(deps, agent)
}

fn with_worktree(deps: &Deps, agent: &str) -> AppResult<(Agent, AgentWorktree, PathBuf)> {
    let agent = find(deps, agent)?;
    let record = agent.worktree.clone().ok_or_else(|| {
        AppError::NoWorktree(format!("{} works in the project's tree", agent.name))
    })?;
    checked(&agent, &record)?;
    let dir = folder_of(deps, &agent)?;
    Ok((agent, record, dir))
}

/// The record as the manifest has it is untrusted: a branch or base git could read as an
/// option is refused before it reaches git.
fn checked(agent: &Agent, record: &AgentWorktree) -> AppResult<()> {
    use idea_domain::worktree::{valid_base_ref, valid_branch};
    if !valid_branch(&record.branch) || !valid_base_ref(&record.base_ref) {
        return Err(AppError::Store(idea_domain::ports::StoreError::Corrupt {
            path: PathBuf::from(".ideai/agents.json"),
            reason: format!(
                "{}'s worktree names the branch {:?} and the base {:?}, which IdeA does not hand to git",
                agent.name, record.branch, record.base_ref
            ),
        }));
    }
    Ok(())
}

/// Refused while the agent runs: its worktree is changing under it.
fn ensure_stopped(deps: &Deps, agent: &Agent) -> AppResult<()> {
    if deps.sessions.live_of_agent(agent.agent_id).is_some()
        || deps.requests.is_answering(agent.agent_id)
    {
        return Err(AppError::AgentRunning(agent.name.to_string()));
    }
    Ok(())
}

/// Records `record` (or none) as the agent's worktree in the manifest.
fn save_record(deps: &Deps, id: AgentId, record: Option<AgentWorktree>) -> AppResult<Agent> {
    let _guard = deps.lock_state();
    let mut manifest = deps.store.load_manifest()?;
    let agent = manifest
        .entries
        .iter_mut()
        .find(|a| a.agent_id == id)
        .ok_or_else(|| AppError::AgentNotFound(id.to_string()))?;
    agent.worktree = record;
    let saved = agent.clone();
    deps.store.save_manifest(&manifest)?;
    deps.publish(idea_domain::DomainEvent::WorktreeChanged { agent_id: id });
    Ok(saved)
}

/// CreateWorktree: gives `agent` its own worktree on a new branch from `base` (a ref the
/// user names; the current branch's HEAD when `None`).
///
/// # Errors
/// `WORKTREE_EXISTS`, `AGENT_RUNNING`, `NOT_A_GIT_REPOSITORY`, `UNKNOWN_REF`, `GIT_FAILED`,
/// `GIT_UNAVAILABLE`, `AGENT_NOT_FOUND`, store errors.
pub fn create(deps: &Deps, agent: &str, base: Option<&str>) -> AppResult<WorktreeStatus> {
    let agent = find(deps, agent)?;
    if agent.worktree.is_some() {
        return Err(AppError::WorktreeExists(agent.name.to_string()));
    }
    ensure_stopped(deps, &agent)?;
    let root = deps.store.root();
    let git = &deps.worktrees;
    let base_ref = match base.map(str::trim).filter(|b| !b.is_empty()) {
        Some(base) if !idea_domain::worktree::valid_base_ref(base) => {
            return Err(idea_domain::worktree::WorktreeError::UnknownRef(base.to_owned()).into());
        }
        Some(base) => base.to_owned(),
        // The current branch, by name, so "N behind base" follows it; HEAD when detached.
        None => git
            .current_branch(&root)?
            .unwrap_or_else(|| "HEAD".to_owned()),
    };
    let base_commit = git.resolve_commit(&root, &base_ref)?;
    let settings = deps.store.load_project()?.worktrees;
    let prefix = settings
        .branch_prefix
        .as_deref()
        .unwrap_or(DEFAULT_BRANCH_PREFIX);
    let slug = slug(&agent);
    let failure = std::cell::RefCell::new(None);
    // A git failure ends the search at once (and is returned).
    let branch = branch_name(prefix, &slug, |name| {
        failure.borrow().is_none()
            && git.branch_exists(&root, name).unwrap_or_else(|e| {
                failure.borrow_mut().get_or_insert(e);
                false
            })
    });
    if let Some(e) = failure.into_inner() {
        return Err(e.into());
    }
    let dir = folder_of(deps, &agent)?;
    if dir.exists() {
        return Err(AppError::WorktreeExists(format!(
            "{} (the folder {} exists already; IdeA leaves it alone)",
            agent.name,
            dir.display()
        )));
    }
    git.add(&root, &dir, &branch, &base_commit, &settings.link_folders)?;
    tracing::info!(agent = %agent.agent_id, %branch, base = %base_ref, commit = %base_commit,
        dir = %dir.display(), "worktree created");
    let record = AgentWorktree {
        branch,
        base_ref,
        base_commit,
        archived: false,
        squashed_as: None,
    };
    let agent = save_record(deps, agent.agent_id, Some(record))?;
    status_of(deps, &agent)
}

/// ListWorktrees: every agent's worktree with what it changed and the files two of them
/// changed both.
///
/// # Errors
/// Store errors.
pub fn list(deps: &Deps) -> AppResult<Vec<WorktreeStatus>> {
    let agents: Vec<Agent> = crate::agents::list(deps)?
        .into_iter()
        .filter(|a| a.worktree.is_some())
        .collect();
    let mut all = Vec::with_capacity(agents.len());
    for agent in &agents {
        all.push(status_of(deps, agent)?);
    }
    let changed: Vec<(String, Vec<String>)> = all
        .iter()
        .map(|s| {
            let files = s.changed.iter().map(|f| f.path.clone()).collect();
            (s.agent_name.clone(), files)
        })
        .collect();
    let shared = overlaps(&changed);
    for status in &mut all {
        status.overlaps = shared
            .iter()
            .filter(|(_, agents)| agents.contains(&status.agent_name))
            .map(|(path, agents)| Overlap {
                path: path.clone(),
                with: agents
                    .iter()
                    .filter(|a| **a != status.agent_name)
                    .cloned()
                    .collect(),
            })
            .collect();
    }
    Ok(all)
}

/// WorktreeStatus of one agent (its overlaps with the others included).
///
/// # Errors
/// `NO_WORKTREE`, `AGENT_NOT_FOUND`, store errors.
pub fn status(deps: &Deps, agent: &str) -> AppResult<WorktreeStatus> {
    let (agent, _, _) = with_worktree(deps, agent)?;
    list(deps)?
        .into_iter()
        .find(|s| s.agent_id == agent.agent_id)
        .ok_or_else(|| AppError::NoWorktree(agent.name.to_string()))
}

/// The status of one agent's worktree; git's failures become its `problem`, so one broken
/// worktree does not hide the others.
fn status_of(deps: &Deps, agent: &Agent) -> AppResult<WorktreeStatus> {
    let record = agent.worktree.clone().unwrap_or_else(|| AgentWorktree {
        branch: String::new(),
        base_ref: String::new(),
        base_commit: String::new(),
        archived: false,
        squashed_as: None,
    });
    let dir = folder_of(deps, agent)?;
    let mut status = WorktreeStatus {
        agent_id: agent.agent_id,
        agent_name: agent.name.to_string(),
        path: dir.clone(),
        record: record.clone(),
        behind_base: None,
        changed: Vec::new(),
        overlaps: Vec::new(),
        problem: None,
    };
    if let Err(refused) = checked(agent, &record) {
        status.problem = Some(refused.to_string());
        return Ok(status);
    }
    if record.archived {
        return Ok(status);
    }
    if !deps.worktrees.is_worktree_of(&deps.store.root(), &dir) {
        status.problem = Some(format!(
            "the folder {} is not a worktree of this project any more (deleted by hand?); the branch {} is kept",
            dir.display(),
            record.branch
        ));
        return Ok(status);
    }
    let git = &deps.worktrees;
    match git.changed_files(&dir, &record.base_commit) {
        Ok(changed) => status.changed = changed,
        Err(e) => status.problem = Some(e.to_string()),
    }
    match git.behind_base(&dir, &record.base_ref) {
        Ok(n) => status.behind_base = Some(n),
        Err(e) => {
            status.problem.get_or_insert(e.to_string());
        }
    }
    Ok(status)
}

/// WorktreeDiff: the unified diff of one file the agent changed.
///
/// # Errors
/// `NO_WORKTREE`, `INVALID_PARAMS` (a path that is not one of its changed files),
/// `GIT_FAILED`, `AGENT_NOT_FOUND`, store errors.
pub fn diff(deps: &Deps, agent: &str, path: &str) -> AppResult<String> {
    let (agent, record, _) = with_worktree(deps, agent)?;
    let status = status_of(deps, &agent)?;
    if let Some(problem) = status.problem {
        return Err(AppError::NoWorktree(problem));
    }
    // Only what the Review lists: a path is never handed to git as anything else.
    if !status.changed.iter().any(|f| f.path == path) {
        return Err(AppError::InvalidParams(format!(
            "{path:?} is not among the files {} changed",
            agent.name
        )));
    }
    let dir = folder_of(deps, &agent)?;
    Ok(deps.worktrees.file_diff(&dir, &record.base_commit, path)?)
}

/// What squashing the agent's work into its base would do (nothing is changed).
///
/// # Errors
/// `BASE_NOT_A_BRANCH` (a tag, a detached HEAD, a branch deleted since), `NO_WORKTREE`,
/// `UNKNOWN_REF`, `GIT_FAILED`, store errors.
pub fn plan_squash(deps: &Deps, agent: &str) -> AppResult<SquashPlan> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    let root = deps.store.root();
    let git = &deps.worktrees;
    // First: a base that is no branch (a tag, a detached HEAD, a branch deleted since).
    if !git.branch_exists(&root, &record.base_ref)? {
        return Err(AppError::BaseNotABranch(record.base_ref));
    }
    let status = status_of(deps, &agent)?;
    if let Some(problem) = status.problem {
        return Err(AppError::NoWorktree(problem));
    }
    Ok(SquashPlan {
        checkout: git.checkout_of(&root, &record.base_ref)?,
        conflicts: git.conflicts(&root, &dir, &record.base_ref)?,
        base_branch: record.base_ref,
        files: status.changed,
        commit: None,
    })
}

/// SquashWorktree: one commit on the base branch with everything the agent's worktree holds
/// (what its Review shows). A checkout of the base is updated by git's own fast-forward, and
/// only when clean; nothing else is checked out anywhere.
///
/// # Errors
/// `MERGE_CONFLICT`, `CHECKOUT_DIRTY`, `BASE_MOVED`, `REBASE_IN_PROGRESS`, `AGENT_RUNNING`,
/// and those of [`plan_squash`].
pub fn squash(deps: &Deps, agent: &str, message: Option<&str>) -> AppResult<SquashPlan> {
    let mut plan = plan_squash(deps, agent)?;
    let (agent, record, dir) = with_worktree(deps, agent)?;
    ensure_stopped(deps, &agent)?;
    if !plan.conflicts.is_empty() {
        return Err(idea_domain::worktree::WorktreeError::Conflicts(plan.conflicts).into());
    }
    if plan.files.is_empty() {
        return Err(AppError::InvalidParams(format!(
            "{} changed nothing since {}: there is nothing to squash",
            agent.name, record.base_ref
        )));
    }
    let message = message
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map_or_else(
            || format!("{}: work from {}", agent.name, record.branch),
            str::to_owned,
        );
    let root = deps.store.root();
    let commit = deps.worktrees.squash(
        &root,
        &dir,
        &record.base_ref,
        &message,
        plan.checkout.as_deref(),
    )?;
    tracing::info!(agent = %agent.agent_id, base = %record.base_ref, %commit, "squashed");
    save_record(
        deps,
        agent.agent_id,
        Some(AgentWorktree {
            squashed_as: Some(commit.clone()),
            ..record
        }),
    )?;
    plan.commit = Some(commit);
    Ok(plan)
}

/// ArchiveWorktree: saves the worktree's uncommitted work under `refs/idea/wip/<slug>` and
/// removes its folder; the branch stays, and [`restore`] brings it all back.
///
/// # Errors
/// `NO_WORKTREE`, `AGENT_RUNNING`, `REBASE_IN_PROGRESS`, `GIT_FAILED`, store errors.
pub fn archive(deps: &Deps, agent: &str) -> AppResult<WorktreeStatus> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    if record.archived {
        return Err(AppError::NoWorktree(format!(
            "{}'s worktree is archived already",
            agent.name
        )));
    }
    ensure_stopped(deps, &agent)?;
    let root = deps.store.root();
    if !deps.worktrees.is_worktree_of(&root, &dir) {
        return Err(AppError::NoWorktree(format!(
            "{} is not a worktree of this project (deleted by hand?): nothing to archive; its branch {} is kept",
            dir.display(),
            record.branch
        )));
    }
    let saved = deps.worktrees.archive(&root, &dir, &slug(&agent))?;
    tracing::info!(agent = %agent.agent_id, %saved, "worktree archived");
    let agent = save_record(
        deps,
        agent.agent_id,
        Some(AgentWorktree {
            archived: true,
            ..record
        }),
    )?;
    status_of(deps, &agent)
}

/// RestoreWorktree: adds the archived worktree again on its branch, its uncommitted work back.
///
/// # Errors
/// `NO_WORKTREE` (not archived), `UNKNOWN_REF` (nothing saved), `GIT_FAILED`, store errors.
pub fn restore(deps: &Deps, agent: &str) -> AppResult<WorktreeStatus> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    if !record.archived {
        return Err(AppError::NoWorktree(format!(
            "{}'s worktree is not archived",
            agent.name
        )));
    }
    let root = deps.store.root();
    let links = deps.store.load_project()?.worktrees.link_folders;
    deps.worktrees
        .restore(&root, &dir, &record.branch, &slug(&agent), &links)?;
    tracing::info!(agent = %agent.agent_id, "worktree restored");
    let agent = save_record(
        deps,
        agent.agent_id,
        Some(AgentWorktree {
            archived: false,
            ..record
        }),
    )?;
    status_of(deps, &agent)
}

/// RebaseWorktree: rebases the agent's branch onto its base's tip, inside its worktree. Done,
/// the recorded base commit becomes that tip (so the Review shows only the agent's work); on
/// conflicts the rebase stays in progress and the files are listed.
///
/// # Errors
/// `NO_WORKTREE`, `AGENT_RUNNING`, `REBASE_IN_PROGRESS`, `UNKNOWN_REF`, `GIT_FAILED`, store
/// errors.
pub fn rebase(deps: &Deps, agent: &str) -> AppResult<RebaseOutcome> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    ensure_stopped(deps, &agent)?;
    let root = deps.store.root();
    agent_root(deps, &agent)?;
    let tip = deps.worktrees.resolve_commit(&root, &record.base_ref)?;
    let conflicts = deps.worktrees.rebase(&dir, &record.base_ref)?;
    tracing::info!(agent = %agent.agent_id, base = %record.base_ref, conflicts = conflicts.len(), "rebased");
    let agent = if conflicts.is_empty() {
        save_record(
            deps,
            agent.agent_id,
            Some(AgentWorktree {
                base_commit: tip,
                ..record
            }),
        )?
    } else {
        agent
    };
    let base_ref = agent
        .worktree
        .as_ref()
        .map_or_else(String::new, |r| r.base_ref.clone());
    Ok(RebaseOutcome {
        resolve_request: (!conflicts.is_empty())
            .then(|| idea_domain::worktree::resolve_request(&base_ref, &conflicts)),
        conflicts,
        status: status_of(deps, &agent)?,
    })
}

/// AbortRebase: the agent's branch and worktree as they were before the rebase.
///
/// # Errors
/// `NO_WORKTREE`, `GIT_FAILED` (none in progress), store errors.
pub fn abort_rebase(deps: &Deps, agent: &str) -> AppResult<WorktreeStatus> {
    let (agent, _, dir) = with_worktree(deps, agent)?;
    agent_root(deps, &agent)?;
    deps.worktrees.abort_rebase(&dir)?;
    deps.publish(idea_domain::DomainEvent::WorktreeChanged {
        agent_id: agent.agent_id,
    });
    status_of(deps, &agent)
}

/// RunWorktreeSetup: runs the project's set-up script (`worktrees.setupScript` in
/// `project.json`) for the agent's worktree, in `cell`, where the user sees it and can stop it;
/// in the worktree, with the agent's `IDEA_*` variables.
///
/// # Errors
/// `INVALID_PARAMS` (no set-up script), `NO_WORKTREE`, `CELL_BUSY`, `NODE_NOT_FOUND`,
/// `SPAWN_FAILED`, store errors.
pub fn run_setup(
    deps: &Deps,
    agent: &str,
    cell: idea_domain::CellRef,
    size: idea_domain::terminal::TerminalSize,
) -> AppResult<idea_domain::terminal::SessionInfo> {
    let script = deps
        .store
        .load_project()?
        .worktrees
        .setup_script
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| {
            AppError::InvalidParams(
                "the project has no set-up script (worktrees.setupScript in .ideai/project.json)"
                    .into(),
            )
        })?;
    let agent = find(deps, agent)?;
    let dir = agent_root(deps, &agent)?;
    if agent.worktree.is_none() {
        return Err(AppError::NoWorktree(format!(
            "{} works in the project's tree",
            agent.name
        )));
    }
    let env = setup_env(deps, &agent, &dir)?;
    tracing::info!(agent = %agent.agent_id, %script, "worktree set-up script");
    crate::sessions::launch::shell_in_cell(
        deps,
        cell,
        size,
        crate::sessions::launch::ShellRun {
            cwd: dir,
            env,
            script: Some(script),
        },
    )
}

/// The set-up script's environment: the agent's `IDEA_*` variables.
pub fn setup_env(
    deps: &Deps,
    agent: &Agent,
    dir: &Path,
) -> AppResult<std::collections::BTreeMap<String, String>> {
    Ok(agent_env(deps, agent, dir)?.into_iter().collect())
}

/// CreatePullRequest: pushes the agent's branch and opens a pull request onto its base with
/// `gh` when it is installed and logged in; otherwise the commands to run.
///
/// # Errors
/// `NO_WORKTREE`, `GIT_FAILED`, store errors.
pub fn pull_request(deps: &Deps, agent: &str) -> AppResult<PullRequest> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    agent_root(deps, &agent)?;
    let title = format!("{}: work from {}", agent.name, record.branch);
    Ok(deps
        .worktrees
        .pull_request(&dir, &record.branch, &record.base_ref, &title)?)
}

/// RemoveWorktree: archives the worktree (its uncommitted work saved first), deletes its
/// branch only when its work is on the base, and forgets the record only when nothing of it
/// is left to keep. Never loses work: what is not on the base stays, and the answer says so.
///
/// # Errors
/// `NO_WORKTREE`, `AGENT_RUNNING`, `REBASE_IN_PROGRESS`, `GIT_FAILED`, store errors.
pub fn remove(deps: &Deps, agent: &str) -> AppResult<Removed> {
    let (agent, record, dir) = with_worktree(deps, agent)?;
    ensure_stopped(deps, &agent)?;
    let root = deps.store.root();
    let git = &deps.worktrees;
    if !record.archived && git.is_worktree_of(&root, &dir) {
        archive(deps, &agent.agent_id.to_string())?;
    }
    let slug = slug(&agent);
    let saved_work_kept = !git.drop_empty_saved_work(&root, &record.branch, &slug)?;
    // With uncommitted work saved, the branch stays too: a restore needs it.
    let branch_deleted = !saved_work_kept
        && (!git.branch_exists(&root, &record.branch)?
            || git.delete_branch(&root, &record.branch, &record.base_ref)?);
    let record_removed = branch_deleted;
    if record_removed {
        save_record(deps, agent.agent_id, None)?;
    }
    let summary = match (branch_deleted, saved_work_kept) {
        (true, _) => format!(
            "{}'s worktree and branch {} are gone: its work is on {}. It works in the project's tree again.",
            agent.name, record.branch, record.base_ref
        ),
        (false, true) => format!(
            "{}'s worktree is archived; it had uncommitted work, kept under refs/idea/wip/{slug} with its branch {} (restore brings it back).",
            agent.name, record.branch
        ),
        (false, false) => format!(
            "{}'s worktree is archived; its branch {} is kept: it has work that is not on {} (squash or merge it first).",
            agent.name, record.branch, record.base_ref
        ),
    };
    tracing::info!(agent = %agent.agent_id, branch_deleted, saved_work_kept, "worktree removed");
    Ok(Removed {
        branch_deleted,
        saved_work_kept,
        record_removed,
        summary,
    })
}

/// The worktrees to watch for the Review: each agent's that is not archived, by agent id (no
/// git involved: read often).
pub fn watched(deps: &Deps) -> Vec<(String, PathBuf)> {
    let Ok(agents) = crate::agents::list(deps) else {
        return Vec::new();
    };
    agents
        .iter()
        .filter(|a| a.worktree.as_ref().is_some_and(|w| !w.archived))
        .filter_map(|a| Some((a.agent_id.to_string(), folder_of(deps, a).ok()?)))
        .collect()
}

/// Tells every client that an agent's worktree changed on disk (its Review is stale).
pub fn changed_on_disk(deps: &Deps, agent_id: &str) {
    if let Ok(uuid) = agent_id.parse() {
        deps.publish(idea_domain::DomainEvent::WorktreeChanged {
            agent_id: AgentId(uuid),
        });
    }
}
