//! Agent use cases: create (scratch, template), list, read/update persona, delete, and move to
//! another engine ([`engine`]).
//!
//! The manifest is always written first, then the `.md`: a crash in between leaves an agent
//! whose persona reads as empty, never a persona file no agent points to.

mod engine;
pub mod templates;

pub use engine::{
    ChangeAgentProfile, ProfileChanged, change_agent_profile, draft_handoff, set_limit_policy,
};

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::layout::Layouts;
use idea_domain::{Agent, AgentId, AgentName, AgentOrigin, DomainEvent, ProfileId};

/// What the user gives to create an agent.
#[derive(Debug, Clone)]
pub struct NewAgent {
    pub name: String,
    pub profile_id: ProfileId,
}

/// CreateAgentFromScratch: a new agent with a placeholder persona.
///
/// # Errors
/// `INVALID_NAME`, `AGENT_NAME_TAKEN`, `PROFILE_NOT_FOUND`, store errors.
pub fn create_from_scratch(deps: &Deps, new: NewAgent) -> AppResult<Agent> {
    create(deps, new, AgentOrigin::Scratch, templates::scratch_persona)
}

/// CreateAgentFromTemplate: a new agent whose persona comes from a built-in template.
///
/// # Errors
/// As [`create_from_scratch`], plus `TEMPLATE_NOT_FOUND`.
pub fn create_from_template(deps: &Deps, new: NewAgent, template_id: &str) -> AppResult<Agent> {
    let all = templates::all(deps);
    let template = all.iter().find(|t| t.id == template_id).ok_or_else(|| {
        let known: Vec<_> = all.iter().map(|t| t.id.as_str()).collect();
        AppError::TemplateNotFound(template_id.to_owned(), known.join(", "))
    })?;
    let origin = AgentOrigin::Template {
        template: template.id.clone(),
    };
    let agent = create(deps, new, origin, |name| {
        template.body.replace("{name}", name)
    })?;
    // Its skills, as far as they exist: a template naming a skill the project lacks still
    // makes the agent (the skill is logged as missing).
    let mut agent = agent;
    for skill in &template.skills {
        match crate::knowledge::skills::assign(deps, &agent.agent_id.to_string(), skill) {
            Ok(updated) => agent = updated,
            Err(e) => {
                tracing::warn!(template = %template.id, %skill, error = %e, "a template's skill was not assigned")
            }
        }
    }
    Ok(agent)
}

fn create(
    deps: &Deps,
    new: NewAgent,
    origin: AgentOrigin,
    persona: impl FnOnce(&str) -> String,
) -> AppResult<Agent> {
    let name = AgentName::new(&new.name)?;
    if deps.profiles.get(&new.profile_id).is_none() {
        return Err(AppError::ProfileNotFound(new.profile_id.to_string()));
    }
    let _guard = deps.lock_state();
    let mut manifest = deps.store.load_manifest()?;
    if manifest.find_by_name(name.as_str()).is_some() {
        return Err(AppError::AgentNameTaken(name.to_string()));
    }
    let md_path = manifest.unique_md_path(&name, |p| deps.store.persona_exists(p));
    let agent = Agent {
        agent_id: AgentId(deps.ids.new_uuid()),
        name,
        md_path,
        profile_id: new.profile_id,
        origin,
        skills: Vec::new(),
        on_limit: Default::default(),
        worktree: None,
    };
    manifest
        .add(agent.clone())
        .map_err(|e| AppError::Internal(e.to_string()))?;
    deps.store.save_manifest(&manifest)?;
    deps.store
        .write_persona(&agent.md_path, &persona(agent.name.as_str()))?;
    deps.publish(DomainEvent::AgentCreated {
        agent_id: agent.agent_id,
        name: agent.name.to_string(),
    });
    Ok(agent)
}

/// ListAgents, in manifest order.
///
/// # Errors
/// Store errors (a corrupt manifest).
pub fn list(deps: &Deps) -> AppResult<Vec<Agent>> {
    Ok(deps.store.load_manifest()?.entries)
}

/// Finds an agent by uuid or name.
///
/// # Errors
/// `AGENT_NOT_FOUND`, store errors.
pub fn find(deps: &Deps, name_or_id: &str) -> AppResult<Agent> {
    deps.store
        .load_manifest()?
        .find(name_or_id)
        .cloned()
        .ok_or_else(|| AppError::AgentNotFound(name_or_id.to_owned()))
}

fn get(deps: &Deps, id: AgentId) -> AppResult<Agent> {
    deps.store
        .load_manifest()?
        .get(id)
        .cloned()
        .ok_or_else(|| AppError::AgentNotFound(id.to_string()))
}

/// ReadAgentContext: the persona Markdown (empty when its file is missing).
///
/// # Errors
/// `AGENT_NOT_FOUND`, store errors.
pub fn read_context(deps: &Deps, id: AgentId) -> AppResult<String> {
    let agent = get(deps, id)?;
    Ok(deps.store.read_persona(&agent.md_path)?.unwrap_or_default())
}

/// UpdateAgentContext: replaces the persona Markdown.
///
/// # Errors
/// `AGENT_NOT_FOUND`, store errors.
pub fn update_context(deps: &Deps, id: AgentId, content: &str) -> AppResult<()> {
    let agent = get(deps, id)?;
    deps.store.write_persona(&agent.md_path, content)?;
    deps.publish(DomainEvent::AgentContextUpdated { agent_id: id });
    Ok(())
}

/// DeleteAgent: removes it from the manifest and from every cell; its `.md` is kept so a
/// persona is never lost by a click. A running agent must be stopped first, and an agent with
/// its own worktree must have it removed first.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `AGENT_RUNNING`, `WORKTREE_EXISTS`, store errors.
pub fn delete(deps: &Deps, id: AgentId) -> AppResult<Agent> {
    // Live in a cell, or answering a request.
    if deps.sessions.live_of_agent(id).is_some() || deps.requests.is_answering(id) {
        // Named as the user knows it: the id means nothing to them.
        let name = get(deps, id).map_or_else(|_| id.to_string(), |agent| agent.name.to_string());
        return Err(AppError::AgentRunning(name));
    }
    // Its worktree would be left with no one to review, squash or archive it.
    if let Ok(agent) = get(deps, id)
        && agent.worktree.is_some()
    {
        return Err(AppError::WorktreeExists(format!(
            "{} (remove it first: the Branches panel, or idea worktree remove \"{}\"; nothing of its work is lost)",
            agent.name, agent.name
        )));
    }
    let _guard = deps.lock_state();
    let mut manifest = deps.store.load_manifest()?;
    let removed = manifest
        .remove(id)
        .ok_or_else(|| AppError::AgentNotFound(id.to_string()))?;
    deps.store.save_manifest(&manifest)?;
    if let Some(mut layouts) = deps.store.load_layouts()?
        && unassign_everywhere(&mut layouts, id)
    {
        deps.store.save_layouts(&layouts)?;
    }
    deps.publish(DomainEvent::AgentDeleted { agent_id: id });
    Ok(removed)
}

fn unassign_everywhere(layouts: &mut Layouts, id: AgentId) -> bool {
    let mut changed = false;
    for layout in &mut layouts.layouts {
        for node in layout.tree.agent_leaves(id) {
            changed |= layout.tree.assign_agent(node, None).is_ok();
        }
    }
    changed
}
