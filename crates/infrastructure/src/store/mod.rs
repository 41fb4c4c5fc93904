//! The `.ideai/` store: JSON state files with a schema version, Markdown personas.
//!
//! Reads never repair: a corrupt or newer file is an error naming the file, and the file is
//! left byte-for-byte as it was. Writes go through [`crate::atomic::write_atomic`].

mod seeds;
mod versioned;

use crate::atomic::write_atomic;
use idea_domain::AgentId;
use idea_domain::layout::{LAYOUTS_VERSION, Layouts};
use idea_domain::manifest::{AgentManifest, MANIFEST_VERSION, is_valid_md_path};
use idea_domain::ports::{ProjectStore, SeedOutcome, StoreError};
use idea_domain::project::{PROJECT_VERSION, Project};
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
}

fn io_error<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> StoreError + 'a {
    move |source| StoreError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomic(path, bytes).map_err(io_error("write", path))
}

fn read_optional_text(path: &Path) -> Result<Option<String>, StoreError> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| StoreError::Corrupt {
                path: path.to_path_buf(),
                reason: "not valid UTF-8 text".into(),
            }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error("read", path)(e)),
    }
}

impl ProjectStore for FsProjectStore {
    fn root(&self) -> PathBuf {
        self.root.clone()
    }

    fn load_project(&self) -> Result<Project, StoreError> {
        let path = self.file("project.json");
        read_versioned::<Project>(&path, PROJECT_VERSION, |_| Ok(()))?
            .ok_or_else(|| StoreError::NotAProject(self.root.clone()))
    }

    fn save_project(&self, project: &Project) -> Result<(), StoreError> {
        let path = self.file("project.json");
        write_file(&path, &to_pretty_json(project, &path)?)
    }

    fn load_manifest(&self) -> Result<AgentManifest, StoreError> {
        let path = self.file("agents.json");
        Ok(
            read_versioned::<AgentManifest>(&path, MANIFEST_VERSION, |m| {
                m.validate().map_err(|e| e.to_string())
            })?
            .unwrap_or_default(),
        )
    }

    fn save_manifest(&self, manifest: &AgentManifest) -> Result<(), StoreError> {
        let path = self.file("agents.json");
        write_file(&path, &to_pretty_json(manifest, &path)?)
    }

    fn read_persona(&self, md_path: &str) -> Result<Option<String>, StoreError> {
        read_optional_text(&self.persona_path(md_path)?)
    }

    fn write_persona(&self, md_path: &str, content: &str) -> Result<(), StoreError> {
        write_file(&self.persona_path(md_path)?, content.as_bytes())
    }

    fn persona_exists(&self, md_path: &str) -> bool {
        self.persona_path(md_path).is_ok_and(|p| p.exists())
    }

    fn load_layouts(&self) -> Result<Option<Layouts>, StoreError> {
        let path = self.file("layouts.json");
        read_versioned::<Layouts>(&path, LAYOUTS_VERSION, |l| {
            l.validate().map_err(|e| e.to_string())
        })
    }

    fn save_layouts(&self, layouts: &Layouts) -> Result<(), StoreError> {
        let path = self.file("layouts.json");
        write_file(&path, &to_pretty_json(layouts, &path)?)
    }

    fn read_project_context(&self) -> Result<Option<String>, StoreError> {
        read_optional_text(&self.file("CONTEXT.md"))
    }

    fn ensure_run_dir_ignored(&self) -> Result<(), StoreError> {
        const LINE: &str = ".ideai/run/";
        let path = self.root.join(".gitignore");
        let current = read_optional_text(&path)?.unwrap_or_default();
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
        write_file(&path, next.as_bytes())
    }

    fn prepare_run_dir(&self, agent: AgentId) -> Result<PathBuf, StoreError> {
        let dir = self.ideai().join("run").join(agent.to_string());
        fs::create_dir_all(&dir).map_err(io_error("create", &dir))?;
        Ok(dir)
    }

    fn write_generated(&self, path: &Path, content: &str) -> Result<(), StoreError> {
        let inside = path.is_absolute()
            && path.starts_with(&self.root)
            && !path
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir));
        if !inside {
            return Err(StoreError::Io {
                action: "write",
                path: path.to_path_buf(),
                source: io::Error::new(io::ErrorKind::PermissionDenied, "outside the project"),
            });
        }
        write_file(path, content.as_bytes())
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
}

#[cfg(test)]
mod tests;
