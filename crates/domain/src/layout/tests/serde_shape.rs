//! The JSON shape of trees and of `layouts.json`, which other tools and older files rely on.

use serde_json::json;

use super::{agent, conversation, layout, n};
use crate::layout::{
    Direction, LAYOUTS_VERSION, LayoutError, LayoutNode, LayoutTree, Layouts, Leaf,
};

fn sample_tree() -> LayoutTree {
    let mut tree = LayoutTree::single(n(1));
    tree.split(n(1), Direction::Horizontal, n(2), n(100))
        .unwrap();
    tree.assign_agent(n(2), Some(agent(7))).unwrap();
    tree.set_conversation(n(2), Some(conversation(8)), Some("abc".into()))
        .unwrap();
    tree.set_running(n(2), true).unwrap();
    tree
}

#[test]
fn a_tree_serialises_as_its_tagged_camel_case_root() {
    let json = serde_json::to_string(&sample_tree()).unwrap();
    assert_eq!(
        json,
        concat!(
            r#"{"type":"split","id":"00000000-0000-0000-0000-000000000064","direction":"horizontal","ratios":[0.5,0.5],"children":["#,
            r#"{"type":"leaf","id":"00000000-0000-0000-0000-000000000001","agentWasRunning":false},"#,
            r#"{"type":"leaf","id":"00000000-0000-0000-0000-000000000002","agent":"00000000-0000-0000-0000-000000000007","#,
            r#""conversationId":"00000000-0000-0000-0000-000000000008","engineSessionId":"abc","agentWasRunning":true}]}"#,
        )
    );
    let back: LayoutTree = serde_json::from_str(&json).unwrap();
    assert_eq!(back, sample_tree());
}

#[test]
fn a_leaf_reads_with_only_its_id() {
    let leaf: LayoutNode =
        serde_json::from_value(json!({"type": "leaf", "id": n(3).to_string()})).unwrap();
    assert_eq!(leaf, LayoutNode::Leaf(Leaf::empty(n(3))));
}

#[test]
fn unknown_node_types_and_directions_are_rejected() {
    let odd_type = json!({"type": "tab", "id": n(3).to_string()});
    assert!(serde_json::from_value::<LayoutNode>(odd_type).is_err());
    let odd_direction = json!({"type": "split", "id": n(3).to_string(), "direction": "diagonal",
        "ratios": [0.5, 0.5], "children": []});
    assert!(serde_json::from_value::<LayoutNode>(odd_direction).is_err());
}

#[test]
fn layouts_round_trip_through_json() {
    let mut layouts = Layouts::new(layout(1), "Main", n(1)).unwrap();
    layouts.create(layout(2), "Review", n(10)).unwrap();
    *layouts.tree_mut(layout(2)).unwrap() = sample_tree();
    let json = layouts.to_json().unwrap();
    assert_eq!(Layouts::from_json(&json), Ok(layouts));
}

#[test]
fn layouts_serialise_in_camel_case() {
    let layouts = Layouts::new(layout(1), "Main", n(1)).unwrap();
    assert_eq!(
        serde_json::to_value(&layouts).unwrap(),
        json!({
            "version": 1,
            "active": layout(1).to_string(),
            "layouts": [{
                "id": layout(1).to_string(),
                "name": "Main",
                "tree": {"type": "leaf", "id": n(1).to_string(), "agentWasRunning": false}
            }]
        })
    );
}

#[test]
fn a_newer_file_is_reported_as_newer_not_as_corrupt() {
    let newer = json!({"version": 2, "whatever": "shape"}).to_string();
    assert_eq!(
        Layouts::from_json(&newer),
        Err(LayoutError::UnsupportedVersion {
            found: 2,
            supported: LAYOUTS_VERSION
        })
    );
}

#[test]
fn corrupt_files_are_malformed() {
    let ok = Layouts::new(layout(1), "Main", n(1)).unwrap();
    let mut bad_tree = serde_json::to_value(&ok).unwrap();
    bad_tree["layouts"][0]["tree"] = json!({"type": "split", "id": n(9).to_string(),
        "direction": "vertical", "ratios": [1.0], "children": [{"type": "leaf", "id": n(1).to_string()}]});
    let mut bad_active = serde_json::to_value(&ok).unwrap();
    bad_active["active"] = json!(layout(5).to_string());
    for text in [
        "",
        "{",
        "[]",
        "{\"version\":1}",
        &bad_tree.to_string(),
        &bad_active.to_string(),
    ] {
        assert!(
            matches!(Layouts::from_json(text), Err(LayoutError::Malformed(_))),
            "{text:?} not reported as malformed"
        );
    }
}
