//! A worktree as a tree object, untracked files included, made with a temporary index
//! (`GIT_INDEX_FILE`): the agent's own index is never read or written, so a review or a save
//! never disturbs what it staged. Ignored files are left out, as `git add -A` leaves them.

use super::{Git, GitError};

/// The tree of everything in the worktree now (committed, staged, unstaged, untracked).
///
/// # Errors
/// git's own failure, or a temporary index that cannot be made.
pub fn snapshot_tree(worktree: &Git) -> Result<String, GitError> {
    let dir = tempfile::tempdir().map_err(|e| GitError::Failed {
        command: "snapshot".into(),
        message: format!("no temporary index: {e}"),
    })?;
    let temporary = worktree.with_index(&dir.path().join("index"));
    // An unborn HEAD (no commit yet) starts from an empty index.
    if temporary
        .run(&["rev-parse", "--verify", "--quiet", "HEAD"])?
        .ok
    {
        temporary.output(&["read-tree", "HEAD"])?;
    }
    temporary.output(&["add", "-A", "--", "."])?;
    temporary.output(&["write-tree"])
}

/// Everything in the worktree now as a commit on its HEAD with `message`, under no ref.
///
/// # Errors
/// git's own failure.
pub(super) fn snapshot_commit(worktree: &Git, message: &str) -> Result<String, GitError> {
    let tree = snapshot_tree(worktree)?;
    let head = worktree.output(&["rev-parse", "--verify", "HEAD"])?;
    worktree.output(&[
        "-c",
        "user.name=IdeA",
        "-c",
        "user.email=idea@localhost",
        "commit-tree",
        &tree,
        "-p",
        &head,
        "-m",
        message,
    ])
}

/// Saves the worktree's uncommitted work, untracked files included, as a commit on top of
/// its HEAD under `reference` (e.g. `refs/idea/wip/<agent>`); returns the commit. Nothing in
/// the worktree, its index or its branch changes.
///
/// # Errors
/// git's own failure.
pub fn save_work_in_progress(worktree: &Git, reference: &str) -> Result<String, GitError> {
    let commit = snapshot_commit(
        worktree,
        "IdeA: uncommitted work saved before the worktree was removed",
    )?;
    worktree.output(&[
        "update-ref",
        "-m",
        "idea: save work in progress",
        reference,
        &commit,
    ])?;
    Ok(commit)
}
