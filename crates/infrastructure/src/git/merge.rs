//! Merging an agent's branch back without a checkout: `merge-tree --write-tree` says what a
//! merge would give (and which files would conflict); a squash onto the base is one
//! `commit-tree` on the base's tip and an `update-ref` that moves the base only if nobody
//! moved it meanwhile.

use super::{Git, GitError};

/// What merging `branch` into `base` would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergePreview {
    /// The merged tree (with conflict markers where there are conflicts).
    pub tree: String,
    /// The files that would conflict; empty when the merge is clean.
    pub conflicts: Vec<String>,
}

/// The merge of `branch` into `base` as git would make it, nothing written but objects.
///
/// # Errors
/// `UnknownRef`, git's own failure.
pub fn conflict_preview(repo: &Git, base: &str, branch: &str) -> Result<MergePreview, GitError> {
    let ours = super::resolve_commit(repo, base)?;
    let theirs = super::resolve_commit(repo, branch)?;
    let args = [
        "merge-tree",
        "--write-tree",
        "--name-only",
        "-z",
        "--no-messages",
        &ours,
        &theirs,
    ];
    let ran = repo.run(&args)?;
    // 0: clean, 1: conflicts; anything else is a failure.
    if !matches!(ran.code, Some(0 | 1)) {
        return Err(repo.failed(&args, &ran));
    }
    let mut fields = ran.stdout.split(|b| *b == 0);
    let tree = fields
        .next()
        .map(|t| String::from_utf8_lossy(t).trim().to_owned())
        .unwrap_or_default();
    let mut conflicts: Vec<String> = fields
        .take_while(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    conflicts.dedup();
    Ok(MergePreview { tree, conflicts })
}

/// Squashes `branch` into the branch `base` as one commit with `message`, without touching
/// any worktree: refused when it would conflict, and when `base` moved while the commit was
/// made. Returns the new commit. A worktree that has `base` checked out is not updated here:
/// the caller brings it up to date (only when it is clean).
///
/// # Errors
/// `Conflicts`, `Moved`, `UnknownRef`, git's own failure.
pub fn squash_onto(
    repo: &Git,
    base: &str,
    branch: &str,
    message: &str,
) -> Result<String, GitError> {
    let tip = super::resolve_commit(repo, base)?;
    let commit = squash_commit(repo, &tip, branch, message)?;
    move_branch(repo, base, &commit, &tip)?;
    Ok(commit)
}

/// The commit on `tip` whose tree is `theirs` merged into it; no ref moves.
///
/// # Errors
/// `Conflicts`, `UnknownRef`, git's own failure.
pub(super) fn squash_commit(
    repo: &Git,
    tip: &str,
    theirs: &str,
    message: &str,
) -> Result<String, GitError> {
    let preview = conflict_preview(repo, tip, theirs)?;
    if !preview.conflicts.is_empty() {
        return Err(GitError::Conflicts(preview.conflicts));
    }
    repo.output(&["commit-tree", &preview.tree, "-p", tip, "-m", message])
}

/// Moves the branch `base` from `old` to `new`, only if it is still at `old`.
///
/// # Errors
/// `Moved`, git's own failure.
pub(super) fn move_branch(repo: &Git, base: &str, new: &str, old: &str) -> Result<(), GitError> {
    let reference = format!("refs/heads/{base}");
    let ran = repo.run(&["update-ref", "-m", "idea: squash", &reference, new, old])?;
    if !ran.ok {
        return Err(GitError::Moved {
            branch: base.to_owned(),
        });
    }
    Ok(())
}
