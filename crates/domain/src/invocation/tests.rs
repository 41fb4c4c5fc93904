use super::*;
use crate::profile::{ProfileId, SessionStrategy};

fn profile(injection: ContextInjection) -> AgentProfile {
    AgentProfile {
        id: ProfileId::new("p"),
        name: "P".into(),
        command: "cli".into(),
        args: vec!["--flag".into()],
        cwd_template: CwdTemplate::AgentRunDir,
        env: BTreeMap::from([("A".to_owned(), "1".to_owned())]),
        context_injection: injection,
        session: Some(SessionStrategy {
            assign_args: Some(vec!["--session-id".into(), "{id}".into()]),
            resume_args: vec!["--resume".into(), "{id}".into()],
        }),
        mcp: None,
        structured: None,
        via_shell: false,
        home: None,
        seed_files: vec![],
        version_args: vec![],
        install_hint: None,
    }
}

fn prepare(profile: &AgentProfile, plan: &SessionPlan) -> (SpawnSpec, ContextPlan) {
    prepare_invocation(&InvocationInputs {
        profile,
        project_root: Path::new("/p"),
        run_dir: Path::new("/p/.ideai/run/a"),
        plan,
        login_shell: "/bin/zsh",
        size: TerminalSize {
            rows: 30,
            cols: 100,
        },
    })
}

fn facts(cell: Option<&str>, saved: Option<SavedConversation>) -> SessionFacts<'_> {
    SessionFacts {
        cell_session: cell,
        cell_session_saved: saved,
        latest_saved: None,
    }
}

#[test]
fn session_plan_prefers_resume_then_assign() {
    let p = profile(ContextInjection::None);
    assert_eq!(
        plan_session(
            &p,
            facts(Some("x"), Some(SavedConversation::Resumable)),
            || "new".into()
        ),
        SessionPlan::Resume("x".into())
    );
    assert_eq!(
        plan_session(&p, facts(None, None), || "new".into()),
        SessionPlan::Assign("new".into())
    );
    let mut no_session = p.clone();
    no_session.session = None;
    assert_eq!(
        plan_session(
            &no_session,
            facts(Some("x"), Some(SavedConversation::Resumable)),
            || "new".into()
        ),
        SessionPlan::None
    );
    let mut resume_only = p;
    resume_only.session = Some(SessionStrategy {
        assign_args: None,
        resume_args: vec!["r".into()],
    });
    assert_eq!(
        plan_session(&resume_only, facts(None, None), || "new".into()),
        SessionPlan::None
    );
}

#[test]
fn an_id_the_cli_never_saved_is_started_afresh_under_the_same_id() {
    let p = profile(ContextInjection::None);
    assert_eq!(
        plan_session(
            &p,
            facts(Some("x"), Some(SavedConversation::Missing)),
            || "new".into()
        ),
        SessionPlan::Assign("x".into())
    );
}

#[test]
fn an_id_the_cli_holds_without_a_conversation_gives_way_to_a_new_one() {
    let p = profile(ContextInjection::None);
    assert_eq!(
        plan_session(
            &p,
            facts(Some("x"), Some(SavedConversation::Blocked)),
            || { "new".into() }
        ),
        SessionPlan::Assign("new".into())
    );
}

#[test]
fn an_id_nobody_can_check_is_trusted() {
    let p = profile(ContextInjection::None);
    assert_eq!(
        plan_session(&p, facts(Some("x"), None), || "new".into()),
        SessionPlan::Resume("x".into())
    );
}

#[test]
fn a_cli_minting_its_own_ids_resumes_its_latest_saved_conversation() {
    let mut p = profile(ContextInjection::None);
    p.session = Some(SessionStrategy {
        assign_args: None,
        resume_args: vec!["resume".into(), "{id}".into()],
    });
    let latest = SessionFacts {
        latest_saved: Some("t2"),
        ..facts(None, None)
    };
    assert_eq!(
        plan_session(&p, latest, || "new".into()),
        SessionPlan::Resume("t2".into())
    );
    // The cell's own id wins when it is saved; an unsaved one falls back to the latest.
    let cell_saved = SessionFacts {
        latest_saved: Some("t2"),
        ..facts(Some("t1"), Some(SavedConversation::Resumable))
    };
    assert_eq!(
        plan_session(&p, cell_saved, || "new".into()),
        SessionPlan::Resume("t1".into())
    );
    let cell_gone = SessionFacts {
        latest_saved: Some("t2"),
        ..facts(Some("t1"), Some(SavedConversation::Missing))
    };
    assert_eq!(
        plan_session(&p, cell_gone, || "new".into()),
        SessionPlan::Resume("t2".into())
    );
    assert_eq!(
        plan_session(
            &p,
            facts(Some("t1"), Some(SavedConversation::Missing)),
            || "new".into()
        ),
        SessionPlan::None
    );
}

#[test]
fn convention_file_goes_in_the_cwd_and_session_args_follow_profile_args() {
    let p = profile(ContextInjection::ConventionFile {
        target: "CLAUDE.md".into(),
    });
    let (spec, context) = prepare(&p, &SessionPlan::Assign("u1".into()));
    assert_eq!(spec.command, "cli");
    assert_eq!(spec.args, ["--flag", "--session-id", "u1"]);
    assert_eq!(spec.cwd, Path::new("/p/.ideai/run/a"));
    assert_eq!(
        context.file.as_deref(),
        Some(Path::new("/p/.ideai/run/a/CLAUDE.md"))
    );
    assert!(spec.env_remove.contains(&"TMUX".to_owned()));
    assert_eq!(
        spec.size,
        TerminalSize {
            rows: 30,
            cols: 100
        }
    );
    let (resumed, _) = prepare(&p, &SessionPlan::Resume("u1".into()));
    assert_eq!(resumed.args, ["--flag", "--resume", "u1"]);
}

#[test]
fn args_env_and_stdin_injection() {
    let (spec, ctx) = prepare(
        &profile(ContextInjection::Args {
            template: vec!["--read".into(), "{path}".into()],
        }),
        &SessionPlan::None,
    );
    assert_eq!(
        spec.args,
        ["--flag", "--read", "/p/.ideai/run/a/IDEA_CONTEXT.md"]
    );
    assert_eq!(
        ctx.file.as_deref(),
        Some(Path::new("/p/.ideai/run/a/IDEA_CONTEXT.md"))
    );
    let (spec, _) = prepare(
        &profile(ContextInjection::Env {
            var: "PERSONA".into(),
        }),
        &SessionPlan::None,
    );
    assert_eq!(
        spec.env.get("PERSONA").map(String::as_str),
        Some("/p/.ideai/run/a/IDEA_CONTEXT.md")
    );
    assert_eq!(spec.env.get("A").map(String::as_str), Some("1"));
    let (spec, _) = prepare(&profile(ContextInjection::Stdin), &SessionPlan::None);
    assert!(spec.stdin_injection.unwrap().contains("IDEA_CONTEXT.md"));
}

#[test]
fn login_shell_project_root_and_no_shell_unless_asked() {
    let mut p = profile(ContextInjection::None);
    p.command = "{loginShell}".into();
    p.cwd_template = CwdTemplate::ProjectRoot;
    let (spec, ctx) = prepare(&p, &SessionPlan::None);
    assert_eq!(spec.command, "/bin/zsh");
    assert_eq!(spec.cwd, Path::new("/p"));
    assert_eq!(ctx.file, None);
    p.via_shell = true;
    let (spec, _) = prepare(&p, &SessionPlan::None);
    assert_eq!(
        (spec.command.as_str(), spec.args[0].as_str()),
        ("/bin/sh", "-c")
    );
}

#[test]
fn paths_are_filled_in_args_and_seeds_and_unsafe_seeds_refused() {
    let mut p = profile(ContextInjection::None);
    p.args = vec!["--add-dir".into(), "{projectRoot}".into()];
    p.seed_files = vec![
        crate::profile::SeedFile {
            path: ".cli/settings.json".into(),
            content: "{\"root\":\"{projectRoot}\",\"run\":\"{runDir}\"}".into(),
        },
        crate::profile::SeedFile {
            path: "../escape.json".into(),
            content: String::new(),
        },
        crate::profile::SeedFile {
            path: "/etc/passwd".into(),
            content: String::new(),
        },
    ];
    let (spec, _) = prepare(&p, &SessionPlan::None);
    assert_eq!(spec.args[..2], ["--add-dir", "/p"]);
    let (plan, refused) = seed_plan(&p, Path::new("/p"), Path::new("/p/.ideai/run/a"));
    assert_eq!(
        plan,
        vec![(
            PathBuf::from("/p/.ideai/run/a/.cli/settings.json"),
            "{\"root\":\"/p\",\"run\":\"/p/.ideai/run/a\"}".to_owned()
        )]
    );
    assert_eq!(refused, ["../escape.json", "/etc/passwd"]);
}

#[test]
fn agents_never_inherit_a_ci_marker_nor_the_outer_terminal() {
    // Regression: Gemini CLI started by `idea serve` from a CI job ran headless and exited 42.
    let p = profile(ContextInjection::ConventionFile {
        target: "CLAUDE.md".into(),
    });
    let (spec, _) = prepare(&p, &SessionPlan::Assign("u1".into()));
    for name in ["IDEA_TOKEN", "CI", "GITHUB_ACTIONS", "TERM_PROGRAM", "TMUX"] {
        assert!(spec.env_remove.iter().any(|n| n == name), "{name} kept");
    }
}
