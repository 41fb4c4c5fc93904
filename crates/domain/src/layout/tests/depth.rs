//! The nesting cap: splits nest at most `MAX_LAYOUT_DEPTH` deep, so `layouts.json` never
//! outgrows what its reader accepts.

use super::{layout, n};
use crate::layout::{Direction, LayoutError, LayoutTree, Layouts, MAX_LAYOUT_DEPTH, Side};

const H: Direction = Direction::Horizontal;
const V: Direction = Direction::Vertical;

/// A tree whose newest cell sits `depth` alternating splits down; returns it and that cell.
fn nested(depth: usize) -> (LayoutTree, u128) {
    let mut tree = LayoutTree::single(n(1));
    let mut cell = 1;
    for level in 0..depth {
        let direction = if level.is_multiple_of(2) { H } else { V };
        let next = 1000 + 2 * level as u128;
        tree.split(n(cell), direction, n(next), n(next + 1))
            .unwrap();
        cell = next;
    }
    (tree, cell)
}

/// The direction across the deepest cell's parent in [`nested`]`(MAX_LAYOUT_DEPTH)`.
fn across() -> Direction {
    if MAX_LAYOUT_DEPTH.is_multiple_of(2) {
        H
    } else {
        V
    }
}

#[test]
fn splitting_past_the_cap_is_refused_and_changes_nothing() {
    let (mut tree, deepest) = nested(MAX_LAYOUT_DEPTH);
    assert_eq!(tree.depth(), MAX_LAYOUT_DEPTH);
    let before = tree.clone();
    // Across its parent's direction the split would nest one level more.
    let across = across();
    let err = tree.split(n(deepest), across, n(3), n(4)).unwrap_err();
    assert_eq!(
        err,
        LayoutError::TooDeep {
            max: MAX_LAYOUT_DEPTH
        }
    );
    assert!(err.to_string().contains("deep"), "{err}");
    assert_eq!(tree, before);
    // Along it, the new cell joins the parent: no deeper, so allowed.
    let along = if across == H { V } else { H };
    tree.split(n(deepest), along, n(5), n(6)).unwrap();
    assert_eq!(tree.depth(), MAX_LAYOUT_DEPTH);
}

#[test]
fn moving_a_cell_past_the_cap_is_refused_and_changes_nothing() {
    let (mut tree, deepest) = nested(MAX_LAYOUT_DEPTH);
    // A second cell at the top (joins the root split), so moving it leaves the depth as is.
    tree.split(n(1), H, n(3), n(4)).unwrap();
    let before = tree.clone();
    let across = across();
    // Beside the deepest cell, across its parent, it would nest one level more.
    let err = tree
        .move_leaf_to(n(3), n(deepest), across, Side::Before, n(7))
        .unwrap_err();
    assert_eq!(
        err,
        LayoutError::TooDeep {
            max: MAX_LAYOUT_DEPTH
        }
    );
    assert_eq!(tree, before);
}

#[test]
fn a_stored_tree_past_the_cap_is_malformed() {
    let (mut tree, deepest) = nested(MAX_LAYOUT_DEPTH);
    // Built by hand, as a hand-edited file would be.
    let across = across();
    let slot = tree.root.find_mut(n(deepest)).unwrap();
    let leaf = slot.clone();
    *slot = crate::layout::LayoutNode::Split(crate::layout::Split {
        id: n(9),
        direction: across,
        ratios: vec![0.5, 0.5],
        children: vec![
            leaf,
            crate::layout::LayoutNode::Leaf(crate::layout::Leaf::empty(n(8))),
        ],
    });
    assert_eq!(tree.depth(), MAX_LAYOUT_DEPTH + 1);
    let err = tree.validate().unwrap_err();
    assert!(err.to_string().contains("deep"), "{err}");
    let mut doc = Layouts::new(layout(1), "Main", n(1)).unwrap();
    doc.layouts[0].tree = tree;
    assert!(doc.to_json().is_err());
}

#[test]
fn the_deepest_document_reads_back_with_serde_jsons_default_limit() {
    let (tree, _) = nested(MAX_LAYOUT_DEPTH);
    let mut doc = Layouts::new(layout(1), "Main", n(1)).unwrap();
    doc.layouts[0].tree = tree;
    let json = doc.to_json().unwrap();
    assert_eq!(
        Layouts::from_json(&json).unwrap().layouts[0].tree.depth(),
        MAX_LAYOUT_DEPTH
    );
}
