//! LaunchAgent and friends against fakes: the order of its steps (ARCHITECTURE.md, "Flow:
//! launching an agent"), the one-live-session rule,
//! the session plan stored on the cell, the convention file, the snapshot.

use crate::support::{World, world};
use idea_application::ErrorKind;
use idea_application::agents::{self, NewAgent};
use idea_application::layouts;
use idea_application::sessions::{self, LaunchAgent};
use idea_domain::CellRef;
use idea_domain::layout::Direction;
use idea_domain::terminal::{SessionStatus, TerminalSize};
use idea_domain::{Agent, DomainEvent, LayoutId, NodeId, ProfileId};

const SIZE: TerminalSize = TerminalSize { rows: 24, cols: 80 };

pub(crate) fn agent(w: &World, name: &str, profile: &str) -> Agent {
    agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: name.into(),
            profile_id: ProfileId::new(profile),
        },
    )
    .unwrap()
}

/// Two cells side by side.
pub(crate) fn two_cells(w: &World) -> (LayoutId, NodeId, NodeId) {
    let l = layouts::get(&w.deps).unwrap();
    let first = l.layouts[0].tree.leaves()[0].id;
    let second = layouts::split(
        &w.deps,
        CellRef::new(l.active, first),
        Direction::Horizontal,
    )
    .unwrap();
    (l.active, first, second)
}

pub(crate) fn launch(
    w: &World,
    agent: &Agent,
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
fn launch_assigns_a_session_id_and_stores_it_on_the_cell() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let info = launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(info.status, SessionStatus::Running);
    let engine = info.engine_session_id.clone().unwrap();
    let spec = w.terminals.spawned.lock().unwrap()[0].clone();
    assert_eq!(spec.args, ["--session-id", engine.as_str()]);
    assert!(spec.cwd.ends_with(format!(".ideai/run/{}", ada.agent_id)));
    assert_eq!(spec.size, SIZE);
    let saved = layouts::get(&w.deps).unwrap();
    let leaf = saved.layouts[0].tree.leaf(cell).unwrap().clone();
    assert_eq!(leaf.agent, Some(ada.agent_id));
    assert_eq!(leaf.engine_session_id.as_deref(), Some(engine.as_str()));
    assert_eq!(leaf.conversation_id.map(|c| c.0), Some(ada.agent_id.0));
    // The convention file is in the run dir, with the persona.
    let generated = w.store.generated.lock().unwrap();
    let (path, text) = generated.iter().next().unwrap();
    assert!(path.ends_with("AGENTS.md"), "{path:?}");
    assert!(
        text.contains("# Your persona: Ada") && text.contains("private run directory"),
        "{text}"
    );
    let events = w.events.take();
    let started = events
        .iter()
        .position(|e| matches!(e, DomainEvent::SessionStarted { session } if session.session_id == info.session_id))
        .expect("sessionStarted");
    // Regression (found under load): the cell's leaf names the agent only once the session
    // runs; a client that read the layouts on `sessionStarted` must hear of it afterwards.
    let assigned = events
        .iter()
        .rposition(|e| matches!(e, DomainEvent::CellAgentAssigned { node_id, agent_id: Some(a), .. } if *node_id == cell && *a == ada.agent_id))
        .expect("cellAgentAssigned");
    assert!(assigned > started, "{events:?}");
}

#[test]
fn relaunch_after_exit_resumes_the_cells_conversation() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let second = launch(&w, &ada, layout, cell).unwrap();
    assert_ne!(first.session_id, second.session_id);
    let specs = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(
        specs[1].args,
        ["--resume", first.engine_session_id.as_deref().unwrap()]
    );
    assert_eq!(second.engine_session_id, first.engine_session_id);
}

#[test]
fn one_live_session_per_agent() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, left, right) = two_cells(&w);
    let live = launch(&w, &ada, layout, left).unwrap();
    // Same cell: the live session, no second spawn.
    assert_eq!(
        launch(&w, &ada, layout, left).unwrap().session_id,
        live.session_id
    );
    // Another cell: refused, naming where it runs.
    let err = launch(&w, &ada, layout, right).unwrap_err();
    assert_eq!(err.code(), "AGENT_ALREADY_RUNNING");
    assert!(matches!(
        err.to_wire().kind,
        ErrorKind::AgentAlreadyRunning { node_id, .. } if node_id == left
    ));
    assert_eq!(w.terminals.spawned.lock().unwrap().len(), 1);
    // Deleting a live agent is refused, naming it (never by its id).
    let refused = agents::delete(&w.deps, ada.agent_id).unwrap_err();
    assert_eq!(refused.code(), "AGENT_RUNNING");
    assert_eq!(refused.to_string(), "Ada is running: stop it first");
}

#[test]
fn a_busy_cell_a_missing_command_and_unknown_ids_are_errors() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let bob = agent(&w, "Bob", "shell");
    let (layout, left, _) = two_cells(&w);
    sessions::open_shell(&w.deps, CellRef::new(layout, left), SIZE).unwrap();
    assert_eq!(
        launch(&w, &ada, layout, left).unwrap_err().code(),
        "CELL_BUSY"
    );
    w.terminals.missing.lock().unwrap().push("sh".into());
    let (_, _, right) = two_cells(&w);
    let err = launch(&w, &bob, layout, right).unwrap_err();
    // A missing CLI is its own code, naming the command (the UI no longer reads messages).
    assert_eq!(
        err.to_wire().kind,
        ErrorKind::CommandNotFound {
            command: "sh".into()
        }
    );
    assert!(err.to_string().contains("command not found: sh"), "{err}");
    let ghost = NodeId(uuid::Uuid::from_u128(999));
    assert_eq!(
        launch(&w, &ada, layout, ghost).unwrap_err().code(),
        "NODE_NOT_FOUND"
    );
    let unknown = idea_domain::SessionId(uuid::Uuid::from_u128(5));
    assert_eq!(
        sessions::stop(&w.deps, unknown).unwrap_err().code(),
        "SESSION_NOT_FOUND"
    );
}

#[test]
fn exit_is_published_once_and_writes_after_exit_fail() {
    let w = world();
    let (layout, cell, _) = two_cells(&w);
    let shell = sessions::open_shell(&w.deps, CellRef::new(layout, cell), SIZE).unwrap();
    sessions::write(&w.deps, shell.session_id, b"ls\r").unwrap();
    w.events.take();
    sessions::stop(&w.deps, shell.session_id).unwrap();
    let exits: Vec<_> = w
        .events
        .take()
        .into_iter()
        .filter(|e| matches!(e, DomainEvent::SessionExited { .. }))
        .collect();
    assert_eq!(exits.len(), 1);
    assert_eq!(
        sessions::write(&w.deps, shell.session_id, b"x")
            .unwrap_err()
            .code(),
        "SESSION_EXITED"
    );
    let listed = sessions::list(&w.deps);
    assert_eq!(listed[0].status, SessionStatus::Exited);
    assert_eq!(listed[0].exit.as_ref().unwrap().code, 137);
    // A new shell replaces the exited one in the cell.
    sessions::open_shell(&w.deps, CellRef::new(layout, cell), SIZE).unwrap();
    assert_eq!(sessions::list(&w.deps).len(), 1);
}

#[test]
fn snapshot_marks_exactly_the_live_agent_cells() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let bob = agent(&w, "Bob", "fake");
    let (layout, left, right) = two_cells(&w);
    launch(&w, &ada, layout, left).unwrap();
    launch(&w, &bob, layout, right).unwrap();
    w.terminals.sessions.lock().unwrap()[1].finish(0);
    sessions::snapshot_running_agents(&w.deps).unwrap();
    let saved = layouts::get(&w.deps).unwrap();
    let tree = &saved.layouts[0].tree;
    assert!(tree.leaf(left).unwrap().agent_was_running);
    assert!(!tree.leaf(right).unwrap().agent_was_running);
}

#[test]
fn restart_starts_the_same_agent_in_the_same_cell() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let second = sessions::restart(&w.deps, first.session_id, SIZE).unwrap();
    assert_ne!(second.session_id, first.session_id);
    assert_eq!(
        (second.agent_id, second.cell),
        (Some(ada.agent_id), Some(CellRef::new(layout, cell)))
    );
    assert_eq!(w.terminals.spawned.lock().unwrap()[1].args[0], "--resume");
}

#[test]
fn closing_a_cell_or_deleting_its_layout_stops_and_forgets_its_terminal() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, left, right) = two_cells(&w);
    let shell = sessions::open_shell(&w.deps, CellRef::new(layout, left), SIZE).unwrap();
    w.events.take();
    layouts::close(&w.deps, CellRef::new(layout, left)).unwrap();
    assert!(
        sessions::list(&w.deps).is_empty(),
        "the closed cell's session is forgotten"
    );
    // It leaves its cell (a move to no cell), then exits shown nowhere.
    let events = w.events.take();
    let moved = events.iter().position(|e| matches!(e, DomainEvent::SessionMoved { session_id, cell: None } if *session_id == shell.session_id));
    let exited = events.iter().position(|e| matches!(e, DomainEvent::SessionExited { session_id, cell: None, .. } if *session_id == shell.session_id));
    assert!(moved.is_some() && moved < exited, "{events:?}");

    let other = layouts::create(&w.deps, "Other").unwrap();
    let cell = other.tree.leaves()[0].id;
    launch(&w, &ada, other.id, cell).unwrap();
    layouts::delete(&w.deps, other.id).unwrap();
    assert!(sessions::list(&w.deps).is_empty());
    // Ada is free again: no phantom "already running" in a deleted tab.
    launch(&w, &ada, layout, right).unwrap();
}

#[test]
fn a_failed_launch_leaves_no_conversation_on_the_cell() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    w.terminals.missing.lock().unwrap().push("sh".into());
    assert_eq!(
        launch(&w, &ada, layout, cell).unwrap_err().code(),
        "COMMAND_NOT_FOUND"
    );
    let leaf = layouts::get(&w.deps).unwrap().layouts[0]
        .tree
        .leaf(cell)
        .unwrap()
        .clone();
    assert_eq!((leaf.agent, leaf.engine_session_id), (None, None));
}

#[test]
fn swapping_cells_moves_their_running_sessions_with_them() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, left, right) = two_cells(&w);
    let live = launch(&w, &ada, layout, left).unwrap();
    w.events.take();
    layouts::swap(&w.deps, layout, left, right).unwrap();
    let moved = sessions::list(&w.deps);
    assert_eq!(
        (moved[0].session_id, moved[0].cell),
        (live.session_id, Some(CellRef::new(layout, right)))
    );
    // A move is its own event, not a new start.
    let events = w.events.take();
    assert!(events.iter().any(|e| matches!(e,
        DomainEvent::SessionMoved { session_id, cell }
            if *session_id == live.session_id && *cell == Some(CellRef::new(layout, right)))));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, DomainEvent::SessionStarted { .. }))
    );
    // Same cell as the agent now: the live session; its old cell is free.
    assert_eq!(
        launch(&w, &ada, layout, right).unwrap().session_id,
        live.session_id
    );
    assert_eq!(
        launch(&w, &ada, layout, left).unwrap_err().code(),
        "AGENT_ALREADY_RUNNING"
    );
    sessions::open_shell(&w.deps, CellRef::new(layout, left), SIZE).unwrap();
}

/// Regression: a shell opened while its cell was being closed (two connections) kept running
/// in no cell. Closing now waits for a launch in progress, then sweeps its session.
#[test]
fn a_cell_closed_during_a_launch_takes_the_new_session_with_it() {
    let w = world();
    let (layout, left, _) = two_cells(&w);
    let (started_tx, started) = std::sync::mpsc::channel();
    let (go, go_rx) = std::sync::mpsc::channel();
    *w.terminals.pause.lock().unwrap() = Some((started_tx, go_rx));
    std::thread::scope(|scope| {
        let opening =
            scope.spawn(|| sessions::open_shell(&w.deps, CellRef::new(layout, left), SIZE));
        started.recv().unwrap();
        let closing = scope.spawn(|| layouts::close(&w.deps, CellRef::new(layout, left)));
        // Give the close every chance to finish while the shell is being spawned.
        std::thread::sleep(std::time::Duration::from_millis(300));
        go.send(()).unwrap();
        opening.join().unwrap().unwrap();
        closing.join().unwrap().unwrap();
    });
    let running: Vec<_> = sessions::list(&w.deps)
        .into_iter()
        .filter(|s| s.status == idea_domain::terminal::SessionStatus::Running)
        .collect();
    assert!(running.is_empty(), "a shell runs in no cell: {running:?}");
}

/// Issue 20, §2: the resume prompt offers the cells whose agent was running when IdeA closed,
/// not one the user had stopped, never a live one; "start fresh" begins a new conversation
/// where "resume" continues the cell's.
#[test]
fn the_resume_prompt_offers_what_was_running_and_start_fresh_begins_anew() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let bob = agent(&w, "Bob", "fake");
    let (layout, left, right) = two_cells(&w);
    let first = launch(&w, &ada, layout, left).unwrap();
    launch(&w, &bob, layout, right).unwrap();
    w.terminals.sessions.lock().unwrap()[1].finish(0);
    sessions::snapshot_running_agents(&w.deps).unwrap();
    // Both still live here: nothing to offer.
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let offered = sessions::list_resumable(&w.deps).unwrap();
    let names: Vec<&str> = offered.iter().map(|r| r.agent_name.as_str()).collect();
    assert_eq!(
        names,
        ["Ada"],
        "Bob had exited before the close: {offered:?}"
    );
    assert!(offered[0].has_conversation);
    assert_eq!(offered[0].cell, CellRef::new(layout, left));
    assert!(offered[0].resumes_conversation);
    assert!(offered[0].profile_name.is_some());

    // Resumed: the cell's conversation; started fresh (here Bob, from his cell): a new one.
    launch(&w, &ada, layout, left).unwrap();
    let fresh = sessions::launch_agent(
        &w.deps,
        LaunchAgent {
            agent_id: bob.agent_id,
            cell: CellRef::new(layout, right),
            size: SIZE,
            fresh: true,
        },
    )
    .unwrap();
    let specs = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(
        specs[2].args,
        ["--resume", first.engine_session_id.as_deref().unwrap()]
    );
    assert_ne!(specs[3].args.first().map(String::as_str), Some("--resume"));
    assert!(fresh.engine_session_id.is_some());
    // Live now: no longer offered.
    assert!(sessions::list_resumable(&w.deps).unwrap().is_empty());
}

/// The prompt says what each conversation was, from the CLI's own store.
#[test]
fn the_resume_prompt_shows_what_the_cli_saved_of_the_conversation() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    w.cli.said(
        &id,
        &[
            (idea_domain::handoff::Speaker::User, "Rename the crate"),
            (idea_domain::handoff::Speaker::Assistant, "Done."),
        ],
    );
    sessions::snapshot_running_agents(&w.deps).unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let offered = sessions::list_resumable(&w.deps).unwrap();
    let glance = offered[0].conversation.clone().expect("a glance");
    assert_eq!(glance.title.as_deref(), Some("Rename the crate"));
    assert_eq!(glance.asks, Some(1));
}
