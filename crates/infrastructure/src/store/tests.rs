#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use idea_domain::ids::ProjectId;
use uuid::Uuid;

fn project_in(dir: &Path) -> FsProjectStore {
    let store = FsProjectStore::new(dir);
    store
        .save_project(&Project {
            version: PROJECT_VERSION,
            id: ProjectId(Uuid::from_u128(1)),
            name: "demo".into(),
            resume_nudge: None,
            worktrees: Default::default(),
        })
        .unwrap();
    store
}

#[test]
fn a_folder_without_project_json_is_not_a_project() {
    let dir = tempfile::tempdir().unwrap();
    let err = FsProjectStore::new(dir.path()).load_project().unwrap_err();
    assert!(matches!(err, StoreError::NotAProject(_)), "{err}");
}

#[test]
fn an_absent_manifest_is_empty_and_an_absent_layout_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    assert!(store.load_manifest().unwrap().entries.is_empty());
    assert!(store.load_layouts().unwrap().is_none());
}

#[test]
fn corrupt_files_are_reported_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    let cases: [(&str, &[u8], &str); 5] = [
        (
            "agents.json",
            b"{\"version\":1,\"entries\":[",
            "invalid JSON",
        ),
        ("agents.json", b"{\"entries\":[]}", "no \"version\""),
        (
            "agents.json",
            b"{\"version\":1,\"entries\":[{\"agentId\":\"x\"}]}",
            "agentId",
        ),
        (
            "layouts.json",
            b"{\"version\":1,\"active\":\"00000000-0000-0000-0000-000000000001\",\"layouts\":[]}",
            "",
        ),
        ("project.json", b"\xff\xfe not json", "invalid JSON"),
    ];
    for (name, bytes, needle) in cases {
        let path = dir.path().join(".ideai").join(name);
        fs::write(&path, bytes).unwrap();
        let err = match name {
            "agents.json" => store.load_manifest().map(|_| ()).unwrap_err(),
            "layouts.json" => store.load_layouts().map(|_| ()).unwrap_err(),
            _ => store.load_project().map(|_| ()).unwrap_err(),
        };
        let message = err.to_string();
        assert!(
            matches!(err, StoreError::Corrupt { .. }),
            "{name}: {message}"
        );
        assert!(
            message.contains(name) && message.contains(needle),
            "{message}"
        );
        assert_eq!(fs::read(&path).unwrap(), bytes, "{name} was modified");
    }
}

#[test]
fn a_manifest_pointing_outside_the_agents_folder_is_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    let manifest = r#"{"version":1,"entries":[{"agentId":"00000000-0000-0000-0000-000000000002","name":"x",
        "mdPath":"../../etc/passwd","profileId":"shell","origin":{"kind":"scratch"}}]}"#;
    fs::write(dir.path().join(".ideai/agents.json"), manifest).unwrap();
    let err = store.load_manifest().unwrap_err();
    assert!(err.to_string().contains("agents/<slug>.md"), "{err}");
    assert!(store.read_persona("../../etc/passwd").is_err());
    assert!(store.write_persona("agents/../x.md", "no").is_err());
    assert!(!dir.path().join(".ideai/x.md").exists());
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    let path = dir.path().join(".ideai/agents.json");
    let bytes = br#"{"version":99,"entries":[],"somethingNew":true}"#;
    fs::write(&path, bytes).unwrap();
    let err = store.load_manifest().unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::NewerSchema {
                found: 99,
                supported: 1,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(fs::read(&path).unwrap(), bytes);
}

#[test]
fn personas_round_trip_and_absent_ones_are_none() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    assert_eq!(store.read_persona("agents/ada.md").unwrap(), None);
    assert!(!store.persona_exists("agents/ada.md"));
    store.write_persona("agents/ada.md", "# Ada\n").unwrap();
    assert_eq!(
        store.read_persona("agents/ada.md").unwrap().as_deref(),
        Some("# Ada\n")
    );
    assert!(store.persona_exists("agents/ada.md"));
}

#[test]
fn gitignore_gets_the_run_dir_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    fs::write(dir.path().join(".gitignore"), "target").unwrap();
    store.ensure_run_dir_ignored().unwrap();
    store.ensure_run_dir_ignored().unwrap();
    assert_eq!(
        fs::read_to_string(dir.path().join(".gitignore")).unwrap(),
        "target\n.ideai/run/\n"
    );
}

#[cfg(unix)]
#[test]
fn conversation_providers_round_trip_refuse_bad_ids_and_links() {
    let dir = tempfile::tempdir().unwrap();
    let store = project_in(dir.path());
    let conversation = ConversationId(Uuid::from_u128(9));
    let agent = AgentId(Uuid::from_u128(3));
    assert!(
        store
            .load_providers(conversation)
            .unwrap()
            .providers
            .is_empty()
    );
    let mut providers = ConversationProviders::default();
    providers.set_engine_session("claude", agent, Some("s-1"));
    store.save_providers(conversation, &providers).unwrap();
    let folder = dir
        .path()
        .join(".ideai/conversations")
        .join(conversation.to_string());
    assert_eq!(store.load_providers(conversation).unwrap(), providers);
    // An id that could be read as an option: corrupt, and the file is left as it was.
    let file = folder.join("providers.json");
    let planted = format!(r#"{{"version":1,"providers":{{"claude":{{"{agent}":"--yolo"}}}}}}"#);
    fs::write(&file, &planted).unwrap();
    let err = store.load_providers(conversation).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), planted);
    // A linked conversation folder is neither read nor written through.
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::remove_dir_all(&folder).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &folder).unwrap();
    let err = store.save_providers(conversation, &providers).unwrap_err();
    assert!(matches!(err, StoreError::UnsafePath { .. }), "{err}");
    assert!(matches!(
        store.load_providers(conversation),
        Err(StoreError::UnsafePath { .. })
    ));
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}
