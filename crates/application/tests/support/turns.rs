//! A fake turn runner for use-case tests: answers `echo: <message>` after a delay, continues
//! the conversation named by `--session-id`/`--resume` (or mints `thread-N`), records every
//! turn with when it ran, and can hang until killed or fail with a given error. (End-to-end
//! tests run the real adapter against the fake CLIs.)

use idea_domain::ports::{RunningTurn, TurnEventSink, TurnExit, TurnRunner};
use idea_domain::profile::StructuredMode;
use idea_domain::terminal::{ExitInfo, PtyError};
use idea_domain::turn::{TurnError, TurnEvent, TurnInvocation, TurnOutcome};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The JSON modes of the test catalogue's profiles.
pub fn structured(profile: &str) -> Option<StructuredMode> {
    let strings = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect();
    match profile {
        "askable" => Some(StructuredMode {
            provider: "claude".into(),
            args: strings(&["-p", "--session-id", "{id}", "--", "{prompt}"]),
            resume_args: strings(&["-p", "--resume", "{id}", "--", "{prompt}"]),
        }),
        "askable-minting" | "codex" => Some(StructuredMode {
            provider: "codex".into(),
            args: strings(&["exec", "--", "{prompt}"]),
            resume_args: strings(&["exec", "resume", "{id}", "--", "{prompt}"]),
        }),
        _ => None,
    }
}

/// One turn as it ran.
#[derive(Debug, Clone)]
pub struct Ran {
    pub invocation: TurnInvocation,
    pub message: String,
    pub started: Instant,
    pub ended: Option<Instant>,
}

#[derive(Default)]
pub struct FakeTurns {
    pub ran: Arc<Mutex<Vec<Ran>>>,
    /// How long a turn takes.
    pub delay: Mutex<Duration>,
    /// Turns never end on their own.
    pub hang: AtomicBool,
    /// Turns end with this error.
    pub fail: Mutex<Option<TurnError>>,
    /// How many `Text` events a turn reports (each `"part <i>"`), between its `Started`
    /// and its `Finished`, all as it starts.
    pub chatter: AtomicUsize,
    /// What a turn answers (else `echo: <message>`).
    pub answer: Mutex<Option<String>>,
    threads: AtomicU64,
}

impl FakeTurns {
    pub fn ran(&self) -> Vec<Ran> {
        self.ran.lock().unwrap().clone()
    }

    pub fn set_delay(&self, delay: Duration) {
        *self.delay.lock().unwrap() = delay;
    }
}

struct FakeTurn {
    index: usize,
    ran: Arc<Mutex<Vec<Ran>>>,
    deadline: Option<Instant>,
    outcome: TurnOutcome,
    killed: Mutex<bool>,
    changed: Condvar,
}

fn after(args: &[String], flag: &str) -> Option<String> {
    let at = args.iter().position(|a| a == flag)?;
    args.get(at + 1).cloned()
}

impl TurnRunner for FakeTurns {
    fn start(
        &self,
        invocation: &TurnInvocation,
        on_event: TurnEventSink,
    ) -> Result<Arc<dyn RunningTurn>, PtyError> {
        let args = &invocation.args;
        let message = args.last().cloned().unwrap_or_default();
        let session = after(args, "--session-id")
            .or_else(|| after(args, "--resume"))
            .or_else(|| after(args, "resume"))
            .unwrap_or_else(|| format!("thread-{}", self.threads.fetch_add(1, Ordering::SeqCst)));
        let outcome = match self.fail.lock().unwrap().clone() {
            Some(error) => TurnOutcome {
                text: error.to_string(),
                engine_session_id: Some(session),
                ..TurnOutcome::default()
            }
            .failed(error),
            None => TurnOutcome {
                text: self
                    .answer
                    .lock()
                    .unwrap()
                    .clone()
                    .unwrap_or_else(|| format!("echo: {message}")),
                engine_session_id: Some(session),
                ..TurnOutcome::default()
            },
        };
        on_event(TurnEvent::Started {
            session_id: outcome.engine_session_id.clone().unwrap_or_default(),
            model: None,
        });
        for i in 0..self.chatter.load(Ordering::SeqCst) {
            on_event(TurnEvent::Text {
                text: format!("part {i}"),
                delta: false,
            });
        }
        on_event(TurnEvent::Finished(outcome.clone()));
        let started = Instant::now();
        let mut ran = self.ran.lock().unwrap();
        ran.push(Ran {
            invocation: invocation.clone(),
            message,
            started,
            ended: None,
        });
        let hang = self.hang.load(Ordering::SeqCst);
        Ok(Arc::new(FakeTurn {
            index: ran.len() - 1,
            ran: self.ran.clone(),
            deadline: (!hang).then(|| started + *self.delay.lock().unwrap()),
            outcome,
            killed: Mutex::new(false),
            changed: Condvar::new(),
        }))
    }
}

impl RunningTurn for FakeTurn {
    fn wait(&self, timeout: Duration) -> Option<TurnExit> {
        let limit = Instant::now() + timeout;
        let mut killed = self.killed.lock().unwrap();
        loop {
            let now = Instant::now();
            let done = self.deadline.is_some_and(|d| now >= d);
            if *killed || done {
                self.ran.lock().unwrap()[self.index]
                    .ended
                    .get_or_insert(now);
                let exit = ExitInfo {
                    code: if *killed { 143 } else { 0 },
                    stopped: *killed,
                    ..ExitInfo::default()
                };
                let outcome = if *killed {
                    TurnOutcome::default().failed(TurnError::NoAnswer)
                } else {
                    self.outcome.clone()
                };
                return Some(TurnExit { outcome, exit });
            }
            if now >= limit {
                return None;
            }
            let until = self.deadline.map_or(limit, |d| d.min(limit));
            killed = self.changed.wait_timeout(killed, until - now).unwrap().0;
        }
    }

    fn kill(&self) {
        *self.killed.lock().unwrap() = true;
        self.changed.notify_all();
    }
}
