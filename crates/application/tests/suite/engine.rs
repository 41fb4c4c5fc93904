//! ChangeAgentProfile end to end over the fakes: the pair's conversation is kept, the old
//! engine's session id is never handed to the new engine, the handoff reaches the new engine's
//! convention file, a live agent is relaunched in its cell, and moving back resumes the first
//! engine's own conversation.

use super::sessions::{agent, launch, two_cells};
use crate::support::{World, world};
use idea_application::agents::{self, ChangeAgentProfile};
use idea_application::{AppError, layouts};
use idea_domain::handoff::{Handoff, Speaker};
use idea_domain::{AgentId, DomainEvent, ProfileId};
use std::sync::atomic::Ordering;

fn change(
    w: &World,
    agent: AgentId,
    profile: &str,
    handoff: Option<Handoff>,
) -> idea_application::AppResult<agents::ProfileChanged> {
    agents::change_agent_profile(
        &w.deps,
        ChangeAgentProfile {
            agent_id: agent,
            profile_id: ProfileId::new(profile),
            handoff,
        },
    )
}

/// The convention file last written in `agent`'s run dir.
fn convention(w: &World, agent: AgentId) -> String {
    let generated = w.store.generated.lock().unwrap();
    generated
        .iter()
        .find(|(path, _)| path.ends_with(format!("{agent}/AGENTS.md")))
        .map(|(_, text)| text.clone())
        .expect("a convention file")
}

#[test]
fn a_live_agent_moves_to_another_engine_with_its_handoff_and_back_to_its_own_conversation() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let claude_id = first.engine_session_id.clone().unwrap();
    let conversation = first.conversation_id;
    w.events.take();

    let handoff = Handoff {
        objective: "Ship the --json flag".into(),
        summary: "The parser is done; the output is next.".into(),
    };
    let moved = change(&w, ada.agent_id, "codex", Some(handoff)).unwrap();
    assert_eq!(moved.agent.profile_id, ProfileId::new("codex"));
    let second = moved.session.expect("relaunched, as it was live");
    assert_eq!(second.cell, first.cell, "in the same cell");
    assert_eq!(
        second.conversation_id, conversation,
        "the pair's conversation is kept"
    );
    let spawned = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(spawned.len(), 2);
    assert!(
        !spawned[1].args.contains(&claude_id),
        "the old engine's id went to the new one: {:?}",
        spawned[1].args
    );
    let text = convention(&w, ada.agent_id);
    assert!(text.contains("# Conversation resume"), "{text}");
    assert!(
        text.contains("Ship the --json flag") && text.contains("the output is next"),
        "{text}"
    );
    assert!(
        w.events.take().iter().any(
            |e| matches!(e, DomainEvent::AgentProfileChanged { agent_id, profile_id }
            if *agent_id == ada.agent_id && profile_id.as_str() == "codex")
        ),
        "no agentProfileChanged"
    );
    let leaf = layouts::get(&w.deps).unwrap().layouts[0]
        .tree
        .leaf(cell)
        .unwrap()
        .clone();
    assert_ne!(leaf.engine_session_id.as_deref(), Some(claude_id.as_str()));

    // Back to the first engine: its own conversation resumes, with a handoff drafted from the
    // work in progress meanwhile.
    *w.store.work_in_progress.lock().unwrap() =
        Some(" src/usage.rs | 12 ++++++\n 1 file changed".into());
    let back = change(&w, ada.agent_id, "askable", None).unwrap();
    assert!(back.session.is_some());
    let spawned = w.terminals.spawned.lock().unwrap().clone();
    assert_eq!(spawned[2].args, ["--resume", claude_id.as_str()]);
    let text = convention(&w, ada.agent_id);
    assert!(text.contains("src/usage.rs | 12"), "{text}");
    assert!(
        !text.contains("Ship the --json flag"),
        "the older handoff stayed: {text}"
    );
}

#[test]
fn a_stopped_agent_moves_without_starting_and_its_next_launch_gets_the_handoff() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    // What Claude Code saved of the conversation.
    w.cli.said(
        &id,
        &[
            (Speaker::User, "Rename the crate to idea-core"),
            (
                Speaker::Assistant,
                "Renamed in Cargo.toml; the imports are next.",
            ),
        ],
    );
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    let draft = agents::draft_handoff(&w.deps, ada.agent_id).unwrap();
    assert_eq!(draft.objective, "Rename the crate to idea-core");
    assert!(
        draft.summary.contains("the imports are next"),
        "{}",
        draft.summary
    );

    let moved = change(&w, ada.agent_id, "minting", None).unwrap();
    assert!(moved.session.is_none(), "a stopped agent is not started");
    assert_eq!(w.terminals.spawned.lock().unwrap().len(), 1);
    launch(&w, &moved.agent, layout, cell).unwrap();
    let spawned = w.terminals.spawned.lock().unwrap().clone();
    assert!(!spawned[1].args.contains(&id), "{:?}", spawned[1].args);
    let text = convention(&w, ada.agent_id);
    assert!(
        text.contains("Objective: Rename the crate to idea-core"),
        "{text}"
    );
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let unknown = change(&w, ada.agent_id, "nope", None).unwrap_err();
    assert!(
        matches!(unknown, AppError::ProfileNotFound(_)),
        "{unknown:?}"
    );
    let same = change(&w, ada.agent_id, "tracked", None).unwrap_err();
    assert!(matches!(same, AppError::InvalidParams(_)), "{same:?}");
    let nobody = change(
        &w,
        "00000000-0000-0000-0000-00000000abcd"
            .parse::<AgentId>()
            .unwrap(),
        "codex",
        None,
    )
    .unwrap_err();
    assert!(matches!(nobody, AppError::AgentNotFound(_)), "{nobody:?}");
    // A CLI that is not installed: said so, and nothing changes.
    let missing = change(&w, ada.agent_id, "uninstalled", None).unwrap_err();
    assert!(
        matches!(
            missing,
            AppError::Spawn(idea_domain::terminal::PtyError::CommandNotFound(_))
        ),
        "{missing:?}"
    );
    assert!(
        w.store.handoffs.lock().unwrap().is_empty(),
        "a handoff was written"
    );
    // A full disk: the error says so and the agent keeps its engine.
    w.store.fail_writes.store(true, Ordering::SeqCst);
    assert!(change(&w, ada.agent_id, "codex", None).is_err());
    w.store.fail_writes.store(false, Ordering::SeqCst);
    assert_eq!(
        agents::list(&w.deps).unwrap()[0].profile_id,
        ProfileId::new("tracked")
    );
}

#[test]
fn a_huge_handoff_is_cut_to_its_bound() {
    let w = world();
    let ada = agent(&w, "Ada", "tracked");
    let huge = Handoff {
        objective: "o".repeat(100_000),
        summary: "s".repeat(1_000_000),
    };
    change(&w, ada.agent_id, "codex", Some(huge)).unwrap();
    let stored = w
        .store
        .handoffs
        .lock()
        .unwrap()
        .values()
        .next()
        .cloned()
        .unwrap();
    assert!(
        stored.handoff.objective.chars().count() <= idea_domain::handoff::OBJECTIVE_MAX_CHARS + 1
    );
    assert!(stored.handoff.summary.chars().count() <= idea_domain::handoff::SUMMARY_MAX_CHARS + 1);
}

/// An agent whose CLI has a JSON mode and that is not live writes its own handoff: one turn of
/// its conversation with the user, resumed, asked for the objective and the summary. Its
/// answer without both parts, or a live agent (one conversation, one turn at a time), gets the
/// transcript's draft instead.
#[test]
fn a_stopped_agent_with_a_json_mode_writes_its_own_handoff() {
    let w = world();
    let ada = agent(&w, "Ada", "askable");
    let (layout, cell, _) = two_cells(&w);
    let first = launch(&w, &ada, layout, cell).unwrap();
    let id = first.engine_session_id.clone().unwrap();
    w.terminals.sessions.lock().unwrap()[0].finish(0);
    *w.turns.answer.lock().unwrap() =
        Some("OBJECTIVE: Ship the parser\nSUMMARY: The lexer is done; the parser is next.".into());
    let written = agents::draft_handoff(&w.deps, ada.agent_id).unwrap();
    assert_eq!(written.objective, "Ship the parser");
    assert_eq!(written.summary, "The lexer is done; the parser is next.");
    let ran = w.turns.ran();
    assert_eq!(ran.len(), 1);
    assert_eq!(ran[0].message, idea_domain::handoff::SUMMARY_ASK);
    assert!(
        ran[0]
            .invocation
            .args
            .windows(2)
            .any(|a| a == ["--resume", id.as_str()]),
        "not in the agent's conversation: {:?}",
        ran[0].invocation.args
    );

    *w.turns.answer.lock().unwrap() = Some("I did several things.".into());
    let drafted = agents::draft_handoff(&w.deps, ada.agent_id).unwrap();
    assert_ne!(drafted.objective, "Ship the parser");
    assert_eq!(w.turns.ran().len(), 2);

    launch(&w, &ada, layout, cell).unwrap();
    agents::draft_handoff(&w.deps, ada.agent_id).unwrap();
    assert_eq!(w.turns.ran().len(), 2, "a live agent was asked a turn");
}
