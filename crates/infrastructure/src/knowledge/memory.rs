//! Project memory: `.ideai/memory/<slug>.md` entries and their index `MEMORY.md`, rewritten
//! from the entries after every change so the two never disagree.

use super::files;
use super::{FsKnowledgeStore, Place, relative_to};
use crate::store::confine;
use idea_domain::knowledge::MemoryListing;
use idea_domain::memory::{
    MEMORY_INDEX, MemoryEntry, parse_memory_entry, render_memory_entry, render_memory_index,
    valid_memory_slug,
};
use idea_domain::ports::StoreError;
use idea_domain::skill::SkillProblem;

fn place(store: &FsKnowledgeStore) -> Place {
    Place {
        dir: store.ideai().join("memory"),
        confined_to: Some(store.root.clone()),
    }
}

pub(super) fn list(store: &FsKnowledgeStore) -> MemoryListing {
    let place = place(store);
    let (entries, problems) = files::entries(&place);
    let mut listing = MemoryListing {
        problems: problems
            .into_iter()
            .map(|(path, reason)| SkillProblem {
                path: relative_to(&store.root, &path),
                reason,
            })
            .collect(),
        ..MemoryListing::default()
    };
    for entry in entries
        .iter()
        .filter(|e| !e.is_dir && e.name != MEMORY_INDEX)
    {
        let Some(slug) = entry.name.strip_suffix(".md") else {
            continue;
        };
        let problem = |reason: String| SkillProblem {
            path: relative_to(&store.root, &entry.path),
            reason,
        };
        if !valid_memory_slug(slug) {
            listing.problems.push(problem(
                "the file name is not a slug (lowercase letters, digits and -)".into(),
            ));
            continue;
        }
        match files::read_text(&place, &entry.path) {
            Ok(Some(text)) => match parse_memory_entry(slug, &text) {
                Ok(parsed) => listing.entries.push(parsed),
                Err(reason) => listing.problems.push(problem(reason)),
            },
            Ok(None) => {}
            Err(e) => listing.problems.push(problem(e.to_string())),
        }
    }
    listing
}

pub(super) fn write(store: &FsKnowledgeStore, entry: &MemoryEntry) -> Result<(), StoreError> {
    let place = place(store);
    place.make()?;
    let path = place.dir.join(format!("{}.md", entry.slug));
    confine::write(&path, render_memory_entry(entry).as_bytes())?;
    write_index(store, &place)
}

pub(super) fn delete(store: &FsKnowledgeStore, slug: &str) -> Result<bool, StoreError> {
    let place = place(store);
    if !place.exists()? {
        return Ok(false);
    }
    let path = place.dir.join(format!("{slug}.md"));
    confine::refuse_link(&path)?;
    match std::fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(confine::io_error("remove", &path, e)),
    }
    write_index(store, &place)?;
    Ok(true)
}

fn write_index(store: &FsKnowledgeStore, place: &Place) -> Result<(), StoreError> {
    let entries: Vec<_> = list(store)
        .entries
        .iter()
        .map(MemoryEntry::index_entry)
        .collect();
    confine::write(
        &place.dir.join(MEMORY_INDEX),
        render_memory_index(&entries).as_bytes(),
    )
}
