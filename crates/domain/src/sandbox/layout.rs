//! A plan as rules that only add rights. Landlock grants an access to a hierarchy and cannot
//! take it back below, so "everything under R except D" is granted as: R's entries one by one,
//! except the one leading to D, and so on down to D's parent. The folders on the way ("split"
//! folders) get no rule covering their whole hierarchy.
//!
//! Consequences (see `docs/sandbox.md`): an entry is granted by name when the sandbox starts,
//! so an entry created later in a split folder (by anyone) is not covered; a split folder
//! itself is not writable (nothing can be created or removed directly in it); on the read side
//! split folders are granted their listing, which Landlock extends to everything below them:
//! the names inside a denied folder can be listed, its files cannot be opened.

use super::SandboxPlan;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How to grant one access (read, or write) for a plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// Hierarchies granted whole.
    pub whole: Vec<PathBuf>,
    /// Folders on the way to a denied path: each of their entries not in `skip` is granted
    /// whole.
    pub split: BTreeSet<PathBuf>,
    /// Entries never granted: the denied paths and the split folders (which are granted
    /// through their own entries).
    pub skip: BTreeSet<PathBuf>,
}

impl Layout {
    fn split_towards(&mut self, denied: &Path, top: &Path) {
        self.skip.insert(denied.to_path_buf());
        for ancestor in denied.ancestors().skip(1) {
            if !ancestor.starts_with(top) {
                break;
            }
            self.split.insert(ancestor.to_path_buf());
            self.skip.insert(ancestor.to_path_buf());
        }
    }

    /// Drops split folders that lie inside a denied path: they are never reached.
    fn prune(mut self, denied: &[&PathBuf]) -> Self {
        self.split
            .retain(|dir| !denied.iter().any(|d| dir.starts_with(d)));
        self
    }
}

/// Read access: `/` whole, or split down to every read-denied path.
pub fn read_layout(plan: &SandboxPlan) -> Layout {
    let denied: Vec<&PathBuf> = plan.read_denied_all().collect();
    let root = Path::new("/");
    let mut layout = Layout::default();
    if denied.is_empty() {
        layout.whole.push(root.to_path_buf());
        return layout;
    }
    for d in &denied {
        layout.split_towards(d, root);
    }
    layout.prune(&denied)
}

/// Write access: each write root whole, or split down to the denied paths beneath it; a root
/// at or under a denied path is left out.
pub fn write_layout(plan: &SandboxPlan) -> Layout {
    let denied: Vec<&PathBuf> = plan.write_denied_all().collect();
    let mut layout = Layout::default();
    for root in &plan.write_roots {
        if denied.iter().any(|d| root.starts_with(d)) {
            continue;
        }
        let inner: Vec<&&PathBuf> = denied.iter().filter(|d| d.starts_with(root)).collect();
        if inner.is_empty() {
            if !layout.whole.contains(root) {
                layout.whole.push(root.clone());
            }
            continue;
        }
        for d in inner {
            layout.split_towards(d, root);
        }
    }
    layout.prune(&denied)
}
