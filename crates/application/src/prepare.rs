//! What every start of an agent's CLI needs, in a cell (LaunchAgent) or for one JSON-mode
//! turn (an ask): its run dir seeded, its composed context written, the folders it is handed
//! trusted in the CLI's own record.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::Agent;
use idea_domain::convention::{ConventionInputs, compose_convention_file};
use idea_domain::filedrop::file_drop_guide;
use idea_domain::invocation::seed_plan;
use idea_domain::profile::AgentProfile;
use std::path::Path;

/// Memory recall budget in the convention file, in tokens.
const MEMORY_TOKEN_BUDGET: usize = 2_000;

/// Where an agent's CLI is about to start.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentStart<'a> {
    pub agent: &'a Agent,
    pub profile: &'a AgentProfile,
    pub project_root: &'a Path,
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

/// Seeds the run dir's per-CLI files and writes the composed context to `context_file`.
///
/// # Errors
/// `INVALID_PROFILE` (a seed file outside the run dir), store errors.
pub(crate) fn write_context_files(
    deps: &Deps,
    start: &AgentStart<'_>,
    context_file: Option<&Path>,
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
    let root = start.project_root;
    // A CLI IdeA hands no MCP server reaches the other agents through files.
    let orchestration = start
        .profile
        .mcp
        .is_none()
        .then(|| file_drop_guide(start.agent, root));
    let text = compose_convention_file(&ConventionInputs {
        agent_name: start.agent.name.as_str(),
        project_root: root,
        run_dir: (start.cwd != root).then_some(start.run_dir),
        orchestration: orchestration.as_deref(),
        project_context: project_context.as_deref(),
        persona: &persona,
        skills: &[],
        memory: &[],
        memory_token_budget: MEMORY_TOKEN_BUDGET,
        handoff: None,
    });
    Ok(deps.store.write_generated(file, &text)?)
}
