//! Project memory: entries the team and the agents keep in `.ideai/memory/`, recalled in
//! every agent's convention file and read and written over MCP.

use crate::deps::Deps;
use crate::error::{AppError, AppResult};
use idea_domain::DomainEvent;
use idea_domain::event::KnowledgePart;
use idea_domain::memory::{
    MemoryEntry, MemoryHit, MemoryIndexEntry, MemoryType, memory_slug, recall_order, search_memory,
    valid_memory_slug,
};
use idea_domain::skill::SkillProblem;
use serde::{Deserialize, Serialize};

/// An entry's body may be this long (an agent writes it; the file must stay readable).
const MAX_BODY: usize = 64 * 1024;
const MAX_TITLE: usize = 200;
const MAX_HOOK: usize = 500;
/// Entries the project memory may hold (agents write them; the listing reads this many).
const MAX_ENTRIES: usize = 1_000;

/// Every entry, most useful first, and the files that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MemoryView {
    pub entries: Vec<MemoryEntry>,
    pub problems: Vec<SkillProblem>,
}

/// ListMemory.
pub fn list(deps: &Deps) -> MemoryView {
    let mut listing = deps.knowledge.memory();
    recall_order(&mut listing.entries);
    for problem in &listing.problems {
        tracing::warn!(path = %problem.path, reason = %problem.reason, "memory entry skipped");
    }
    MemoryView {
        entries: listing.entries,
        problems: listing.problems,
    }
}

/// ReadMemory: one entry by slug.
///
/// # Errors
/// `MEMORY_NOT_FOUND`.
pub fn read(deps: &Deps, slug: &str) -> AppResult<MemoryEntry> {
    deps.knowledge
        .memory()
        .entries
        .into_iter()
        .find(|e| e.slug == slug)
        .ok_or_else(|| AppError::MemoryNotFound(slug.to_owned()))
}

/// SearchMemory: entries whose title, hook or body hold the query's words, best first.
pub fn search(deps: &Deps, query: &str, limit: usize) -> Vec<MemoryHit> {
    search_memory(&deps.knowledge.memory().entries, query, limit.clamp(1, 50))
}

/// An entry as written by the user or an agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MemoryWrite {
    /// The entry to replace; a new entry (its slug made from the title) when absent.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default)]
    pub slug: Option<String>,
    pub title: String,
    /// One sentence that says when the entry is useful.
    pub hook: String,
    #[serde(rename = "type")]
    pub kind: MemoryType,
    #[serde(default)]
    pub body: String,
}

fn check(write: &MemoryWrite) -> AppResult<()> {
    let refuse = |why: String| Err(AppError::InvalidParams(why));
    if write.title.trim().is_empty() || write.hook.trim().is_empty() {
        return refuse("a memory entry needs a title and a hook (when it is useful)".into());
    }
    if write.title.chars().count() > MAX_TITLE || write.hook.chars().count() > MAX_HOOK {
        return refuse(format!(
            "a title has at most {MAX_TITLE} characters and a hook {MAX_HOOK}"
        ));
    }
    if write.body.len() > MAX_BODY {
        return refuse(format!("the body is over {} KB", MAX_BODY / 1024));
    }
    if let Some(slug) = &write.slug
        && !valid_memory_slug(slug)
    {
        return refuse(format!(
            "\"{slug}\" is not a memory slug (lowercase letters, digits and -)"
        ));
    }
    Ok(())
}

/// WriteMemory: creates or replaces an entry, `writer` recorded (an agent's name, or `user`),
/// and rewrites the index.
///
/// # Errors
/// `INVALID_PARAMS` (empty title or hook, too long, a bad slug), `MEMORY_NOT_FOUND` (a slug
/// to replace that does not exist), store errors.
pub fn write(deps: &Deps, write: &MemoryWrite, writer: &str) -> AppResult<MemoryEntry> {
    check(write)?;
    let _guard = deps.lock_state();
    let existing: Vec<String> = deps
        .knowledge
        .memory()
        .entries
        .into_iter()
        .map(|e| e.slug)
        .collect();
    if write.slug.is_none() && existing.len() >= MAX_ENTRIES {
        return Err(AppError::InvalidParams(format!(
            "the project memory holds {MAX_ENTRIES} entries: delete some before adding more"
        )));
    }
    let slug = match &write.slug {
        Some(slug) if existing.contains(slug) => slug.clone(),
        Some(slug) => return Err(AppError::MemoryNotFound(slug.clone())),
        None => unique_slug(&memory_slug(&write.title), &existing),
    };
    let entry = MemoryEntry {
        slug,
        title: write.title.trim().to_owned(),
        hook: write.hook.trim().to_owned(),
        kind: write.kind,
        writer: Some(writer.to_owned()),
        updated_at: Some(deps.clock.now()),
        body: write.body.trim_end().to_owned(),
    };
    deps.knowledge.write_memory(&entry)?;
    changed(deps);
    Ok(entry)
}

fn unique_slug(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_owned();
    }
    (2..)
        .map(|n| format!("{}-{n}", base.chars().take(60).collect::<String>()))
        .find(|s| !taken.contains(s))
        .unwrap_or_else(|| base.to_owned())
}

/// DeleteMemory.
///
/// # Errors
/// `INVALID_PARAMS` (not a slug), `MEMORY_NOT_FOUND`, store errors.
pub fn delete(deps: &Deps, slug: &str) -> AppResult<()> {
    if !valid_memory_slug(slug) {
        return Err(AppError::InvalidParams(format!(
            "\"{slug}\" is not a memory slug"
        )));
    }
    let _guard = deps.lock_state();
    if !deps.knowledge.delete_memory(slug)? {
        return Err(AppError::MemoryNotFound(slug.to_owned()));
    }
    changed(deps);
    Ok(())
}

fn changed(deps: &Deps) {
    deps.publish(DomainEvent::KnowledgeChanged {
        part: KnowledgePart::Memory,
    });
}

/// What the convention file recalls: the index, most useful first. Best effort: an unreadable
/// entry is left out (and logged), never failing a launch.
pub(crate) fn recall(deps: &Deps) -> Vec<MemoryIndexEntry> {
    list(deps)
        .entries
        .iter()
        .map(MemoryEntry::index_entry)
        .collect()
}
