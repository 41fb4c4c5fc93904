//! The [`TurnRunner`] port on plain child processes (`std::process`): no terminal, stdin at
//! `/dev/null`, a process group of its own (so a kill reaches the CLI's subprocesses too),
//! stdout read line by line by the parser of the turn's CLI, the end of stderr kept for a
//! failure that printed no event.

use super::process::{ProcessTurn, Shared};
use super::{AnyTurnParser, TurnParser};
use crate::pty::command::resolve_program;
use crate::sandbox;
use idea_domain::ports::{RunningTurn, TurnEventSink, TurnRunner};
use idea_domain::terminal::{ExitInfo, PtyError};
use idea_domain::turn::TurnInvocation;
use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// A longer stdout line is skipped (a reader must not grow without bound).
const MAX_LINE: u64 = 16 << 20;
/// How much of stderr is kept.
const STDERR_TAIL: usize = 8 << 10;

/// Runs turns as child processes.
#[derive(Debug, Clone)]
pub struct ProcessTurnRunner {
    /// Between SIGTERM and SIGKILL when a turn is killed.
    pub kill_grace: Duration,
    /// The `idea` executable that applies a turn's sandbox plan (`idea sandbox-exec`); without
    /// it a turn with a plan is refused. The composition root sets it.
    pub sandbox_helper: Option<PathBuf>,
}

impl Default for ProcessTurnRunner {
    fn default() -> Self {
        Self {
            kill_grace: Duration::from_millis(1500),
            sandbox_helper: None,
        }
    }
}

impl TurnRunner for ProcessTurnRunner {
    fn start(
        &self,
        invocation: &TurnInvocation,
        on_event: TurnEventSink,
    ) -> Result<Arc<dyn RunningTurn>, PtyError> {
        let mut child = spawn(invocation, self.sandbox_helper.as_deref())?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            abandon(&mut child);
            return Err(failed(invocation, "no pipe to the child"));
        };
        let parser = AnyTurnParser::new(invocation.cli);
        let shared = Arc::new(Shared::new(Some(child.id()), self.kill_grace, parser));
        let threads = [
            thread("turn-out", {
                let shared = Arc::clone(&shared);
                move || read_events(&shared, stdout, &on_event)
            }),
            thread("turn-err", {
                let shared = Arc::clone(&shared);
                move || shared.set_stderr(read_tail(stderr))
            }),
        ];
        if threads.iter().any(Result::is_err) {
            abandon(&mut child);
            return Err(failed(invocation, "cannot start a reader thread"));
        }
        // Shared with the waiter so that, should it not start, the child can still be reaped.
        let slot = Arc::new(Mutex::new(Some(child)));
        let waiting = Arc::clone(&shared);
        let waiter_slot = Arc::clone(&slot);
        let waiter = thread("turn-wait", move || {
            let child = take(&waiter_slot);
            if let Some(mut child) = child {
                waiting.exited(exit_info(child.wait()));
            }
        });
        if waiter.is_err() {
            if let Some(mut child) = take(&slot) {
                abandon(&mut child);
            }
            return Err(failed(invocation, "cannot start the waiter thread"));
        }
        Ok(Arc::new(ProcessTurn(shared)))
    }
}

fn spawn(invocation: &TurnInvocation, sandbox_helper: Option<&Path>) -> Result<Child, PtyError> {
    if !invocation.cwd.is_dir() {
        let reason = format!(
            "working directory {} is not a directory",
            invocation.cwd.display()
        );
        return Err(failed(invocation, &reason));
    }
    let path: Option<OsString> = invocation
        .env
        .get("PATH")
        .map(OsString::from)
        .or_else(|| std::env::var_os("PATH"));
    let program = resolve_program(&invocation.program, &invocation.cwd, path.as_ref())
        .ok_or_else(|| PtyError::CommandNotFound(invocation.program.clone()))?;
    let (mut command, plan_json) = match &invocation.sandbox {
        None => (Command::new(program), None),
        Some(plan) => {
            let wrapped =
                sandbox::wrap(sandbox_helper, plan, &program).map_err(|e| PtyError::Sandbox {
                    command: invocation.program.clone(),
                    reason: e.to_string(),
                })?;
            let mut command = Command::new(wrapped.program);
            command.args(wrapped.args);
            (command, Some(wrapped.plan_json))
        }
    };
    command
        .args(&invocation.args)
        .current_dir(&invocation.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in &invocation.env_remove {
        command.env_remove(OsStr::new(name));
    }
    command.envs(&invocation.env);
    // Last, so that no variable of the profile can stand in for the plan.
    if let Some(plan_json) = plan_json {
        command.env(sandbox::PLAN_ENV, plan_json);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
        .spawn()
        .map_err(|e| failed(invocation, &e.to_string()))
}

fn failed(invocation: &TurnInvocation, reason: &str) -> PtyError {
    PtyError::SpawnFailed {
        command: invocation.program.clone(),
        reason: reason.to_owned(),
    }
}

fn take(slot: &Mutex<Option<Child>>) -> Option<Child> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

fn abandon(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn thread(name: &str, body: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(body)
        .map(drop)
}

/// Feeds every stdout line to the parser and its events to `on_event`, then finishes.
fn read_events(shared: &Shared, stdout: ChildStdout, on_event: &TurnEventSink) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let mut skipping = false;
    loop {
        line.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let complete = line.ends_with(b"\n");
        if skipping {
            // The rest of an over-long line.
            skipping = !complete;
            continue;
        }
        if !complete && u64::try_from(line.len()).is_ok_and(|n| n >= MAX_LINE) {
            skipping = true;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let events = match shared.parser.lock() {
            Ok(mut parser) => match parser.as_mut() {
                Some(parser) => parser.parse_line(&text),
                None => break,
            },
            Err(_) => break,
        };
        for event in events {
            on_event(event);
        }
    }
    shared.finish_output();
}

/// The last [`STDERR_TAIL`] bytes of stderr, once it closes.
fn read_tail(mut stderr: ChildStderr) -> String {
    let mut tail: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buffer) {
        if n == 0 {
            break;
        }
        tail.extend_from_slice(&buffer[..n]);
        let excess = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..excess);
    }
    String::from_utf8_lossy(&tail).into_owned()
}

fn exit_info(status: std::io::Result<std::process::ExitStatus>) -> ExitInfo {
    let unknown = ExitInfo {
        code: 1,
        ..ExitInfo::default()
    };
    let Ok(status) = status else { return unknown };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return nix::sys::signal::Signal::try_from(signal)
                .map(crate::pty::exit::killed_by)
                .unwrap_or(unknown);
        }
    }
    status
        .code()
        .and_then(|c| u32::try_from(c).ok())
        .map_or(unknown, |code| ExitInfo {
            code,
            ..ExitInfo::default()
        })
}
