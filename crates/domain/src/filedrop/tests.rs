#![allow(clippy::unwrap_used)]

use super::*;
use crate::{AgentId, AgentName, AgentOrigin, ProfileId};
use std::path::PathBuf;

fn agent(n: u128, name: &str, md_path: &str) -> Agent {
    Agent {
        agent_id: AgentId(uuid::Uuid::from_u128(n)),
        name: AgentName::new(name).unwrap(),
        md_path: md_path.into(),
        profile_id: ProfileId::new("codex"),
        origin: AgentOrigin::Scratch,
        skills: Vec::new(),
        on_limit: Default::default(),
        worktree: None,
    }
}

#[test]
fn file_names_say_what_they_are() {
    assert_eq!(classify("ask-1.json"), DropEntry::Request("ask-1"));
    assert_eq!(classify("ask-1.response.json"), DropEntry::Answer("ask-1"));
    assert_eq!(classify("ask-1.error.json"), DropEntry::Answer("ask-1"));
    assert_eq!(classify("ask-1.claimed"), DropEntry::Claim("ask-1"));
    // A bad id is still a request (it is answered with an error), never one of ours.
    assert_eq!(classify("a b.json"), DropEntry::Request("a b"));
    assert_eq!(classify("a.b.json"), DropEntry::Request("a.b"));
    for other in [
        ".ask-1.json",
        ".ask-1.json.tmp",
        ".json",
        "notes.txt",
        "ask-1.json.swp",
        "json",
    ] {
        assert_eq!(classify(other), DropEntry::Other, "{other}");
    }
}

#[test]
fn ids_are_short_plain_names() {
    for good in ["a", "review-1", "R_2", &"x".repeat(MAX_ID_CHARS)] {
        assert!(is_valid_request_id(good), "{good}");
    }
    for bad in [
        "",
        "a.b",
        "a b",
        "..",
        "a/b",
        "é",
        "a\n",
        &"x".repeat(MAX_ID_CHARS + 1),
    ] {
        assert!(!is_valid_request_id(bad), "{bad:?}");
    }
    assert_eq!(response_name("r"), "r.response.json");
    assert_eq!(error_name("r"), "r.error.json");
    assert_eq!(claim_name("r"), "r.claimed");
}

#[test]
fn a_request_parses_or_says_what_is_wrong() {
    let ok = FileRequest::parse(br#"{"to": "Bob", "message": "hi", "timeoutSecs": 30}"#).unwrap();
    assert_eq!(ok.to, "Bob");
    assert_eq!(ok.timeout_secs, Some(30));
    let bare = FileRequest::parse(br#"{"to": "Bob", "message": "hi"}"#).unwrap();
    assert_eq!(bare.timeout_secs, None);
    let cases: [(&[u8], &str); 7] = [
        (b"{not json", "key must be a string"),
        (br#"{"to": "Bob"}"#, "missing field `message`"),
        (br#"{"message": "hi"}"#, "missing field `to`"),
        (
            br#"{"to": "Bob", "message": "hi", "timeout": 3}"#,
            "unknown field `timeout`",
        ),
        (br#"{"to": " ", "message": "hi"}"#, "\"to\" is empty"),
        (br#"{"to": "Bob", "message": ""}"#, "\"message\" is empty"),
        (br#"["Bob", "hi"]"#, "a request is a JSON object"),
    ];
    for (bytes, says) in cases {
        let error = FileRequest::parse(bytes).unwrap_err();
        assert_eq!(error.code(), "INVALID_PARAMS");
        assert!(error.to_string().contains(says), "{error}");
    }
    assert!(FileRequest::parse(b"\xff\xfe").is_err());
}

#[test]
fn a_request_runs_only_when_nothing_says_it_was_taken() {
    let seen = |answered, claimed, in_flight| Seen {
        answered,
        claimed,
        in_flight,
    };
    assert_eq!(next_step(seen(false, false, false)), Step::Dispatch);
    assert_eq!(next_step(seen(false, true, false)), Step::Interrupted);
    assert_eq!(next_step(seen(false, true, true)), Step::Leave);
    for claimed in [false, true] {
        for in_flight in [false, true] {
            assert_eq!(next_step(seen(true, claimed, in_flight)), Step::Leave);
        }
    }
}

#[test]
fn refusals_become_error_files_with_their_codes() {
    let cases = [
        (DropRefusal::BadId("a b".into()), "INVALID_PARAMS"),
        (DropRefusal::TooLarge { size: 1 << 20 }, "INVALID_PARAMS"),
        (DropRefusal::Link, "UNSAFE_PATH"),
        (DropRefusal::NotRegular, "UNSAFE_PATH"),
        (DropRefusal::Interrupted, "INTERRUPTED"),
    ];
    for (refusal, code) in cases {
        let message = refusal.to_string();
        let answer = DropAnswer::from(refusal);
        assert_eq!(answer.file_name("r"), "r.error.json");
        assert_eq!(
            answer,
            DropAnswer::Error(FileError {
                code: code.into(),
                message
            })
        );
    }
    let too_large = DropRefusal::TooLarge { size: 1 << 20 }.to_string();
    assert!(
        too_large.contains("1048576") && too_large.contains("262144"),
        "{too_large}"
    );
}

#[test]
fn a_folder_is_an_agents_slug_name_or_id() {
    let mut manifest = AgentManifest::default();
    manifest
        .add(agent(1, "Ada Lovelace", "agents/ada-lovelace.md"))
        .unwrap();
    manifest.add(agent(2, "Bob", "agents/bob-2.md")).unwrap();
    let find = |folder: &str| find_agent(&manifest, folder).map(|a| a.name.to_string());
    assert_eq!(find("ada-lovelace").as_deref(), Some("Ada Lovelace"));
    assert_eq!(find("Ada Lovelace").as_deref(), Some("Ada Lovelace"));
    assert_eq!(find("bob-2").as_deref(), Some("Bob"));
    assert_eq!(find("bob").as_deref(), Some("Bob"));
    assert_eq!(
        find(&uuid::Uuid::from_u128(2).to_string()).as_deref(),
        Some("Bob")
    );
    assert_eq!(find("carol"), None);
    assert_eq!(find(".."), None);
    assert_eq!(requester_folder(&manifest.entries[1]), "bob-2");
}

#[test]
fn the_guide_names_the_agents_own_folder_and_shows_an_example() {
    let ada = agent(1, "Ada", "agents/ada.md");
    let text = file_drop_guide(&ada, &PathBuf::from("/work/proj"));
    assert!(
        text.contains("`/work/proj/.ideai/requests/ada/<id>.json`"),
        "{text}"
    );
    assert!(text.contains("/work/proj/.ideai/requests/ada/review-1.json"));
    assert!(text.contains("review-1.response.json"));
    assert!(text.contains(r#"{"to": "Reviewer", "message": "#));
    assert!(text.contains("<id>.error.json"));
    // The example is a request the door accepts.
    let example = r#"{"to": "Reviewer", "message": "Review the error handling in src/store.rs."}"#;
    assert!(text.contains(example));
    assert!(FileRequest::parse(example.as_bytes()).is_ok());
}
