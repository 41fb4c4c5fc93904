//! What a project shares with every agent, written once (`docs/skills-memory-tools.md`):
//! skills ([`skills`]), memory ([`memory`]), project tools ([`tools`]) and the shared context.

pub mod memory;
pub mod skills;
pub mod tools;

use crate::deps::Deps;
use crate::error::AppResult;
use idea_domain::DomainEvent;

/// ReadProjectContext: `.ideai/CONTEXT.md`, injected into every agent before its persona
/// (empty when there is none).
///
/// # Errors
/// Store errors (a link, a file too big).
pub fn read_context(deps: &Deps) -> AppResult<String> {
    Ok(deps.store.read_project_context()?.unwrap_or_default())
}

/// UpdateProjectContext: replaces `.ideai/CONTEXT.md` (empty removes it); agents get it at
/// their next launch or turn.
///
/// # Errors
/// Store errors.
pub fn update_context(deps: &Deps, text: &str) -> AppResult<()> {
    deps.knowledge.write_context(text)?;
    deps.publish(DomainEvent::KnowledgeChanged {
        part: idea_domain::event::KnowledgePart::Context,
    });
    Ok(())
}
