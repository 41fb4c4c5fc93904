//! The launch paths: a PTY spec or a turn with a plan runs under `idea sandbox-exec`; without
//! one it runs natively. And `idea sandbox`, `idea doctor` from the command line.

use super::support::{IDEA, World, helper, landlock, stderr, stdout, try_write, unique, world};
use idea_domain::ids::SessionId;
use idea_domain::ports::TurnRunner;
use idea_domain::sandbox::SandboxPlan;
use idea_domain::terminal::{ExitInfo, PtyError, SpawnSpec, TerminalSession, TerminalSize};
use idea_domain::turn::{TurnCli, TurnInvocation};
use idea_infrastructure::pty::{PortablePtyHost, PtyConfig};
use idea_infrastructure::turns::ProcessTurnRunner;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub(super) fn host(helper: Option<PathBuf>) -> PortablePtyHost {
    PortablePtyHost::with_config(PtyConfig {
        sandbox_helper: helper,
        ..PtyConfig::default()
    })
}

pub(super) fn spec(w: &World, script: &str, sandbox: Option<SandboxPlan>) -> SpawnSpec {
    SpawnSpec {
        command: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: [("HOME".to_owned(), w.home.display().to_string())].into(),
        env_remove: vec!["IDEA_SANDBOX_REQUIRE_ABI".into()],
        cwd: w.project.clone(),
        size: TerminalSize::default(),
        stdin_injection: None,
        sandbox,
    }
}

/// Runs `spec` in a PTY to its end; its output and exit.
fn pty_run(host: &PortablePtyHost, spec: &SpawnSpec) -> Result<(String, ExitInfo), PtyError> {
    let (tx, rx) = mpsc::channel();
    let session = host.spawn_session(
        SessionId::from_uuid(uuid::Uuid::new_v4()),
        spec,
        Box::new(move |exit| {
            let _ = tx.send(exit);
        }),
    )?;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let attachment = session.attach(
        Box::new(move |b: &[u8]| sink.lock().unwrap().extend_from_slice(b)),
        None,
    );
    let exit = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the session ended");
    let mut text = attachment.replay;
    text.extend_from_slice(&seen.lock().unwrap());
    Ok((String::from_utf8_lossy(&text).into_owned(), exit))
}

#[test]
fn a_pty_spec_with_a_plan_is_sandboxed_and_without_one_is_not() {
    if !landlock() {
        return;
    }
    let w = world();
    let idea = Some(PathBuf::from(IDEA));
    let outside = unique(&w.sibling);
    let inside = w.project.join("inside.txt");
    let script = format!("{}{}", try_write(&outside), try_write(&inside));

    let (text, exit) = pty_run(&host(idea.clone()), &spec(&w, &script, Some(w.plan()))).unwrap();
    assert_eq!(exit.code, 0, "{text}");
    assert!(
        text.contains(&format!("DENIED {}", outside.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("WROTE {}", inside.display())),
        "{text}"
    );
    assert!(!outside.exists());

    let (text, _) = pty_run(&host(idea), &spec(&w, &script, None)).unwrap();
    assert!(
        text.contains(&format!("WROTE {}", outside.display())),
        "{text}"
    );
    assert!(outside.exists(), "no plan: native, not sandboxed");
}

#[test]
fn a_pty_spec_whose_plan_cannot_be_enforced_starts_nothing() {
    let w = world();
    let marker = w.project.join("started");
    let touch = format!("touch '{}'", marker.display());
    // No helper configured: refused in the parent, no child at all.
    let err = pty_run(&host(None), &spec(&w, &touch, Some(w.plan()))).unwrap_err();
    assert!(
        matches!(&err, PtyError::Sandbox { reason, .. } if reason.contains("refusing to run unsandboxed")),
        "{err}"
    );
    // The helper cannot enforce it: it says why in the terminal and never execs.
    let mut failing = spec(&w, &touch, Some(w.plan()));
    failing.env_remove.clear();
    failing
        .env
        .insert("IDEA_SANDBOX_REQUIRE_ABI".into(), "99".into());
    match pty_run(&host(Some(helper())), &failing) {
        Ok((text, exit)) => {
            assert_eq!(exit.code, 125, "{text}");
            assert!(text.contains("sh was not started"), "{text}");
        }
        // A kernel without Landlock ABI 6 is refused before any child.
        Err(PtyError::Sandbox { reason, .. }) => assert!(reason.contains("cannot enforce")),
        Err(other) => panic!("{other}"),
    }
    assert!(!marker.exists());
}

fn turn(w: &World, script: &str, sandbox: Option<SandboxPlan>) -> TurnInvocation {
    TurnInvocation {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: [("HOME".to_owned(), w.home.display().to_string())].into(),
        env_remove: vec!["IDEA_SANDBOX_REQUIRE_ABI".into()],
        cwd: w.project.clone(),
        cli: TurnCli::Claude,
        context_file: None,
        sandbox,
    }
}

#[test]
fn a_turn_with_a_plan_is_sandboxed_and_without_one_is_not() {
    if !landlock() {
        return;
    }
    let w = world();
    let runner = ProcessTurnRunner {
        sandbox_helper: Some(PathBuf::from(IDEA)),
        ..ProcessTurnRunner::default()
    };
    let outside = unique(&w.sibling);
    let script = format!("echo x > '{}' || exit 7", outside.display());
    let mut with_plan = turn(&w, &script, Some(w.plan()));
    // A variable of the profile cannot stand in for the plan.
    with_plan
        .env
        .insert("IDEA_SANDBOX_PLAN".into(), r#"{"writeRoots":["/"]}"#.into());
    let sandboxed = runner
        .start(&with_plan, Box::new(|_| {}))
        .unwrap()
        .wait(Duration::from_secs(20))
        .expect("the turn ended");
    assert_eq!(sandboxed.exit.code, 7);
    assert!(!outside.exists());
    let native = runner
        .start(&turn(&w, &script, None), Box::new(|_| {}))
        .unwrap()
        .wait(Duration::from_secs(20))
        .expect("the turn ended");
    assert_eq!(native.exit.code, 0);
    assert!(outside.exists());
    // Without a helper, a turn with a plan is refused before anything starts.
    let refused =
        ProcessTurnRunner::default().start(&turn(&w, &script, Some(w.plan())), Box::new(|_| {}));
    assert!(matches!(refused, Err(PtyError::Sandbox { .. })));
}

#[test]
fn idea_sandbox_runs_a_command_under_the_projects_plan_and_explains_it() {
    if !landlock() {
        return;
    }
    let w = world();
    let init = std::process::Command::new(IDEA)
        .arg("init")
        .current_dir(&w.project)
        .env("IDEA_USER_DIR", w.root.join("user"))
        .output()
        .unwrap();
    assert!(init.status.success(), "{}", stderr(&init));
    let outside = unique(&w.sibling);
    // IdeA's state is kept out (a read-only mount, or with the limited sandbox a split
    // project root: new files then go in its folders, docs/sandbox.md).
    std::fs::create_dir_all(w.project.join("src")).unwrap();
    let inside = w.project.join("src/made-by-idea-sandbox");
    let state = w.project.join(".ideai/permissions.json");
    let script = format!(
        "{}{}{}",
        try_write(&outside),
        try_write(&inside),
        try_write(&state)
    );
    let out = std::process::Command::new(IDEA)
        .args(["sandbox", "--project"])
        .arg(&w.project)
        .args(["--", "sh", "-c", &script])
        .current_dir(&w.root)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains(&format!("DENIED {}", outside.display())),
        "{text}{}",
        stderr(&out)
    );
    assert!(
        text.contains(&format!("WROTE {}", inside.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("DENIED {}", state.display())),
        "{text}"
    );

    let explained = std::process::Command::new(IDEA)
        .args(["sandbox", "--explain", "--json", "--project"])
        .arg(&w.project)
        .output()
        .unwrap();
    assert!(explained.status.success(), "{}", stderr(&explained));
    let plan: SandboxPlan = serde_json::from_slice(&explained.stdout).unwrap();
    assert_eq!(plan.write_roots[0], w.project);
    assert!(plan.write_roots.contains(&PathBuf::from("/tmp")));
    assert!(plan.scope_signals && plan.scope_abstract_unix);
    let words = std::process::Command::new(IDEA)
        .args(["sandbox", "--explain", "--project"])
        .arg(&w.project)
        .output()
        .unwrap();
    let words = stdout(&words);
    assert!(
        words.contains("Landlock ABI") && words.contains(&w.project.display().to_string()),
        "{words}"
    );

    let nothing = std::process::Command::new(IDEA)
        .args(["sandbox", "--project"])
        .arg(&w.project)
        .output()
        .unwrap();
    assert_eq!(nothing.status.code(), Some(2));
    assert!(stderr(&nothing).contains("nothing to run"));
}

#[test]
fn doctor_reports_the_kernels_landlock_abi_and_user_namespaces() {
    let w = world();
    let out = std::process::Command::new(IDEA)
        .args(["doctor", "--json"])
        .env("IDEA_USER_DIR", w.root.join("user"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let abi = idea_infrastructure::sandbox::kernel_abi();
    assert_eq!(report["landlock"]["abi"].as_u64(), abi.map(u64::from));
    assert_eq!(report["landlock"]["supported"], abi.is_some());
    let probed = std::process::Command::new(helper())
        .args(["sandbox-exec", "--probe"])
        .env_remove("IDEA_SANDBOX_NO_USERNS")
        .status()
        .unwrap();
    assert_eq!(report["userNamespaces"]["supported"], probed.success());
    // Refused: doctor says the sandbox is limited and how to allow them.
    let refused = std::process::Command::new(IDEA)
        .args(["doctor", "--json"])
        .env("IDEA_USER_DIR", w.root.join("user"))
        .env("IDEA_SANDBOX_NO_USERNS", "1")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&refused.stdout).unwrap();
    let namespaces = &report["userNamespaces"];
    assert_eq!(namespaces["supported"], false, "{namespaces}");
    assert!(
        namespaces["detail"]
            .as_str()
            .unwrap()
            .contains("limited sandbox"),
        "{namespaces}"
    );
    assert!(namespaces["howToAllow"].is_string(), "{namespaces}");
}

#[test]
fn idea_sandbox_for_an_agent_grants_its_run_dir_and_its_clis_state_made_first() {
    use std::os::unix::fs::PermissionsExt;
    if !landlock() {
        return;
    }
    let w = world();
    let idea = |args: &[&str]| {
        std::process::Command::new(IDEA)
            .args(args)
            .current_dir(&w.project)
            .env("HOME", &w.home)
            .env("IDEA_USER_DIR", w.root.join("user"))
            .env_remove("TMPDIR")
            .output()
            .unwrap()
    };
    assert!(idea(&["init"]).status.success());
    let created = idea(&[
        "agent",
        "create",
        "--name",
        "gem",
        "--profile",
        "gemini",
        "--json",
    ]);
    assert!(created.status.success(), "{}", stderr(&created));
    let agent: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let run_dir = w
        .project
        .join(".ideai/run")
        .join(agent["agentId"].as_str().unwrap());
    let gemini = w.home.join(".gemini");
    assert!(!gemini.exists());
    let script = format!(
        "mkdir -p '{run}' && {}{}{}",
        try_write(&run_dir.join("note")),
        try_write(&gemini.join("settings.json")),
        try_write(&w.home.join(".codex")),
        run = run_dir.display(),
    );
    let out = idea(&["sandbox", "--agent", "gem", "--", "sh", "-c", &script]);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("WROTE {}", run_dir.join("note").display())),
        "{text}{}",
        stderr(&out)
    );
    assert!(
        text.contains(&format!("WROTE {}", gemini.join("settings.json").display())),
        "{text}"
    );
    // Another CLI's state is not this agent's.
    assert!(
        text.contains(&format!("DENIED {}", w.home.join(".codex").display())),
        "{text}"
    );
    let mode = std::fs::metadata(&gemini).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
}
