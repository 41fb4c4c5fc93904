//! One turn's child process once started: what its threads learnt (the outcome read from
//! stdout, the end of stderr, the exit), waiting for all of it, and killing its group.

use super::{AnyTurnParser, TurnParser};
use crate::pty::exit::signal_name_of_exit;
use idea_domain::ports::{RunningTurn, TurnExit};
use idea_domain::terminal::ExitInfo;
use idea_domain::turn::{TurnError, TurnOutcome};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How long the output may stay open once the process has exited (a grandchild holding
/// stdout) before the group is killed.
const DRAIN: Duration = Duration::from_secs(2);

/// What the turn's threads have reported so far.
#[derive(Debug, Default)]
struct State {
    outcome: Option<TurnOutcome>,
    stderr: Option<String>,
    exit: Option<ExitInfo>,
}

/// A started turn, as the application holds it.
#[derive(Debug)]
pub(super) struct ProcessTurn(pub(super) Arc<Shared>);

/// What the turn's reader, stderr and waiter threads share with its handle.
#[derive(Debug)]
pub(super) struct Shared {
    pid: Option<u32>,
    /// Between SIGTERM and SIGKILL.
    grace: Duration,
    /// The reader's parser; taken by whoever finishes the output first.
    pub(super) parser: Mutex<Option<AnyTurnParser>>,
    state: Mutex<State>,
    changed: Condvar,
    killed: AtomicBool,
    signals_sent: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    pub(super) fn new(pid: Option<u32>, grace: Duration, parser: AnyTurnParser) -> Self {
        Self {
            pid,
            grace,
            parser: Mutex::new(Some(parser)),
            state: Mutex::default(),
            changed: Condvar::new(),
            killed: AtomicBool::new(false),
            signals_sent: AtomicU64::new(0),
        }
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        change(&mut lock(&self.state));
        self.changed.notify_all();
    }

    /// Stdout is closed (or abandoned): the outcome is what the parser read.
    pub(super) fn finish_output(&self) {
        let parser = lock(&self.parser).take();
        if let Some(parser) = parser {
            let outcome = parser.finish();
            self.update(|s| s.outcome = Some(outcome));
        }
    }

    pub(super) fn set_stderr(&self, tail: String) {
        self.update(|s| s.stderr = Some(tail));
    }

    /// The process has exited: wait briefly for its output to end, kill what still holds it,
    /// then record the exit (so `wait` sees the whole turn).
    pub(super) fn exited(&self, mut exit: ExitInfo) {
        let all_read = |s: &State| s.outcome.is_some() && s.stderr.is_some();
        if !self.within(DRAIN, all_read) {
            self.signal(Signal::Kill);
            if !self.within(Duration::from_secs(1), |s| s.outcome.is_some()) {
                self.finish_output();
            }
        }
        exit.stopped = self.killed.load(Ordering::SeqCst);
        if exit.signal.is_none() {
            exit.signal = signal_name_of_exit(exit.code, self.signals_sent.load(Ordering::SeqCst));
        }
        self.update(|s| s.exit = Some(exit));
    }

    /// Waits up to `limit` for `done`; whether it holds.
    fn within(&self, limit: Duration, done: impl Fn(&State) -> bool) -> bool {
        let (state, _) = self
            .changed
            .wait_timeout_while(lock(&self.state), limit, |s| !done(s))
            .unwrap_or_else(PoisonError::into_inner);
        done(&state)
    }

    fn signal(&self, signal: Signal) {
        #[cfg(unix)]
        {
            use nix::sys::signal::{Signal as Nix, killpg};
            use nix::unistd::Pid;
            let nix = match signal {
                Signal::Term => Nix::SIGTERM,
                Signal::Kill => Nix::SIGKILL,
            };
            if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
                self.signals_sent
                    .fetch_or(1 << (nix as u32), Ordering::SeqCst);
                // The child leads its own process group: its subprocesses go too.
                let _ = killpg(Pid::from_raw(pid), nix);
            }
        }
        #[cfg(not(unix))]
        let _ = signal;
    }

    fn escalate(&self) {
        if !self.within(self.grace, |s| s.exit.is_some()) {
            self.signal(Signal::Kill);
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Signal {
    Term,
    Kill,
}

/// A failed turn whose CLI printed no event (a refused option, an unknown conversation):
/// what it said on stderr is the best reason.
fn with_stderr(mut outcome: TurnOutcome, stderr: Option<&str>, exit: &ExitInfo) -> TurnOutcome {
    let silent = matches!(
        outcome.error,
        Some(TurnError::NoAnswer | TurnError::Cli { .. })
    ) || (outcome.error.is_none() && outcome.text.is_empty());
    let said: Vec<&str> = stderr
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if exit.failed() && silent && !said.is_empty() {
        let message = said[said.len().saturating_sub(5)..].join("\n");
        outcome = outcome.failed(TurnError::Cli { message });
    }
    outcome
}

impl RunningTurn for ProcessTurn {
    fn wait(&self, timeout: Duration) -> Option<TurnExit> {
        let shared = &self.0;
        let (state, _) = shared
            .changed
            .wait_timeout_while(lock(&shared.state), timeout, |s| s.exit.is_none())
            .unwrap_or_else(PoisonError::into_inner);
        let exit = state.exit.clone()?;
        let outcome = state.outcome.clone().unwrap_or_default();
        Some(TurnExit {
            outcome: with_stderr(outcome, state.stderr.as_deref(), &exit),
            exit,
        })
    }

    fn kill(&self) {
        let shared = &self.0;
        if lock(&shared.state).exit.is_some() || shared.killed.swap(true, Ordering::SeqCst) {
            return;
        }
        shared.signal(Signal::Term);
        let escalating = Arc::clone(shared);
        let escalation = std::thread::Builder::new()
            .name("turn-kill".into())
            .spawn(move || escalating.escalate());
        if escalation.is_err() {
            shared.signal(Signal::Kill);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_failure_takes_its_reason_from_stderr() {
        let exit = ExitInfo {
            code: 1,
            ..ExitInfo::default()
        };
        let outcome = TurnOutcome::default().failed(TurnError::NoAnswer);
        let told = with_stderr(outcome.clone(), Some("\nError: no rollout found\n"), &exit);
        assert_eq!(
            told.error,
            Some(TurnError::Cli {
                message: "Error: no rollout found".into()
            })
        );
        // A clean exit, or a failure the events explained, keeps its outcome.
        let ok = ExitInfo::default();
        assert_eq!(with_stderr(outcome.clone(), Some("warning"), &ok), outcome);
        let limit = TurnOutcome::default().failed(TurnError::UsageLimit {
            resets_at: None,
            reset_text: None,
            window: None,
            needs_user: false,
            message: "You've hit your 5-hour limit".into(),
        });
        assert_eq!(with_stderr(limit.clone(), Some("x"), &exit), limit);
    }
}
