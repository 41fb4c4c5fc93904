//! The files an agent's branch changed: everything in its worktree now (committed, staged,
//! unstaged, untracked: [`snapshot_tree`]) against `merge-base(base, HEAD)`, so a base that
//! moved on since does not show its own changes as the agent's.

use super::snapshot::snapshot_tree;
use super::{Git, GitError};

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    /// `A`dded, `M`odified, `D`eleted, `T`ype changed.
    pub status: char,
    /// Lines added and removed; `None` for a binary file.
    pub lines: Option<(u64, u64)>,
}

/// What the worktree changed since it left `base` (a ref or commit), sorted by path.
///
/// # Errors
/// `UnknownRef` (the base), git's own failure.
pub fn changed_files(worktree: &Git, base: &str) -> Result<Vec<FileChange>, GitError> {
    let base_commit = super::resolve_commit(worktree, base)?;
    let fork = worktree.output(&["merge-base", &base_commit, "HEAD"])?;
    let tree = snapshot_tree(worktree)?;
    let diff = |format: &str| {
        worktree
            .run(&[
                "diff-tree",
                "-r",
                "-z",
                "--no-renames",
                "--no-ext-diff",
                "--no-textconv",
                format,
                &fork,
                &tree,
            ])
            .and_then(|ran| {
                if ran.ok {
                    Ok(ran.stdout)
                } else {
                    Err(worktree.failed(&["diff-tree"], &ran))
                }
            })
    };
    let statuses = diff("--name-status")?;
    let numbers = diff("--numstat")?;
    let mut lines = std::collections::HashMap::new();
    for record in numbers.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let text = String::from_utf8_lossy(record);
        let mut parts = text.splitn(3, '\t');
        let (Some(added), Some(removed), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let counted = added.parse().ok().zip(removed.parse().ok());
        lines.insert(path.to_owned(), counted);
    }
    let mut fields = statuses.split(|b| *b == 0).filter(|f| !f.is_empty());
    let mut changes = Vec::new();
    while let (Some(status), Some(path)) = (fields.next(), fields.next()) {
        let path = String::from_utf8_lossy(path).into_owned();
        changes.push(FileChange {
            status: status.first().map_or('M', |b| char::from(*b)),
            lines: lines.get(&path).copied().flatten(),
            path,
        });
    }
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}
