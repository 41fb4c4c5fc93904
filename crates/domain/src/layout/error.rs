//! Why a layout operation was refused, or why a stored layout is not usable.

use crate::ids::{LayoutId, NodeId};

/// A refused layout operation or an unusable `layouts.json`.
///
/// Callers branch on the variant (e.g. `LastCell` disables the close button); the messages are
/// written for a human reading a toast or a log line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// No node with this id in the tree.
    #[error("no cell or split with id {0} in this layout")]
    NodeNotFound(NodeId),
    /// The id names a split where a cell (leaf) was expected.
    #[error("node {0} is a split, not a cell")]
    NotALeaf(NodeId),
    /// The id names a cell (leaf) where a split was expected.
    #[error("node {0} is a cell, not a split")]
    NotASplit(NodeId),
    /// Closing (or moving away) the only cell would leave an empty layout.
    #[error("cannot close the last cell of a layout")]
    LastCell,
    /// A cell cannot be moved next to, or swapped with, itself.
    #[error("a cell cannot be moved next to or swapped with itself")]
    SameNode,
    /// A node id given for a new node is already used in the tree.
    #[error("node id {0} is already used in this layout")]
    DuplicateNode(NodeId),
    /// Ratios that are not usable for this split (wrong count, too small, not finite, …).
    #[error("invalid split ratios: {0}")]
    InvalidRatios(String),
    /// The edit would nest splits deeper than [`super::MAX_LAYOUT_DEPTH`].
    #[error(
        "splits nest at most {max} deep: split this cell the other way, or split a larger cell"
    )]
    TooDeep {
        /// The cap.
        max: usize,
    },
    /// No layout with this id.
    #[error("no layout with id {0}")]
    LayoutNotFound(LayoutId),
    /// A layout id given for a new layout is already used.
    #[error("layout id {0} is already used")]
    DuplicateLayout(LayoutId),
    /// Deleting the only layout would leave nothing to show.
    #[error("cannot delete the last layout")]
    LastLayout,
    /// A layout name that breaks the naming rules (see [`super::layout_name`]).
    #[error("invalid layout name: {0}")]
    InvalidName(String),
    /// `layouts.json` was written by a newer (or unknown) schema; it is left untouched.
    #[error("layouts file has schema version {found}, this IdeA reads version {supported}")]
    UnsupportedVersion {
        /// The version found in the file.
        found: u64,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// A stored layout that is not well formed (corrupt file, hand edit gone wrong, …).
    #[error("malformed layout: {0}")]
    Malformed(String),
}
