//! [`SandboxHost`] on the real file system: what an agent's plan is compiled from.

use crate::store::confine;
use globset::{GlobBuilder, GlobMatcher};
use idea_domain::ports::{EntryKind, SandboxEnvironment, SandboxHost, SandboxSetupError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How many entries one glob may look through: a denial is never dropped, so a glob over a
/// tree bigger than this stops the agent with a clear error instead of a slow start.
const MAX_ENTRIES: usize = 200_000;

#[derive(Debug)]
pub struct FsSandboxHost {
    environment: SandboxEnvironment,
    /// The helper (`idea`) whose probe says whether namespaces work; `None`: they are not used.
    helper: Option<PathBuf>,
    /// The probe's answer, once asked.
    namespaces: OnceLock<bool>,
}

impl FsSandboxHost {
    /// A host whose plans are Landlock-only (no helper to probe namespaces with).
    pub fn new(environment: SandboxEnvironment) -> Self {
        Self {
            environment,
            helper: None,
            namespaces: OnceLock::new(),
        }
    }

    /// A host that probes, once, whether `helper` can set up namespaces here.
    pub fn with_helper(environment: SandboxEnvironment, helper: Option<PathBuf>) -> Self {
        Self {
            helper,
            ..Self::new(environment)
        }
    }
}

impl SandboxHost for FsSandboxHost {
    fn environment(&self) -> SandboxEnvironment {
        self.environment.clone()
    }

    fn expand(&self, base: &Path, glob: &str) -> Result<Vec<PathBuf>, SandboxSetupError> {
        expand(base, glob, MAX_ENTRIES)
    }

    fn list(&self, dir: &Path) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return vec![];
        };
        entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    }

    fn entry_kind(&self, path: &Path) -> Option<EntryKind> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        Some(if meta.file_type().is_symlink() {
            EntryKind::Link
        } else if meta.is_dir() {
            EntryKind::Dir
        } else {
            EntryKind::File
        })
    }

    fn namespaces(&self) -> bool {
        *self.namespaces.get_or_init(|| {
            self.helper.as_deref().is_some_and(|helper| {
                let probed = super::probe_namespaces(helper);
                if let Err(why) = &probed {
                    tracing::warn!(%why, "user namespaces refused: agents get the limited sandbox");
                }
                probed.is_ok()
            })
        })
    }

    fn make_dirs(&self, project_root: &Path, dirs: &[PathBuf]) -> Result<(), SandboxSetupError> {
        use std::os::unix::fs::DirBuilderExt;
        for dir in dirs {
            let made = if dir.starts_with(project_root) {
                // `.ideai/` is untrusted: no link is followed on the way.
                confine::real_dir(project_root, dir, true)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            } else if dir.exists() {
                Ok(())
            } else {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(|e| e.to_string())
            };
            made.map_err(|e| SandboxSetupError(format!("cannot create {}: {e}", dir.display())))?;
        }
        Ok(())
    }
}

/// The glob as the permission rules read it (`*` within one folder, `\` escapes).
fn matcher(glob: &str) -> Result<GlobMatcher, SandboxSetupError> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| SandboxSetupError(format!("invalid glob {glob}: {e}")))
}

/// The paths under `base` that `glob` matches; a matched folder is denied whole, so it is not
/// entered. Links are neither followed nor entered (a link's target is denied where it lives,
/// should a rule name it).
fn expand(base: &Path, glob: &str, limit: usize) -> Result<Vec<PathBuf>, SandboxSetupError> {
    let glob = matcher(glob)?;
    let mut found = Vec::new();
    let mut stack = vec![base.to_path_buf()];
    let mut seen = 0usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > limit {
                return Err(SandboxSetupError(format!(
                    "the rule's glob {} looks through more than {limit} entries under {}: \
                     name the folder instead",
                    glob.glob(),
                    base.display()
                )));
            }
            let path = entry.path();
            let relative = path.strip_prefix(base).unwrap_or(&path);
            if glob.is_match(relative) {
                found.push(path);
            } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_glob_names_what_matches_now_without_entering_links_or_matches() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        for file in ["a/k.pem", "a/b/c.pem", "a/b/c.txt", "keys/x.pem/inner.pem"] {
            let path = base.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "x").unwrap();
        }
        std::os::unix::fs::symlink(base.join("a"), base.join("link")).unwrap();
        let found = expand(base, "**/*.pem", 100).unwrap();
        let rel: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(base).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(rel, ["a/b/c.pem", "a/k.pem", "keys/x.pem"]);
        let one_level = expand(base, "*/k.pem", 100).unwrap();
        assert_eq!(one_level, [base.join("a/k.pem")]);
    }

    #[test]
    fn too_big_a_tree_or_a_bad_glob_is_an_error_not_a_dropped_denial() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..5 {
            std::fs::write(dir.path().join(i.to_string()), "x").unwrap();
        }
        let err = expand(dir.path(), "**/*.key", 3).unwrap_err();
        assert!(err.0.contains("more than 3 entries"), "{err}");
        assert!(expand(dir.path(), "a[", 10).is_err());
    }

    #[test]
    fn folders_are_made_private_and_not_through_a_link_in_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join(".ideai")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join(".ideai/requests")).unwrap();
        let host = FsSandboxHost::new(SandboxEnvironment::default());
        let state = dir.path().join("home/.gemini");
        host.make_dirs(&root, std::slice::from_ref(&state)).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&state).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let through_link = root.join(".ideai/requests/alice");
        assert!(host.make_dirs(&root, &[through_link]).is_err());
        assert!(!outside.join("alice").exists());
    }
}
