//! Which conversation a relaunch continues: only one the CLI saved, and a cell that can
//! always start again (a CLI refuses to resume an id it never saved, at every launch).

use super::sessions::{agent, launch, two_cells};
use crate::support::world;
use idea_application::orchestrator::{self, Ask};
use idea_application::sessions;
use idea_domain::orchestrator::RequestSource;
use idea_domain::profile::CliHome;

#[test]
fn an_id_the_cli_never_saved_is_started_again_not_resumed() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    // Stopped before its first prompt: the CLI saved nothing.
    w.terminals.sessions.lock().unwrap()[0].finish(129);
    let second = launch(&w, &ada, layout, cell).unwrap();
    let specs = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(
        specs[1].args,
        ["--session-id", id.as_str()],
        "same id, started afresh"
    );
    assert_eq!(second.engine_session_id.as_deref(), Some(id.as_str()));
}

#[test]
fn a_saved_conversation_is_resumed() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    let cwd = w.terminals.spawned.lock().unwrap()[0].cwd.clone();
    w.cli.save_conversation(&cwd, &id);
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(
        w.terminals.spawned.lock().unwrap()[1].args,
        ["--resume", id.as_str()]
    );
}

#[test]
fn a_cli_minting_its_own_ids_resumes_its_latest_thread_in_the_run_dir() {
    let w = world();
    let cody = agent(&w, "Cody", "minting");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &cody, layout, cell).unwrap();
    assert_eq!(first.engine_session_id, None);
    let spec = w.terminals.spawned.lock().unwrap()[0].clone();
    assert!(spec.args.is_empty(), "{:?}", spec.args);
    // The CLI saved a thread for the agent's folder, and one elsewhere that is not its own.
    w.cli.save_conversation(&spec.cwd, "thread-1");
    w.cli
        .save_conversation(std::path::Path::new("/elsewhere"), "thread-x");
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let second = launch(&w, &cody, layout, cell).unwrap();
    assert_eq!(
        w.terminals.spawned.lock().unwrap()[1].args,
        ["resume", "thread-1"]
    );
    assert_eq!(second.engine_session_id.as_deref(), Some("thread-1"));
    let saved = idea_application::layouts::get(&w.deps).unwrap();
    let leaf = saved.layouts[0].tree.leaf(cell).unwrap().clone();
    assert_eq!(leaf.engine_session_id.as_deref(), Some("thread-1"));
}

#[test]
fn a_resume_refused_at_once_is_not_tried_again_when_ideas_cannot_check() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(w.terminals.spawned.lock().unwrap()[1].args[0], "--resume");
    // The CLI says "No conversation found" and exits 1.
    w.terminals.sessions.lock().unwrap()[1].finish(1);
    let exited = sessions::list(&w.deps);
    let hint = exited[0].exit.as_ref().unwrap().hint.clone().unwrap();
    assert!(hint.contains("starts a new conversation"), "{hint}");
    launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(
        w.terminals.spawned.lock().unwrap()[2].args,
        ["--session-id", id.as_str()]
    );
}

#[test]
fn every_folder_handed_to_the_cli_is_trusted() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &ada, layout, cell).unwrap();
    let cwd = w.terminals.spawned.lock().unwrap()[0].cwd.clone();
    let trusted = w.cli.trusted.lock().unwrap().clone();
    let root = cwd.ancestors().nth(3).unwrap().to_path_buf();
    assert_eq!(
        trusted,
        [(CliHome::ClaudeCode, cwd), (CliHome::ClaudeCode, root)]
    );
}

#[test]
fn a_cli_that_was_never_set_up_says_what_it_needs_when_it_fails() {
    let w = world();
    *w.cli.setup_problem.lock().unwrap() = Some("run `claude` once".into());
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, other) = two_cells(&w);
    launch(&w, &ada, layout, cell).unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(1);
    let exit = sessions::list(&w.deps)[0].exit.clone().unwrap();
    assert_eq!(exit.hint.as_deref(), Some("run `claude` once"));
    // A clean exit, or one IdeA asked for, needs no hint.
    let bob = agent(&w, "Bob", "tracked");
    launch(&w, &bob, layout, other).unwrap();
    w.terminals.sessions.lock().unwrap()[1].finish(0);
    let exits: Vec<_> = sessions::list(&w.deps)
        .into_iter()
        .filter_map(|s| s.exit)
        .collect();
    assert!(exits.iter().any(|e| e.code == 0 && e.hint.is_none()));
}

/// The user's asks to an agent and a cell showing it are one conversation (the pair
/// user↔agent): a Codex cell resumes the thread the user's asks created, not the newest
/// thread of its folder (which may be another agent's ask).
#[test]
fn a_codex_cell_continues_the_thread_of_the_users_asks() {
    let w = world();
    let cody = agent(&w, "Cody", "codex");
    let lead = agent(&w, "Lead", "shell");
    let user_ask = |message: &str| {
        orchestrator::ask(
            &w.deps,
            Ask {
                requester: "user".into(),
                target: "Cody".into(),
                message: message.into(),
                timeout: None,
                source: RequestSource::Ui,
                request_id: None,
            },
        )
    };
    let first = user_ask("hello").unwrap();
    let thread = first.engine_session_id.clone().unwrap();
    let cwd = w.turns.ran()[0].invocation.cwd.clone();
    w.cli.save_conversation(&cwd, &thread);
    // Then Lead asks Cody: a newer thread in the same folder, Lead's.
    let lead_ask = orchestrator::ask(
        &w.deps,
        Ask {
            requester: lead.agent_id.to_string(),
            target: "Cody".into(),
            message: "review".into(),
            timeout: None,
            source: RequestSource::Mcp,
            request_id: None,
        },
    )
    .unwrap();
    let other = lead_ask.engine_session_id.unwrap();
    assert_ne!(other, thread);
    w.cli.save_conversation(&cwd, &other);

    // A cell that never showed Cody.
    let (layout, cell, _) = two_cells(&w);
    let info = launch(&w, &cody, layout, cell).unwrap();
    assert_eq!(
        w.terminals.spawned.lock().unwrap()[0].args,
        ["resume", thread.as_str()]
    );
    assert_eq!(info.engine_session_id.as_deref(), Some(thread.as_str()));
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    // And the next ask goes on with the same thread.
    user_ask("again").unwrap();
    let second = w.turns.ran()[2].invocation.args.clone();
    assert!(
        second.windows(2).any(|w| w == ["resume", thread.as_str()]),
        "{second:?}"
    );
}

/// The other way round: the id a cell's launch gave the CLI is the one the user's next ask
/// continues.
#[test]
fn the_users_next_ask_continues_the_cells_conversation() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let (layout, cell, _) = two_cells(&w);
    let info = launch(&w, &ada, layout, cell).unwrap();
    let id = info.engine_session_id.unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let answer = orchestrator::ask(
        &w.deps,
        Ask {
            requester: "user".into(),
            target: "Ada".into(),
            message: "and now?".into(),
            timeout: None,
            source: RequestSource::Ui,
            request_id: None,
        },
    )
    .unwrap();
    assert_eq!(answer.engine_session_id.as_deref(), Some(id.as_str()));
    let args = &w.turns.ran()[0].invocation.args;
    assert!(
        args.windows(2).any(|w| w == ["--resume", id.as_str()]),
        "{args:?}"
    );
}
