//! Whatever the writer can produce, the reader reads: `layouts.json` cannot be bricked by
//! nesting splits, and a file nested deeper by hand is a clear CORRUPT_FILE.

use crate::world::world;
use idea_application::{AppError, layouts};
use idea_domain::CellRef;
use idea_domain::layout::{Direction, LayoutNode, LayoutTree, Layouts, Side};
use idea_domain::ports::ProjectStore;
use idea_infrastructure::store::FsProjectStore;
use proptest::prelude::*;
use std::fs;

/// Splits on the longest path from the root to a cell.
fn depth(node: &LayoutNode) -> usize {
    match node {
        LayoutNode::Leaf(_) => 0,
        LayoutNode::Split(s) => 1 + s.children.iter().map(depth).max().unwrap_or(0),
    }
}

/// The deepest cell and the direction that nests a new split under it.
fn deepest(node: &LayoutNode, parent: Direction) -> (usize, idea_domain::NodeId, Direction) {
    match node {
        LayoutNode::Leaf(leaf) => {
            let other = match parent {
                Direction::Horizontal => Direction::Vertical,
                Direction::Vertical => Direction::Horizontal,
            };
            (0, leaf.id, other)
        }
        LayoutNode::Split(s) => s
            .children
            .iter()
            .map(|c| deepest(c, s.direction))
            .max_by_key(|(d, ..)| *d)
            .map(|(d, id, dir)| (d + 1, id, dir))
            .unwrap_or((0, s.id, parent)),
    }
}

#[test]
fn nesting_splits_is_refused_before_the_file_becomes_unreadable() {
    let w = world();
    let l = layouts::get(&w.deps).unwrap();
    let mut cell = CellRef::new(l.active, l.layouts[0].tree.leaves()[0].id);
    let mut refused = None;
    for i in 0..100 {
        let direction = if i % 2 == 0 {
            Direction::Horizontal
        } else {
            Direction::Vertical
        };
        match layouts::split(&w.deps, cell, direction) {
            Ok(new) => cell = CellRef::new(cell.layout_id, new),
            Err(e) => {
                refused = Some((i, e));
                break;
            }
        }
        // Every state the writer produced is readable.
        layouts::get(&w.deps).unwrap();
    }
    let (at, err) = refused.expect("nesting is capped");
    assert_eq!(err.code(), "INVALID_LAYOUT_OPERATION", "{err}");
    assert!(err.to_string().contains("deep"), "{err}");
    assert!(at < 60, "refused only at split {at}");
    let l = layouts::get(&w.deps).unwrap();
    assert_eq!(depth(&l.layouts[0].tree.root), at);
}

/// A `layouts.json` whose one tree nests `depth` splits.
fn nested_file(depth: usize) -> String {
    let id = |n: usize| format!("00000000-0000-0000-0000-{n:012}");
    let mut json = format!(
        "{{\"version\":1,\"active\":\"{}\",\"layouts\":[{{\"id\":\"{}\",\"name\":\"Main\",\"tree\":",
        id(1),
        id(1)
    );
    for level in 0..depth {
        let direction = ["horizontal", "vertical"][level % 2];
        json.push_str(&format!(
            "{{\"type\":\"split\",\"id\":\"{}\",\"direction\":\"{direction}\",\"ratios\":[0.5,0.5],\
             \"children\":[{{\"type\":\"leaf\",\"id\":\"{}\"}},",
            id(10 + 2 * level),
            id(11 + 2 * level)
        ));
    }
    json.push_str(&format!("{{\"type\":\"leaf\",\"id\":\"{}\"}}", id(2)));
    json.push_str(&"]}".repeat(depth));
    json.push_str("}]}\n");
    json
}

#[test]
fn a_hand_nested_file_is_a_clear_corrupt_file_never_a_crash() {
    let w = world();
    let store = FsProjectStore::new(w.root());
    let path = w.ideai().join("layouts.json");
    fs::write(&path, nested_file(3)).unwrap();
    assert!(store.load_layouts().unwrap().is_some(), "the fixture reads");
    for depth in [40, 70, 100_000] {
        let text = nested_file(depth);
        fs::write(&path, &text).unwrap();
        let err = AppError::from(store.load_layouts().unwrap_err());
        assert_eq!(err.code(), "CORRUPT_FILE", "{depth}: {err}");
        let message = err.to_string();
        assert!(
            message.contains("layouts.json") && message.contains("deep"),
            "{depth}: {message}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }
}

/// Equal trees, ratios within rounding: serde_json's default float parsing may move the last
/// digit, which the reader's ratio tolerance absorbs.
fn same(a: &LayoutNode, b: &LayoutNode) -> bool {
    match (a, b) {
        (LayoutNode::Leaf(x), LayoutNode::Leaf(y)) => x == y,
        (LayoutNode::Split(x), LayoutNode::Split(y)) => {
            x.id == y.id
                && x.direction == y.direction
                && x.ratios.len() == y.ratios.len()
                && x.ratios
                    .iter()
                    .zip(&y.ratios)
                    .all(|(p, q)| (p - q).abs() < 1e-12)
                && x.children.len() == y.children.len()
                && x.children.iter().zip(&y.children).all(|(p, q)| same(p, q))
        }
        _ => false,
    }
}

#[derive(Debug, Clone)]
enum Op {
    Split(usize, Direction, Side),
    /// Splits the deepest cell across its parent: the worst case for nesting.
    Deepen(Side),
    Move(usize, usize, Direction, Side),
    Close(usize),
}

fn direction() -> impl Strategy<Value = Direction> {
    prop_oneof![Just(Direction::Horizontal), Just(Direction::Vertical)]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Before), Just(Side::After)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<usize>(), direction(), side()).prop_map(|(a, d, s)| Op::Split(a, d, s)),
        4 => side().prop_map(Op::Deepen),
        2 => (any::<usize>(), any::<usize>(), direction(), side())
            .prop_map(|(a, b, d, s)| Op::Move(a, b, d, s)),
        1 => any::<usize>().prop_map(Op::Close),
    ]
}

fn apply(tree: &mut LayoutTree, op: &Op, next: &mut u128) {
    let mut fresh = || {
        *next += 1;
        idea_domain::NodeId(uuid::Uuid::from_u128(*next))
    };
    let cells: Vec<_> = tree.leaves().iter().map(|l| l.id).collect();
    let cell = |i: usize| cells[i % cells.len()];
    // Refusals are fine: the property is about what is accepted.
    let _ = match op {
        Op::Split(a, d, s) => tree.split_at(cell(*a), *d, *s, fresh(), fresh()),
        Op::Deepen(s) => {
            let (_, id, d) = deepest(&tree.root, Direction::Horizontal);
            tree.split_at(id, d, *s, fresh(), fresh())
        }
        Op::Move(a, b, d, s) => tree.move_leaf_to(cell(*a), cell(*b), *d, *s, fresh()),
        Op::Close(a) => tree.close(cell(*a)).map(|_| ()),
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_layout_the_writer_saves_the_reader_reads(ops in prop::collection::vec(op(), 1..160)) {
        let dir = tempfile::tempdir().unwrap();
        let store = FsProjectStore::new(dir.path());
        let first = idea_domain::NodeId(uuid::Uuid::from_u128(2));
        let mut doc = Layouts::new(idea_domain::LayoutId(uuid::Uuid::from_u128(1)), "Main", first).unwrap();
        let mut next = 1000;
        for op in &ops {
            apply(&mut doc.layouts[0].tree, op, &mut next);
        }
        store.save_layouts(&doc).unwrap();
        let back = store.load_layouts();
        prop_assert!(back.is_ok(), "depth {}: {:?}", depth(&doc.layouts[0].tree.root), back.err());
        let back = back.ok().flatten().expect("saved");
        prop_assert!(same(&back.layouts[0].tree.root, &doc.layouts[0].tree.root));
    }
}
