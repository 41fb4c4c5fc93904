//! The tiled layout: a tree of splits whose leaves are the cells that host agents, and the
//! collection of named layouts (the tabs) stored in `.ideai/layouts.json`.
//!
//! Everything here is pure: no I/O and no randomness. Operations that create nodes take the new
//! ids from the caller, so the application decides where ids come from and tests stay
//! deterministic. Every operation returns a [`LayoutError`] instead of producing a tree that
//! [`LayoutTree::validate`] would reject, and leaves its receiver untouched when it fails.
//!
//! - [`tree`]: the node types and the read-only queries and well-formedness rules.
//! - `ops`: the editing operations on one tree (split, close, move, swap, resize, assign).
//! - `ratios`: the rules for split ratios (stored trees, resizes).
//! - [`layouts`]: the named layouts, their names, and the `layouts.json` document.

mod error;
pub mod layouts;
mod ops;
mod ratios;
pub mod tree;

pub use error::LayoutError;
pub use layouts::{LAYOUTS_VERSION, Layouts, MAX_LAYOUT_NAME_CHARS, NamedLayout, layout_name};
pub use ratios::{MIN_RESIZE_RATIO, RATIO_SUM_TOLERANCE};
pub use tree::{Direction, LayoutNode, LayoutTree, Leaf, MAX_LAYOUT_DEPTH, Side, Split};

#[cfg(test)]
#[allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "tests fail loudly on purpose"
)]
mod tests;
