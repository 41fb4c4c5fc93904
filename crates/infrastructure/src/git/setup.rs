//! A new worktree's set-up from the user's checkout: the gitignored files `.worktreeinclude`
//! names are copied in (a file is copied only if it matches *and* git ignores it: the
//! convention Claude Code, Codex and Conductor read), and folders the project lists are linked
//! instead of copied (`node_modules`, say). git itself decides both matches (`ls-files
//! --others --ignored`, with the include file's patterns, then with the standard ones over the
//! files found), so the patterns mean exactly what they mean to git.

use super::{Git, GitError};
use std::collections::BTreeSet;
use std::path::{Component, Path};

/// The file of patterns, at the repository's root.
pub const WORKTREE_INCLUDE: &str = ".worktreeinclude";

/// At most this many files are copied (a pattern such as `*` over a build folder must not
/// copy gigabytes).
const COPY_MAX_FILES: usize = 10_000;

/// What [`copy_included`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Included {
    /// Paths copied, relative to the root.
    pub copied: Vec<String>,
    /// Paths left out (already in the worktree, not a regular file, or past the bound).
    pub skipped: Vec<String>,
}

/// Copies into `worktree` the files of `main_root` that `.worktreeinclude` names and git
/// ignores. Nothing when the file is absent. Files already in the worktree are kept.
///
/// # Errors
/// git's own failure; a file that cannot be copied.
pub fn copy_included(main: &Git, worktree: &Path) -> Result<Included, GitError> {
    let include = main.dir().join(WORKTREE_INCLUDE);
    if !include.is_file() {
        return Ok(Included::default());
    }
    let nul_list = |bytes: &[u8]| -> BTreeSet<String> {
        bytes
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect()
    };
    // The untracked files the patterns name (a build folder they do not name is never
    // listed), then those of them git ignores.
    let include_arg = format!("--exclude-from={}", include.display());
    let args = [
        "ls-files",
        "-z",
        "--others",
        "--ignored",
        include_arg.as_str(),
    ];
    let ran = main.run(&args)?;
    if !ran.ok {
        return Err(main.failed(&args, &ran));
    }
    let named: Vec<String> = nul_list(&ran.stdout).into_iter().collect();
    let mut ignored = BTreeSet::new();
    for chunk in named.chunks(500) {
        // Those of them the standard rules ignore, the names taken literally.
        let mut args = vec![
            "--literal-pathspecs",
            "ls-files",
            "-z",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--",
        ];
        args.extend(chunk.iter().map(String::as_str));
        let ran = main.run(&args)?;
        if !ran.ok {
            return Err(main.failed(&["ls-files"], &ran));
        }
        ignored.extend(nul_list(&ran.stdout));
    }
    let mut done = Included::default();
    for path in named.iter().filter(|p| ignored.contains(*p)) {
        let source = main.dir().join(path);
        let target = worktree.join(path);
        let plain = Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
        let regular = std::fs::symlink_metadata(&source).is_ok_and(|m| m.file_type().is_file());
        if !plain || !regular || target.exists() || done.copied.len() >= COPY_MAX_FILES {
            done.skipped.push(path.clone());
            continue;
        }
        let copy = || -> std::io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::copy(&source, &target).map(|_| ())
        };
        copy().map_err(|e| GitError::Failed {
            command: "copy".into(),
            message: format!("{path}: {e}"),
        })?;
        done.copied.push(path.clone());
    }
    Ok(done)
}

/// Links each of `folders` (relative to the root, e.g. `node_modules`) from the worktree to
/// the user's checkout, when it exists there and not in the worktree. Returns those linked.
/// A folder that would leave the root (`..`, absolute) is refused.
///
/// # Errors
/// `Failed` naming a folder that is not a plain relative path, or a link that cannot be made.
pub fn link_folders(
    main_root: &Path,
    worktree: &Path,
    folders: &[String],
) -> Result<Vec<String>, GitError> {
    let mut linked = Vec::new();
    for folder in folders {
        let plain = !folder.is_empty()
            && Path::new(folder)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return Err(GitError::Failed {
                command: "link".into(),
                message: format!("{folder:?} is not a folder inside the project"),
            });
        }
        let source = main_root.join(folder);
        let target = worktree.join(folder);
        if !source.is_dir() || target.symlink_metadata().is_ok() {
            continue;
        }
        let make = || -> std::io::Result<()> {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::os::unix::fs::symlink(&source, &target)
        };
        make().map_err(|e| GitError::Failed {
            command: "link".into(),
            message: format!("{folder}: {e}"),
        })?;
        linked.push(folder.clone());
    }
    Ok(linked)
}
