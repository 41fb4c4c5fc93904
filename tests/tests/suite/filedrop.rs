//! The file-drop door end to end: the real door (watch, claims, answers) over the real store,
//! the use case, the real turn runner and `fake-claude` / `fake-codex` with the built-in
//! profiles' JSON modes. Agents of two vendors ask each other through files.

use crate::support::{World, world};
use idea_application::orchestrator;
use idea_domain::orchestrator::{RequestSource, Requester};
use idea_infrastructure::filedrop::FileDrop;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open_door(w: &World) -> FileDrop {
    let deps = Arc::clone(&w.deps);
    FileDrop::start(
        &w.root(),
        Arc::new(move |dropped| idea_application::filedrop::answer(&deps, dropped)),
    )
    .unwrap()
}

fn folder(w: &World, name: &str) -> PathBuf {
    let dir = w.root().join(".ideai/requests").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn drop_request(dir: &Path, id: &str, to: &str, message: &str) {
    let request = json!({"to": to, "message": message}).to_string();
    std::fs::write(dir.join(format!("{id}.json")), request).unwrap();
}

fn response(dir: &Path, id: &str) -> Value {
    let path = dir.join(format!("{id}.response.json"));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(&path) {
            return serde_json::from_str(&text).unwrap();
        }
        let error = std::fs::read_to_string(dir.join(format!("{id}.error.json")));
        assert!(error.is_err(), "{id}: {error:?}");
        assert!(Instant::now() < deadline, "no answer to {id}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn clis(w: &World) -> Vec<String> {
    w.fake_cli_calls()
        .iter()
        .map(|c| c["cli"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_claude_and_a_codex_agent_ask_each_other_through_files_each_request_once() {
    let w = world();
    let ada = w.agent_of("Ada", "fake-claude");
    let cody = w.agent_of("Cody", "fake-codex");
    let door = open_door(&w);
    let (from_ada, from_cody) = (folder(&w, "ada"), folder(&w, "cody"));
    drop_request(&from_ada, "review-1", "Cody", "review my change");
    let to_cody = response(&from_ada, "review-1");
    assert_eq!(to_cody["from"], "Cody");
    assert_eq!(to_cody["answer"], "echo: review my change");
    // Asked back once the first request is over (while Cody still waited on Ada, the
    // orchestrator would refuse it: AGENT_BUSY, it could wait forever).
    drop_request(&from_cody, "plan-1", "Ada", "what is the plan?");
    let to_ada = response(&from_cody, "plan-1");
    assert_eq!(to_ada["from"], "Ada");
    assert_eq!(to_ada["answer"], "echo: what is the plan?");
    assert_eq!(clis(&w), ["codex", "claude"]);

    // Ada's next request continues her conversation with Cody (his thread resumed).
    drop_request(&from_ada, "review-2", "Cody", "and now?");
    assert_eq!(response(&from_ada, "review-2")["answer"], "echo: and now?");
    let calls = w.fake_cli_calls();
    let last: Vec<&str> = calls[2]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(last.contains(&"resume"), "{last:?}");

    // The door again (a new owner): nothing answered runs again.
    drop(door);
    let _door = open_door(&w);
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(w.fake_cli_calls().len(), 3);

    let records = orchestrator::list(&w.deps);
    assert_eq!(records.len(), 3);
    assert!(records.iter().all(|r| r.source == RequestSource::File));
    assert_eq!(records[1].requester, Requester::Agent(cody.agent_id));
    assert_eq!(records[1].target, ada.agent_id);
    assert!(
        records
            .iter()
            .filter(|r| r.target == cody.agent_id)
            .all(|r| r.requester == Requester::Agent(ada.agent_id))
    );
}

#[test]
fn an_agent_without_mcp_finds_the_door_in_its_convention_file() {
    let w = world();
    let ada = w.agent("Ada");
    let (layout, cell, _) = w.two_cells();
    let launched = idea_application::sessions::launch_agent(
        &w.deps,
        idea_application::sessions::LaunchAgent {
            agent_id: ada.agent_id,
            cell: idea_domain::CellRef::new(layout, cell),
            size: crate::support::SIZE,
            fresh: false,
        },
    )
    .unwrap();
    let run_dir = w.root().join(".ideai/run").join(ada.agent_id.to_string());
    let convention = std::fs::read_to_string(run_dir.join("CLAUDE.md")).unwrap();
    let requests = w.root().join(".ideai/requests/ada");
    assert!(
        convention.contains(&format!("`{}/review-1.json`", requests.display())),
        "{convention}"
    );
    idea_application::sessions::stop(&w.deps, launched.session_id).unwrap();
}
