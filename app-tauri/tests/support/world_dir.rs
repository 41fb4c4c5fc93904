//! Where a test builds its throwaway world (a project, a fake home, folders beside them): in a
//! folder no sandbox plan grants to every agent. The temp dirs are such grants (`/tmp`,
//! `$TMPDIR`, and `/dev/shm` among the devices), so a world there has no "outside" for the
//! sandbox to refuse, and a checkout under `/tmp` must still put its worlds elsewhere.
//!
//! Standalone (no other support module), so that any test binary can include it by path.
#![allow(dead_code)]

use idea_domain::sandbox::{SandboxInputs, compile_plan, temp_dirs};
use std::path::{Path, PathBuf};

/// A world's folder, removed when dropped; so is the fallback folder holding it, once empty.
pub struct WorldDir {
    dir: Option<tempfile::TempDir>,
    /// A fallback folder this helper made (never Cargo's own), removed when no world uses it.
    made_base: Option<PathBuf>,
}

impl WorldDir {
    pub fn path(&self) -> &Path {
        self.dir
            .as_ref()
            .map_or(Path::new(""), tempfile::TempDir::path)
    }
}

impl Drop for WorldDir {
    fn drop(&mut self) {
        drop(self.dir.take());
        if let Some(base) = &self.made_base {
            // Fails while another test's world is in it, which then removes it.
            let _ = std::fs::remove_dir(base);
        }
    }
}

/// A fresh folder for one test's world, under no folder every plan grants (see
/// [`granted_to_every_agent`]): Cargo's temp dir for tests when it qualifies, else one made
/// for this under the user's cache folder, else under `/var/lib`.
pub fn world_dir(prefix: &str) -> WorldDir {
    let granted = granted_to_every_agent();
    let cargo_tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    if !is_under_any(&cargo_tmp, &granted) && std::fs::create_dir_all(&cargo_tmp).is_ok() {
        return WorldDir {
            dir: Some(tempdir_in(&cargo_tmp, prefix)),
            made_base: None,
        };
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")));
    let fallbacks = cache
        .map(|cache| cache.join("idea-test-worlds"))
        .into_iter()
        .chain([PathBuf::from("/var/lib/idea-test-worlds")]);
    for base in fallbacks.filter(|base| !is_under_any(base, &granted)) {
        // Another test's world may remove an empty base between our two calls: try again.
        for _ in 0..10 {
            if std::fs::create_dir_all(&base).is_err() {
                break;
            }
            if let Ok(dir) = tempfile::Builder::new().prefix(prefix).tempdir_in(&base) {
                return WorldDir {
                    dir: Some(dir),
                    made_base: Some(base),
                };
            }
        }
    }
    panic!(
        "no folder for a test world outside every sandbox grant ({granted:?}): set \
         CARGO_TARGET_DIR or XDG_CACHE_HOME to a folder outside them"
    );
}

fn tempdir_in(base: &Path, prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(base)
        .unwrap_or_else(|e| panic!("cannot make a test world in {}: {e}", base.display()))
}

/// What a plan grants every agent whatever its project: its write roots but the project's
/// (the temp dirs, the devices), plus `/var/tmp`, which some machines set as `$TMPDIR`. Real
/// paths (`/tmp` may be a link).
pub fn granted_to_every_agent() -> Vec<PathBuf> {
    let project = PathBuf::from("/idea-test-world-placeholder-project");
    let tmpdir = std::env::var_os("TMPDIR").map(PathBuf::from);
    let plan = compile_plan(&SandboxInputs {
        project_root: project.clone(),
        temp_dirs: temp_dirs(tmpdir.as_deref()),
        ..SandboxInputs::default()
    });
    plan.write_roots
        .into_iter()
        .filter(|root| *root != project)
        .chain([std::env::temp_dir(), PathBuf::from("/var/tmp")])
        .map(|path| real(&path))
        .collect()
}

fn is_under_any(path: &Path, roots: &[PathBuf]) -> bool {
    let path = real(path);
    roots.iter().any(|root| path.starts_with(root))
}

/// `path` with its deepest existing ancestor resolved (what it will be once made).
fn real(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(resolved) = existing.canonicalize() {
            return rest.iter().rev().fold(resolved, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}
