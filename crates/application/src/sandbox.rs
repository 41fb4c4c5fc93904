//! The kernel sandbox of an agent, compiled from the effective permission rules (the user's
//! file and the project's) for every launch and turn, and for `idea sandbox`. The rules
//! decide *whether* (no rule at all: the agent runs natively); the plan is the domain's
//! [`agent_plan`] over what [`SandboxHost`](idea_domain::ports::SandboxHost) finds on disk.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use crate::prepare::AgentStart;
use idea_domain::filedrop::{REQUESTS_DIR, requester_folder};
use idea_domain::invocation::agent_cwd;
use idea_domain::permissions::PathAccess;
use idea_domain::permissions::PermissionSet;
use idea_domain::permissions::claude::{CLAUDE_SETTINGS, claude_settings};
use idea_domain::permissions::gemini::gemini_args;
use idea_domain::ports::{EntryKind, SandboxEnvironment, SandboxSetupError};
use idea_domain::profile::CliHome;
use idea_domain::sandbox::{
    AgentSandboxInputs, IdeaiListing, MountPlan, ResolvedDenial, SandboxInputs, SandboxPlan,
    agent_plan, cli_state, compile_plan, credential_paths, git_protected, literal_path,
    private_caches, sandboxed_cli_args, temp_dirs,
};
use std::path::{Path, PathBuf};

/// A plan, and whether the rules call for it (without rules agents run natively; the plan
/// is then what they would get as soon as one rule exists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFor {
    pub plan: SandboxPlan,
    pub has_rules: bool,
}

/// The plan of an agent's CLI for a launch or a turn: `None` when there is no rule at all.
/// Its CLI's state folders and its file-drop folder are made first: once sandboxed, the CLI
/// could not make them.
///
/// # Errors
/// `SANDBOX_FAILED`: a rule's glob that cannot be expanded, a folder that cannot be made. The
/// agent must not start with a denial dropped.
pub(crate) fn for_start(deps: &Deps, start: &AgentStart<'_>) -> AppResult<SandboxStart> {
    let rules = crate::permissions::load(deps);
    advise_cli(deps, start, &rules)?;
    let plan = if rules.has_rules() {
        Some(compile(deps, &rules, start)?)
    } else {
        None
    };
    let mut cli_args = sandboxed_cli_args(start.profile, plan.is_some());
    if start.profile.home == Some(CliHome::Gemini) {
        cli_args.extend(gemini_args(&rules));
    }
    Ok(SandboxStart { plan, cli_args })
}

/// What a start gets from the permission rules.
#[derive(Debug)]
pub(crate) struct SandboxStart {
    /// The kernel plan; `None` without rules (native).
    pub plan: Option<SandboxPlan>,
    /// Options of the CLI's own, put before its other arguments: Codex's sandbox mode under
    /// IdeA's plan, Gemini's approval mode and allowed tools from the rules.
    pub cli_args: Vec<String>,
}

/// The CLI's own permission settings, from the rules (advisory: the CLI asks or refuses by
/// itself). Claude Code: `.claude/settings.local.json` in its working folder, seeded (a file
/// the user edited is kept), written also without rules so that no stale rule outlives its
/// removal. Codex gets its sandbox mode, and Gemini CLI its approval mode and allowed tools,
/// on the command line ([`sandboxed_cli_args`], [`gemini_args`]).
///
/// [`sandboxed_cli_args`]: idea_domain::sandbox::sandboxed_cli_args
/// [`gemini_args`]: idea_domain::permissions::gemini::gemini_args
fn advise_cli(deps: &Deps, start: &AgentStart<'_>, rules: &PermissionSet) -> AppResult<()> {
    if start.profile.home == Some(CliHome::ClaudeCode) && start.cwd.starts_with(start.run_dir) {
        let path = start.cwd.join(CLAUDE_SETTINGS);
        deps.store
            .seed_file(start.agent.agent_id, &path, &claude_settings(rules))?;
    }
    Ok(())
}

/// The plan a launch of `agent` (name or id) uses, for `idea sandbox --agent`; prepares its
/// run dir and folders as a launch does.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `PROFILE_NOT_FOUND`, `SANDBOX_FAILED`, store errors.
pub fn plan_of_agent(deps: &Deps, agent: &str) -> AppResult<PlanFor> {
    let agent = crate::agents::find(deps, agent)?;
    let profile = deps
        .profiles
        .get(&agent.profile_id)
        .ok_or_else(|| AppError::ProfileNotFound(agent.profile_id.to_string()))?;
    let state_root = deps.store.root();
    let root = crate::worktrees::agent_root(deps, &agent)?;
    let run_dir = deps.store.prepare_run_dir(agent.agent_id)?;
    let cwd = agent_cwd(&profile, &root, &run_dir);
    let start = AgentStart {
        agent: &agent,
        profile: &profile,
        project_root: &root,
        state_root: &state_root,
        run_dir: &run_dir,
        cwd: &cwd,
    };
    let rules = crate::permissions::load(deps);
    Ok(PlanFor {
        plan: compile(deps, &rules, &start)?,
        has_rules: rules.has_rules(),
    })
}

/// The folder of `.ideai/run/` where a command of no agent keeps its private package caches.
pub const SANDBOX_SCRATCH: &str = "sandbox";

/// The plan of a command of no agent (`idea sandbox` without `--agent`): the project and the
/// temp dirs writable, IdeA's state (all of `.ideai/`), git's files, secrets and credential
/// stores kept out, the rules' denied paths; with namespaces, private copies of the package
/// caches in `.ideai/run/sandbox/`.
///
/// # Errors
/// `SANDBOX_FAILED` (a rule's glob, a folder of `.git/` that cannot be made).
pub fn plan_of_project(deps: &Deps) -> AppResult<PlanFor> {
    let rules = crate::permissions::load(deps);
    let env = deps.sandbox.environment();
    let root = deps.store.root();
    let (deny_read, deny_write) = split(resolve(deps, &rules)?);
    let credentials = credentials(deps, &rules, &env, &[]);
    let ideai = root.join(".ideai");
    let (ideai_denied, mounts) = if deps.sandbox.namespaces() {
        let read_only = std::iter::once(ideai)
            .chain(protected_git(deps, &rules, &root)?)
            .collect();
        // No agent: the private copies of the package caches live in a scratch folder of the
        // command's own, writable as an agent's run dir is.
        let scratch = root.join(".ideai").join("run").join(SANDBOX_SCRATCH);
        deps.sandbox
            .make_dirs(&root, std::slice::from_ref(&scratch))?;
        let denied: Vec<PathBuf> = deny_read
            .iter()
            .chain(&deny_write)
            .cloned()
            .chain(env.secrets.iter().cloned())
            .chain(credentials.iter().cloned())
            .collect();
        let mounts = MountPlan {
            read_only,
            private_caches: private_caches(&env.cli, &scratch, &denied),
            writable: vec![scratch],
        };
        (None, Some(mounts))
    } else {
        (Some(ideai), None)
    };
    let plan = compile_plan(&SandboxInputs {
        project_root: root.clone(),
        run_dir: None,
        temp_dirs: temp_dirs(env.tmpdir.as_deref()),
        state_paths: vec![],
        credentials,
        deny_read: env.secrets.into_iter().chain(deny_read).collect(),
        deny_write: ideai_denied.into_iter().chain(deny_write).collect(),
        mounts,
    });
    Ok(PlanFor {
        plan,
        has_rules: rules.has_rules(),
    })
}

fn compile(deps: &Deps, rules: &PermissionSet, start: &AgentStart<'_>) -> AppResult<SandboxPlan> {
    let env = deps.sandbox.environment();
    let state = cli_state(start.profile, &env.cli);
    let ideai = start.state_root.join(".ideai");
    let requests_dir = ideai.join(REQUESTS_DIR).join(requester_folder(start.agent));
    let namespaces = deps.sandbox.namespaces();
    let git = if namespaces {
        protected_git(deps, rules, start.project_root)?
    } else {
        vec![]
    };
    // In its own worktree, a commit writes the main repository's objects and refs.
    let git_writes = if start.project_root == start.state_root {
        vec![]
    } else {
        deps.worktrees.git_write_dirs(start.project_root)?
    };
    let inputs = AgentSandboxInputs {
        project_root: start.project_root.to_path_buf(),
        state_root: start.state_root.to_path_buf(),
        git_writes,
        run_dir: start.run_dir.to_path_buf(),
        requests_dir: requests_dir.clone(),
        listing: IdeaiListing {
            top: deps.sandbox.list(&ideai),
            run: deps.sandbox.list(&ideai.join("run")),
            requests: deps.sandbox.list(&ideai.join(REQUESTS_DIR)),
        },
        temp_dirs: temp_dirs(env.tmpdir.as_deref()),
        state: state.clone(),
        credentials: credentials(deps, rules, &env, &state.paths()),
        secrets: env.secrets,
        denials: resolve(deps, rules)?,
        namespaces,
        git,
        caches: namespaces.then(|| env.cli.clone()),
    };
    let mut dirs = state.dirs;
    dirs.push(requests_dir);
    deps.sandbox.make_dirs(start.state_root, &dirs)?;
    Ok(agent_plan(&inputs))
}

/// git's hooks, config and info of the project's `.git/` folder, but those an allow rule
/// lifts (`Edit(.git/hooks/**)`). The hooks and info folders are made when missing (git makes
/// them at `git init`): a read-only mount needs something to cover, and an absent `hooks`
/// would let an agent create one. A `.git` that is a file (a worktree's pointer) protects
/// nothing here: its real folder lies outside the project, where nothing is writable.
///
/// # Errors
/// `SANDBOX_FAILED`: a folder that cannot be made (a `.git` that is a link, say).
fn protected_git(deps: &Deps, rules: &PermissionSet, root: &Path) -> AppResult<Vec<PathBuf>> {
    let git_dir = root.join(".git");
    if !matches!(
        deps.sandbox.entry_kind(&git_dir),
        Some(EntryKind::Dir | EntryKind::Link)
    ) {
        return Ok(vec![]);
    }
    let protected: Vec<PathBuf> = git_protected(&git_dir)
        .into_iter()
        .filter(|path| !rules.allows_whole(PathAccess::Write, path))
        .collect();
    let missing: Vec<PathBuf> = protected
        .iter()
        .filter(|p| !p.ends_with("config") && deps.sandbox.entry_kind(p).is_none())
        .cloned()
        .collect();
    deps.sandbox.make_dirs(root, &missing)?;
    Ok(protected)
}

/// The built-in credential stores (`credential_paths`), but those an allow rule lifts
/// (`Read(~/.ssh/**)`); `own_state` is the agent CLI's own state (its login is its own).
fn credentials(
    deps: &Deps,
    rules: &PermissionSet,
    env: &SandboxEnvironment,
    own_state: &[PathBuf],
) -> Vec<PathBuf> {
    let ssh = env.cli.home.join(".ssh");
    let entries = matches!(deps.sandbox.entry_kind(&ssh), Some(EntryKind::Dir))
        .then(|| deps.sandbox.list(&ssh));
    credential_paths(&env.cli, own_state, entries.as_deref())
        .into_iter()
        .filter(|path| !rules.allows_whole(PathAccess::Read, path))
        .collect()
}

/// Every denied path rule as the paths it names now (a glob expanded on disk).
fn resolve(deps: &Deps, rules: &PermissionSet) -> AppResult<Vec<ResolvedDenial>> {
    let mut denials = Vec::new();
    for denied in rules.denied_paths() {
        let paths = match (literal_path(&denied), &denied.glob) {
            (Some(path), _) => vec![path],
            (None, Some(glob)) => deps.sandbox.expand(&denied.base, glob).map_err(|e| {
                SandboxSetupError(format!(
                    "{} ({}): {e}",
                    denied.rule,
                    denied.source.display()
                ))
            })?,
            (None, None) => continue,
        };
        denials.push(ResolvedDenial {
            access: denied.access,
            paths,
        });
    }
    Ok(denials)
}

fn split(denials: Vec<ResolvedDenial>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (read, write): (Vec<_>, Vec<_>) = denials
        .into_iter()
        .partition(|d| d.access == PathAccess::Read);
    let flat = |v: Vec<ResolvedDenial>| v.into_iter().flat_map(|d| d.paths).collect();
    (flat(read), flat(write))
}
