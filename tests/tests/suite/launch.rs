//! LaunchAgent end to end: real PTYs, the real `.ideai` store, the fake agent CLI.

use crate::support::{SIZE, Screen, wait_until, world};
use idea_application::layouts;
use idea_application::sessions::{self, LaunchAgent};
use idea_domain::CellRef;
use idea_domain::terminal::SessionStatus;
use idea_domain::{DomainEvent, LayoutId, NodeId};

fn launch(
    w: &crate::support::World,
    agent: &idea_domain::Agent,
    layout: LayoutId,
    node: NodeId,
) -> idea_application::AppResult<idea_domain::terminal::SessionInfo> {
    sessions::launch_agent(
        &w.deps,
        LaunchAgent {
            agent_id: agent.agent_id,
            cell: CellRef::new(layout, node),
            size: SIZE,
            fresh: false,
        },
    )
}

#[test]
fn launch_runs_the_cli_in_its_run_dir_with_its_convention_file_and_session_id() {
    let w = world();
    let ada = w.agent("Ada");
    idea_application::agents::update_context(
        &w.deps,
        ada.agent_id,
        "# Ada\n\nReviews every change.\n",
    )
    .unwrap();
    let (layout, cell, _) = w.two_cells();
    let info = launch(&w, &ada, layout, cell).unwrap();
    Screen::ready(&w.deps, info.session_id);

    let start = &w.starts()[0];
    let engine = info.engine_session_id.clone().unwrap();
    let root = w.root().to_str().unwrap().to_owned();
    assert_eq!(
        start["args"],
        serde_json::json!(["--add-dir", root, "--session-id", engine])
    );
    let run_dir = w.root().join(".ideai/run").join(ada.agent_id.to_string());
    assert_eq!(start["cwd"], run_dir.to_str().unwrap());
    assert_eq!(start["conventionFile"], "CLAUDE.md");
    let convention = start["convention"].as_str().unwrap();
    assert!(
        convention.contains(&format!("project at `{}`", w.root().display())),
        "{convention}"
    );
    assert!(
        convention.contains("Shared context for every agent."),
        "{convention}"
    );
    assert!(convention.contains("Reviews every change."), "{convention}");
    assert_eq!(start["env"]["TERM"], "xterm-256color");
    assert_eq!(start["env"]["TMUX"], serde_json::Value::Null);
    // The CLI's own trust screens are pre-accepted for exactly the folders IdeA hands it.
    let claude_json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(w.dir.path().join("home/.claude.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        claude_json["projects"][run_dir.to_str().unwrap()]["hasTrustDialogAccepted"],
        true
    );
    assert_eq!(
        claude_json["projects"][w.root().to_str().unwrap()]["hasTrustDialogAccepted"],
        true
    );
    assert_eq!(claude_json["projects"].as_object().unwrap().len(), 2);
    assert!(
        !w.root().join("CLAUDE.md").exists(),
        "nothing is written at the project root"
    );

    // The cell remembers the engine session on disk.
    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(w.root().join(".ideai/layouts.json")).unwrap(),
    )
    .unwrap();
    assert!(saved.to_string().contains(&engine));
}

#[test]
fn two_agents_get_two_run_dirs() {
    let w = world();
    let (ada, bob) = (w.agent("Ada"), w.agent("Bob"));
    let (layout, left, right) = w.two_cells();
    let a = launch(&w, &ada, layout, left).unwrap();
    let b = launch(&w, &bob, layout, right).unwrap();
    Screen::ready(&w.deps, a.session_id);
    Screen::ready(&w.deps, b.session_id);
    let cwds: Vec<String> = w
        .starts()
        .iter()
        .map(|s| s["cwd"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(cwds.len(), 2);
    assert_ne!(cwds[0], cwds[1]);
    for (cwd, agent) in cwds.iter().zip([&ada, &bob]) {
        assert!(cwd.ends_with(&agent.agent_id.to_string()), "{cwd}");
        assert!(std::path::Path::new(cwd).join("CLAUDE.md").exists());
    }
    let root_entries: Vec<_> = std::fs::read_dir(w.root())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        root_entries.len(),
        2,
        "only .ideai and .gitignore at the root: {root_entries:?}"
    );
}

#[test]
fn an_exited_agent_relaunches_resuming_its_conversation() {
    let w = world();
    let ada = w.agent("Ada");
    let (layout, cell, _) = w.two_cells();
    let first = launch(&w, &ada, layout, cell).unwrap();
    let screen = Screen::ready(&w.deps, first.session_id);
    // A first exchange: the CLI saves the conversation.
    sessions::write(&w.deps, first.session_id, b"hello\r").unwrap();
    screen.wait_for("you said: hello");
    sessions::write(&w.deps, first.session_id, b"exit 7\r").unwrap();
    wait_until(
        "the exit",
        || w.exited(first.session_id).is_some(),
        || screen.text(),
    );
    let exited = w.exited(first.session_id).unwrap();
    assert_eq!(exited.exit.unwrap().code, 7);
    assert!(w.events.0.lock().unwrap().iter().any(|e| matches!(e, DomainEvent::SessionExited { session_id, .. } if *session_id == first.session_id)));

    let second = launch(&w, &ada, layout, cell).unwrap();
    let engine = first.engine_session_id.clone().unwrap();
    Screen::attach(&w.deps, second.session_id).wait_for(&format!("resumed {engine}"));
    let root = w.root().to_str().unwrap().to_owned();
    assert_eq!(
        w.starts()[1]["args"],
        serde_json::json!(["--add-dir", root, "--resume", engine])
    );
}

#[test]
fn one_live_session_per_agent() {
    let w = world();
    let ada = w.agent("Ada");
    let (layout, left, right) = w.two_cells();
    let live = launch(&w, &ada, layout, left).unwrap();
    assert_eq!(
        launch(&w, &ada, layout, left).unwrap().session_id,
        live.session_id
    );
    let err = launch(&w, &ada, layout, right).unwrap_err();
    assert_eq!(err.code(), "AGENT_ALREADY_RUNNING");
    Screen::ready(&w.deps, live.session_id);
    assert_eq!(w.starts().len(), 1, "the CLI was started once");
}

#[test]
fn snapshot_on_stop_marks_exactly_the_running_cells() {
    let w = world();
    let (ada, bob) = (w.agent("Ada"), w.agent("Bob"));
    let (layout, left, right) = w.two_cells();
    let a = launch(&w, &ada, layout, left).unwrap();
    let b = launch(&w, &bob, layout, right).unwrap();
    Screen::ready(&w.deps, a.session_id);
    sessions::stop(&w.deps, b.session_id).unwrap();
    wait_until(
        "bob's exit",
        || w.exited(b.session_id).is_some(),
        String::new,
    );
    sessions::snapshot_running_agents(&w.deps).unwrap();
    sessions::stop_all(&w.deps);
    wait_until(
        "ada's exit",
        || w.exited(a.session_id).is_some(),
        String::new,
    );
    // Read back from disk, as the next start would.
    let saved = layouts::get(&w.deps).unwrap();
    let tree = &saved.layouts[0].tree;
    assert!(tree.leaf(left).unwrap().agent_was_running);
    assert!(!tree.leaf(right).unwrap().agent_was_running);
}

#[test]
fn writes_from_many_threads_arrive_whole_and_in_order() {
    let w = world();
    let ada = w.agent("Ada");
    let (layout, cell, _) = w.two_cells();
    let info = launch(&w, &ada, layout, cell).unwrap();
    let screen = Screen::ready(&w.deps, info.session_id);
    let deps = &w.deps;
    std::thread::scope(|s| {
        for t in 0..4 {
            s.spawn(move || {
                for n in 0..25 {
                    sessions::write(deps, info.session_id, format!("t{t}-{n:02}\r").as_bytes())
                        .unwrap();
                }
            });
        }
    });
    screen.wait_for("you said: t3-24");
    for t in 0..4 {
        let mut last = None;
        for line in screen
            .text()
            .lines()
            .filter_map(|l| l.split("you said: ").nth(1))
        {
            if let Some(n) = line.trim().strip_prefix(&format!("t{t}-")) {
                let n: u32 = n
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("interleaved write: {line:?}"));
                assert!(
                    last.is_none_or(|prev| n > prev),
                    "thread {t}: {n} after {last:?}"
                );
                last = Some(n);
            }
        }
        assert_eq!(last, Some(24), "thread {t} lost writes");
    }
}

#[test]
fn a_missing_cli_is_an_error_and_nothing_runs() {
    let w = world();
    let new = idea_application::agents::NewAgent {
        name: "Ghost".into(),
        profile_id: idea_domain::ProfileId::new("missing"),
    };
    let ghost = idea_application::agents::create_from_scratch(&w.deps, new).unwrap();
    let (layout, cell, _) = w.two_cells();
    let err = launch(&w, &ghost, layout, cell).unwrap_err();
    assert_eq!(err.code(), "COMMAND_NOT_FOUND");
    assert!(err.to_string().contains("/nonexistent/agent-cli"), "{err}");
    assert!(sessions::list(&w.deps).is_empty());
}

#[test]
fn a_shell_cell_runs_commands_and_replays_to_late_clients() {
    let w = world();
    let (layout, cell, _) = w.two_cells();
    let shell = sessions::open_shell(&w.deps, CellRef::new(layout, cell), SIZE).unwrap();
    assert_eq!(shell.status, SessionStatus::Running);
    let early = Screen::attach(&w.deps, shell.session_id);
    sessions::write(&w.deps, shell.session_id, b"echo hello-from-cell\r").unwrap();
    early.wait_for("hello-from-cell\r\n");
    let late = Screen::attach(&w.deps, shell.session_id);
    late.wait_for("hello-from-cell\r\n");
    sessions::write(&w.deps, shell.session_id, b"echo second-line\r").unwrap();
    late.wait_for("second-line\r\n");
    assert_eq!(
        late.text().matches("hello-from-cell\r\n").count(),
        early.text().matches("hello-from-cell\r\n").count(),
        "no duplicate in the replay"
    );
}

#[test]
fn seed_files_are_written_but_never_over_a_users_edit() {
    let w = world();
    let ada = w.agent("Ada");
    let (layout, cell, _) = w.two_cells();
    let first = launch(&w, &ada, layout, cell).unwrap();
    let seed = w
        .root()
        .join(".ideai/run")
        .join(ada.agent_id.to_string())
        .join(".fake/settings.json");
    assert_eq!(
        std::fs::read_to_string(&seed).unwrap(),
        format!("{{\"workspace\": \"{}\"}}", w.root().display())
    );
    sessions::stop(&w.deps, first.session_id).unwrap();
    wait_until(
        "the stop",
        || w.exited(first.session_id).is_some(),
        String::new,
    );
    std::fs::write(&seed, "{\"mine\": true}").unwrap();
    launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(std::fs::read_to_string(&seed).unwrap(), "{\"mine\": true}");
}

#[test]
fn an_agent_stopped_before_its_first_prompt_starts_again_in_its_cell() {
    // The CLI saved no conversation: resuming its id would fail ("No conversation found") at
    // every launch; IdeA starts it again under the same id instead.
    let w = world();
    let ada = w.agent("Ada");
    let (layout, cell, _) = w.two_cells();
    let first = launch(&w, &ada, layout, cell).unwrap();
    let screen = Screen::ready(&w.deps, first.session_id);
    sessions::stop(&w.deps, first.session_id).unwrap();
    wait_until(
        "the stop",
        || w.exited(first.session_id).is_some(),
        || screen.text(),
    );
    let exit = w.exited(first.session_id).unwrap().exit.unwrap();
    assert!(exit.stopped && exit.signal.is_some(), "{exit:?}");
    for _ in 0..2 {
        let again = launch(&w, &ada, layout, cell).unwrap();
        let screen = Screen::ready(&w.deps, again.session_id);
        assert_eq!(again.engine_session_id, first.engine_session_id);
        assert!(
            !screen.text().contains("No conversation found"),
            "{}",
            screen.text()
        );
        sessions::stop(&w.deps, again.session_id).unwrap();
        wait_until(
            "the stop",
            || w.exited(again.session_id).is_some(),
            || screen.text(),
        );
    }
    let starts = w.starts();
    let engine = first.engine_session_id.unwrap();
    for start in &starts {
        assert_eq!(start["args"][2], "--session-id", "{start}");
        assert_eq!(start["args"][3], engine.as_str());
    }
}
