//! Worktrees: one added on a new branch from an explicit base commit, and the list git keeps.

use super::{Git, GitError};
use std::path::{Path, PathBuf};

/// One worktree as `git worktree list --porcelain -z` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeInfo {
    pub path: PathBuf,
    /// `None` when detached.
    pub branch: Option<String>,
    pub head: Option<String>,
}

/// The commit `reference` names (a branch, a tag, `HEAD`, an id).
///
/// # Errors
/// `UnknownRef`, `NotARepository`, or git's own failure.
pub fn resolve_commit(git: &Git, reference: &str) -> Result<String, GitError> {
    if reference.starts_with('-') {
        return Err(GitError::UnknownRef(reference.to_owned()));
    }
    let spec = format!("{reference}^{{commit}}");
    let ran = git.run(&[
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        &spec,
    ])?;
    if ran.ok {
        return Ok(String::from_utf8_lossy(&ran.stdout).trim().to_owned());
    }
    // A bad repository says so; anything else is a ref that names no commit.
    git.output(&["rev-parse", "--git-dir"])?;
    Err(GitError::UnknownRef(reference.to_owned()))
}

/// Adds a worktree at `path` on a new branch `branch` starting at `base_commit`.
///
/// # Errors
/// `BranchTaken`, `NotARepository`, or git's own failure (the path exists, say); nothing is
/// left behind on failure.
pub fn add_worktree(
    repo: &Git,
    path: &Path,
    branch: &str,
    base_commit: &str,
) -> Result<(), GitError> {
    let full = format!("refs/heads/{branch}");
    if repo.run(&["rev-parse", "--verify", "--quiet", &full])?.ok {
        return Err(GitError::BranchTaken(branch.to_owned()));
    }
    let path_text = path.to_string_lossy();
    let args = [
        "worktree",
        "add",
        "--quiet",
        "-b",
        branch,
        "--",
        path_text.as_ref(),
        base_commit,
    ];
    let ran = repo.run(&args)?;
    if ran.ok {
        Ok(())
    } else {
        Err(repo.failed(&args, &ran))
    }
}

/// Every worktree of the repository, its main one first.
///
/// # Errors
/// `NotARepository`, or git's own failure.
pub fn list_worktrees(repo: &Git) -> Result<Vec<WorktreeInfo>, GitError> {
    let ran = repo.run(&["worktree", "list", "--porcelain", "-z"])?;
    if !ran.ok {
        return Err(repo.failed(&["worktree", "list"], &ran));
    }
    let mut all = Vec::new();
    let mut current: Option<WorktreeInfo> = None;
    for field in ran.stdout.split(|b| *b == 0) {
        let field = String::from_utf8_lossy(field);
        if field.is_empty() {
            all.extend(current.take());
            continue;
        }
        if let Some(path) = field.strip_prefix("worktree ") {
            all.extend(current.take());
            current = Some(WorktreeInfo {
                path: PathBuf::from(path),
                branch: None,
                head: None,
            });
        } else if let Some(info) = current.as_mut() {
            if let Some(head) = field.strip_prefix("HEAD ") {
                info.head = Some(head.to_owned());
            } else if let Some(branch) = field.strip_prefix("branch ") {
                info.branch = Some(branch.trim_start_matches("refs/heads/").to_owned());
            }
        }
    }
    all.extend(current);
    Ok(all)
}
