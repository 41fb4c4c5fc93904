#![allow(clippy::unwrap_used)]
use super::*;
use crate::profile::{AgentProfile, CliHome, ContextInjection, CwdTemplate, ProfileId};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::Path;

fn p(s: &str) -> PathBuf {
    PathBuf::from(s)
}

fn paths(list: &[&str]) -> Vec<PathBuf> {
    list.iter().map(|s| p(s)).collect()
}

fn set(list: &[&str]) -> BTreeSet<PathBuf> {
    list.iter().map(|s| p(s)).collect()
}

fn inputs() -> SandboxInputs {
    SandboxInputs {
        project_root: p("/w/proj"),
        run_dir: Some(p("/w/proj/.ideai/run/a")),
        temp_dirs: paths(&["/tmp"]),
        state_paths: paths(&["/h/.claude", "/h/.claude.json"]),
        deny_read: vec![],
        deny_write: vec![],
        ..SandboxInputs::default()
    }
}

#[test]
fn a_plan_writes_the_project_run_dir_temp_state_and_devices_and_scopes_both() {
    let plan = compile_plan(&inputs());
    let mut expected = paths(&[
        "/w/proj",
        "/w/proj/.ideai/run/a",
        "/tmp",
        "/h/.claude",
        "/h/.claude.json",
    ]);
    expected.extend(DEVICE_WRITE_PATHS.iter().map(PathBuf::from));
    assert_eq!(plan.write_roots, expected);
    assert!(plan.read_denied.is_empty() && plan.write_denied.is_empty());
    assert!(plan.scope_signals && plan.scope_abstract_unix);
    assert_eq!(plan.check(), Ok(()));
}

#[test]
fn denied_reads_are_denied_writes_too_and_paths_are_normalised_once() {
    let mut i = inputs();
    i.deny_read = paths(&["/w/proj/./secrets", "/w/proj/secrets", "relative"]);
    i.deny_write = paths(&["/w/proj/.git/hooks"]);
    i.temp_dirs = paths(&["/tmp", "/tmp/"]);
    let plan = compile_plan(&i);
    assert_eq!(plan.read_denied, paths(&["/w/proj/secrets"]));
    assert_eq!(
        plan.write_denied,
        paths(&["/w/proj/.git/hooks", "/w/proj/secrets"])
    );
    assert_eq!(
        plan.write_roots.iter().filter(|r| **r == p("/tmp")).count(),
        1
    );
}

#[test]
fn check_refuses_relative_and_dotdot_paths() {
    let relative = SandboxPlan {
        write_roots: paths(&["proj"]),
        ..SandboxPlan::default()
    };
    assert!(matches!(
        relative.check(),
        Err(PlanError::Relative {
            field: "writeRoots",
            ..
        })
    ));
    let dodging = SandboxPlan {
        read_denied: paths(&["/w/proj/../proj/secrets"]),
        ..SandboxPlan::default()
    };
    assert!(matches!(
        dodging.check(),
        Err(PlanError::ParentDir {
            field: "readDenied",
            ..
        })
    ));
}

#[test]
fn the_plan_speaks_camel_case_json_and_defaults_missing_fields() {
    let plan = compile_plan(&inputs());
    let json = serde_json::to_value(&plan).unwrap();
    for key in [
        "readDenied",
        "writeRoots",
        "writeDenied",
        "scopeSignals",
        "scopeAbstractUnix",
    ] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    let back: SandboxPlan = serde_json::from_value(json).unwrap();
    assert_eq!(back, plan);
    let minimal: SandboxPlan = serde_json::from_str(r#"{"writeRoots":["/w"]}"#).unwrap();
    assert_eq!(minimal.write_roots, paths(&["/w"]));
    assert!(!minimal.scope_signals);
}

#[test]
fn with_nothing_denied_read_is_the_whole_tree_and_write_the_roots() {
    let plan = compile_plan(&inputs());
    let read = read_layout(&plan);
    assert_eq!(read.whole, paths(&["/"]));
    assert!(read.split.is_empty() && read.skip.is_empty());
    let write = write_layout(&plan);
    assert_eq!(write.whole, plan.write_roots);
    assert!(write.split.is_empty());
}

#[test]
fn a_denied_path_splits_every_folder_on_its_way() {
    let mut i = inputs();
    i.deny_read = paths(&["/w/proj/secrets"]);
    let plan = compile_plan(&i);
    let read = read_layout(&plan);
    assert!(read.whole.is_empty());
    assert_eq!(read.split, set(&["/", "/w", "/w/proj"]));
    assert_eq!(read.skip, set(&["/", "/w", "/w/proj", "/w/proj/secrets"]));
    let write = write_layout(&plan);
    // The project is split; the run dir inside it, /tmp and the state stay whole.
    assert_eq!(write.split, set(&["/w/proj"]));
    assert_eq!(write.skip, set(&["/w/proj", "/w/proj/secrets"]));
    assert!(write.whole.contains(&p("/w/proj/.ideai/run/a")));
    assert!(write.whole.contains(&p("/tmp")));
    assert!(!write.whole.contains(&p("/w/proj")));
}

#[test]
fn a_root_under_a_denied_path_is_left_out() {
    let mut i = inputs();
    i.deny_write = paths(&["/h"]);
    let write = write_layout(&compile_plan(&i));
    assert!(!write.whole.iter().any(|r| r.starts_with("/h")));
    assert!(write.split.is_empty());
}

#[test]
fn nested_denied_paths_do_not_split_inside_the_outer_one() {
    let plan = SandboxPlan {
        read_denied: paths(&["/a/b", "/a/b/c/d"]),
        ..SandboxPlan::default()
    };
    let read = read_layout(&plan);
    assert_eq!(read.split, set(&["/", "/a"]));
}

#[test]
fn denying_the_root_grants_nothing() {
    let plan = SandboxPlan {
        read_denied: paths(&["/"]),
        write_roots: paths(&["/tmp"]),
        ..SandboxPlan::default()
    };
    let read = read_layout(&plan);
    assert!(read.whole.is_empty() && read.split.is_empty());
    assert_eq!(write_layout(&plan), Layout::default());
}

/// A bare profile of `command` (shared with `agent_tests`).
pub(super) fn profile(command: &str, home: Option<CliHome>) -> AgentProfile {
    AgentProfile {
        id: ProfileId::new("p"),
        name: "P".into(),
        command: command.into(),
        args: vec![],
        cwd_template: CwdTemplate::AgentRunDir,
        env: Default::default(),
        context_injection: ContextInjection::None,
        session: None,
        mcp: None,
        structured: None,
        via_shell: false,
        home,
        seed_files: vec![],
        version_args: vec![],
        install_hint: None,
    }
}

#[test]
fn each_cli_writes_its_own_state() {
    let env = CliStateEnv {
        home: p("/h"),
        ..CliStateEnv::default()
    };
    let claude = profile("claude", Some(CliHome::ClaudeCode));
    let state = cli_state(&claude, &env);
    assert_eq!(state.dirs, paths(&["/h/.claude"]));
    assert_eq!(state.files, paths(&["/h/.claude.json"]));
    let codex = profile("codex", Some(CliHome::Codex));
    assert_eq!(cli_state(&codex, &env).paths(), paths(&["/h/.codex"]));
    let gemini = profile("gemini", Some(CliHome::Gemini));
    assert_eq!(cli_state(&gemini, &env).paths(), paths(&["/h/.gemini"]));
    let opencode = profile("/usr/local/bin/opencode", None);
    assert_eq!(
        cli_state(&opencode, &env).paths(),
        paths(&[
            "/h/.config/opencode",
            "/h/.local/share/opencode",
            "/h/.cache/opencode",
            "/h/.local/state/opencode"
        ])
    );
    assert!(cli_state(&profile("bash", None), &env).paths().is_empty());
}

#[test]
fn the_clis_own_variables_move_their_state() {
    let env = CliStateEnv {
        home: p("/h"),
        claude_config_dir: Some(p("/c")),
        codex_home: Some(p("/x")),
        xdg_config_home: Some(p("/cfg")),
        ..CliStateEnv::default()
    };
    let claude = profile("claude", Some(CliHome::ClaudeCode));
    assert_eq!(cli_state(&claude, &env).paths(), paths(&["/c"]));
    let codex = profile("codex", Some(CliHome::Codex));
    assert_eq!(cli_state(&codex, &env).paths(), paths(&["/x"]));
    let opencode = profile("opencode", None);
    assert_eq!(cli_state(&opencode, &env).paths()[0], p("/cfg/opencode"));
}

#[test]
fn temp_dirs_are_tmp_and_tmpdir_never_var_tmp() {
    assert_eq!(temp_dirs(None), paths(&["/tmp"]));
    assert_eq!(temp_dirs(Some(Path::new("/tmp/"))), paths(&["/tmp"]));
    assert_eq!(
        temp_dirs(Some(Path::new("/run/user/1/tmp"))),
        paths(&["/tmp", "/run/user/1/tmp"])
    );
    assert_eq!(temp_dirs(Some(Path::new("rel"))), paths(&["/tmp"]));
}

fn arb_path() -> impl Strategy<Value = PathBuf> {
    prop::collection::vec(prop::sample::select(vec!["a", "b", "c", "."]), 0..4)
        .prop_map(|parts| std::iter::once("/").chain(parts).collect())
}

proptest! {
    /// Whatever the plan, no granted hierarchy contains a denied path, and every split
    /// folder lies on the way to one.
    #[test]
    fn layouts_never_grant_a_denied_path(
        roots in prop::collection::vec(arb_path(), 0..4),
        deny_read in prop::collection::vec(arb_path(), 0..3),
        deny_write in prop::collection::vec(arb_path(), 0..3),
    ) {
        let plan = compile_plan(&SandboxInputs {
            project_root: p("/a"),
            run_dir: None,
            temp_dirs: roots,
            state_paths: vec![],
            deny_read,
            deny_write,
            ..SandboxInputs::default()
        });
        let read = read_layout(&plan);
        for granted in &read.whole {
            prop_assert!(!plan.read_denied.iter().any(|d| d.starts_with(granted)));
        }
        let write = write_layout(&plan);
        for granted in &write.whole {
            prop_assert!(!plan.write_denied_all().any(|d| d.starts_with(granted) || granted.starts_with(d)));
        }
        for layout in [&read, &write] {
            for dir in &layout.split {
                prop_assert!(layout.skip.contains(dir));
            }
        }
    }
}
