//! The permission rules reach every launch and turn as a kernel sandbox plan: none without
//! rules, the rules' denied paths and IdeA's own state otherwise, a clear error when the plan
//! cannot be prepared.

use super::sessions::{agent, launch, two_cells};
use crate::support::world;
use idea_application::orchestrator::{self, Ask};
use idea_application::{ErrorCode, sessions};
use idea_domain::orchestrator::{RequestSource, Requester};
use std::path::PathBuf;

const RULES: &str = r#"{"permissions":{"deny":["Read(./.env)","Edit(src/**/*.pem)"]}}"#;

#[test]
fn without_rules_an_agent_is_not_sandboxed() {
    let w = world();
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let info = launch(&w, &ada, layout, cell).unwrap();
    assert_eq!(info.sandbox, None);
    assert_eq!(w.terminals.spawned.lock().unwrap()[0].sandbox, None);
    assert!(w.sandbox.made.lock().unwrap().is_empty());
}

#[test]
fn with_rules_a_launch_carries_the_plan_and_tells_the_ui() {
    let w = world();
    *w.permissions.project.lock().unwrap() = Some(RULES.into());
    *w.sandbox.globs.lock().unwrap() = Some(Ok(vec![PathBuf::from("/memory/src/k.pem")]));
    let ada = agent(&w, "Ada", "tracked");
    let (layout, cell, _) = two_cells(&w);
    let info = launch(&w, &ada, layout, cell).unwrap();
    let spec = w.terminals.spawned.lock().unwrap()[0].clone();
    let plan = spec.sandbox.unwrap();
    let run_dir = PathBuf::from(format!("/memory/.ideai/run/{}", ada.agent_id));
    let requests = PathBuf::from("/memory/.ideai/requests/ada");
    for root in [&PathBuf::from("/memory"), &run_dir, &requests] {
        assert!(plan.write_roots.contains(root), "{root:?}");
    }
    // Claude Code's state, made before it starts, with its file-drop folder.
    assert!(plan.write_roots.contains(&PathBuf::from("/home/u/.claude")));
    let made = w.sandbox.made.lock().unwrap().clone();
    assert_eq!(made, [PathBuf::from("/home/u/.claude"), requests]);
    assert_eq!(
        plan.read_denied,
        [
            PathBuf::from("/home/u/.ideai"),
            PathBuf::from("/memory/.env")
        ]
    );
    for denied in ["/memory/src/k.pem", "/memory/.ideai/permissions.json"] {
        assert!(
            plan.write_denied.contains(&PathBuf::from(denied)),
            "{denied}"
        );
    }
    // Claude Code's own settings, advisory, from the same rules (paths made absolute).
    let generated = w.store.generated.lock().unwrap();
    let settings = &generated[&run_dir.join(".claude/settings.local.json")];
    let settings: serde_json::Value = serde_json::from_str(settings).unwrap();
    assert_eq!(
        settings["permissions"]["deny"],
        serde_json::json!(["Read(//memory/.env)", "Edit(//memory/src/**/*.pem)"])
    );
    drop(generated);
    let summary = info.sandbox.unwrap();
    assert!(summary.write_roots.contains(&run_dir));
    assert!(!summary.write_roots.iter().any(|r| r.starts_with("/dev")));
}

#[test]
fn a_sandboxed_codex_leaves_the_confining_to_idea() {
    let w = world();
    *w.permissions.user.lock().unwrap() = Some(RULES.into());
    let bob = agent(&w, "Bob", "minting");
    let (layout, cell, _) = two_cells(&w);
    launch(&w, &bob, layout, cell).unwrap();
    let spec = w.terminals.spawned.lock().unwrap()[0].clone();
    assert!(spec.sandbox.is_some());
    assert_eq!(
        spec.args[..2],
        ["-c", r#"sandbox_mode="danger-full-access""#]
    );
}

#[test]
fn a_glob_that_cannot_be_expanded_starts_nothing() {
    let w = world();
    *w.permissions.project.lock().unwrap() = Some(RULES.into());
    *w.sandbox.globs.lock().unwrap() = Some(Err("too many entries".into()));
    let ada = agent(&w, "Ada", "fake");
    let (layout, cell, _) = two_cells(&w);
    let err = launch(&w, &ada, layout, cell).unwrap_err();
    assert_eq!(err.code(), ErrorCode::SandboxFailed);
    assert!(err.to_string().contains("Edit(src/**/*.pem)"), "{err}");
    assert!(w.terminals.spawned.lock().unwrap().is_empty());
    assert!(sessions::list(&w.deps).is_empty());
}

#[test]
fn a_turn_carries_the_plan_too() {
    let w = world();
    *w.permissions.project.lock().unwrap() = Some(RULES.into());
    let ada = agent(&w, "Ada", "askable");
    orchestrator::ask(
        &w.deps,
        Ask {
            requester: Requester::User.to_string(),
            target: ada.agent_id.to_string(),
            message: "hi".into(),
            timeout: None,
            source: RequestSource::Ui,
            request_id: None,
        },
    )
    .unwrap();
    let ran = w.turns.ran.lock().unwrap();
    let plan = ran[0].invocation.sandbox.clone().unwrap();
    assert!(plan.read_denied.contains(&PathBuf::from("/memory/.env")));
}
