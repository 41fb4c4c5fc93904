use crate::support::world;
use idea_application::agents::{self, NewAgent};
use idea_domain::{AgentOrigin, DomainEvent, ProfileId};
use std::sync::atomic::Ordering;

fn new(name: &str) -> NewAgent {
    NewAgent {
        name: name.into(),
        profile_id: ProfileId::new("shell"),
    }
}

#[test]
fn create_from_scratch_writes_manifest_then_persona_and_publishes() {
    let w = world();
    let agent = agents::create_from_scratch(&w.deps, new("Ada Lovelace")).unwrap();
    assert_eq!(agent.md_path, "agents/ada-lovelace.md");
    assert_eq!(agent.origin, AgentOrigin::Scratch);
    assert_eq!(
        w.store.manifest.lock().unwrap().as_ref().unwrap().entries,
        vec![agent.clone()]
    );
    assert!(
        agents::read_context(&w.deps, agent.agent_id)
            .unwrap()
            .starts_with("# Ada Lovelace")
    );
    assert_eq!(
        w.events.take(),
        vec![DomainEvent::AgentCreated {
            agent_id: agent.agent_id,
            name: "Ada Lovelace".into()
        }]
    );
}

#[test]
fn create_from_template_uses_the_template_persona() {
    let w = world();
    let agent = agents::create_from_template(&w.deps, new("Rex"), "reviewer").unwrap();
    assert_eq!(
        agent.origin,
        AgentOrigin::Template {
            template: "reviewer".into()
        }
    );
    assert!(
        agents::read_context(&w.deps, agent.agent_id)
            .unwrap()
            .starts_with("# Rex — reviewer")
    );
    let err = agents::create_from_template(&w.deps, new("Other"), "poet").unwrap_err();
    assert_eq!(err.code(), "TEMPLATE_NOT_FOUND");
    assert!(err.to_string().contains("architect"), "{err}");
}

#[test]
fn bad_input_is_refused_with_a_code_and_changes_nothing() {
    let w = world();
    agents::create_from_scratch(&w.deps, new("Ada")).unwrap();
    w.events.take();
    let cases = [
        (new("  "), "INVALID_NAME"),
        (new("a/b"), "INVALID_NAME"),
        (new("ADA"), "AGENT_NAME_TAKEN"),
        (
            NewAgent {
                name: "Bob".into(),
                profile_id: ProfileId::new("nope"),
            },
            "PROFILE_NOT_FOUND",
        ),
    ];
    for (input, code) in cases {
        assert_eq!(
            agents::create_from_scratch(&w.deps, input)
                .unwrap_err()
                .code(),
            code
        );
    }
    assert_eq!(agents::list(&w.deps).unwrap().len(), 1);
    assert!(w.events.take().is_empty());
}

#[test]
fn same_slug_gets_a_suffix_and_deleted_personas_are_kept() {
    let w = world();
    let first = agents::create_from_scratch(&w.deps, new("Ada!")).unwrap();
    let deleted = agents::delete(&w.deps, first.agent_id).unwrap();
    assert_eq!(deleted.agent_id, first.agent_id);
    assert!(
        w.store
            .personas
            .lock()
            .unwrap()
            .contains_key("agents/ada.md"),
        "persona kept"
    );
    // The kept file is not reused by a new agent of the same slug.
    let second = agents::create_from_scratch(&w.deps, new("Ada?")).unwrap();
    assert_eq!(second.md_path, "agents/ada-2.md");
}

#[test]
fn unknown_ids_are_not_found() {
    let w = world();
    let id = idea_domain::AgentId(uuid::Uuid::from_u128(999));
    assert_eq!(
        agents::read_context(&w.deps, id).unwrap_err().code(),
        "AGENT_NOT_FOUND"
    );
    assert_eq!(
        agents::update_context(&w.deps, id, "x").unwrap_err().code(),
        "AGENT_NOT_FOUND"
    );
    assert_eq!(
        agents::delete(&w.deps, id).unwrap_err().code(),
        "AGENT_NOT_FOUND"
    );
    assert_eq!(
        agents::find(&w.deps, "ghost").unwrap_err().code(),
        "AGENT_NOT_FOUND"
    );
}

#[test]
fn update_context_replaces_the_persona() {
    let w = world();
    let agent = agents::create_from_scratch(&w.deps, new("Ada")).unwrap();
    w.events.take();
    agents::update_context(&w.deps, agent.agent_id, "# New\n").unwrap();
    assert_eq!(
        agents::read_context(&w.deps, agent.agent_id).unwrap(),
        "# New\n"
    );
    assert_eq!(
        w.events.take(),
        vec![DomainEvent::AgentContextUpdated {
            agent_id: agent.agent_id
        }]
    );
}

#[test]
fn a_full_disk_is_an_io_error_and_publishes_nothing() {
    let w = world();
    w.store.fail_writes.store(true, Ordering::SeqCst);
    let err = agents::create_from_scratch(&w.deps, new("Ada")).unwrap_err();
    assert_eq!(err.code(), "IO_ERROR");
    assert!(!err.is_user_error());
    assert!(w.events.take().is_empty());
}
