use super::*;
use crate::profile::{ContextInjection, CwdTemplate, ProfileId};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// A profile with the shape of the built-in Claude Code one.
fn claude() -> AgentProfile {
    AgentProfile {
        id: ProfileId::new("claude-code"),
        name: "Claude Code".into(),
        command: "claude".into(),
        args: strings(&["--add-dir", "{projectRoot}"]),
        cwd_template: CwdTemplate::AgentRunDir,
        env: BTreeMap::from([("DISABLE_TELEMETRY".to_owned(), "1".to_owned())]),
        context_injection: ContextInjection::ConventionFile {
            target: "CLAUDE.md".into(),
        },
        session: None,
        mcp: None,
        structured: Some(StructuredMode {
            provider: "claude".into(),
            args: strings(&["-p", "--add-dir", "{projectRoot}", "--session-id", "{id}"])
                .into_iter()
                .chain(strings(&["--", "{prompt}"]))
                .collect(),
            resume_args: strings(&["-p", "--add-dir", "{projectRoot}", "--resume", "{id}"])
                .into_iter()
                .chain(strings(&["--", "{prompt}"]))
                .collect(),
        }),
        via_shell: true,
        home: None,
        seed_files: vec![],
        version_args: vec![],
        install_hint: None,
    }
}

fn codex() -> AgentProfile {
    AgentProfile {
        structured: Some(StructuredMode {
            provider: "codex".into(),
            args: strings(&["exec", "--json", "--", "{prompt}"]),
            resume_args: strings(&["exec", "--json", "resume", "{id}", "--", "{prompt}"]),
        }),
        ..claude()
    }
}

fn turn(profile: &AgentProfile, message: &str, session: SessionPlan) -> TurnInvocation {
    turn_invocation(&TurnInputs {
        profile,
        project_root: Path::new("/p"),
        run_dir: Path::new("/p/.ideai/run/a"),
        message,
        session: &session,
    })
    .unwrap()
}

#[test]
fn a_first_turn_assigns_the_id_and_a_later_one_resumes_it_the_message_last() {
    let first = turn(&claude(), "-x {id}", SessionPlan::Assign("u1".into()));
    assert_eq!(first.program, "claude");
    assert_eq!(
        first.args,
        [
            "-p",
            "--add-dir",
            "/p",
            "--session-id",
            "u1",
            "--",
            "-x {id}"
        ]
    );
    assert_eq!(first.cli, TurnCli::Claude);
    assert_eq!(first.cwd, Path::new("/p/.ideai/run/a"));
    assert_eq!(
        first.context_file.as_deref(),
        Some(Path::new("/p/.ideai/run/a/CLAUDE.md"))
    );
    assert_eq!(first.env.get("DISABLE_TELEMETRY").unwrap(), "1");
    assert!(first.env_remove.iter().any(|v| v == "CI"));
    let again = turn(&claude(), "again", SessionPlan::Resume("u1".into()));
    assert_eq!(
        again.args,
        ["-p", "--add-dir", "/p", "--resume", "u1", "--", "again"]
    );
}

#[test]
fn a_cli_minting_its_ids_starts_plainly_and_resumes_by_thread() {
    let p = codex();
    assert!(!p.structured.as_ref().unwrap().assigns_ids());
    assert_eq!(
        turn(&p, "hi", SessionPlan::None).args,
        ["exec", "--json", "--", "hi"]
    );
    assert_eq!(
        turn(&p, "hi", SessionPlan::Resume("t1".into())).args,
        ["exec", "--json", "resume", "t1", "--", "hi"]
    );
}

#[test]
fn context_arguments_and_variables_reach_the_turn_before_the_message() {
    let mut p = codex();
    p.context_injection = ContextInjection::Args {
        template: strings(&["--read", "{path}"]),
    };
    let args = turn(&p, "hi", SessionPlan::None).args;
    assert_eq!(
        args,
        [
            "exec",
            "--json",
            "--read",
            "/p/.ideai/run/a/IDEA_CONTEXT.md",
            "--",
            "hi"
        ]
    );
    p.context_injection = ContextInjection::Env { var: "CTX".into() };
    let env = turn(&p, "hi", SessionPlan::None).env;
    assert_eq!(env.get("CTX").unwrap(), "/p/.ideai/run/a/IDEA_CONTEXT.md");
}

#[test]
fn profiles_that_cannot_run_a_turn_say_why() {
    let mut p = claude();
    p.structured = None;
    assert!(matches!(
        json_mode(&p),
        Err(e @ TurnSetupError::NoJsonMode { .. }) if e.is_not_askable()
    ));
    let mut p = claude();
    if let Some(mode) = p.structured.as_mut() {
        mode.provider = "aider".into();
    }
    assert!(matches!(
        json_mode(&p),
        Err(TurnSetupError::UnknownProvider { .. })
    ));
    let mut p = codex();
    if let Some(mode) = p.structured.as_mut() {
        mode.resume_args = strings(&["exec", "--", "{prompt}"]);
    }
    let error = json_mode(&p).unwrap_err();
    assert!(!error.is_not_askable());
    assert!(error.to_string().contains("resumeArgs must contain {id}"));
    // A template that needs an id cannot start a turn without one.
    let no_id = turn_invocation(&TurnInputs {
        profile: &claude(),
        project_root: Path::new("/p"),
        run_dir: Path::new("/p/r"),
        message: "hi",
        session: &SessionPlan::None,
    });
    assert!(no_id.is_err());
}
