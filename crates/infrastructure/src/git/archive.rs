//! Archiving an agent's worktree and bringing it back, losing nothing: its uncommitted work,
//! untracked files included, is saved under a hidden ref before the folder goes; the branch is
//! kept; a restore adds the worktree again on its branch and puts that work back, unstaged.

use super::snapshot::save_work_in_progress;
use super::{Git, GitError};
use std::path::Path;

/// The hidden ref an agent's saved work lives under.
pub fn wip_ref(agent_slug: &str) -> String {
    format!("refs/idea/wip/{agent_slug}")
}

/// How many commits `base` has that the worktree's HEAD lacks ("N behind base").
///
/// # Errors
/// `UnknownRef`, git's own failure.
pub fn behind_base(worktree: &Git, base: &str) -> Result<u64, GitError> {
    let base = super::resolve_commit(worktree, base)?;
    let range = format!("HEAD..{base}");
    let count = worktree.output(&["rev-list", "--count", &range])?;
    Ok(count.trim().parse().unwrap_or(0))
}

/// Saves the worktree's uncommitted work under [`wip_ref`] and removes the worktree folder
/// (its branch stays). Returns the saved commit.
///
/// # Errors
/// git's own failure: nothing is removed unless the work was saved first.
pub fn archive_worktree(repo: &Git, worktree: &Path, agent_slug: &str) -> Result<String, GitError> {
    let saved = save_work_in_progress(&Git::at(worktree), &wip_ref(agent_slug))?;
    // `--force`: the uncommitted files are in the saved commit; this is a worktree IdeA made.
    let path = worktree.to_string_lossy();
    repo.output(&["worktree", "remove", "--force", "--", path.as_ref()])?;
    Ok(saved)
}

/// Adds the worktree at `worktree` again on `branch` and puts back the work saved under
/// [`wip_ref`] (unstaged, untracked files untracked again), when there is some; the ref is then
/// dropped.
///
/// # Errors
/// git's own failure (the branch is gone, the folder exists).
pub fn restore_worktree(
    repo: &Git,
    worktree: &Path,
    branch: &str,
    agent_slug: &str,
) -> Result<(), GitError> {
    let reference = wip_ref(agent_slug);
    // Nothing saved (nothing was uncommitted, and the empty save was dropped): the branch alone.
    let saved = match super::resolve_commit(repo, &reference) {
        Ok(saved) => Some(saved),
        Err(GitError::UnknownRef(_)) => None,
        Err(e) => return Err(e),
    };
    let path = worktree.to_string_lossy();
    repo.output(&["worktree", "add", "--quiet", "--", path.as_ref(), branch])?;
    let Some(saved) = saved else {
        return Ok(());
    };
    let restored = Git::at(worktree);
    // The saved tree's files into the folder only: the index stays the branch's, so what
    // was uncommitted is uncommitted again.
    restored.output(&["restore", "--source", &saved, "--worktree", "--", "."])?;
    repo.output(&["update-ref", "-d", &reference, &saved])?;
    Ok(())
}
