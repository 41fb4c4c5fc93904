//! The same use cases against the real `.ideai/` store.

use crate::support::fs_world;
use idea_application::agents::{self, NewAgent};
use idea_application::layouts;
use idea_domain::CellRef;
use idea_domain::ProfileId;
use idea_domain::layout::Direction;
use std::fs;

#[test]
fn agents_and_layouts_land_in_ideai_files() {
    let (dir, deps, _events) = fs_world();
    let agent = agents::create_from_template(
        &deps,
        NewAgent {
            name: "Archie".into(),
            profile_id: ProfileId::new("shell"),
        },
        "architect",
    )
    .unwrap();
    let ideai = dir.path().join(".ideai");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(ideai.join("agents.json")).unwrap()).unwrap();
    assert_eq!(manifest["version"], 1);
    assert_eq!(manifest["entries"][0]["mdPath"], "agents/archie.md");
    assert_eq!(
        manifest["entries"][0]["agentId"],
        agent.agent_id.to_string()
    );
    assert!(
        fs::read_to_string(ideai.join("agents/archie.md"))
            .unwrap()
            .contains("architect")
    );

    let l = layouts::get(&deps).unwrap();
    let cell = l.layouts[0].tree.leaves()[0].id;
    layouts::split(&deps, CellRef::new(l.active, cell), Direction::Vertical).unwrap();
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(ideai.join("layouts.json")).unwrap()).unwrap();
    assert_eq!(saved["layouts"][0]["tree"]["type"], "split");
    assert!(
        fs::read_to_string(dir.path().join(".gitignore"))
            .unwrap()
            .contains(".ideai/run/")
    );
}

#[test]
fn a_corrupt_manifest_blocks_changes_and_stays_byte_for_byte() {
    let (dir, deps, _events) = fs_world();
    let path = dir.path().join(".ideai/agents.json");
    fs::write(&path, "{\"version\": 1, \"entries\": [ oops").unwrap();
    let err = agents::create_from_scratch(
        &deps,
        NewAgent {
            name: "Ada".into(),
            profile_id: ProfileId::new("shell"),
        },
    )
    .unwrap_err();
    assert_eq!(err.code(), "CORRUPT_FILE");
    assert!(err.to_string().contains("agents.json"), "{err}");
    assert_eq!(agents::list(&deps).unwrap_err().code(), "CORRUPT_FILE");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{\"version\": 1, \"entries\": [ oops"
    );
    assert!(!dir.path().join(".ideai/agents/ada.md").exists());
}

#[test]
fn a_corrupt_layout_file_is_not_replaced_by_a_default() {
    let (dir, deps, _events) = fs_world();
    let path = dir.path().join(".ideai/layouts.json");
    fs::write(&path, "[]").unwrap();
    assert_eq!(layouts::get(&deps).unwrap_err().code(), "CORRUPT_FILE");
    assert_eq!(fs::read_to_string(&path).unwrap(), "[]");
}

#[test]
fn concurrent_creations_all_land() {
    let (_dir, deps, _events) = fs_world();
    let deps = std::sync::Arc::new(deps);
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let deps = deps.clone();
            std::thread::spawn(move || {
                agents::create_from_scratch(
                    &deps,
                    NewAgent {
                        name: format!("agent {i}"),
                        profile_id: ProfileId::new("shell"),
                    },
                )
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap().unwrap();
    }
    assert_eq!(agents::list(&deps).unwrap().len(), 8);
}
