//! Property tests: random sequences of edits, aimed at existing and bogus ids, keep the tree
//! valid and account for every cell's contents.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::{agent, conversation, layout, n};
use crate::layout::{
    Direction, LayoutError, LayoutNode, LayoutTree, Layouts, Leaf, MAX_LAYOUT_DEPTH, Side,
};

/// An id chosen at run time: one of the tree's node ids (cell or split), or one it lacks.
#[derive(Debug, Clone, Copy)]
enum Pick {
    Existing(usize),
    Bogus,
}

#[derive(Debug, Clone)]
enum Op {
    Split(Pick, Direction, Side),
    /// Splits the deepest cell across its parent: the edit that nests, aimed at the cap.
    Deepen(Side),
    Close(Pick),
    Move(Pick, Pick, Direction, Side),
    Swap(Pick, Pick),
    /// The flag fits the ratios to the split's child count, so most resizes can succeed.
    Resize(Pick, Vec<f64>, bool),
    Assign(Pick, Option<u8>),
    Converse(Pick, Option<u8>),
    Run(Pick, bool),
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![9 => any::<usize>().prop_map(Pick::Existing), 1 => Just(Pick::Bogus)]
}

fn direction() -> impl Strategy<Value = Direction> {
    prop_oneof![Just(Direction::Horizontal), Just(Direction::Vertical)]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Before), Just(Side::After)]
}

fn ratio() -> impl Strategy<Value = f64> {
    prop_oneof![8 => 0.2..3.0f64, 1 => 0.0..0.2f64, 1 => Just(f64::NAN), 1 => Just(-1.0)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (pick(), direction(), side()).prop_map(|(p, d, s)| Op::Split(p, d, s)),
        4 => side().prop_map(Op::Deepen),
        2 => pick().prop_map(Op::Close),
        2 => (pick(), pick(), direction(), side()).prop_map(|(a, b, d, s)| Op::Move(a, b, d, s)),
        1 => (pick(), pick()).prop_map(|(a, b)| Op::Swap(a, b)),
        2 => (pick(), prop::collection::vec(ratio(), 1..6), prop::bool::weighted(0.8))
            .prop_map(|(p, r, fit)| Op::Resize(p, r, fit)),
        2 => (pick(), any::<Option<u8>>()).prop_map(|(p, a)| Op::Assign(p, a)),
        1 => (pick(), any::<Option<u8>>()).prop_map(|(p, c)| Op::Converse(p, c)),
        1 => (pick(), any::<bool>()).prop_map(|(p, r)| Op::Run(p, r)),
    ]
}

/// The id `pick` stands for; bogus ids are `u128::MAX`, which the fresh-id counter never reaches.
fn resolve(tree: &LayoutTree, pick: Pick) -> crate::ids::NodeId {
    let ids = tree.node_ids();
    match pick {
        Pick::Existing(index) if !ids.is_empty() => ids[index % ids.len()],
        _ => n(u128::MAX),
    }
}

/// The deepest cell, and the direction across its parent's (which nests a new split).
fn deepest(node: &LayoutNode, parent: Direction) -> (usize, crate::ids::NodeId, Direction) {
    match node {
        LayoutNode::Leaf(leaf) => {
            let across = match parent {
                Direction::Horizontal => Direction::Vertical,
                Direction::Vertical => Direction::Horizontal,
            };
            (0, leaf.id, across)
        }
        LayoutNode::Split(split) => split
            .children
            .iter()
            .map(|child| deepest(child, split.direction))
            .max_by_key(|(depth, ..)| *depth)
            .map_or((0, split.id, parent), |(depth, id, d)| (depth + 1, id, d)),
    }
}

/// Every cell's contents by id: what the edits must account for.
fn cells(tree: &LayoutTree) -> BTreeMap<crate::ids::NodeId, Leaf> {
    tree.leaves()
        .into_iter()
        .map(|leaf| (leaf.id, leaf.clone()))
        .collect()
}

/// Applies `op` and checks its effect against the cells before; fresh ids come from `next`.
fn apply(tree: &mut LayoutTree, op: &Op, next: &mut u128) -> Result<(), TestCaseError> {
    let before_tree = tree.clone();
    let before = cells(tree);
    let mut fresh = || {
        *next += 1;
        n(*next)
    };
    let mut expected = before.clone();
    let outcome: Result<(), LayoutError> = match op {
        Op::Split(p, d, s) => {
            let (leaf, split) = (fresh(), fresh());
            let result = tree.split_at(resolve(tree, *p), *d, *s, leaf, split);
            expected.insert(leaf, Leaf::empty(leaf));
            result
        }
        Op::Deepen(s) => {
            let (leaf, split) = (fresh(), fresh());
            let (_, target, across) = deepest(&tree.root, Direction::Horizontal);
            let result = tree.split_at(target, across, *s, leaf, split);
            expected.insert(leaf, Leaf::empty(leaf));
            result
        }
        Op::Close(p) => {
            let target = resolve(tree, *p);
            let result = tree.close(target);
            if let Ok(closed) = &result {
                expected.remove(&target);
                prop_assert_eq!(Some(closed), before.get(&target));
            }
            result.map(|_| ())
        }
        Op::Move(a, b, d, s) => {
            let split = fresh();
            tree.move_leaf_to(resolve(tree, *a), resolve(tree, *b), *d, *s, split)
        }
        Op::Swap(a, b) => {
            let (a, b) = (resolve(tree, *a), resolve(tree, *b));
            if let (Some(la), Some(lb)) = (before.get(&a), before.get(&b)) {
                expected.insert(
                    a,
                    Leaf {
                        id: a,
                        ..lb.clone()
                    },
                );
                expected.insert(
                    b,
                    Leaf {
                        id: b,
                        ..la.clone()
                    },
                );
            }
            tree.swap(a, b)
        }
        Op::Resize(p, ratios, fit) => {
            let target = resolve(tree, *p);
            let children = tree
                .find(target)
                .and_then(|node| node.as_split())
                .map(|s| s.children.len());
            let ratios = match children {
                Some(count) if *fit => ratios.iter().copied().cycle().take(count).collect(),
                _ => ratios.clone(),
            };
            tree.resize(target, ratios)
        }
        Op::Assign(p, who) => {
            let target = resolve(tree, *p);
            let who = who.map(|w| agent(u128::from(w)));
            if let Some(old) = before.get(&target)
                && old.agent != who
            {
                expected.insert(
                    target,
                    Leaf {
                        agent: who,
                        ..Leaf::empty(target)
                    },
                );
            }
            tree.assign_agent(target, who)
        }
        Op::Converse(p, c) => {
            let target = resolve(tree, *p);
            let c = c.map(|c| conversation(u128::from(c)));
            let session = c.map(|c| c.to_string());
            if let Some(old) = before.get(&target) {
                let updated = Leaf {
                    conversation_id: c,
                    engine_session_id: session.clone(),
                    ..old.clone()
                };
                expected.insert(target, updated);
            }
            tree.set_conversation(target, c, session)
        }
        Op::Run(p, running) => {
            let target = resolve(tree, *p);
            if let Some(old) = before.get(&target) {
                expected.insert(
                    target,
                    Leaf {
                        agent_was_running: *running,
                        ..old.clone()
                    },
                );
            }
            tree.set_running(target, *running)
        }
    };

    prop_assert_eq!(tree.validate(), Ok(()), "after {:?}", op);
    prop_assert!(
        tree.depth() <= MAX_LAYOUT_DEPTH,
        "{} deep after {:?}",
        tree.depth(),
        op
    );
    match outcome {
        Ok(()) => {
            prop_assert_eq!(cells(tree), expected, "cells after {:?}", op);
            let delta = match op {
                Op::Split(..) | Op::Deepen(_) => 1,
                Op::Close(_) => -1,
                _ => 0,
            };
            let counted = before.len().checked_add_signed(delta);
            prop_assert_eq!(
                Some(tree.leaf_count()),
                counted,
                "cell count after {:?}",
                op
            );
        }
        Err(_) => prop_assert_eq!(&*tree, &before_tree, "a refused {:?} changed the tree", op),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_edits_keep_the_tree_valid_and_the_cells_accounted_for(
        ops in prop::collection::vec(op(), 1..60)
    ) {
        let mut tree = LayoutTree::single(n(1));
        let mut next = 1000;
        for op in &ops {
            apply(&mut tree, op, &mut next)?;
        }
    }

    /// Whatever the writer can produce, the reader reads: `layouts.json` goes through
    /// serde_json with its default recursion limit, as the store reads it.
    #[test]
    fn random_trees_survive_a_json_round_trip(ops in prop::collection::vec(op(), 1..120)) {
        let mut tree = LayoutTree::single(n(1));
        let mut next = 1000;
        for op in &ops {
            apply(&mut tree, op, &mut next)?;
        }
        let mut doc = Layouts::new(layout(1), "Main", n(1)).expect("document");
        doc.layouts[0].tree = tree.clone();
        let json = doc.to_json().expect("serialise");
        let back = Layouts::from_json(&json).expect("deserialise").layouts.remove(0).tree;
        prop_assert_eq!(back.validate(), Ok(()));
        prop_assert_eq!(back.node_ids(), tree.node_ids());
        prop_assert_eq!(cells(&back), cells(&tree));
    }
}
