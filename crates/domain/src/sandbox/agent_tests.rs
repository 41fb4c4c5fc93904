#![allow(clippy::unwrap_used)]
use super::*;
use crate::permissions::{PathAccess, PathContext, PermissionScope, PermissionSet};
use crate::sandbox::agent::private_caches;
use std::path::{Path, PathBuf};

fn p(s: &str) -> PathBuf {
    PathBuf::from(s)
}

fn rules(deny: &str) -> PermissionSet {
    let mut set = PermissionSet::new(PathContext {
        root: p("/w/proj"),
        home: Some(p("/h")),
    });
    let text = format!(r#"{{"permissions":{{"deny":{deny}}}}}"#);
    set.add_file(
        PermissionScope::Project,
        Path::new("/w/proj/.ideai/permissions.json"),
        Some(&text),
    );
    set
}

fn inputs() -> AgentSandboxInputs {
    AgentSandboxInputs {
        project_root: p("/w/proj"),
        run_dir: p("/w/proj/.ideai/run/a"),
        requests_dir: p("/w/proj/.ideai/requests/alice"),
        listing: IdeaiListing {
            top: ["project.json", "run", "requests", "memory"]
                .map(String::from)
                .to_vec(),
            run: ["a", "b"].map(String::from).to_vec(),
            requests: ["alice", "bob"].map(String::from).to_vec(),
        },
        temp_dirs: vec![p("/tmp")],
        state: CliState {
            dirs: vec![p("/h/.codex")],
            files: vec![],
        },
        secrets: vec![p("/h/.ideai")],
        denials: vec![],
        ..AgentSandboxInputs::default()
    }
}

#[test]
fn rules_without_wildcards_name_one_path_and_globs_need_the_disk() {
    let set = rules(r#"["Read(./.env)","Edit(~/.ssh)","Write(src/**/*.pem)","Read","Bash(rm *)"]"#);
    let literal: Vec<(PathAccess, Option<PathBuf>)> = set
        .denied_paths()
        .iter()
        .map(|d| (d.access, literal_path(d)))
        .collect();
    assert_eq!(
        literal,
        vec![
            (PathAccess::Read, Some(p("/w/proj/.env"))),
            (PathAccess::Write, Some(p("/h/.ssh"))),
            (PathAccess::Write, None),
            (PathAccess::Read, Some(p("/"))),
        ]
    );
}

#[test]
fn idea_state_and_other_agents_folders_are_not_writable_but_its_own_are() {
    let denied = ideai_denied(&inputs());
    for path in [
        "/w/proj/.ideai/permissions.json",
        "/w/proj/.ideai/agents.json",
        "/w/proj/.ideai/layouts.json",
        "/w/proj/.ideai/project.json",
        "/w/proj/.ideai/memory",
        "/w/proj/.ideai/run/b",
        "/w/proj/.ideai/requests/bob",
    ] {
        assert!(denied.contains(&p(path)), "{path} not denied in {denied:?}");
    }
    for path in [
        "/w/proj/.ideai/run",
        "/w/proj/.ideai/requests",
        "/w/proj/.ideai/run/a",
        "/w/proj/.ideai/requests/alice",
    ] {
        assert!(!denied.contains(&p(path)), "{path} denied");
    }
}

#[test]
fn the_agent_plan_writes_its_own_places_and_denies_secrets_and_rules() {
    let mut i = inputs();
    i.denials = vec![
        ResolvedDenial {
            access: PathAccess::Read,
            paths: vec![p("/w/proj/.env")],
        },
        ResolvedDenial {
            access: PathAccess::Write,
            paths: vec![p("/w/proj/src/a.pem"), p("/w/proj/src/b/c.pem")],
        },
    ];
    let plan = agent_plan(&i);
    assert_eq!(plan.read_denied, vec![p("/h/.ideai"), p("/w/proj/.env")]);
    for root in [
        "/w/proj",
        "/w/proj/.ideai/run/a",
        "/w/proj/.ideai/requests/alice",
        "/tmp",
        "/h/.codex",
    ] {
        assert!(plan.write_roots.contains(&p(root)), "{root} not a root");
    }
    for denied in ["/w/proj/src/b/c.pem", "/w/proj/.ideai/run/b", "/h/.ideai"] {
        assert!(plan.write_denied.contains(&p(denied)), "{denied}");
    }
    // The layout keeps the agent's own folders writable although `.ideai` is split.
    let write = super::write_layout(&plan);
    assert!(write.whole.contains(&p("/w/proj/.ideai/run/a")));
    assert!(write.whole.contains(&p("/w/proj/.ideai/requests/alice")));
    assert!(write.split.contains(&p("/w/proj/.ideai")));
    assert!(write.skip.contains(&p("/w/proj/.ideai/permissions.json")));
}

#[test]
fn the_summary_leaves_out_devices_and_repeats_nothing() {
    let mut i = inputs();
    i.denials = vec![ResolvedDenial {
        access: PathAccess::Read,
        paths: vec![p("/w/proj/.env")],
    }];
    let summary = SandboxSummary::of(&agent_plan(&i));
    assert!(!summary.write_roots.iter().any(|r| r.starts_with("/dev")));
    assert!(summary.write_roots.contains(&p("/w/proj")));
    assert_eq!(summary.read_denied, vec![p("/h/.ideai"), p("/w/proj/.env")]);
    assert!(!summary.write_denied.contains(&p("/w/proj/.env")));
    assert!(
        summary
            .write_denied
            .contains(&p("/w/proj/.ideai/permissions.json"))
    );
}

#[test]
fn codex_gets_full_access_only_under_ideas_sandbox() {
    use crate::profile::CliHome;
    let profile = |home| super::tests::profile("codex", home);
    let codex = profile(Some(CliHome::Codex));
    assert_eq!(
        sandboxed_cli_args(&codex, true),
        ["-c", r#"sandbox_mode="danger-full-access""#]
    );
    assert!(sandboxed_cli_args(&codex, false).is_empty());
    assert!(sandboxed_cli_args(&profile(Some(CliHome::ClaudeCode)), true).is_empty());
}

#[test]
fn with_namespaces_ideai_and_git_are_read_only_mounts_and_the_project_is_not_split() {
    let mut i = inputs();
    i.namespaces = true;
    i.git = super::git_protected(Path::new("/w/proj/.git"));
    i.credentials = vec![p("/h/.ssh/id_ed25519")];
    let plan = agent_plan(&i);
    let mounts = plan.mounts.clone().unwrap();
    assert_eq!(mounts.read_only[0], p("/w/proj/.ideai"));
    assert!(mounts.read_only.contains(&p("/w/proj/.git/hooks")));
    assert_eq!(
        mounts.writable,
        vec![
            p("/w/proj/.ideai/run/a"),
            p("/w/proj/.ideai/requests/alice")
        ]
    );
    // Nothing of IdeA's state for Landlock: the project is granted whole.
    assert!(plan.write_denied.iter().all(|d| !d.starts_with("/w/proj")));
    assert!(super::write_layout(&plan).whole.contains(&p("/w/proj")));
    assert_eq!(plan.credentials, vec![p("/h/.ssh/id_ed25519")]);
    let summary = SandboxSummary::of(&plan);
    assert!(!summary.limited);
    assert!(summary.write_denied.contains(&p("/w/proj/.git/hooks")));
    assert_eq!(summary.credentials, vec![p("/h/.ssh/id_ed25519")]);
    // Without namespaces: today's split plan, said to be limited, git left alone.
    i.namespaces = false;
    let split = agent_plan(&i);
    assert!(split.mounts.is_none());
    assert!(
        split
            .write_denied
            .contains(&p("/w/proj/.ideai/permissions.json"))
    );
    assert!(SandboxSummary::of(&split).limited);
    assert!(
        super::read_layout(&split)
            .skip
            .contains(&p("/h/.ssh/id_ed25519"))
    );
}

#[test]
fn an_allow_rule_lifts_a_default_only_when_it_covers_the_path_whole() {
    let text = r#"{"permissions":{"allow":["Edit(.git/hooks/**)","Read(~/.ssh/id_ed25519)","Read","Edit(.git/info/*.txt)"]}}"#;
    let mut set = PermissionSet::new(PathContext {
        root: p("/w/proj"),
        home: Some(p("/h")),
    });
    set.add_file(
        PermissionScope::Project,
        Path::new("/w/proj/.ideai/permissions.json"),
        Some(text),
    );
    assert!(set.allows_whole(PathAccess::Write, Path::new("/w/proj/.git/hooks")));
    assert!(!set.allows_whole(PathAccess::Write, Path::new("/w/proj/.git/config")));
    assert!(!set.allows_whole(PathAccess::Write, Path::new("/w/proj/.git/info")));
    assert!(set.allows_whole(PathAccess::Read, Path::new("/h/.ssh/id_ed25519")));
    // A bare `Read` allows every read the CLI asks about, but names no credential store.
    assert!(!set.allows_whole(PathAccess::Read, Path::new("/h/.aws")));
}

#[test]
fn with_namespaces_the_package_caches_are_private_copies_in_the_run_dir() {
    let mut with = inputs();
    with.namespaces = true;
    with.caches = Some(env("/h"));
    let caches = agent_plan(&with).mounts.unwrap().private_caches;
    let npm = caches.iter().find(|c| c.path == p("/h/.npm")).unwrap();
    assert!(npm.private.starts_with(&with.run_dir), "{npm:?}");
    assert!(caches.iter().any(|c| c.path == p("/h/.cargo/registry")));
    // Never the credential stores' folders, nor anything above or below a denied path.
    let denied = [p("/h/.cargo/registry/secret"), p("/h/.cache")];
    let left = private_caches(&env("/h"), Path::new("/w/run"), &denied);
    assert!(!left.iter().any(|c| c.path == p("/h/.cargo/registry")));
    assert!(!left.iter().any(|c| c.path == p("/h/.cache/pip")));
    assert!(left.iter().any(|c| c.path == p("/h/.npm")));
    // Without a home (the project's plan), or without namespaces: none.
    with.caches = None;
    assert!(agent_plan(&with).mounts.unwrap().private_caches.is_empty());
}

#[test]
fn the_caches_follow_cargo_home_and_the_xdg_cache_folder() {
    let moved = CliStateEnv {
        cargo_home: Some(p("/opt/cargo")),
        xdg_cache_home: Some(p("/c")),
        ..env("/h")
    };
    let paths: Vec<PathBuf> = private_caches(&moved, Path::new("/w/run"), &[])
        .into_iter()
        .map(|c| c.path)
        .collect();
    assert_eq!(
        paths,
        [
            p("/opt/cargo/registry"),
            p("/opt/cargo/git"),
            p("/h/.npm"),
            p("/c/pip")
        ]
    );
}

fn env(home: &str) -> CliStateEnv {
    CliStateEnv {
        home: p(home),
        ..CliStateEnv::default()
    }
}
