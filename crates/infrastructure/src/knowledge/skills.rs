//! Skills: `<folder>/<name>/SKILL.md` in the project's `.ideai/skills`, the user's
//! `~/.ideai/skills`, and the project's own `.claude/skills` and `.agents/skills` (found skills,
//! read in place); and their delivery into an agent's run dir.

use super::files::{self, Entry};
use super::{FsKnowledgeStore, Place, relative_to};
use crate::atomic::write_atomic;
use crate::store::confine;
use idea_domain::knowledge::SkillListing;
use idea_domain::ports::StoreError;
use idea_domain::skill::{
    Skill, SkillProblem, SkillScope, SkillSource, parse_skill, skill_md_with_name,
};
use std::collections::BTreeSet;
use std::path::Path;

const SKILL_FILE: &str = "SKILL.md";
/// MAIA's spelling, read too.
const SKILL_FILE_LOWER: &str = "skill.md";

const SOURCES: [SkillSource; 4] = [
    SkillSource::Project,
    SkillSource::User,
    SkillSource::ClaudeFolder,
    SkillSource::AgentsFolder,
];

pub(super) fn place(store: &FsKnowledgeStore, source: SkillSource) -> Option<Place> {
    match source {
        SkillSource::Project => store.base(true, ".ideai/skills", ""),
        SkillSource::User => store.base(false, "", "skills"),
        SkillSource::ClaudeFolder => store.base(true, ".claude/skills", ""),
        SkillSource::AgentsFolder => store.base(true, ".agents/skills", ""),
    }
}

fn scope_place(store: &FsKnowledgeStore, scope: SkillScope) -> Result<Place, StoreError> {
    let source = match scope {
        SkillScope::Project => SkillSource::Project,
        SkillScope::User => SkillSource::User,
    };
    place(store, source).ok_or_else(|| StoreError::Io {
        action: "find",
        path: "~/.ideai".into(),
        source: std::io::Error::new(std::io::ErrorKind::NotFound, "no user folder ($HOME unset)"),
    })
}

pub(super) fn list(store: &FsKnowledgeStore) -> SkillListing {
    let mut listing = SkillListing::default();
    let mut project_names = BTreeSet::new();
    for source in SOURCES {
        let Some(place) = place(store, source) else {
            continue;
        };
        let (entries, problems) = files::entries(&place);
        listing
            .problems
            .extend(problems.into_iter().map(|(path, reason)| SkillProblem {
                path: shown(store, &path),
                reason,
            }));
        for entry in entries.iter().filter(|e| e.is_dir) {
            if source == SkillSource::User && project_names.contains(&entry.name) {
                continue; // the project's skill of that name wins
            }
            match read_one(&place, entry, source) {
                Ok(Some(skill)) => {
                    if source == SkillSource::Project {
                        project_names.insert(skill.name.clone());
                    }
                    listing.skills.push(skill);
                }
                Ok(None) => {}
                Err(reason) => listing.problems.push(SkillProblem {
                    path: shown(store, &entry.path.join(SKILL_FILE)),
                    reason,
                }),
            }
        }
    }
    listing
}

/// A path as the user reads it: relative to the project when inside it.
fn shown(store: &FsKnowledgeStore, path: &Path) -> String {
    relative_to(&store.root, path)
}

/// The skill in `entry`; `None` for a folder without `SKILL.md` (not a skill at all).
fn read_one(place: &Place, entry: &Entry, source: SkillSource) -> Result<Option<Skill>, String> {
    let folder = place.join(&entry.name);
    let Some((file, text)) = skill_text(&folder).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let files = files::tree(&folder)?
        .into_iter()
        .filter(|f| f != &file)
        .collect();
    parse_skill(&entry.name, &text, source, files).map(Some)
}

/// `SKILL.md` (or `skill.md`) of a skill's folder: its name and text.
fn skill_text(folder: &Place) -> Result<Option<(String, String)>, StoreError> {
    for name in [SKILL_FILE, SKILL_FILE_LOWER] {
        if let Some(text) = files::read_text(folder, &folder.dir.join(name))? {
            return Ok(Some((name.to_owned(), text)));
        }
    }
    Ok(None)
}

pub(super) fn write(
    store: &FsKnowledgeStore,
    scope: SkillScope,
    name: &str,
    skill_md: &str,
) -> Result<(), StoreError> {
    let folder = scope_place(store, scope)?.join(name);
    folder.make()?;
    let path = folder.dir.join(SKILL_FILE);
    if folder.trusted() {
        write_atomic(&path, skill_md.as_bytes()).map_err(|e| confine::io_error("write", &path, e))
    } else {
        confine::write(&path, skill_md.as_bytes())
    }
}

pub(super) fn delete(
    store: &FsKnowledgeStore,
    scope: SkillScope,
    name: &str,
) -> Result<bool, StoreError> {
    let parent = scope_place(store, scope)?;
    if !parent.exists()? {
        return Ok(false);
    }
    let path = parent.dir.join(name);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(false);
    }
    files::remove_any(&path).map_err(|e| confine::io_error("remove", &path, e))?;
    Ok(true)
}

pub(super) fn adopt(
    store: &FsKnowledgeStore,
    from: SkillSource,
    name: &str,
) -> Result<(), StoreError> {
    let source = place(store, from)
        .filter(|_| from.scope().is_none())
        .ok_or_else(|| not_found(&store.root, name))?
        .join(name);
    if !source.exists()? {
        return Err(not_found(&source.dir, name));
    }
    let target = scope_place(store, SkillScope::Project)?;
    target.make()?;
    let target = target.dir.join(name);
    if std::fs::symlink_metadata(&target).is_ok() {
        return Err(StoreError::Io {
            action: "adopt into",
            path: target,
            source: std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "a skill of that name exists",
            ),
        });
    }
    copy_skill(&source, &target, name).map_err(|reason| StoreError::Corrupt {
        path: source.dir.clone(),
        reason,
    })
}

fn not_found(path: &Path, name: &str) -> StoreError {
    StoreError::Io {
        action: "find",
        path: path.join(name),
        source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such skill"),
    }
}

/// Copies a skill's folder, its `SKILL.md` (whatever its case) written with `name` equal to
/// the folder: Gemini CLI drops a skill without `name`, Codex prefers `name` to the folder.
fn copy_skill(source: &Place, target: &Path, name: &str) -> Result<(), String> {
    let copied = files::copy_tree(source, target, |relative, bytes| {
        if relative == SKILL_FILE || relative == SKILL_FILE_LOWER {
            skill_md_with_name(&String::from_utf8_lossy(&bytes), name).into_bytes()
        } else {
            bytes
        }
    });
    let lower = target.join(SKILL_FILE_LOWER);
    if copied.is_ok() && lower.exists() && !target.join(SKILL_FILE).exists() {
        std::fs::rename(&lower, target.join(SKILL_FILE)).map_err(|e| e.to_string())?;
    }
    copied
}

pub(super) fn deliver(
    store: &FsKnowledgeStore,
    run_dir: &Path,
    folder: &str,
    chosen: &[Skill],
) -> Result<Vec<SkillProblem>, StoreError> {
    let target = run_dir.join(folder);
    // Nothing to place and nothing placed before: the run dir stays as it is.
    if chosen.is_empty() && !confine::real_dir(&store.root, &target, false)? {
        return Ok(Vec::new());
    }
    confine::real_dir(&store.root, &target, true)?;
    let wanted: BTreeSet<&str> = chosen.iter().map(|s| s.name.as_str()).collect();
    for entry in std::fs::read_dir(&target)
        .map_err(|e| confine::io_error("list", &target, e))?
        .flatten()
    {
        let keep = entry
            .file_name()
            .to_str()
            .is_some_and(|n| wanted.contains(n));
        if !keep {
            let path = entry.path();
            files::remove_any(&path).map_err(|e| confine::io_error("remove", &path, e))?;
        }
    }
    let mut problems = Vec::new();
    for skill in chosen {
        let Some(source) = place(store, skill.source).map(|p| p.join(&skill.name)) else {
            continue;
        };
        let dest = target.join(&skill.name);
        files::remove_any(&dest).map_err(|e| confine::io_error("remove", &dest, e))?;
        if let Err(reason) = copy_skill(&source, &dest, &skill.name) {
            let _ = files::remove_any(&dest);
            problems.push(SkillProblem {
                path: shown(store, &source.dir),
                reason,
            });
        }
    }
    Ok(problems)
}

pub(super) fn text(
    store: &FsKnowledgeStore,
    source: SkillSource,
    name: &str,
) -> Result<Option<String>, StoreError> {
    let Some(folder) = place(store, source).map(|p| p.join(name)) else {
        return Ok(None);
    };
    if !folder.exists()? {
        return Ok(None);
    }
    Ok(skill_text(&folder)?.map(|(_, text)| text))
}
