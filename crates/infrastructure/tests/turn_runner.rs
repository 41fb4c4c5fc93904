//! `ProcessTurnRunner` against `sh` scripts standing in for a CLI: events streamed while the
//! process runs, stdin at /dev/null, a kill that reaches the whole process group, a missing
//! program, a grandchild that keeps stdout open. (The fake Claude/Codex CLIs run through it in
//! the end-to-end tests.)
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_domain::ports::{TurnExit, TurnRunner};
use idea_domain::terminal::PtyError;
use idea_domain::turn::{TurnCli, TurnError, TurnEvent, TurnInvocation};
use idea_infrastructure::turns::ProcessTurnRunner;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const INIT: &str = r#"{"type":"system","subtype":"init","session_id":"s1","model":"m"}"#;
const RESULT: &str = r#"{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"s1","usage":{"input_tokens":2,"output_tokens":1}}"#;

fn script(dir: &std::path::Path, body: &str) -> TurnInvocation {
    TurnInvocation {
        program: "sh".into(),
        args: vec!["-c".into(), body.into()],
        env: [("TURN_TEST".to_owned(), "1".to_owned())].into(),
        env_remove: vec!["HOME_NOT_SET".into()],
        cwd: dir.to_path_buf(),
        cli: TurnCli::Claude,
        context_file: None,
        sandbox: None,
    }
}

type Seen = Arc<Mutex<Vec<(Instant, TurnEvent)>>>;

fn run(invocation: &TurnInvocation, limit: Duration) -> (Option<TurnExit>, Seen) {
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    let turn = ProcessTurnRunner::default()
        .start(
            invocation,
            Box::new(move |e| sink.lock().unwrap().push((Instant::now(), e))),
        )
        .unwrap();
    (turn.wait(limit), seen)
}

#[test]
fn events_stream_while_the_cli_runs_and_the_outcome_comes_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "test \"$TURN_TEST\" = 1 || exit 3; cat; echo '{INIT}'; sleep 0.5; echo '{RESULT}'"
    );
    let started = Instant::now();
    let (exit, seen) = run(&script(dir.path(), &body), Duration::from_secs(10));
    let exit = exit.expect("the turn ended");
    assert_eq!(exit.exit.code, 0, "stdin is /dev/null, so `cat` returned");
    assert!(!exit.exit.stopped);
    assert_eq!(exit.outcome.text, "hi");
    assert_eq!(exit.outcome.engine_session_id.as_deref(), Some("s1"));
    let seen = seen.lock().unwrap();
    assert!(matches!(seen[0].1, TurnEvent::Started { .. }));
    assert!(matches!(seen.last().unwrap().1, TurnEvent::Finished(_)));
    assert!(seen[0].0.duration_since(started) < Duration::from_millis(450));
}

#[test]
fn a_kill_ends_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let body = format!(
        "echo '{INIT}'; sleep 60 & echo $! > {}; wait",
        pid_file.display()
    );
    let turn = ProcessTurnRunner::default()
        .start(&script(dir.path(), &body), Box::new(|_| {}))
        .unwrap();
    assert!(
        turn.wait(Duration::from_millis(300)).is_none(),
        "still running"
    );
    let started = Instant::now();
    turn.kill();
    let exit = turn.wait(Duration::from_secs(10)).expect("killed");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(exit.exit.stopped);
    assert_eq!(exit.exit.signal.as_deref(), Some("SIGTERM"));
    assert_eq!(exit.outcome.error, Some(TurnError::NoAnswer));
    let grandchild: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    wait_dead(grandchild);
}

/// Waits until `pid` is gone or a zombie (its new parent may be slow to reap it, or never).
fn wait_dead(pid: i32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let alive = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if !alive || zombie {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the background sleep was in the group and should have died with it"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_cli_that_ignores_sigterm_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let runner = ProcessTurnRunner {
        kill_grace: Duration::from_millis(200),
        ..ProcessTurnRunner::default()
    };
    let body = "trap '' TERM; echo ready; while :; do sleep 0.05; done";
    let turn = runner
        .start(&script(dir.path(), body), Box::new(|_| {}))
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    turn.kill();
    let exit = turn.wait(Duration::from_secs(10)).expect("killed");
    assert!(exit.exit.stopped);
    assert_eq!(exit.exit.signal.as_deref(), Some("SIGKILL"));
}

#[test]
fn a_missing_program_or_folder_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut missing = script(dir.path(), "true");
    missing.program = "no-such-cli-anywhere".into();
    let runner = ProcessTurnRunner::default();
    assert!(matches!(
        runner.start(&missing, Box::new(|_| {})).err(),
        Some(PtyError::CommandNotFound(c)) if c == "no-such-cli-anywhere"
    ));
    let mut nowhere = script(dir.path(), "true");
    nowhere.cwd = dir.path().join("gone");
    assert!(matches!(
        runner.start(&nowhere, Box::new(|_| {})).err(),
        Some(PtyError::SpawnFailed { .. })
    ));
}

#[test]
fn a_failure_without_events_says_what_the_cli_printed_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let body = "echo 'No conversation found with session ID: x' >&2; exit 1";
    let (exit, _) = run(&script(dir.path(), body), Duration::from_secs(10));
    let exit = exit.unwrap();
    assert_eq!(exit.exit.code, 1);
    assert_eq!(
        exit.outcome.error,
        Some(TurnError::Cli {
            message: "No conversation found with session ID: x".into()
        })
    );
}

#[test]
fn a_grandchild_holding_stdout_does_not_hold_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("echo '{RESULT}'; (sleep 60) & exit 0");
    let started = Instant::now();
    let (exit, _) = run(&script(dir.path(), &body), Duration::from_secs(20));
    let exit = exit.expect("ended once the leftover was killed");
    assert_eq!(exit.outcome.text, "hi");
    assert!(started.elapsed() < Duration::from_secs(8));
}
