//! What every start of an agent's CLI needs, in a cell (LaunchAgent) or for one JSON-mode
//! turn (an ask): its run dir seeded, its composed context written, the folders it is handed
//! trusted in the CLI's own record.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::Agent;
use idea_domain::agent_state::{HookBridge, hook_handoff, with_settings_hooks};
use idea_domain::convention::{ConventionInputs, compose_convention_file};
use idea_domain::filedrop::file_drop_guide;
use idea_domain::handoff::Handoff;
use idea_domain::invocation::seed_plan;
use idea_domain::mcp_handoff::{BridgeCommand, McpHandoff, mcp_guide, mcp_handoff};
use idea_domain::profile::AgentProfile;
use idea_domain::sandbox::SandboxPlan;
use std::path::{Path, PathBuf};

/// Memory recall budget in the convention file, in tokens.
const MEMORY_TOKEN_BUDGET: usize = 2_048;

/// Where an agent's CLI is about to start.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentStart<'a> {
    pub agent: &'a Agent,
    pub profile: &'a AgentProfile,
    /// Where it works: the project's root, or its own worktree.
    pub project_root: &'a Path,
    /// The project's root, whose `.ideai/` holds its state (the same as `project_root`
    /// unless it works in a worktree).
    pub state_root: &'a Path,
    pub run_dir: &'a Path,
    /// The CLI's working folder (the run dir, or the project root for some profiles).
    pub cwd: &'a Path,
}

/// Every folder IdeA hands the CLI (its cwd, and the project root it passes as a workspace
/// directory) is recorded as trusted in the CLI's own config, so no trust dialog stops the
/// agent. Not fatal: without it the CLI shows its own dialog (or, headless, fails).
pub(crate) fn trust_handed_folders(deps: &Deps, start: &AgentStart<'_>) {
    let Some(home) = start.profile.home else {
        return;
    };
    let mut folders = vec![start.cwd];
    if start.project_root != start.cwd {
        folders.push(start.project_root);
    }
    for folder in folders {
        let _ = deps.cli_homes.trust_folder(home, folder);
    }
}

/// What kind of start of the agent's CLI this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StartKind {
    /// An interactive session in a terminal (LaunchAgent).
    Cell,
    /// One JSON-mode turn (an ask).
    Turn,
}

/// How the agent reaches the other agents: IdeA's MCP server written into its CLI's own
/// configuration (files written here; the returned arguments go right after the program, the
/// variables on top of the CLI's), or, for a CLI without MCP, request files. Also the
/// convention file's text about that route.
///
/// # Errors
/// Store errors (writing the CLI's MCP configuration into the run dir).
fn hand_mcp_server(
    deps: &Deps,
    start: &AgentStart<'_>,
    kind: StartKind,
) -> AppResult<(McpHandoff, String)> {
    let profile = start.profile;
    let style = profile
        .mcp
        .as_ref()
        .filter(|style| !profile.via_shell && (kind == StartKind::Turn || style.serves_cells()));
    let (Some(style), Some(bridge)) = (style, deps.mcp_bridge.as_ref()) else {
        let guide = file_drop_guide(start.agent, start.state_root);
        return Ok((McpHandoff::default(), guide));
    };
    let requester = start.agent.agent_id.to_string();
    let command = BridgeCommand {
        bridge,
        project_root: start.state_root,
        requester: &requester,
    };
    let handoff = mcp_handoff(style, &command, start.cwd);
    for (path, content) in &handoff.files {
        deps.store.write_generated(path, content)?;
    }
    Ok((handoff, mcp_guide()))
}

/// The CLI's own hooks (`docs/agent-states.md`), each running `idea hook` to report the
/// agent's turns: the returned arguments go right after the program; files are written here,
/// Gemini CLI's merged into the settings file `mcp_files` (the MCP handoff's) already holds.
/// Nothing without an `idea` to run or for a CLI IdeA has no hooks for.
///
/// # Errors
/// Store errors (writing into the run dir).
fn hand_hooks(
    deps: &Deps,
    start: &AgentStart<'_>,
    mcp_files: &[(PathBuf, String)],
) -> AppResult<Vec<String>> {
    let (Some(home), Some(bridge)) = (start.profile.home, deps.mcp_bridge.as_ref()) else {
        return Ok(Vec::new());
    };
    if start.profile.via_shell {
        return Ok(Vec::new());
    }
    let agent = start.agent.agent_id.to_string();
    let hook_bridge = HookBridge {
        program: &bridge.program,
        env: &bridge.env,
        project_root: start.state_root,
        agent: &agent,
    };
    let handoff = hook_handoff(home, &hook_bridge, start.cwd);
    for (path, content) in &handoff.files {
        deps.store.write_generated(path, content)?;
    }
    if let Some(hooks) = &handoff.settings_hooks {
        for (path, content) in mcp_files {
            if let Some(merged) = with_settings_hooks(content, hooks) {
                deps.store.write_generated(path, &merged)?;
            }
        }
    }
    Ok(handoff.args)
}

/// What IdeA adds to a start of the agent's CLI, in a cell or for a turn.
#[derive(Debug)]
pub(crate) struct StartAdditions {
    /// Options put before the CLI's own arguments: its hooks (a cell), IdeA's MCP server, and
    /// what the permission rules ask of the CLI's own settings.
    pub lead_args: Vec<String>,
    /// Variables set on top of the CLI's (the MCP server's settings file, for Gemini).
    pub env: Vec<(String, String)>,
    /// The kernel sandbox; `None` without rules.
    pub sandbox: Option<SandboxPlan>,
    /// The convention file's section on reaching the other agents.
    pub orchestration: String,
}

/// The sandbox from the permission rules, IdeA's MCP server (or the file-drop guide) and, in a
/// cell, the hooks that report the agent's state: files written, options and variables
/// returned.
///
/// # Errors
/// `SANDBOX_FAILED`, store errors.
pub(crate) fn start_additions(
    deps: &Deps,
    start: &AgentStart<'_>,
    kind: StartKind,
) -> AppResult<StartAdditions> {
    let sandbox = crate::sandbox::for_start(deps, start)?;
    let (mcp, orchestration) = hand_mcp_server(deps, start, kind)?;
    let mut lead_args = match kind {
        StartKind::Cell => hand_hooks(deps, start, &mcp.files)?,
        StartKind::Turn => Vec::new(),
    };
    lead_args.extend(mcp.args);
    lead_args.extend(sandbox.cli_args);
    Ok(StartAdditions {
        lead_args,
        env: mcp.env,
        sandbox: sandbox.plan,
        orchestration,
    })
}

/// Seeds the run dir's per-CLI files and writes the composed context to `context_file`, with
/// `orchestration` (see [`hand_mcp_server`]) as its section on the other agents.
///
/// # Errors
/// `INVALID_PROFILE` (a seed file outside the run dir), store errors.
pub(crate) fn write_context_files(
    deps: &Deps,
    start: &AgentStart<'_>,
    context_file: Option<&Path>,
    orchestration: &str,
) -> AppResult<()> {
    let (seeds, refused) = seed_plan(start.profile, start.project_root, start.run_dir);
    if let Some(path) = refused.first() {
        let profile = &start.profile.id;
        return Err(AppError::InvalidProfile(format!(
            "{profile}: seed file \"{path}\" must stay inside the run dir"
        )));
    }
    for (path, content) in &seeds {
        deps.store.seed_file(start.agent.agent_id, path, content)?;
    }
    let Some(file) = context_file else {
        return Ok(());
    };
    let persona = deps
        .store
        .read_persona(&start.agent.md_path)?
        .unwrap_or_default();
    let project_context = deps.store.read_project_context()?;
    let handoff = handoff_for(deps, start);
    let root = start.project_root;
    let skills = crate::knowledge::skills::assigned(deps, start.agent);
    let skill_home = deliver_skills(deps, start, &skills)?;
    let memory = crate::knowledge::memory::recall(deps);
    let text = compose_convention_file(&ConventionInputs {
        agent_name: start.agent.name.as_str(),
        project_root: root,
        run_dir: (start.cwd != root).then_some(start.run_dir),
        orchestration: Some(orchestration),
        project_context: project_context.as_deref(),
        persona: &persona,
        skills: &skills,
        skill_home,
        memory: &memory,
        memory_token_budget: MEMORY_TOKEN_BUDGET,
        handoff: handoff.as_ref(),
    });
    Ok(deps.store.write_generated(file, &text)?)
}

/// The handoff written when the agent moved to the engine it starts on now
/// ([`crate::agents::change_agent_profile`]); one written for another engine, or unreadable,
/// counts as none (the agent still starts).
fn handoff_for(deps: &Deps, start: &AgentStart<'_>) -> Option<Handoff> {
    let agent = start.agent.agent_id;
    match deps.store.load_handoff(crate::pair::user_pair(agent)) {
        Ok(Some(stored)) if stored.for_profile == start.profile.id => Some(stored.handoff),
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(%agent, error = &e as &dyn std::error::Error, "the handoff could not be read: the agent starts without it");
            None
        }
    }
}

/// Puts exactly the agent's skills where its CLI loads them (`.claude/skills` or
/// `.agents/skills` of its run dir), so the CLI's own skill loading, slash commands and skill
/// tools work. Returns the CLI when it got them natively; `None` (a CLI without skills, or one
/// working in the project's own folder, which IdeA does not write into) puts their bodies in
/// the convention file instead. A skill that cannot be copied is left out and logged.
///
/// # Errors
/// Store errors on the run dir itself.
fn deliver_skills(
    deps: &Deps,
    start: &AgentStart<'_>,
    skills: &[idea_domain::skill::Skill],
) -> AppResult<Option<idea_domain::profile::CliHome>> {
    let Some(home) = start.profile.home.filter(|_| start.cwd == start.run_dir) else {
        return Ok(None);
    };
    let folder = idea_domain::skill::native_skills_folder(home);
    for problem in deps
        .knowledge
        .deliver_skills(start.run_dir, folder, skills)?
    {
        tracing::warn!(agent = %start.agent.name, path = %problem.path, reason = %problem.reason, "skill not delivered");
    }
    Ok(Some(home))
}
