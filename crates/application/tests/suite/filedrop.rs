//! The file-drop use case over the fake turn runner: a dropped request is an ask with source
//! `file` on behalf of the folder's agent; a folder or target that names no agent is an error
//! answer; an agent IdeA hands no MCP server learns the door from its convention file.

use crate::suite::sessions::{agent, launch, two_cells};
use crate::support::world;
use idea_application::filedrop;
use idea_application::orchestrator;
use idea_domain::DomainEvent;
use idea_domain::filedrop::{DropAnswer, Dropped, FileRequest};
use idea_domain::orchestrator::{RequestOutcome, RequestSource, Requester};

fn dropped(folder: &str, to: &str, message: &str) -> Dropped {
    Dropped {
        folder: folder.into(),
        request: FileRequest {
            to: to.into(),
            message: message.into(),
            timeout_secs: None,
        },
    }
}

#[test]
fn a_dropped_request_is_an_ask_from_the_folders_agent_through_the_file_door() {
    let w = world();
    let ada = agent(&w, "Ada Lovelace", "askable");
    let bob = agent(&w, "Bob", "askable");
    // The folder is Ada's slug; the target is named in any case.
    let DropAnswer::Response(response) =
        filedrop::answer(&w.deps, &dropped("ada-lovelace", "bob", "hi"))
    else {
        panic!("no response");
    };
    assert_eq!(response.from, "Bob");
    assert_eq!(response.answer, "echo: hi");
    let record = orchestrator::list(&w.deps).pop().unwrap();
    assert_eq!(record.request_id, response.request_id);
    assert_eq!(record.requester, Requester::Agent(ada.agent_id));
    assert_eq!(record.target, bob.agent_id);
    assert_eq!(record.source, RequestSource::File);
    let events = w.events.take();
    assert!(events.iter().any(|e| matches!(e,
        DomainEvent::OrchestratorRequestProcessed { source: RequestSource::File, outcome: RequestOutcome::Ok, requester, .. }
            if *requester == Requester::Agent(ada.agent_id))));
    assert!(events.iter().any(|e| matches!(e,
        DomainEvent::RequestChanged { request } if request.source == RequestSource::File)));
    // The name works as a folder too, and a slug as a target.
    assert!(matches!(
        filedrop::answer(&w.deps, &dropped("Ada Lovelace", "Bob", "again")),
        DropAnswer::Response(_)
    ));
    let DropAnswer::Response(back) =
        filedrop::answer(&w.deps, &dropped("bob", "ada-lovelace", "hi Ada"))
    else {
        panic!("no response");
    };
    assert_eq!(back.from, "Ada Lovelace");
}

#[test]
fn an_unknown_folder_or_target_is_an_error_answer_and_runs_nothing() {
    let w = world();
    agent(&w, "Ada", "askable");
    let DropAnswer::Error(error) = filedrop::answer(&w.deps, &dropped("mallory", "Ada", "hi"))
    else {
        panic!("answered");
    };
    assert_eq!(error.code, "AGENT_NOT_FOUND");
    assert!(error.message.contains("\"mallory\""), "{}", error.message);
    let DropAnswer::Error(error) = filedrop::answer(&w.deps, &dropped("ada", "Nobody", "hi"))
    else {
        panic!("answered");
    };
    assert_eq!(error.code, "AGENT_NOT_FOUND");
    assert!(error.message.contains("Nobody"), "{}", error.message);
    assert!(w.turns.ran().is_empty());
}

#[test]
fn a_busy_target_is_an_error_answer_with_its_code() {
    let w = world();
    agent(&w, "Ada", "askable");
    let bob = agent(&w, "Bob", "askable");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &bob, layout, cell).unwrap();
    let DropAnswer::Error(error) = filedrop::answer(&w.deps, &dropped("ada", "Bob", "hi")) else {
        panic!("answered");
    };
    assert_eq!(error.code, "AGENT_BUSY");
}

#[test]
fn an_agent_without_mcp_is_taught_the_file_door_in_its_convention_file() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &ada, layout, cell).unwrap();
    let generated = w.store.generated.lock().unwrap();
    let (_, text) = generated.iter().next().unwrap();
    assert!(text.contains("# Working with the other agents"), "{text}");
    assert!(text.contains(".ideai/requests/ada/review-1.json"), "{text}");
}
