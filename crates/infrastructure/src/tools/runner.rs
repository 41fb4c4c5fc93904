//! [`ProcessToolRunner`]: a tool's program started with `std::process::Command`, waited for
//! up to its timeout, its output read on two threads.

use super::capture::Capture;
use crate::pty::command::resolve_program;
use crate::sandbox;
use idea_domain::tool_run::{ToolProcesses, ToolRun, ToolRunError, ToolRunOutput};
use std::ffi::OsString;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long the output may stay open once the tool's process has ended (a subprocess it left
/// behind still writing) before its whole process group is killed.
const DRAIN: Duration = Duration::from_secs(2);
/// How long the output may stay open after that kill (a subprocess that left the group)
/// before the run returns without the rest of it.
const AFTER_KILL: Duration = Duration::from_secs(1);
/// The longest pause between two looks at whether the process has ended.
const MAX_POLL: Duration = Duration::from_millis(25);
/// Attempts to start a program that is still open for writing somewhere (`ETXTBSY`: a script
/// written just now, its descriptor inherited for an instant by a process forked meanwhile).
const BUSY_RETRIES: u32 = 10;

/// Runs project tools as child processes.
#[derive(Debug, Clone, Default)]
pub struct ProcessToolRunner {
    /// The executable that applies a run's sandbox plan (`idea sandbox-exec`, or
    /// `idea-sandbox-exec`); without it a run with a plan is refused. The composition root
    /// sets it.
    pub sandbox_helper: Option<PathBuf>,
}

impl ProcessToolRunner {
    pub fn new(sandbox_helper: Option<PathBuf>) -> Self {
        Self { sandbox_helper }
    }
}

impl ToolProcesses for ProcessToolRunner {
    fn run(&self, run: &ToolRun) -> Result<ToolRunOutput, ToolRunError> {
        let mut command = command(run, self.sandbox_helper.as_deref())?;
        let mut child = spawn(&mut command, &run.program)?;
        let pid = child.id();
        tracing::debug!(pid, program = %run.program, args = ?run.args, "tool started");

        let stdout = Arc::new(Mutex::new(Capture::new(run.output_cap)));
        let stderr = Arc::new(Mutex::new(Capture::new(run.output_cap)));
        let (done, readers) = mpsc::channel();
        let started = match (child.stdout.take(), child.stderr.take()) {
            (Some(out), Some(err)) => reader("tool-out", out, &stdout, &done)
                .and_then(|()| reader("tool-err", err, &stderr, &done)),
            _ => Err(std::io::Error::other("no pipe to the child")),
        };
        drop(done);
        if let Err(e) = started {
            kill_group(pid);
            let _ = child.kill();
            let _ = child.wait();
            return Err(ToolRunError::Spawn(format!(
                "{}: cannot read its output: {e}",
                run.program
            )));
        }

        let (status, timed_out) = wait(&mut child, pid, run.timeout);
        if timed_out {
            tracing::warn!(pid, program = %run.program, timeout = ?run.timeout,
                "tool timed out: killed its process group");
        }
        drain(&readers, pid, &run.program);

        let (stdout, stdout_cut) = lock(&stdout).text();
        let (stderr, stderr_cut) = lock(&stderr).text();
        let exit_code = if timed_out {
            None
        } else {
            status.and_then(|s| s.code())
        };
        tracing::debug!(pid, program = %run.program, ?status, timed_out, "tool ended");
        Ok(ToolRunOutput {
            exit_code,
            stdout,
            stderr,
            truncated: stdout_cut || stderr_cut,
            timed_out,
        })
    }
}

/// The command for `run`: its program resolved, wrapped in the sandbox helper when it has a
/// plan, its own process group, stdin at `/dev/null`, stdout and stderr piped.
fn command(run: &ToolRun, sandbox_helper: Option<&Path>) -> Result<Command, ToolRunError> {
    if !run.cwd.is_dir() {
        return Err(ToolRunError::Spawn(format!(
            "the tool's folder {} is not a directory",
            run.cwd.display()
        )));
    }
    // The `PATH` the child gets: the run's own (the last one, as `Command::envs` keeps it),
    // else IdeA's.
    let path: Option<OsString> = run
        .env
        .iter()
        .rev()
        .find(|(key, _)| key == "PATH")
        .map(|(_, value)| OsString::from(value))
        .or_else(|| std::env::var_os("PATH"));
    let program = resolve(&run.program, &run.cwd, path.as_ref())?;
    let (mut command, plan_json) = match &run.sandbox {
        None => (Command::new(program), None),
        Some(plan) => {
            // Fail-closed: a run whose plan cannot be enforced does not run at all.
            let wrapped = sandbox::wrap(sandbox_helper, plan, &program)
                .map_err(|e| ToolRunError::Sandbox(e.to_string()))?;
            let mut command = Command::new(wrapped.program);
            command.args(wrapped.args);
            (command, Some(wrapped.plan_json))
        }
    };
    command
        .args(&run.args)
        .current_dir(&run.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .envs(run.env.iter().map(|(key, value)| (key, value)));
    // Last, so that no variable of the tool can stand in for the plan.
    if let Some(plan_json) = plan_json {
        command.env(sandbox::PLAN_ENV, plan_json);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    Ok(command)
}

/// Where `program` lives. A relative path (`./x`, `../x`, `bin/x`) is in the tool's folder
/// `cwd` and must stay there once links are resolved; a bare name is looked up in `path`; an
/// absolute path is taken as given. Each must be an executable file.
fn resolve(program: &str, cwd: &Path, path: Option<&OsString>) -> Result<PathBuf, ToolRunError> {
    let not_found = || ToolRunError::ProgramNotFound(program.to_owned());
    let found = resolve_program(program, cwd, path).ok_or_else(not_found)?;
    if !program.contains('/') || Path::new(program).is_absolute() {
        return Ok(found);
    }
    let real = found.canonicalize().map_err(|_| not_found())?;
    let folder = cwd
        .canonicalize()
        .map_err(|e| ToolRunError::Spawn(format!("the tool's folder {}: {e}", cwd.display())))?;
    if !real.starts_with(&folder) {
        tracing::warn!(program, resolved = %real.display(), folder = %folder.display(),
            "refused a tool program outside the tool's folder");
        return Err(ToolRunError::Spawn(format!(
            "{program} leads outside the tool's folder ({})",
            folder.display()
        )));
    }
    Ok(real)
}

fn spawn(command: &mut Command, program: &str) -> Result<Child, ToolRunError> {
    let mut attempt = 0;
    loop {
        match command.spawn() {
            Ok(child) => return Ok(child),
            Err(e) if e.kind() == ErrorKind::ExecutableFileBusy && attempt < BUSY_RETRIES => {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(20) * attempt);
            }
            Err(e) => return Err(ToolRunError::Spawn(format!("{program}: {e}"))),
        }
    }
}

/// Starts the thread that reads `pipe` to its end into `capture`, then says so on `done`.
fn reader(
    name: &str,
    mut pipe: impl Read + Send + 'static,
    capture: &Arc<Mutex<Capture>>,
    done: &Sender<()>,
) -> std::io::Result<()> {
    let capture = Arc::clone(capture);
    let done = done.clone();
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let mut buffer = vec![0u8; 64 << 10];
            loop {
                match pipe.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => lock(&capture).push(&buffer[..n]),
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = done.send(());
        })
        .map(drop)
}

/// Waits for the child until `timeout`, then kills its process group. The child is reaped
/// only here, so its pid (the group's id) cannot be reused while it may still be signalled.
/// Returns its status (if it could be had) and whether the timeout killed it.
fn wait(child: &mut Child, pid: u32, timeout: Duration) -> (Option<ExitStatus>, bool) {
    let deadline = Instant::now().checked_add(timeout);
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (Some(status), false),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(pid, "cannot wait for a tool: {e}");
                kill_group(pid);
                return (child.wait().ok(), false);
            }
        }
        let now = Instant::now();
        if let Some(deadline) = deadline {
            if now >= deadline {
                kill_group(pid);
                let _ = child.kill();
                return (child.wait().ok(), true);
            }
            pause = pause.min(deadline - now);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(MAX_POLL);
    }
}

/// Waits for both readers; when subprocesses still hold the output open after [`DRAIN`],
/// kills the process group, and gives up on the output after [`AFTER_KILL`] more.
fn drain(readers: &Receiver<()>, pid: u32, program: &str) {
    let mut open = 2;
    if closed(readers, &mut open, DRAIN) {
        return;
    }
    tracing::debug!(
        pid,
        program,
        "the tool's subprocesses keep its output open: killing its process group"
    );
    kill_group(pid);
    if !closed(readers, &mut open, AFTER_KILL) {
        tracing::warn!(
            pid,
            program,
            "the tool's output is still open after killing its process group: returning without the rest"
        );
    }
}

/// Whether the `open` readers left all finish within `wait`.
fn closed(readers: &Receiver<()>, open: &mut usize, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    while *open > 0 {
        let left = deadline.saturating_duration_since(Instant::now());
        match readers.recv_timeout(left) {
            Ok(()) => *open -= 1,
            Err(RecvTimeoutError::Timeout) => return false,
            // Every reader is gone.
            Err(RecvTimeoutError::Disconnected) => return true,
        }
    }
    true
}

/// SIGKILL to the process group `pid` leads (the tool's, made with `process_group(0)`).
#[cfg(unix)]
fn kill_group(pid: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid) {
        // ESRCH: the group is gone already.
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// No process groups here: only the child itself is killed (`Child::kill`).
#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

fn lock(capture: &Mutex<Capture>) -> std::sync::MutexGuard<'_, Capture> {
    capture.lock().unwrap_or_else(PoisonError::into_inner)
}
