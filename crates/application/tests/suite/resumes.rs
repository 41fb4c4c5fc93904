//! Continuing an agent after its usage limit (issue 20): scheduled when the limit is seen,
//! carried out once when the fake clock passes the reset — the nudge typed where the agent
//! waits, or a relaunch in its conversation first — and never twice; cancel and run now.

use crate::suite::sessions::{agent, launch, two_cells};
use crate::support::terminal::FakeSession;
use crate::support::{World, world};
use idea_application::resumes;
use idea_domain::agent_state::{AgentState, ScreenFinding, TerminalSignal};
use idea_domain::limits::{LimitReset, LimitSighting, LimitSource, SightedReset};
use idea_domain::resume::DEFAULT_NUDGE;
use idea_domain::{Agent, AgentId};
use std::sync::Arc;

/// The limit Claude Code shows, with its reset an hour ahead of the fake clock.
fn limit_on_screen(w: &World, terminal: &FakeSession) -> u64 {
    let reset = w.clock_now() + 3600;
    terminal.signal(TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(
        LimitSighting {
            reset: SightedReset::Epoch(reset),
            window: Some("5-hour".into()),
            source: LimitSource::Screen,
            message: "You've hit your 5-hour limit".into(),
        },
    ))));
    reset
}

/// An agent launched in a cell: it, and its fake terminal.
fn running_agent(w: &World) -> (Agent, Arc<FakeSession>) {
    let ada = agent(w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(w);
    launch(w, &ada, layout, cell).unwrap();
    let terminal = Arc::clone(w.terminals.sessions.lock().unwrap().last().unwrap());
    (ada, terminal)
}

fn state_of(w: &World, agent: AgentId) -> AgentState {
    let sessions = idea_application::sessions::list(&w.deps);
    let mine: Vec<_> = sessions
        .iter()
        .filter(|s| s.agent_id == Some(agent))
        .collect();
    mine.last().unwrap().state
}

impl World {
    fn clock_now(&self) -> u64 {
        idea_domain::ports::Clock::now(self.clock.as_ref())
    }

    fn session_of(&self, agent: AgentId) -> idea_domain::SessionId {
        let sessions = idea_application::sessions::list(&self.deps);
        sessions
            .iter()
            .find(|s| s.agent_id == Some(agent))
            .unwrap()
            .session_id
    }
}

#[test]
fn a_limit_on_screen_is_scheduled_and_at_the_reset_the_nudge_is_typed_once() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    let reset = limit_on_screen(&w, &terminal);
    assert_eq!(state_of(&w, ada.agent_id), AgentState::UsageLimited);
    let info = idea_application::sessions::list(&w.deps).pop().unwrap();
    let limit = info.usage_limit.unwrap();
    assert_eq!(limit.window.as_deref(), Some("5-hour"));
    assert!(matches!(limit.reset, LimitReset::At { epoch } if epoch > reset));

    assert_eq!(resumes::tick(&w.deps).unwrap(), 0, "not due yet");
    let scheduled = resumes::list(&w.deps).unwrap();
    assert_eq!(scheduled.len(), 1);
    assert_eq!(scheduled[0].agent_id, ada.agent_id);
    assert!(!terminal.typed().contains(DEFAULT_NUDGE));

    w.clock.advance(3600 + 120);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 1);
    assert_eq!(terminal.typed(), format!("{DEFAULT_NUDGE}\r"));
    assert_eq!(
        state_of(&w, ada.agent_id),
        AgentState::Working,
        "the nudge submitted a line"
    );
    assert!(resumes::list(&w.deps).unwrap().is_empty());
    w.clock.advance(3600);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0);
    assert_eq!(
        terminal.typed().matches(DEFAULT_NUDGE).count(),
        1,
        "continued once"
    );
}

#[test]
fn an_agent_that_exited_is_relaunched_in_its_conversation_then_nudged_once_idle() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    // Claude Code saved the conversation; then it exited.
    let first = idea_application::sessions::list(&w.deps).pop().unwrap();
    let cwd = w.terminals.spawned.lock().unwrap()[0].cwd.clone();
    w.cli
        .save_conversation(&cwd, first.engine_session_id.as_deref().unwrap());
    terminal.finish(1);
    w.clock.advance(3700);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 1);
    let spawned = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(spawned.len(), 2, "relaunched");
    assert_eq!(
        spawned[1].args[0], "--resume",
        "in its conversation: {:?}",
        spawned[1].args
    );
    let relaunched = Arc::clone(w.terminals.sessions.lock().unwrap().last().unwrap());
    assert_eq!(
        relaunched.typed(),
        "",
        "not before the CLI waits at its prompt"
    );
    relaunched.signal(TerminalSignal::Quiet);
    assert_eq!(relaunched.typed(), format!("{DEFAULT_NUDGE}\r"));
    assert_eq!(
        state_of(&w, ada.agent_id),
        AgentState::Working,
        "the nudge started a turn"
    );
    relaunched.signal(TerminalSignal::Quiet);
    assert_eq!(relaunched.typed().matches(DEFAULT_NUDGE).count(), 1);
}

#[test]
fn an_agent_that_went_on_before_the_reset_is_not_continued_again() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    // The user typed "go on" before the reset.
    idea_application::sessions::write(&w.deps, w.session_of(ada.agent_id), b"go on\r").unwrap();
    assert_eq!(state_of(&w, ada.agent_id), AgentState::Working);
    resumes::tick(&w.deps).unwrap();
    assert!(
        resumes::list(&w.deps).unwrap().is_empty(),
        "its resume is void"
    );
    // Even if it comes back to its prompt by the reset, it is not nudged.
    terminal.signal(TerminalSignal::Quiet);
    assert_eq!(state_of(&w, ada.agent_id), AgentState::Idle);
    w.clock.advance(3700);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0);
    assert!(!terminal.typed().contains(DEFAULT_NUDGE));
}

#[test]
fn a_cancelled_resume_does_nothing_and_run_now_continues_at_once() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    resumes::cancel(&w.deps, ada.agent_id).unwrap();
    let again = resumes::cancel(&w.deps, ada.agent_id).unwrap_err();
    assert_eq!(again.code(), "RESUME_NOT_FOUND");
    w.clock.advance(3700);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0);
    assert!(!terminal.typed().contains(DEFAULT_NUDGE));

    limit_on_screen_again(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    resumes::run_now(&w.deps, ada.agent_id).unwrap();
    assert_eq!(terminal.typed(), format!("{DEFAULT_NUDGE}\r"));
    assert!(resumes::list(&w.deps).unwrap().is_empty());
}

/// The agent's limit shows again (a new message on screen: the previous one left first).
fn limit_on_screen_again(w: &World, terminal: &FakeSession) {
    terminal.signal(TerminalSignal::Screen(None));
    limit_on_screen(w, terminal);
}

#[test]
fn a_limit_no_reset_lifts_schedules_nothing_and_an_unknown_one_is_probed() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    terminal.signal(TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(
        LimitSighting {
            reset: SightedReset::NeedsUser,
            window: None,
            source: LimitSource::Screen,
            message: "Your workspace is out of credits.".into(),
        },
    ))));
    assert_eq!(state_of(&w, ada.agent_id), AgentState::UsageLimited);
    resumes::tick(&w.deps).unwrap();
    assert!(resumes::list(&w.deps).unwrap().is_empty());

    terminal.signal(TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(
        LimitSighting {
            reset: SightedReset::Unknown,
            window: None,
            source: LimitSource::Screen,
            message: "You’ve hit your usage limit. Try again later.".into(),
        },
    ))));
    resumes::tick(&w.deps).unwrap();
    let scheduled = resumes::list(&w.deps).unwrap();
    assert_eq!(
        scheduled[0].due_at,
        w.clock_now() + idea_domain::resume::PROBE_FIRST_SECS
    );
}

#[test]
fn the_schedule_is_written_to_the_store_and_a_store_failure_is_reported() {
    let w = world();
    let (_, terminal) = running_agent(&w);
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    let stored = w.store.resumes.lock().unwrap().clone().unwrap();
    assert_eq!(stored.resumes.len(), 1);
    w.store
        .fail_writes
        .store(true, std::sync::atomic::Ordering::SeqCst);
    w.clock.advance(3700);
    let error = resumes::tick(&w.deps).unwrap_err();
    assert_eq!(error.code(), "IO_ERROR");
    assert!(
        !terminal.typed().contains(DEFAULT_NUDGE),
        "not continued unless the schedule says so"
    );
}

/// Issue 20, §3: "Compact" types the CLI's own command at its prompt, only once it is idle;
/// a shell has nothing to compact.
#[test]
fn compact_types_the_clis_command_only_when_the_agent_is_idle() {
    use idea_application::sessions;
    let w = world();
    let (ada, terminal) = running_agent(&w);
    let session = w.session_of(ada.agent_id);
    // Starting up counts as working: typed now, it would be a message.
    let busy = sessions::compact(&w.deps, session).unwrap_err();
    assert_eq!(busy.code(), "AGENT_BUSY", "{busy}");
    assert_eq!(terminal.typed(), "");
    terminal.signal(TerminalSignal::Quiet);
    assert_eq!(state_of(&w, ada.agent_id), AgentState::Idle);
    sessions::compact(&w.deps, session).unwrap();
    assert_eq!(terminal.typed(), "/compact\r");

    let layout = idea_application::layouts::get(&w.deps).unwrap();
    let cell = layout.layouts[0].tree.leaves()[1].id;
    let shell = sessions::open_shell(
        &w.deps,
        idea_domain::CellRef::new(layout.active, cell),
        idea_domain::terminal::TerminalSize { rows: 24, cols: 80 },
    )
    .unwrap();
    let refused = sessions::compact(&w.deps, shell.session_id).unwrap_err();
    assert_eq!(refused.code(), "INVALID_PARAMS", "{refused}");
}

/// Claude Code reports a usage limit through its `StopFailure` hook (`error: "rate_limit"`):
/// the turn ended at the limit, not done; its reset is scheduled as for one seen on screen.
#[test]
fn a_stop_failure_hook_at_the_limit_is_a_usage_limit_and_any_other_is_a_turn_done() {
    use idea_domain::agent_state::HookEvent;
    let w = world();
    let (ada, _terminal) = running_agent(&w);
    let id = ada.agent_id.to_string();
    let other = r#"{"hook_event_name":"StopFailure","error":"server_error","last_assistant_message":"API Error: 500"}"#;
    idea_application::sessions::report_hook(&w.deps, &id, HookEvent::TurnDone, Some(other))
        .unwrap();
    assert_eq!(state_of(&w, ada.agent_id), AgentState::Idle);
    let limit = r#"{"hook_event_name":"StopFailure","error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit · resets 1am (UTC)"}"#;
    idea_application::sessions::report_hook(&w.deps, &id, HookEvent::TurnDone, Some(limit))
        .unwrap();
    assert_eq!(state_of(&w, ada.agent_id), AgentState::UsageLimited);
    resumes::tick(&w.deps).unwrap();
    let scheduled = resumes::list(&w.deps).unwrap();
    assert_eq!(scheduled.len(), 1, "{scheduled:?}");
    assert_eq!(scheduled[0].limit.window.as_deref(), Some("5-hour"));
    // A huge payload is not read.
    let huge = format!(
        "{limit}{}",
        " ".repeat(idea_application::sessions::MAX_HOOK_PAYLOAD)
    );
    let w2 = world();
    let (bob, _t) = running_agent(&w2);
    idea_application::sessions::report_hook(
        &w2.deps,
        &bob.agent_id.to_string(),
        HookEvent::TurnDone,
        Some(&huge),
    )
    .unwrap();
    assert_eq!(state_of(&w2, bob.agent_id), AgentState::Idle);
}

fn fail_over_to(w: &World, agent: AgentId, profile: &str) {
    idea_application::agents::set_limit_policy(
        &w.deps,
        agent,
        idea_domain::agent::LimitPolicy::FailOver {
            profile_id: idea_domain::ProfileId::new(profile),
        },
    )
    .unwrap();
}

#[test]
fn an_agent_set_to_fail_over_continues_at_once_on_the_other_engine_with_a_handoff() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    fail_over_to(&w, ada.agent_id, "codex");
    let claude_id = idea_application::sessions::list(&w.deps)
        .pop()
        .unwrap()
        .engine_session_id
        .unwrap();
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    assert!(
        resumes::list(&w.deps).unwrap().is_empty(),
        "a wait was scheduled too"
    );
    let agents = idea_application::agents::list(&w.deps).unwrap();
    assert_eq!(agents[0].profile_id.as_str(), "codex");
    let spawned = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(spawned.len(), 2, "relaunched on the other engine");
    assert!(
        !spawned[1].args.contains(&claude_id),
        "{:?}",
        spawned[1].args
    );
    let moved = Arc::clone(w.terminals.sessions.lock().unwrap().last().unwrap());
    assert_eq!(moved.typed(), "", "not before the CLI waits at its prompt");
    moved.signal(TerminalSignal::Quiet);
    assert_eq!(
        moved.typed(),
        format!("{}\r", idea_domain::resume::FAILOVER_NUDGE)
    );
    moved.signal(TerminalSignal::Quiet);
    assert_eq!(
        moved.typed().matches("previous engine").count(),
        1,
        "nudged twice"
    );

    // A limit on the failover engine too: it waits there, it does not bounce back.
    limit_on_screen(&w, &moved);
    resumes::tick(&w.deps).unwrap();
    assert_eq!(
        resumes::list(&w.deps).unwrap().len(),
        1,
        "no wait after the second limit"
    );
    assert_eq!(w.terminals.spawned.lock().unwrap().len(), 2);
    assert_eq!(
        idea_application::agents::list(&w.deps).unwrap()[0]
            .profile_id
            .as_str(),
        "codex"
    );
}

#[test]
fn an_agent_left_to_the_user_schedules_nothing_and_a_bad_policy_is_refused() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    let refused = idea_application::agents::set_limit_policy(
        &w.deps,
        ada.agent_id,
        idea_domain::agent::LimitPolicy::FailOver {
            profile_id: idea_domain::ProfileId::new("tracked"),
        },
    );
    assert!(
        matches!(refused, Err(idea_application::AppError::InvalidParams(_))),
        "{refused:?}"
    );
    let unknown = idea_application::agents::set_limit_policy(
        &w.deps,
        ada.agent_id,
        idea_domain::agent::LimitPolicy::FailOver {
            profile_id: idea_domain::ProfileId::new("nope"),
        },
    );
    assert!(
        matches!(unknown, Err(idea_application::AppError::ProfileNotFound(_))),
        "{unknown:?}"
    );
    idea_application::agents::set_limit_policy(
        &w.deps,
        ada.agent_id,
        idea_domain::agent::LimitPolicy::Nothing,
    )
    .unwrap();
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    assert!(resumes::list(&w.deps).unwrap().is_empty());
    assert_eq!(w.terminals.spawned.lock().unwrap().len(), 1);
}

#[test]
fn the_projects_own_nudge_is_typed_at_the_reset_and_a_bad_one_is_refused() {
    let w = world();
    let (_ada, terminal) = running_agent(&w);
    let root = idea_domain::ProjectPath::new("/memory/project").unwrap();
    idea_application::project::init(
        w.store.as_ref(),
        &crate::support::SequentialIds::default(),
        &root,
    )
    .unwrap();
    for bad in ["", "   ", "go\u{1b}[31m on", &"x".repeat(2_001)] {
        let refused = idea_application::project::set_resume_nudge(&w.deps, Some(bad));
        assert!(
            matches!(refused, Err(idea_application::AppError::InvalidParams(_))),
            "{bad:?}: {refused:?}"
        );
    }
    let project =
        idea_application::project::set_resume_nudge(&w.deps, Some("Carry on with\nthe plan."))
            .unwrap();
    assert_eq!(
        project.resume_nudge.as_deref(),
        Some("Carry on with the plan.")
    );
    limit_on_screen(&w, &terminal);
    resumes::tick(&w.deps).unwrap();
    w.clock.advance(3600 + 120);
    resumes::tick(&w.deps).unwrap();
    assert_eq!(terminal.typed(), "Carry on with the plan.\r");
    let back = idea_application::project::set_resume_nudge(&w.deps, None).unwrap();
    assert_eq!(back.resume_nudge, None);
}

/// The screen gives the reset in words, to the minute, or not at all; the CLI's own file
/// (Claude's transcript, Codex's rollout) may record it exactly: that one is scheduled.
#[test]
fn a_reset_recorded_in_the_clis_file_wins_over_the_screens_words() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    let id = w.session_of(ada.agent_id);
    let engine = idea_application::sessions::list(&w.deps)
        .into_iter()
        .find(|s| s.session_id == id)
        .unwrap()
        .engine_session_id
        .unwrap();
    let exact = w.clock_now() + 1234;
    w.cli.limits.lock().unwrap().insert(
        engine,
        LimitSighting {
            reset: SightedReset::Epoch(exact),
            window: Some("5-hour".into()),
            source: LimitSource::Transcript,
            message: "You've hit your 5-hour limit".into(),
        },
    );
    terminal.signal(TerminalSignal::Screen(Some(ScreenFinding::UsageLimit(
        LimitSighting {
            reset: SightedReset::Unknown,
            window: None,
            source: LimitSource::Screen,
            message: "You've hit your limit".into(),
        },
    ))));
    resumes::tick(&w.deps).unwrap();
    let scheduled = resumes::list(&w.deps).unwrap();
    assert_eq!(scheduled.len(), 1);
    let margin = idea_domain::limits::RESET_MARGIN_SECS;
    assert_eq!(scheduled[0].due_at, exact + margin, "{scheduled:?}");
    assert_eq!(scheduled[0].limit.window.as_deref(), Some("5-hour"));
}

/// A limit the screen never showed, recorded in the CLI's own file (Claude Code's transcript,
/// a Codex rollout): the cell goes `usageLimited`, and it is scheduled and continued once like
/// one on screen. A limit whose reset has passed is history and changes nothing.
#[test]
fn a_limit_recorded_only_in_the_clis_file_is_seen_and_continued_once() {
    let w = world();
    let (ada, terminal) = running_agent(&w);
    let engine = idea_application::sessions::list(&w.deps)
        .pop()
        .unwrap()
        .engine_session_id
        .unwrap();
    let recorded = |reset: u64| LimitSighting {
        reset: SightedReset::Epoch(reset),
        window: Some("5-hour".into()),
        source: LimitSource::Transcript,
        message: "You've hit your 5-hour limit".into(),
    };
    let file_limits = || w.cli.file_limits.lock().unwrap();
    file_limits().insert(engine.clone(), recorded(w.clock_now() - 60));
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0);
    assert!(resumes::list(&w.deps).unwrap().is_empty(), "an old limit");
    assert_ne!(state_of(&w, ada.agent_id), AgentState::UsageLimited);

    let reset = w.clock_now() + 1800;
    file_limits().insert(engine.clone(), recorded(reset));
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0, "not due yet");
    assert_eq!(state_of(&w, ada.agent_id), AgentState::UsageLimited);
    let scheduled = resumes::list(&w.deps).unwrap();
    assert_eq!(scheduled.len(), 1, "{scheduled:?}");
    let margin = idea_domain::limits::RESET_MARGIN_SECS;
    assert_eq!(scheduled[0].due_at, reset + margin);
    // The screen redrawn without a limit on it: the file said so, the cell stays limited.
    terminal.signal(TerminalSignal::Screen(None));
    assert_eq!(state_of(&w, ada.agent_id), AgentState::UsageLimited);

    w.clock.advance(1800 + margin + 1);
    assert_eq!(resumes::tick(&w.deps).unwrap(), 1);
    assert_eq!(terminal.typed(), format!("{DEFAULT_NUDGE}\r"));
    assert_eq!(resumes::tick(&w.deps).unwrap(), 0);
    assert_eq!(terminal.typed().matches(DEFAULT_NUDGE).count(), 1);
}
