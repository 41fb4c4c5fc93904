//! Skills: list, show, create, edit, delete, adopt, assign and unassign; and which skills an
//! agent gets at a start ([`assigned`]).

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::event::KnowledgePart;
use idea_domain::knowledge::SkillListing;
use idea_domain::skill::{
    Skill, SkillRef, SkillScope, SkillSource, parse_skill, render_skill_md, valid_skill_name,
};
use idea_domain::{Agent, AgentId, DomainEvent};
use serde::{Deserialize, Serialize};

/// The most characters a skill's description may have (the Agent Skills format's limit).
const MAX_DESCRIPTION: usize = 1_024;

/// ListSkills: the project's, the user's and the found ones (`.claude/skills`,
/// `.agents/skills`), and those skipped with the reason.
pub fn list(deps: &Deps) -> SkillListing {
    let listing = deps.knowledge.skills();
    for problem in &listing.problems {
        tracing::warn!(path = %problem.path, reason = %problem.reason, "skill skipped");
    }
    listing
}

/// The skill `name` IdeA manages (project first, then the user's); found skills only when
/// `found` allows them.
fn find(listing: &SkillListing, name: &str, found: bool) -> Option<Skill> {
    listing
        .skills
        .iter()
        .find(|s| s.name == name && (found || s.source.scope().is_some()))
        .cloned()
}

/// ShowSkill: one skill by name (the project's, else the user's, else a found one).
///
/// # Errors
/// `SKILL_NOT_FOUND`.
pub fn show(deps: &Deps, name: &str) -> AppResult<Skill> {
    find(&list(deps), name, true).ok_or_else(|| AppError::SkillNotFound(name.to_owned()))
}

/// A new skill as the user writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillDraft {
    #[serde(default = "project_scope")]
    pub scope: SkillScope,
    pub name: String,
    pub description: String,
    #[serde(default)]
    pub body: String,
}

fn project_scope() -> SkillScope {
    SkillScope::Project
}

/// Refuses a name that is not a skill's (`../x`, `a/b`…) before it reaches a path.
fn checked(name: &str) -> AppResult<()> {
    valid_skill_name(name)
        .map_err(|why| AppError::InvalidSkill(format!("skill name \"{name}\": {why}")))
}

fn check_draft(name: &str, description: &str) -> AppResult<()> {
    checked(name)?;
    let length = description.trim().chars().count();
    if length == 0 {
        return Err(AppError::InvalidSkill(
            "a skill needs a description: what it does and when to use it".into(),
        ));
    }
    if length > MAX_DESCRIPTION {
        return Err(AppError::InvalidSkill(format!(
            "the description has {length} characters; at most {MAX_DESCRIPTION}"
        )));
    }
    Ok(())
}

fn changed(deps: &Deps) {
    deps.publish(DomainEvent::KnowledgeChanged {
        part: KnowledgePart::Skills,
    });
}

/// CreateSkill: writes `<scope>/skills/<name>/SKILL.md`.
///
/// # Errors
/// `INVALID_SKILL`, `SKILL_EXISTS`, store errors.
pub fn create(deps: &Deps, draft: &SkillDraft) -> AppResult<Skill> {
    check_draft(&draft.name, &draft.description)?;
    let exists = list(deps)
        .skills
        .iter()
        .any(|s| s.name == draft.name && s.source.scope() == Some(draft.scope));
    if exists {
        return Err(AppError::SkillExists(draft.name.clone()));
    }
    let text = render_skill_md(&draft.name, draft.description.trim(), &draft.body);
    deps.knowledge
        .write_skill(draft.scope, &draft.name, &text)?;
    changed(deps);
    show_in(deps, draft.scope, &draft.name)
}

fn show_in(deps: &Deps, scope: SkillScope, name: &str) -> AppResult<Skill> {
    list(deps)
        .skills
        .into_iter()
        .find(|s| s.name == name && s.source.scope() == Some(scope))
        .ok_or_else(|| AppError::SkillNotFound(name.to_owned()))
}

/// A whole `SKILL.md` as edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SkillEdit {
    #[serde(default = "project_scope")]
    pub scope: SkillScope,
    pub name: String,
    /// The new `SKILL.md`, front matter included.
    pub text: String,
}

/// UpdateSkill: replaces a skill's `SKILL.md` with `text`, which must read as a skill of that
/// name (nothing is written otherwise). Its other files stay.
///
/// # Errors
/// `SKILL_NOT_FOUND`, `INVALID_SKILL`, store errors.
pub fn update(deps: &Deps, edit: &SkillEdit) -> AppResult<Skill> {
    checked(&edit.name)?;
    show_in(deps, edit.scope, &edit.name)?;
    let source = match edit.scope {
        SkillScope::Project => SkillSource::Project,
        SkillScope::User => SkillSource::User,
    };
    let parsed = parse_skill(&edit.name, &edit.text, source, Vec::new())
        .map_err(|why| AppError::InvalidSkill(format!("SKILL.md of {}: {why}", edit.name)))?;
    check_draft(&parsed.name, &parsed.description)?;
    deps.knowledge
        .write_skill(edit.scope, &edit.name, &edit.text)?;
    changed(deps);
    show_in(deps, edit.scope, &edit.name)
}

/// DeleteSkill: removes its folder and unassigns it from every agent that had it from this
/// scope.
///
/// # Errors
/// `SKILL_NOT_FOUND`, store errors.
pub fn delete(deps: &Deps, scope: SkillScope, name: &str) -> AppResult<()> {
    checked(name)?;
    let _guard = deps.lock_state();
    if !deps.knowledge.delete_skill(scope, name)? {
        return Err(AppError::SkillNotFound(name.to_owned()));
    }
    let mut manifest = deps.store.load_manifest()?;
    let mut touched = false;
    for agent in &mut manifest.entries {
        let before = agent.skills.len();
        agent
            .skills
            .retain(|r| !(r.skill_id == name && r.scope == scope));
        touched |= agent.skills.len() != before;
    }
    if touched {
        deps.store.save_manifest(&manifest)?;
    }
    changed(deps);
    Ok(())
}

/// AdoptSkill: copies a found skill (`.claude/skills` or `.agents/skills`) into
/// `.ideai/skills`, so every agent can be given it.
///
/// # Errors
/// `SKILL_NOT_FOUND`, `SKILL_EXISTS`, store errors.
pub fn adopt(deps: &Deps, source: SkillSource, name: &str) -> AppResult<Skill> {
    checked(name)?;
    let listing = list(deps);
    if !listing
        .skills
        .iter()
        .any(|s| s.name == name && s.source == source)
        || source.scope().is_some()
    {
        return Err(AppError::SkillNotFound(format!(
            "{name} in {}",
            source.folder()
        )));
    }
    if find(&listing, name, false).is_some_and(|s| s.source == SkillSource::Project) {
        return Err(AppError::SkillExists(name.to_owned()));
    }
    deps.knowledge.adopt_skill(source, name)?;
    changed(deps);
    show_in(deps, SkillScope::Project, name)
}

/// AssignSkill: gives `agent` the skill `name` (the project's, else the user's), after its
/// others; already assigned is fine.
///
/// # Errors
/// `AGENT_NOT_FOUND`, `SKILL_NOT_FOUND` (a found skill must be adopted first), store errors.
pub fn assign(deps: &Deps, agent: &str, name: &str) -> AppResult<Agent> {
    let skill = find(&list(deps), name, false).ok_or_else(|| {
        AppError::SkillNotFound(format!(
            "{name} (a skill in .claude/skills or .agents/skills must be adopted first)"
        ))
    })?;
    let Some(scope) = skill.source.scope() else {
        return Err(AppError::SkillNotFound(name.to_owned()));
    };
    edit_agent_skills(deps, agent, |skills| {
        if !skills.iter().any(|r| r.skill_id == name) {
            skills.push(SkillRef {
                scope,
                skill_id: name.to_owned(),
            });
        }
    })
}

/// UnassignSkill: takes the skill `name` from `agent`; the others keep their order.
///
/// # Errors
/// `AGENT_NOT_FOUND`, store errors.
pub fn unassign(deps: &Deps, agent: &str, name: &str) -> AppResult<Agent> {
    edit_agent_skills(deps, agent, |skills| skills.retain(|r| r.skill_id != name))
}

fn edit_agent_skills(
    deps: &Deps,
    agent: &str,
    edit: impl FnOnce(&mut Vec<SkillRef>),
) -> AppResult<Agent> {
    let _guard = deps.lock_state();
    let mut manifest = deps.store.load_manifest()?;
    let id: AgentId = manifest
        .find(agent)
        .map(|a| a.agent_id)
        .ok_or_else(|| AppError::AgentNotFound(agent.to_owned()))?;
    let entry = manifest
        .entries
        .iter_mut()
        .find(|a| a.agent_id == id)
        .ok_or_else(|| AppError::AgentNotFound(agent.to_owned()))?;
    edit(&mut entry.skills);
    let updated = entry.clone();
    deps.store.save_manifest(&manifest)?;
    deps.publish(DomainEvent::AgentSettingsChanged {
        agent_id: updated.agent_id,
    });
    Ok(updated)
}

/// The skills `agent` gets at a start, in manifest order: each by name, the project's before
/// the user's. One that is gone or broken is left out (and logged): the agent still starts.
pub(crate) fn assigned(deps: &Deps, agent: &Agent) -> Vec<Skill> {
    if agent.skills.is_empty() {
        return Vec::new();
    }
    let listing = list(deps);
    agent
        .skills
        .iter()
        .filter_map(|r| {
            let found = find(&listing, &r.skill_id, false);
            if found.is_none() {
                tracing::warn!(agent = %agent.name, skill = %r.skill_id, "an assigned skill is missing or broken: left out");
            }
            found
        })
        .collect()
}

/// ReadSkillFile: a skill's whole `SKILL.md`, for editing.
///
/// # Errors
/// `SKILL_NOT_FOUND`, store errors.
pub fn text(deps: &Deps, source: SkillSource, name: &str) -> AppResult<String> {
    checked(name)?;
    deps.knowledge
        .skill_text(source, name)?
        .ok_or_else(|| AppError::SkillNotFound(name.to_owned()))
}
