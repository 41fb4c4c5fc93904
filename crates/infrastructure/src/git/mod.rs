//! git, through its command line (`docs/worktrees.md`): worktrees for agents, a snapshot of a
//! worktree taken with a temporary index (the agent's own index is never touched), the files
//! a branch changed, a conflict preview and a squash onto a base made with `merge-tree` and a
//! compare-and-swap `update-ref` (no checkout anywhere).
//!
//! The repository is untrusted input: its config may name programs git would run (an
//! fsmonitor hook, a pager, an external diff, a textconv filter); those are turned off, and
//! git gets no terminal, no input, the C locale and a deadline.

mod archive;
mod host;
mod merge;
mod rebase;
mod review;
mod run;
mod setup;
mod snapshot;
mod watch;
mod worktree;

pub use archive::{archive_worktree, behind_base, restore_worktree, wip_ref};
pub use host::GitWorktrees;
pub use merge::{MergePreview, conflict_preview, squash_onto};
pub use rebase::{Rebased, abort_rebase, in_progress, rebase_onto};
pub use review::{FileChange, changed_files};
pub use run::{Git, GitError, MIN_VERSION, version};
pub use setup::{Included, WORKTREE_INCLUDE, copy_included, link_folders};
pub use snapshot::{save_work_in_progress, snapshot_tree};
pub use watch::{OnChange, WorktreeList, WorktreeWatch, watch_worktrees};
pub use worktree::{WorktreeInfo, add_worktree, list_worktrees, resolve_commit};
