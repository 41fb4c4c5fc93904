//! Unit tests of the tree queries, the editing operations and `validate`.

use super::{agent, conversation, n};
use crate::layout::{Direction, LayoutError, LayoutNode, LayoutTree, Leaf, Side, Split};

const H: Direction = Direction::Horizontal;
const V: Direction = Direction::Vertical;

/// Renders a tree compactly: `H100[1@0.500 V101[2@0.500 3@0.500]@0.500]`, ids as numbers.
fn shape(tree: &LayoutTree) -> String {
    fn render(node: &LayoutNode) -> String {
        match node {
            LayoutNode::Leaf(leaf) => leaf.id.0.as_u128().to_string(),
            LayoutNode::Split(split) => {
                let dir = match split.direction {
                    Direction::Horizontal => "H",
                    Direction::Vertical => "V",
                };
                let children: Vec<String> = split
                    .children
                    .iter()
                    .zip(&split.ratios)
                    .map(|(child, ratio)| format!("{}@{ratio:.3}", render(child)))
                    .collect();
                format!("{dir}{}[{}]", split.id.0.as_u128(), children.join(" "))
            }
        }
    }
    render(&tree.root)
}

/// `H100[1@0.500 2@0.250 3@0.250]`.
fn three_wide() -> LayoutTree {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), H, n(2), n(100)).unwrap();
    tree.split(n(2), H, n(3), n(101)).unwrap();
    tree
}

fn busy(id: u128, who: u128) -> Leaf {
    Leaf {
        id: n(id),
        agent: Some(agent(who)),
        conversation_id: Some(conversation(who)),
        engine_session_id: Some(format!("session-{who}")),
        agent_was_running: true,
    }
}

#[test]
fn single_is_one_empty_cell() {
    let tree = LayoutTree::single(n(1));
    assert_eq!(tree.leaves(), vec![&Leaf::empty(n(1))]);
    assert_eq!(tree.validate(), Ok(()));
}

#[test]
fn split_replaces_the_cell_with_a_half_half_split() {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), V, n(2), n(100)).unwrap();
    assert_eq!(shape(&tree), "V100[1@0.500 2@0.500]");
    assert_eq!(tree.leaf(n(2)), Some(&Leaf::empty(n(2))));
}

#[test]
fn split_in_the_parents_direction_joins_the_parent_without_the_new_split_id() {
    let tree = three_wide();
    assert_eq!(shape(&tree), "H100[1@0.500 2@0.250 3@0.250]");
    assert!(!tree.contains(n(101)));
}

#[test]
fn split_across_the_parents_direction_nests_and_before_goes_first() {
    let mut tree = three_wide();
    tree.split_at(n(3), V, Side::Before, n(4), n(102)).unwrap();
    assert_eq!(
        shape(&tree),
        "H100[1@0.500 2@0.250 V102[4@0.500 3@0.500]@0.250]"
    );
    tree.split_at(n(1), H, Side::Before, n(5), n(103)).unwrap();
    assert_eq!(
        shape(&tree),
        "H100[5@0.250 1@0.250 2@0.250 V102[4@0.500 3@0.500]@0.250]"
    );
}

#[test]
fn split_refusals_leave_the_tree_unchanged() {
    let mut tree = three_wide();
    let before = tree.clone();
    assert_eq!(
        tree.split(n(9), V, n(4), n(102)),
        Err(LayoutError::NodeNotFound(n(9)))
    );
    assert_eq!(
        tree.split(n(100), V, n(4), n(102)),
        Err(LayoutError::NotALeaf(n(100)))
    );
    assert_eq!(
        tree.split(n(1), V, n(2), n(102)),
        Err(LayoutError::DuplicateNode(n(2)))
    );
    assert_eq!(
        tree.split(n(1), V, n(4), n(100)),
        Err(LayoutError::DuplicateNode(n(100)))
    );
    assert_eq!(
        tree.split(n(1), V, n(4), n(4)),
        Err(LayoutError::DuplicateNode(n(4)))
    );
    assert_eq!(tree, before);
}

#[test]
fn close_gives_the_space_to_the_siblings_in_proportion() {
    let mut tree = three_wide();
    tree.close(n(3)).unwrap();
    assert_eq!(shape(&tree), "H100[1@0.667 2@0.333]");
}

#[test]
fn close_returns_the_cell_with_its_contents() {
    let mut tree = three_wide();
    tree.assign_agent(n(2), Some(agent(7))).unwrap();
    let closed = tree.close(n(2)).unwrap();
    assert_eq!(closed.agent, Some(agent(7)));
    assert_eq!(tree.leaf(n(2)), None);
}

#[test]
fn close_replaces_a_split_left_with_one_child_by_that_child() {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), H, n(2), n(100)).unwrap();
    tree.split(n(2), V, n(3), n(101)).unwrap();
    tree.close(n(3)).unwrap();
    assert_eq!(shape(&tree), "H100[1@0.500 2@0.500]");
    tree.close(n(1)).unwrap();
    assert_eq!(shape(&tree), "2");
    assert_eq!(tree.close(n(2)), Err(LayoutError::LastCell));
}

#[test]
fn close_merges_a_lone_same_direction_grandchild_into_the_grandparent() {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), H, n(2), n(100)).unwrap();
    tree.split(n(2), V, n(3), n(101)).unwrap();
    tree.split(n(3), H, n(4), n(102)).unwrap();
    assert_eq!(
        shape(&tree),
        "H100[1@0.500 V101[2@0.500 H102[3@0.500 4@0.500]@0.500]@0.500]"
    );
    tree.close(n(2)).unwrap();
    assert_eq!(shape(&tree), "H100[1@0.500 3@0.250 4@0.250]");
    assert_eq!(tree.validate(), Ok(()));
}

#[test]
fn close_refuses_splits_and_unknown_ids() {
    let mut tree = three_wide();
    assert_eq!(tree.close(n(100)), Err(LayoutError::NotALeaf(n(100))));
    assert_eq!(tree.close(n(9)), Err(LayoutError::NodeNotFound(n(9))));
}

#[test]
fn move_keeps_the_cell_and_its_contents() {
    let mut tree = three_wide();
    tree.assign_agent(n(1), Some(agent(7))).unwrap();
    tree.move_leaf(n(1), n(3), H, n(102)).unwrap();
    assert_eq!(shape(&tree), "H100[2@0.500 3@0.250 1@0.250]");
    assert_eq!(tree.leaf(n(1)).and_then(|leaf| leaf.agent), Some(agent(7)));
}

#[test]
fn move_across_directions_uses_the_new_split_id() {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), H, n(2), n(100)).unwrap();
    tree.move_leaf(n(1), n(2), V, n(101)).unwrap();
    assert_eq!(shape(&tree), "V101[2@0.500 1@0.500]");
    tree.move_leaf_to(n(1), n(2), H, Side::Before, n(102))
        .unwrap();
    assert_eq!(shape(&tree), "H102[1@0.500 2@0.500]");
}

#[test]
fn move_refusals_leave_the_tree_unchanged() {
    let mut tree = three_wide();
    let before = tree.clone();
    assert_eq!(
        tree.move_leaf(n(1), n(1), V, n(102)),
        Err(LayoutError::SameNode)
    );
    assert_eq!(
        tree.move_leaf(n(9), n(1), V, n(102)),
        Err(LayoutError::NodeNotFound(n(9)))
    );
    assert_eq!(
        tree.move_leaf(n(1), n(100), V, n(102)),
        Err(LayoutError::NotALeaf(n(100)))
    );
    assert_eq!(
        tree.move_leaf(n(1), n(2), V, n(3)),
        Err(LayoutError::DuplicateNode(n(3)))
    );
    assert_eq!(tree, before);
}

#[test]
fn swap_exchanges_contents_and_keeps_ids_and_places() {
    let mut tree = three_wide();
    if let LayoutNode::Split(split) = &mut tree.root {
        split.children[0] = LayoutNode::Leaf(busy(1, 7));
    }
    tree.swap(n(1), n(3)).unwrap();
    assert_eq!(tree.leaf(n(1)), Some(&Leaf::empty(n(1))));
    assert_eq!(tree.leaf(n(3)), Some(&busy(3, 7)));
    assert_eq!(shape(&tree), "H100[1@0.500 2@0.250 3@0.250]");
    assert_eq!(tree.swap(n(1), n(1)), Err(LayoutError::SameNode));
    assert_eq!(tree.swap(n(1), n(100)), Err(LayoutError::NotALeaf(n(100))));
    assert_eq!(tree.swap(n(9), n(1)), Err(LayoutError::NodeNotFound(n(9))));
}

#[test]
fn resize_normalises_and_enforces_the_minimum_share() {
    let mut tree = three_wide();
    tree.resize(n(100), vec![200.0, 100.0, 100.0]).unwrap();
    assert_eq!(shape(&tree), "H100[1@0.500 2@0.250 3@0.250]");
    tree.resize(n(100), vec![0.05, 0.05, 0.9]).unwrap();
    let before = tree.clone();
    for bad in [
        vec![0.5, 0.5],
        vec![0.04, 0.48, 0.48],
        vec![f64::NAN, 0.5, 0.5],
        vec![f64::INFINITY, 0.5, 0.5],
        vec![-0.2, 0.6, 0.6],
        vec![f64::MAX, f64::MAX, f64::MAX],
    ] {
        assert!(
            matches!(
                tree.resize(n(100), bad.clone()),
                Err(LayoutError::InvalidRatios(_))
            ),
            "{bad:?} accepted"
        );
    }
    assert_eq!(
        tree.resize(n(1), vec![1.0]),
        Err(LayoutError::NotASplit(n(1)))
    );
    assert_eq!(
        tree.resize(n(9), vec![1.0]),
        Err(LayoutError::NodeNotFound(n(9)))
    );
    assert_eq!(tree, before);
}

#[test]
fn assigning_another_agent_forgets_the_old_session() {
    let mut tree = LayoutTree::single(n(1));
    tree.assign_agent(n(1), Some(agent(7))).unwrap();
    tree.set_conversation(n(1), Some(conversation(7)), Some("s".into()))
        .unwrap();
    tree.set_running(n(1), true).unwrap();
    assert_eq!(
        tree.leaf(n(1)),
        Some(&Leaf {
            engine_session_id: Some("s".into()),
            ..busy(1, 7)
        })
    );

    tree.assign_agent(n(1), Some(agent(7))).unwrap();
    assert!(
        tree.leaf(n(1)).is_some_and(|leaf| leaf.agent_was_running),
        "same agent: kept"
    );

    tree.assign_agent(n(1), Some(agent(8))).unwrap();
    assert_eq!(
        tree.leaf(n(1)),
        Some(&Leaf {
            agent: Some(agent(8)),
            ..Leaf::empty(n(1))
        })
    );
    tree.assign_agent(n(1), None).unwrap();
    assert_eq!(tree.leaf(n(1)), Some(&Leaf::empty(n(1))));
}

#[test]
fn cell_setters_refuse_splits_and_unknown_ids() {
    let mut tree = three_wide();
    assert_eq!(
        tree.assign_agent(n(100), None),
        Err(LayoutError::NotALeaf(n(100)))
    );
    assert_eq!(
        tree.set_running(n(9), true),
        Err(LayoutError::NodeNotFound(n(9)))
    );
    assert_eq!(
        tree.set_conversation(n(100), None, None),
        Err(LayoutError::NotALeaf(n(100)))
    );
}

#[test]
fn queries_walk_left_to_right_and_top_to_bottom() {
    let mut tree = three_wide();
    tree.split(n(2), V, n(4), n(102)).unwrap();
    tree.assign_agent(n(4), Some(agent(7))).unwrap();
    tree.assign_agent(n(3), Some(agent(7))).unwrap();
    let ids: Vec<_> = tree.leaves().iter().map(|leaf| leaf.id).collect();
    assert_eq!(ids, vec![n(1), n(2), n(4), n(3)]);
    assert_eq!(tree.agent_leaves(agent(7)), vec![n(4), n(3)]);
    assert_eq!(
        tree.node_ids(),
        vec![n(100), n(1), n(102), n(2), n(4), n(3)]
    );
    assert_eq!(tree.leaf_count(), 4);
    assert_eq!(tree.leaf(n(102)), None);
    assert!(tree.find(n(102)).and_then(LayoutNode::as_split).is_some());
}

fn split_of(ratios: Vec<f64>, children: Vec<LayoutNode>) -> LayoutTree {
    LayoutTree {
        root: LayoutNode::Split(Split {
            id: n(100),
            direction: H,
            ratios,
            children,
        }),
    }
}

fn cell(id: u128) -> LayoutNode {
    LayoutNode::Leaf(Leaf::empty(n(id)))
}

#[test]
fn validate_rejects_what_the_operations_never_produce() {
    assert_eq!(
        split_of(vec![0.5, 0.5], vec![cell(1), cell(2)]).validate(),
        Ok(())
    );
    let cases = [
        split_of(vec![0.5, 0.5], vec![cell(1), cell(1)]),
        split_of(vec![0.5, 0.5], vec![cell(1), cell(100)]),
        split_of(vec![1.0], vec![cell(1)]),
        split_of(vec![], vec![]),
        split_of(vec![0.5, 0.25, 0.25], vec![cell(1), cell(2)]),
        split_of(vec![0.5, 0.6], vec![cell(1), cell(2)]),
        split_of(vec![1.0, 0.0], vec![cell(1), cell(2)]),
        split_of(vec![1.5, -0.5], vec![cell(1), cell(2)]),
        split_of(vec![f64::NAN, 0.5], vec![cell(1), cell(2)]),
    ];
    for tree in cases {
        assert!(tree.validate().is_err(), "{tree:?} accepted");
    }
    let near = split_of(vec![0.5, 0.5 + 1e-9], vec![cell(1), cell(2)]);
    assert_eq!(near.validate(), Ok(()), "rounding noise is tolerated");
}
