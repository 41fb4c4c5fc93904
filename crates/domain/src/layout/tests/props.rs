//! Property tests: random sequences of edits, aimed at existing and bogus ids, keep the tree
//! valid and account for every cell's contents.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::{agent, conversation, n};
use crate::layout::{Direction, LayoutError, LayoutTree, Leaf, Side};

/// An id chosen at run time: one of the tree's node ids (cell or split), or one it lacks.
#[derive(Debug, Clone, Copy)]
enum Pick {
    Existing(usize),
    Bogus,
}

#[derive(Debug, Clone)]
enum Op {
    Split(Pick, Direction, Side),
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
    match outcome {
        Ok(()) => {
            prop_assert_eq!(cells(tree), expected, "cells after {:?}", op);
            let delta = match op {
                Op::Split(..) => 1,
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

    #[test]
    fn random_trees_survive_a_json_round_trip(ops in prop::collection::vec(op(), 1..40)) {
        let mut tree = LayoutTree::single(n(1));
        let mut next = 1000;
        for op in &ops {
            apply(&mut tree, op, &mut next)?;
        }
        let json = serde_json::to_string(&tree).expect("serialise");
        let back: LayoutTree = serde_json::from_str(&json).expect("deserialise");
        prop_assert_eq!(back.validate(), Ok(()));
        prop_assert_eq!(back.node_ids(), tree.node_ids());
        prop_assert_eq!(cells(&back), cells(&tree));
    }
}
