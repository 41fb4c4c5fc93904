//! Ask against a fake turn runner: one agent's turns first in first out while another agent
//! answers in parallel, timeout, cancel, the refusals, and the conversation id kept in the
//! pair's `providers.json` for the next turn.

use crate::suite::sessions::{agent, launch, two_cells};
use crate::support::{World, world};
use idea_application::orchestrator::{self, Ask};
use idea_application::{AppResult, ErrorKind};
use idea_domain::orchestrator::{
    AskAnswer, RequestOutcome, RequestRecord, RequestSource, RequestState, Requester,
};
use idea_domain::turn::{MAX_PUBLISHED_EVENTS, TurnError, TurnEvent};
use idea_domain::{Agent, ConversationId, DomainEvent, Party};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn ask_as(w: &World, requester: Requester, target: &str, message: &str) -> AppResult<AskAnswer> {
    orchestrator::ask(
        &w.deps,
        Ask {
            requester: requester.to_string(),
            target: target.into(),
            message: message.into(),
            timeout: None,
            source: RequestSource::Ui,
            request_id: None,
        },
    )
}

fn ask(w: &World, target: &Agent, message: &str) -> AppResult<AskAnswer> {
    ask_as(w, Requester::User, &target.agent_id.to_string(), message)
}

/// Waits until `count` requests are in the given state.
fn wait_requests(w: &World, state: RequestState, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while orchestrator::list(&w.deps)
        .iter()
        .filter(|r| r.state == state)
        .count()
        < count
    {
        assert!(
            Instant::now() < deadline,
            "{:?}",
            orchestrator::list(&w.deps)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn turns_of(w: &World, agent: &Agent) -> Vec<crate::support::turns::Ran> {
    let id = agent.agent_id.to_string();
    w.turns
        .ran()
        .into_iter()
        .filter(|r| r.invocation.cwd.ends_with(&id))
        .collect()
}

#[test]
fn one_agents_turns_run_first_in_first_out_while_another_agent_answers_in_parallel() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let bob = agent(&w, "Bob", "askable");
    w.turns.set_delay(Duration::from_millis(25));
    std::thread::scope(|scope| {
        let mut asks = Vec::new();
        for i in 0..20 {
            let (w, ada) = (&w, &ada);
            asks.push(scope.spawn(move || ask(w, ada, &format!("m{i:02}"))));
            // Each request is in line before the next one arrives.
            wait_until_listed(w, i + 1);
        }
        let bobs = scope.spawn(|| ask_as(&w, Requester::User, "bob", "hello"));
        for (i, handle) in asks.into_iter().enumerate() {
            assert_eq!(
                handle.join().unwrap().unwrap().text,
                format!("echo: m{i:02}")
            );
        }
        assert_eq!(bobs.join().unwrap().unwrap().text, "echo: hello");
    });
    let adas = turns_of(&w, &ada);
    let order: Vec<&str> = adas.iter().map(|r| r.message.as_str()).collect();
    let expected: Vec<String> = (0..20).map(|i| format!("m{i:02}")).collect();
    assert_eq!(order, expected);
    for pair in adas.windows(2) {
        assert!(
            pair[0].ended.unwrap() <= pair[1].started,
            "one turn at a time"
        );
    }
    // Bob did not wait for Ada's line.
    let bobs = &turns_of(&w, &bob)[0];
    assert!(bobs.ended.unwrap() < adas.last().unwrap().started);
    assert!(
        orchestrator::list(&w.deps)
            .iter()
            .all(|r| r.state == RequestState::Done)
    );
}

fn wait_until_listed(w: &World, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while orchestrator::list(&w.deps).len() < count {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_turn_that_runs_too_long_is_killed_and_times_out() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    w.turns.hang.store(true, Ordering::SeqCst);
    let error = orchestrator::ask(
        &w.deps,
        Ask {
            requester: "user".into(),
            target: "Ada".into(),
            message: "slow".into(),
            timeout: Some(Duration::from_millis(100)),
            source: RequestSource::Mcp,
            request_id: None,
        },
    )
    .unwrap_err();
    assert_eq!(error.code(), "TURN_TIMEOUT");
    assert!(turns_of(&w, &ada)[0].ended.is_some(), "killed");
    let record = &orchestrator::list(&w.deps)[0];
    assert_eq!(record.state, RequestState::Failed);
    assert_eq!(record.error.as_ref().unwrap().code, "TURN_TIMEOUT");
    let processed = w.events.take().into_iter().find_map(|e| match e {
        DomainEvent::OrchestratorRequestProcessed {
            source, outcome, ..
        } => Some((source, outcome)),
        _ => None,
    });
    assert_eq!(
        processed,
        Some((
            RequestSource::Mcp,
            RequestOutcome::Error {
                code: "TURN_TIMEOUT".into()
            }
        ))
    );
}

#[test]
fn cancelling_kills_a_running_turn_and_takes_a_queued_one_out_of_line() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    w.turns.hang.store(true, Ordering::SeqCst);
    std::thread::scope(|scope| {
        let running = scope.spawn(|| ask(&w, &ada, "first"));
        wait_requests(&w, RequestState::Running, 1);
        let queued = scope.spawn(|| ask(&w, &ada, "second"));
        wait_requests(&w, RequestState::Queued, 1);
        let list = orchestrator::list(&w.deps);
        orchestrator::cancel(&w.deps, list[1].request_id).unwrap();
        assert_eq!(queued.join().unwrap().unwrap_err().code(), "CANCELLED");
        assert_eq!(
            orchestrator::list(&w.deps)[0].state,
            RequestState::Running,
            "the running one goes on"
        );
        orchestrator::cancel(&w.deps, list[0].request_id).unwrap();
        assert_eq!(running.join().unwrap().unwrap_err().code(), "CANCELLED");
    });
    assert_eq!(turns_of(&w, &ada).len(), 1, "the queued one never ran");
    let states: Vec<_> = orchestrator::list(&w.deps)
        .iter()
        .map(|r| r.state)
        .collect();
    assert_eq!(states, [RequestState::Cancelled, RequestState::Cancelled]);
    let unknown = idea_domain::RequestId(uuid::Uuid::from_u128(999));
    assert_eq!(
        orchestrator::cancel(&w.deps, unknown).unwrap_err().code(),
        "REQUEST_NOT_FOUND"
    );
}

#[test]
fn an_agent_without_a_json_mode_or_that_does_not_exist_cannot_be_asked() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    assert_eq!(ask(&w, &ada, "hi").unwrap_err().code(), "NOT_ASKABLE");
    let missing = ask_as(&w, Requester::User, "Nobody", "hi").unwrap_err();
    assert_eq!(missing.code(), "AGENT_NOT_FOUND");
    let bob = agent(&w, "Bob", "askable");
    let stranger = orchestrator::ask(
        &w.deps,
        Ask {
            requester: "Somebody".into(),
            target: bob.name.to_string(),
            message: "hi".into(),
            timeout: None,
            source: RequestSource::Mcp,
            request_id: None,
        },
    );
    assert_eq!(stranger.unwrap_err().code(), "AGENT_NOT_FOUND");
    assert!(w.turns.ran().is_empty());
}

#[test]
fn an_agent_live_in_a_cell_or_answering_is_busy() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(ask(&w, &ada, "hi").unwrap_err().code(), "AGENT_BUSY");
    assert!(w.turns.ran().is_empty());
    assert_eq!(orchestrator::list(&w.deps)[0].state, RequestState::Failed);
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    // The other way round: no launch while a turn of the agent runs.
    w.turns.hang.store(true, Ordering::SeqCst);
    std::thread::scope(|scope| {
        let turn = scope.spawn(|| ask(&w, &ada, "long"));
        wait_requests(&w, RequestState::Running, 1);
        assert_eq!(
            launch(&w, &ada, layout, cell).unwrap_err().code(),
            "AGENT_BUSY"
        );
        let deleting = idea_application::agents::delete(&w.deps, ada.agent_id);
        assert_eq!(deleting.unwrap_err().code(), "AGENT_RUNNING");
        orchestrator::cancel_all(&w.deps);
        assert_eq!(turn.join().unwrap().unwrap_err().code(), "CANCELLED");
    });
    assert!(launch(&w, &ada, layout, cell).is_ok());
}

#[test]
fn a_request_that_would_wait_on_itself_is_refused_at_once() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let bob = agent(&w, "Bob", "askable");
    let as_ada = Requester::Agent(ada.agent_id);
    let itself = ask_as(&w, as_ada, "Ada", "hi").unwrap_err();
    assert_eq!(itself.code(), "AGENT_BUSY");
    w.turns.hang.store(true, Ordering::SeqCst);
    std::thread::scope(|scope| {
        let ada_asks_bob = scope.spawn(|| ask_as(&w, as_ada, "Bob", "help"));
        wait_requests(&w, RequestState::Running, 1);
        let started = Instant::now();
        let back = ask_as(&w, Requester::Agent(bob.agent_id), "Ada", "and you?");
        let back = back.unwrap_err();
        assert_eq!(back.code(), "AGENT_BUSY");
        // Asked by id, named by name.
        assert!(
            back.to_string().contains("Ada is waiting for Bob's answer"),
            "{back}"
        );
        assert!(started.elapsed() < Duration::from_secs(1));
        orchestrator::cancel_all(&w.deps);
        assert_eq!(
            ada_asks_bob.join().unwrap().unwrap_err().code(),
            "CANCELLED"
        );
    });
}

#[test]
fn the_conversation_id_is_kept_per_pair_and_resumed() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let bob = agent(&w, "Bob", "askable");
    let first = ask(&w, &ada, "one").unwrap();
    let id = first.engine_session_id.clone().unwrap();
    let pair = ConversationId::for_pair(Party::User, Party::Agent(ada.agent_id));
    let stored = w.store.providers.lock().unwrap()[&pair].clone();
    assert_eq!(
        stored.engine_session("claude", ada.agent_id),
        Some(id.as_str())
    );
    ask(&w, &ada, "two").unwrap();
    // Bob asking Ada (the MCP bridge names him) is another conversation of Ada's.
    let by_name = orchestrator::ask(
        &w.deps,
        Ask {
            requester: "bob".into(),
            target: "Ada".into(),
            message: "three".into(),
            timeout: None,
            source: RequestSource::Mcp,
            request_id: None,
        },
    );
    by_name.unwrap();
    let record = orchestrator::list(&w.deps).pop().unwrap();
    assert_eq!(record.requester, Requester::Agent(bob.agent_id));
    let args: Vec<Vec<String>> = turns_of(&w, &ada)
        .into_iter()
        .map(|r| r.invocation.args)
        .collect();
    assert_eq!(args[0], ["-p", "--session-id", id.as_str(), "--", "one"]);
    assert_eq!(args[1], ["-p", "--resume", id.as_str(), "--", "two"]);
    assert_eq!(args[2][1], "--session-id");
    assert_ne!(args[2][2], id);
    // The convention file was written in Ada's run dir before the turn.
    let generated = w.store.generated.lock().unwrap();
    assert!(
        generated
            .keys()
            .any(|p| p.ends_with(format!("{}/AGENTS.md", ada.agent_id)))
    );
}

#[test]
fn a_cli_minting_its_ids_resumes_the_thread_it_reported() {
    let w = world();
    let cody = agent(&w, "Cody", "askable-minting");
    let first = ask(&w, &cody, "one").unwrap();
    assert_eq!(first.engine_session_id.as_deref(), Some("thread-0"));
    ask(&w, &cody, "two").unwrap();
    let args: Vec<Vec<String>> = w
        .turns
        .ran()
        .into_iter()
        .map(|r| r.invocation.args)
        .collect();
    assert_eq!(args[0], ["exec", "--", "one"]);
    assert_eq!(args[1], ["exec", "resume", "thread-0", "--", "two"]);
}

/// Codex in a cell, then asked once the cell stopped: the cell never learned the id Codex
/// minted (a relaunch would), so the ask continues the newest conversation Codex saved in the
/// agent's folder, the user's with it; an agent that no cell hosted starts afresh.
#[test]
fn an_ask_after_a_minting_clis_cell_continues_the_cells_conversation() {
    let w = world();
    let cody = agent(&w, "Cody", "codex");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &cody, layout, cell).unwrap();
    let cwd = w.terminals.spawned.lock().unwrap()[0].cwd.clone();
    w.cli.save_conversation(&cwd, "cell-thread");
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    ask(&w, &cody, "after the cell").unwrap();
    let ran = w.turns.ran();
    assert_eq!(
        ran[0].invocation.args[..3],
        ["exec", "resume", "cell-thread"],
        "{:?}",
        ran[0].invocation.args
    );

    let never_hosted = agent(&w, "Nova", "codex");
    let cwd = w.deps.store.prepare_run_dir(never_hosted.agent_id).unwrap();
    w.cli.save_conversation(&cwd, "someone-elses");
    ask(&w, &never_hosted, "first").unwrap();
    let ran = w.turns.ran();
    assert!(
        !ran[1].invocation.args.contains(&"someone-elses".to_owned()),
        "{:?}",
        ran[1].invocation.args
    );
}

/// The limit of a turn, resetting an hour after the fake clock's start.
fn five_hour_limit() -> TurnError {
    TurnError::UsageLimit {
        resets_at: Some(1_796_086_800),
        reset_text: None,
        window: Some("5-hour".into()),
        needs_user: false,
        message: "limit".into(),
    }
}

/// The request of `message`, once it is in `state`.
fn request_in(w: &World, message: &str, state: RequestState) -> RequestRecord {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = orchestrator::list(&w.deps);
        if let Some(r) = list
            .iter()
            .find(|r| r.message == message && r.state == state)
        {
            return r.clone();
        }
        assert!(
            Instant::now() < deadline,
            "{message} never {state:?}: {list:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn an_ask_that_hits_a_usage_limit_waits_for_the_reset_and_is_answered_then_in_order() {
    let w = Arc::new(world());
    let ada = agent(&w, "Ada", "askable");
    ask(&w, &ada, "one").unwrap();
    *w.turns.fail.lock().unwrap() = Some(five_hour_limit());
    let asking = |message: &'static str| {
        let (w, ada) = (Arc::clone(&w), ada.clone());
        std::thread::spawn(move || ask(&w, &ada, message))
    };
    let limited = asking("two");
    // Waiting, with the reset (plus the margin IdeA waits past it) for the UI to show.
    let waiting = request_in(&w, "two", RequestState::WaitingForLimit);
    assert_eq!(
        waiting.limit_resets_at,
        Some(1_796_086_800 + idea_domain::limits::RESET_MARGIN_SECS)
    );
    // A later request waits behind it, in order, however long the wait.
    let behind = asking("three");
    request_in(&w, "three", RequestState::Queued);
    *w.turns.fail.lock().unwrap() = None;
    std::thread::sleep(Duration::from_millis(300));
    assert!(!limited.is_finished(), "answered before the reset");
    w.clock
        .advance(3600 + idea_domain::limits::RESET_MARGIN_SECS);
    assert_eq!(limited.join().unwrap().unwrap().text, "echo: two");
    assert_eq!(behind.join().unwrap().unwrap().text, "echo: three");
    let messages: Vec<String> = w
        .turns
        .ran()
        .iter()
        .map(|r| r.invocation.args.last().cloned().unwrap_or_default())
        .collect();
    assert_eq!(
        messages,
        ["one", "two", "two", "three"],
        "retried once, then the next"
    );
    let done = request_in(&w, "two", RequestState::Done);
    assert_eq!(done.limit_resets_at, None);
}

#[test]
fn a_request_waiting_for_a_reset_can_be_cancelled_and_one_without_a_reset_fails_at_once() {
    let w = Arc::new(world());
    let ada = agent(&w, "Ada", "askable");
    *w.turns.fail.lock().unwrap() = Some(five_hour_limit());
    let limited = {
        let (w, ada) = (Arc::clone(&w), ada.clone());
        std::thread::spawn(move || ask(&w, &ada, "two"))
    };
    let waiting = request_in(&w, "two", RequestState::WaitingForLimit);
    assert!(orchestrator::cancel(&w.deps, waiting.request_id).is_ok());
    assert_eq!(limited.join().unwrap().unwrap_err().code(), "CANCELLED");
    // Out of credits: no reset to wait for.
    *w.turns.fail.lock().unwrap() = Some(TurnError::UsageLimit {
        resets_at: None,
        reset_text: None,
        window: None,
        needs_user: true,
        message: "out of credits".into(),
    });
    let failed = ask(&w, &ada, "three").unwrap_err();
    assert_eq!(
        failed.to_wire().kind,
        ErrorKind::UsageLimit { resets_at: None }
    );
}

#[test]
fn a_refused_resume_starts_afresh() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let first = ask(&w, &ada, "one").unwrap().engine_session_id.unwrap();
    *w.turns.fail.lock().unwrap() = Some(TurnError::Cli {
        message: format!("No conversation found with session ID: {first}"),
    });
    let refused = ask(&w, &ada, "three").unwrap_err();
    assert_eq!(refused.code(), "TURN_FAILED");
    assert!(refused.to_string().contains("No conversation found"));
    *w.turns.fail.lock().unwrap() = None;
    ask(&w, &ada, "four").unwrap();
    let last = w.turns.ran().pop().unwrap().invocation.args;
    assert_eq!(last[1], "--session-id");
    assert_ne!(last[2], first);
}

#[test]
fn the_list_keeps_the_last_finished_requests() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    for i in 0..orchestrator::KEEP + 5 {
        ask(&w, &ada, &format!("m{i}")).unwrap();
    }
    let list = orchestrator::list(&w.deps);
    assert_eq!(list.len(), orchestrator::KEEP);
    assert_eq!(list[0].message, "m5");
    assert_eq!(list.last().unwrap().answer.as_deref(), Some("echo: m204"));
}

/// The `RequestEvent`s published so far, as `(request, seq, event)`.
fn turn_events(w: &World) -> Vec<(idea_domain::RequestId, u32, TurnEvent)> {
    w.events
        .take()
        .into_iter()
        .filter_map(|e| match e {
            DomainEvent::RequestEvent {
                request_id,
                seq,
                event,
                ..
            } => Some((request_id, seq, event)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_turns_events_are_published_in_order_under_its_request() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    w.turns.chatter.store(2, Ordering::SeqCst);
    let answer = ask(&w, &ada, "hello").unwrap();
    let events = turn_events(&w);
    assert!(events.iter().all(|(id, ..)| *id == answer.request_id));
    assert_eq!(
        events.iter().map(|(_, seq, _)| *seq).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    assert!(matches!(events[0].2, TurnEvent::Started { .. }));
    assert_eq!(
        events[1].2,
        TurnEvent::Text {
            text: "part 0".into(),
            delta: false
        }
    );
    let TurnEvent::Finished(outcome) = &events[3].2 else {
        panic!("{events:?}")
    };
    assert_eq!(outcome.text, "echo: hello");
}

#[test]
fn a_chatty_turn_publishes_a_bounded_number_of_events_and_its_last_word() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let chatter = MAX_PUBLISHED_EVENTS as usize + 50;
    w.turns.chatter.store(chatter, Ordering::SeqCst);
    ask(&w, &ada, "talk").unwrap();
    let events = turn_events(&w);
    assert_eq!(events.len(), MAX_PUBLISHED_EVENTS as usize + 1);
    let (_, seq, last) = events.last().unwrap();
    assert!(matches!(last, TurnEvent::Finished(_)), "{last:?}");
    // Started, every Text, then Finished: the ones left out still counted.
    assert_eq!(*seq as usize, chatter + 1);
}

#[test]
fn a_caller_chosen_request_id_names_the_request_and_is_used_once() {
    let w = world();
    agent(&w, "Ada", "askable");
    let id = idea_domain::RequestId(uuid::Uuid::from_u128(0xabc));
    let chosen = |message: &str| {
        orchestrator::ask(
            &w.deps,
            Ask {
                requester: "user".into(),
                target: "Ada".into(),
                message: message.into(),
                timeout: None,
                source: RequestSource::Ui,
                request_id: Some(id),
            },
        )
    };
    assert_eq!(chosen("first").unwrap().request_id, id);
    let error = chosen("again").unwrap_err();
    assert_eq!(error.code(), "INVALID_PARAMS");
    assert_eq!(orchestrator::list(&w.deps).len(), 1, "nothing recorded");
}
