//! Rebasing an agent's branch onto its base, inside its worktree. A conflict leaves the rebase
//! in progress with its files listed (the user aborts, fixes it, or asks the agent to); no
//! other git operation starts in a tree where one is already in progress.

use super::{Git, GitError};

/// How a rebase ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebased {
    /// The branch now sits on the base.
    Done,
    /// Stopped on these files, the rebase still in progress.
    Conflicts(Vec<String>),
}

/// The operation in progress in this tree, if any (a rebase, a merge, a cherry-pick, a
/// revert).
///
/// # Errors
/// git's own failure.
pub fn in_progress(git: &Git) -> Result<Option<&'static str>, GitError> {
    for (marker, what) in [
        ("rebase-merge", "rebase"),
        ("rebase-apply", "rebase"),
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
    ] {
        let path = git.output(&["rev-parse", "--path-format=absolute", "--git-path", marker])?;
        if std::path::Path::new(&path).exists() {
            return Ok(Some(what));
        }
    }
    Ok(None)
}

/// Rebases the worktree's branch onto `base`. Refused while another operation is in progress
/// there; uncommitted work is set aside and put back (`--autostash`).
///
/// # Errors
/// `InProgress`, `UnknownRef`, git's own failure other than a conflict.
pub fn rebase_onto(worktree: &Git, base: &str) -> Result<Rebased, GitError> {
    if let Some(what) = in_progress(worktree)? {
        return Err(GitError::InProgress {
            what,
            dir: worktree.dir().to_path_buf(),
        });
    }
    let onto = super::resolve_commit(worktree, base)?;
    let args = ["rebase", "--autostash", "--quiet", &onto];
    let ran = worktree.run(&args)?;
    if ran.ok {
        return Ok(Rebased::Done);
    }
    let conflicted = worktree.run(&["diff", "--name-only", "--diff-filter=U", "-z"])?;
    let files: Vec<String> = conflicted
        .stdout
        .split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    if files.is_empty() {
        return Err(worktree.failed(&args, &ran));
    }
    Ok(Rebased::Conflicts(files))
}

/// Abandons the rebase in progress: the branch and the worktree as they were before it.
///
/// # Errors
/// git's own failure (no rebase in progress, say).
pub fn abort_rebase(worktree: &Git) -> Result<(), GitError> {
    worktree.output(&["rebase", "--abort"]).map(|_| ())
}
