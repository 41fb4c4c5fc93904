//! The `.ideai/` store: JSON state files with a schema version, Markdown personas.
//!
//! Reads never repair: a corrupt or newer file is an error naming the file, and the file is
//! left byte-for-byte as it was. Writes go through [`crate::atomic::write_atomic`]. A cloned
//! repository's `.ideai/` is untrusted: nothing here follows a link out of it ([`confine`]).

pub(crate) mod confine;
mod git;
mod permissions;
mod seeds;
mod sweep;
mod versioned;

use confine::{io_error, refuse_link};
use idea_domain::conversation::{ConversationProviders, PROVIDERS_VERSION};
use idea_domain::handoff::{HANDOFF_VERSION, StoredHandoff};
use idea_domain::layout::{LAYOUTS_VERSION, Layouts};
use idea_domain::manifest::{AgentManifest, MANIFEST_VERSION, is_valid_md_path};
use idea_domain::ports::{ProjectStore, SeedOutcome, StoreError};
use idea_domain::project::{PROJECT_VERSION, Project};
use idea_domain::resume::{RESUMES_VERSION, Resumes};
use idea_domain::{AgentId, ConversationId};
pub use permissions::MAX_PERMISSIONS_BYTES;
use serde::de::DeserializeOwned;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use versioned::{read_versioned, to_pretty_json};

/// A project's `.ideai/` folder on the local file system.
#[derive(Debug, Clone)]
pub struct FsProjectStore {
    root: PathBuf,
}

impl FsProjectStore {
    /// A store for the project rooted at `root` (which need not be initialised yet).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    fn ideai(&self) -> PathBuf {
        self.root.join(".ideai")
    }

    fn file(&self, name: &str) -> PathBuf {
        self.ideai().join(name)
    }

    /// Resolves a manifest `md_path`, refusing anything outside `.ideai/agents/`.
    fn persona_path(&self, md_path: &str) -> Result<PathBuf, StoreError> {
        if is_valid_md_path(md_path) {
            Ok(self.ideai().join(md_path))
        } else {
            Err(StoreError::Corrupt {
                path: self.file("agents.json"),
                reason: format!("persona path \"{md_path}\" is not of the form agents/<slug>.md"),
            })
        }
    }

    /// Refuses a project whose `.ideai`, `agents/` or `run/` is a link: its state must live in
    /// the project. Checked before every read and write, so a bad project fails as a whole
    /// (before the manifest names a persona that could not be written, say).
    fn check_layout(&self) -> Result<(), StoreError> {
        let ideai = self.ideai();
        refuse_link(&ideai)?;
        refuse_link(&ideai.join("agents"))?;
        refuse_link(&ideai.join("run"))
    }

    /// The content of `path` (inside the project), `None` when it or its folder is absent.
    fn read(&self, path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
        self.check_layout()?;
        if !confine::real_dir(&self.root, &confine::parent(path), false)? {
            return Ok(None);
        }
        confine::read(path)
    }

    fn read_text(&self, path: &Path) -> Result<Option<String>, StoreError> {
        self.read(path)?
            .map(|bytes| {
                String::from_utf8(bytes).map_err(|_| StoreError::Corrupt {
                    path: path.to_path_buf(),
                    reason: "not valid UTF-8 text".into(),
                })
            })
            .transpose()
    }

    /// Writes `path` (inside the project) atomically, creating its folders.
    fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        self.check_layout()?;
        confine::real_dir(&self.root, &confine::parent(path), true)?;
        confine::write(path, bytes)
    }

    fn load<T: DeserializeOwned>(
        &self,
        name: &str,
        supported: u32,
        validate: impl FnOnce(&T) -> Result<(), String>,
    ) -> Result<Option<T>, StoreError> {
        let path = self.file(name);
        read_versioned(&path, self.read(&path)?, supported, validate)
    }
}

impl ProjectStore for FsProjectStore {
    fn root(&self) -> PathBuf {
        self.root.clone()
    }

    /// Opening a project reads this first: leftover temp files are swept here.
    fn load_project(&self) -> Result<Project, StoreError> {
        self.check_layout()?;
        sweep::sweep(&self.root);
        self.load::<Project>("project.json", PROJECT_VERSION, |_| Ok(()))?
            .ok_or_else(|| StoreError::NotAProject(self.root.clone()))
    }

    fn save_project(&self, project: &Project) -> Result<(), StoreError> {
        let path = self.file("project.json");
        self.write(&path, &to_pretty_json(project, &path)?)
    }

    fn load_manifest(&self) -> Result<AgentManifest, StoreError> {
        Ok(self
            .load::<AgentManifest>("agents.json", MANIFEST_VERSION, |m| {
                m.validate().map_err(|e| e.to_string())
            })?
            .unwrap_or_default())
    }

    fn save_manifest(&self, manifest: &AgentManifest) -> Result<(), StoreError> {
        let path = self.file("agents.json");
        self.write(&path, &to_pretty_json(manifest, &path)?)
    }

    fn read_persona(&self, md_path: &str) -> Result<Option<String>, StoreError> {
        self.read_text(&self.persona_path(md_path)?)
    }

    fn write_persona(&self, md_path: &str, content: &str) -> Result<(), StoreError> {
        self.write(&self.persona_path(md_path)?, content.as_bytes())
    }

    fn persona_exists(&self, md_path: &str) -> bool {
        // A link counts as taken too: a new persona must not land on it.
        self.persona_path(md_path)
            .is_ok_and(|p| fs::symlink_metadata(p).is_ok())
    }

    fn load_layouts(&self) -> Result<Option<Layouts>, StoreError> {
        self.load::<Layouts>("layouts.json", LAYOUTS_VERSION, |l| {
            l.validate().map_err(|e| e.to_string())
        })
    }

    fn save_layouts(&self, layouts: &Layouts) -> Result<(), StoreError> {
        let path = self.file("layouts.json");
        self.write(&path, &to_pretty_json(layouts, &path)?)
    }

    fn load_resumes(&self) -> Result<Option<Resumes>, StoreError> {
        self.load::<Resumes>("resumes.json", RESUMES_VERSION, Resumes::validate)
    }

    fn save_resumes(&self, resumes: &Resumes) -> Result<(), StoreError> {
        let path = self.file("resumes.json");
        self.write(&path, &to_pretty_json(resumes, &path)?)
    }

    fn read_project_context(&self) -> Result<Option<String>, StoreError> {
        self.read_text(&self.file("CONTEXT.md"))
    }

    fn ensure_run_dir_ignored(&self) -> Result<(), StoreError> {
        const LINE: &str = ".ideai/run/";
        let path = self.root.join(".gitignore");
        let current = self.read_text(&path)?.unwrap_or_default();
        let already = current
            .lines()
            .map(str::trim)
            .any(|l| l == LINE || l == "/.ideai/run/" || l == ".ideai/run");
        if already {
            return Ok(());
        }
        let mut next = current;
        if !next.is_empty() && !next.ends_with('\n') {
            next.push('\n');
        }
        next.push_str(LINE);
        next.push('\n');
        self.write(&path, next.as_bytes())
    }

    fn prepare_run_dir(&self, agent: AgentId) -> Result<PathBuf, StoreError> {
        let dir = self.ideai().join("run").join(agent.to_string());
        self.check_layout()?;
        confine::real_dir(&self.root, &dir, true)?;
        Ok(dir)
    }

    fn write_generated(&self, path: &Path, content: &str) -> Result<(), StoreError> {
        let inside = path.is_absolute()
            && path.starts_with(&self.root)
            && !path
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir));
        if !inside {
            return Err(io_error(
                "write",
                path,
                io::Error::new(io::ErrorKind::PermissionDenied, "outside the project"),
            ));
        }
        self.write(path, content.as_bytes())
    }

    fn seed_file(
        &self,
        agent: AgentId,
        path: &Path,
        content: &str,
    ) -> Result<SeedOutcome, StoreError> {
        let run_dir = self.prepare_run_dir(agent)?;
        seeds::seed(&run_dir, path, content)
    }

    fn load_providers(&self, id: ConversationId) -> Result<ConversationProviders, StoreError> {
        Ok(self
            .load::<ConversationProviders>(&providers_file(id), PROVIDERS_VERSION, |p| {
                p.validate()
            })?
            .unwrap_or_default())
    }

    fn save_providers(
        &self,
        id: ConversationId,
        providers: &ConversationProviders,
    ) -> Result<(), StoreError> {
        let path = self.file(&providers_file(id));
        self.write(&path, &to_pretty_json(providers, &path)?)
    }

    fn load_handoff(&self, id: ConversationId) -> Result<Option<StoredHandoff>, StoreError> {
        self.load::<StoredHandoff>(&handoff_file(id), HANDOFF_VERSION, |_| Ok(()))
    }

    fn save_handoff(&self, id: ConversationId, handoff: &StoredHandoff) -> Result<(), StoreError> {
        let path = self.file(&handoff_file(id));
        self.write(&path, &to_pretty_json(handoff, &path)?)
    }

    fn work_in_progress(&self) -> Option<String> {
        git::diff_stat(&self.root)
    }
}

/// A conversation's provider ids, relative to `.ideai/`.
fn providers_file(id: ConversationId) -> String {
    format!("conversations/{id}/providers.json")
}

/// A conversation's handoff, relative to `.ideai/`.
fn handoff_file(id: ConversationId) -> String {
    format!("conversations/{id}/handoff.json")
}

#[cfg(test)]
mod tests;
