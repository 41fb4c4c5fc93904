//! [`KnowledgeStore`] on the file system: skills, memory, project tools, templates and the
//! shared context (`docs/skills-memory-tools.md`).
//!
//! The project's folders are a repository's content: every read is bounded ([`files`]) and
//! refuses links, as the `.ideai/` store does. The user's `~/.ideai/` is the user's own, so
//! links there are followed (users keep skills in a dotfiles repository).

mod files;
mod memory;
mod skills;
mod templates;
mod tools;

use crate::store::confine;
use idea_domain::knowledge::{
    KnowledgeStore, MemoryListing, ProjectTemplate, SkillListing, ToolListing,
};
use idea_domain::memory::MemoryEntry;
use idea_domain::ports::StoreError;
use idea_domain::project_tool::{ProjectTool, ToolSource};
use idea_domain::skill::{Skill, SkillProblem, SkillScope, SkillSource};
use std::path::{Path, PathBuf};

/// The shared knowledge of the project at `root`, and of the user at `user_dir` (`~/.ideai`).
#[derive(Debug, Clone)]
pub struct FsKnowledgeStore {
    root: PathBuf,
    user_dir: Option<PathBuf>,
}

impl FsKnowledgeStore {
    pub fn new(root: impl Into<PathBuf>, user_dir: Option<PathBuf>) -> Self {
        Self {
            root: root.into(),
            user_dir,
        }
    }

    fn ideai(&self) -> PathBuf {
        self.root.join(".ideai")
    }

    /// Where a folder of shared things lives, and whether it is the project's (untrusted).
    fn base(&self, project: bool, project_rel: &str, user_rel: &str) -> Option<Place> {
        if project {
            Some(Place {
                dir: self.root.join(project_rel),
                confined_to: Some(self.root.clone()),
            })
        } else {
            self.user_dir.as_ref().map(|dir| Place {
                dir: dir.join(user_rel),
                confined_to: None,
            })
        }
    }
}

/// A folder IdeA reads shared things from; `confined_to`: the project root it must not leave
/// (links refused), `None` for the user's own folder.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub dir: PathBuf,
    pub confined_to: Option<PathBuf>,
}

impl Place {
    /// Whether the folder exists as a real folder (inside the project, no link on the way).
    pub(crate) fn exists(&self) -> Result<bool, StoreError> {
        match &self.confined_to {
            Some(root) => confine::real_dir(root, &self.dir, false),
            None => Ok(self.dir.is_dir()),
        }
    }

    /// Makes the folder (and, in the project, checks every folder on the way).
    pub(crate) fn make(&self) -> Result<(), StoreError> {
        match &self.confined_to {
            Some(root) => confine::real_dir(root, &self.dir, true).map(drop),
            None => std::fs::create_dir_all(&self.dir)
                .map_err(|e| confine::io_error("create", &self.dir, e)),
        }
    }

    pub(crate) fn join(&self, name: &str) -> Self {
        Self {
            dir: self.dir.join(name),
            confined_to: self.confined_to.clone(),
        }
    }

    pub(crate) fn trusted(&self) -> bool {
        self.confined_to.is_none()
    }
}

fn relative_to(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

impl KnowledgeStore for FsKnowledgeStore {
    fn skills(&self) -> SkillListing {
        skills::list(self)
    }

    fn write_skill(&self, scope: SkillScope, name: &str, skill_md: &str) -> Result<(), StoreError> {
        skills::write(self, scope, name, skill_md)
    }

    fn skill_text(&self, source: SkillSource, name: &str) -> Result<Option<String>, StoreError> {
        skills::text(self, source, name)
    }

    fn delete_skill(&self, scope: SkillScope, name: &str) -> Result<bool, StoreError> {
        skills::delete(self, scope, name)
    }

    fn adopt_skill(&self, from: SkillSource, name: &str) -> Result<(), StoreError> {
        skills::adopt(self, from, name)
    }

    fn deliver_skills(
        &self,
        run_dir: &Path,
        folder: &str,
        chosen: &[Skill],
    ) -> Result<Vec<SkillProblem>, StoreError> {
        skills::deliver(self, run_dir, folder, chosen)
    }

    fn memory(&self) -> MemoryListing {
        memory::list(self)
    }

    fn write_memory(&self, entry: &MemoryEntry) -> Result<(), StoreError> {
        memory::write(self, entry)
    }

    fn delete_memory(&self, slug: &str) -> Result<bool, StoreError> {
        memory::delete(self, slug)
    }

    fn tools(&self) -> ToolListing {
        tools::list(self)
    }

    fn tool_dir(&self, tool: &ProjectTool) -> PathBuf {
        tools::place(self, tool.source)
            .map_or_else(|| PathBuf::from(&tool.folder), |p| p.dir.join(&tool.folder))
    }

    fn tool_roots(&self) -> Vec<PathBuf> {
        [ToolSource::Project, ToolSource::User]
            .into_iter()
            .filter_map(|s| tools::place(self, s).map(|p| p.dir))
            .collect()
    }

    fn templates(&self) -> (Vec<ProjectTemplate>, Vec<SkillProblem>) {
        templates::list(self)
    }

    fn write_context(&self, text: &str) -> Result<(), StoreError> {
        let ideai = self.ideai();
        confine::real_dir(&self.root, &ideai, true)?;
        let path = ideai.join("CONTEXT.md");
        if text.trim().is_empty() {
            confine::refuse_link(&path)?;
            return match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(confine::io_error("remove", &path, e))
                }
                _ => Ok(()),
            };
        }
        confine::write(&path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests;
