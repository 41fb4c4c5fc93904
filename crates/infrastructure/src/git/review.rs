//! The files an agent's branch changed: everything in its worktree now (committed, staged,
//! unstaged, untracked: [`snapshot_tree`]) against `merge-base(base, HEAD)`, so a base that
//! moved on since does not show its own changes as the agent's; one `diff-tree` gives each
//! file's status and line counts.

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
    // One diff, both formats: the raw records (`:<modes> <ids> <status>`, then the path)
    // come first, then the line counts (`<added>\t<removed>\t<path>`).
    let args = [
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--no-ext-diff",
        "--no-textconv",
        "--raw",
        "--numstat",
        &fork,
        &tree,
    ];
    let ran = worktree.run(&args)?;
    if !ran.ok {
        return Err(worktree.failed(&["diff-tree"], &ran));
    }
    let mut statuses = Vec::new();
    let mut lines = std::collections::HashMap::new();
    let mut fields = ran.stdout.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(field) = fields.next() {
        if field.first() == Some(&b':') {
            let status = field.last().map_or('M', |b| char::from(*b));
            if let Some(path) = fields.next() {
                statuses.push((String::from_utf8_lossy(path).into_owned(), status));
            }
            continue;
        }
        let text = String::from_utf8_lossy(field);
        let mut parts = text.splitn(3, '\t');
        if let (Some(added), Some(removed), Some(path)) = (parts.next(), parts.next(), parts.next())
        {
            let counted = added.parse().ok().zip(removed.parse().ok());
            lines.insert(path.to_owned(), counted);
        }
    }
    let mut changes: Vec<FileChange> = statuses
        .into_iter()
        .map(|(path, status)| FileChange {
            status,
            lines: lines.get(&path).copied().flatten(),
            path,
        })
        .collect();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}
