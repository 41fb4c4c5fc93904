//! `ProcessTurnRunner` against `sh` scripts standing in for a CLI: events streamed while the
//! process runs, stdin at /dev/null, a kill that reaches the whole process group, a missing
//! program, a grandchild that keeps stdout open. (The fake Claude/Codex CLIs run through it in
//! the end-to-end tests.)
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_domain::ports::{RunningTurn, TurnExit, TurnRunner};
use idea_domain::terminal::PtyError;
use idea_domain::turn::{TurnCli, TurnError, TurnEvent, TurnInvocation};
use idea_infrastructure::turns::ProcessTurnRunner;
use std::path::Path;
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

type Seen = Arc<Mutex<Vec<TurnEvent>>>;

/// Generous: a hang guard, never a measure of speed.
const PATIENCE: Duration = Duration::from_secs(60);

fn start(runner: &ProcessTurnRunner, invocation: &TurnInvocation) -> (Arc<dyn RunningTurn>, Seen) {
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    let turn = runner
        .start(invocation, Box::new(move |e| sink.lock().unwrap().push(e)))
        .unwrap();
    (turn, seen)
}

fn run(invocation: &TurnInvocation) -> (Option<TurnExit>, Seen) {
    let (turn, seen) = start(&ProcessTurnRunner::default(), invocation);
    (turn.wait(PATIENCE), seen)
}

fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A shell line that waits until `file` exists: the test decides when the script goes on.
fn wait_for_file(file: &Path) -> String {
    format!("until [ -e '{}' ]; do sleep 0.01; done", file.display())
}

fn started(seen: &Seen) -> bool {
    seen.lock()
        .unwrap()
        .iter()
        .any(|e| matches!(e, TurnEvent::Started { .. }))
}

#[test]
fn events_stream_while_the_cli_runs_and_the_outcome_comes_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    // The result waits for the test: the first event can only have come while the CLI ran.
    let body = format!(
        "test \"$TURN_TEST\" = 1 || exit 3; cat; echo '{INIT}'; {}; echo '{RESULT}'",
        wait_for_file(&go)
    );
    let (turn, seen) = start(&ProcessTurnRunner::default(), &script(dir.path(), &body));
    wait_until("the first event", || started(&seen));
    std::fs::write(&go, "").unwrap();
    let exit = turn.wait(PATIENCE).expect("the turn ended");
    assert_eq!(exit.exit.code, 0, "stdin is /dev/null, so `cat` returned");
    assert!(!exit.exit.stopped);
    assert_eq!(exit.outcome.text, "hi");
    assert_eq!(exit.outcome.engine_session_id.as_deref(), Some("s1"));
    let seen = seen.lock().unwrap();
    assert!(matches!(seen[0], TurnEvent::Started { .. }));
    assert!(matches!(seen.last().unwrap(), TurnEvent::Finished(_)));
}

#[test]
fn a_kill_ends_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let body = format!(
        "sleep 100000 & echo $! > {}.tmp; mv {0}.tmp {0}; echo '{INIT}'; wait",
        pid_file.display()
    );
    let (turn, seen) = start(&ProcessTurnRunner::default(), &script(dir.path(), &body));
    // Its grandchild runs, and the shell has printed its first event.
    wait_until("the turn to start", || started(&seen));
    assert!(turn.wait(Duration::ZERO).is_none(), "still running");
    turn.kill();
    let exit = turn.wait(PATIENCE).expect("killed");
    assert!(exit.exit.stopped);
    // Ended by the first signal: no escalation was needed.
    assert_eq!(exit.exit.signal.as_deref(), Some("SIGTERM"));
    assert_eq!(exit.outcome.error, Some(TurnError::NoAnswer));
    wait_dead(pid_in(&pid_file));
}

/// The process id a script wrote to `file`.
fn pid_in(file: &std::path::Path) -> i32 {
    std::fs::read_to_string(file)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Waits until `pid` is gone or a zombie (its new parent may be slow to reap it, or never).
fn wait_dead(pid: i32) {
    let deadline = Instant::now() + PATIENCE;
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
    // Its first event says the trap is set.
    let body = format!("trap '' TERM; echo '{INIT}'; while :; do sleep 0.05; done");
    let (turn, seen) = start(&runner, &script(dir.path(), &body));
    wait_until("the trap", || started(&seen));
    turn.kill();
    let exit = turn.wait(PATIENCE).expect("killed");
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
    let (exit, _) = run(&script(dir.path(), body));
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
    let pid_file = dir.path().join("grandchild.pid");
    // The grandchild would hold stdout for a day: the turn can only end by killing it.
    let body = format!(
        "echo '{RESULT}'; sleep 86400 & echo $! > {}.tmp; mv {0}.tmp {0}; exit 0",
        pid_file.display()
    );
    let (exit, _) = run(&script(dir.path(), &body));
    let exit = exit.expect("ended once the leftover was killed");
    assert_eq!(exit.outcome.text, "hi");
    wait_dead(pid_in(&pid_file));
}
