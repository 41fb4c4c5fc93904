//! One JSON-mode turn end to end: the command line `turn_invocation` expands from the built-in
//! profile's `structured` mode, run against `fake-claude` / `fake-codex` as real child
//! processes (stdin at /dev/null, stdout read line by line while they run), read by the
//! infrastructure's turn parsers. The fakes must give the same outcome shapes (and event
//! sequences) as the captured real output.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_domain::invocation::SessionPlan;
use idea_domain::turn::{TurnCli, TurnError, TurnEvent, TurnInputs, TurnOutcome, turn_invocation};
use idea_infrastructure::profiles::builtin::{CLAUDE_CODE, CODEX, builtin_profiles};
use idea_infrastructure::turns::{AnyTurnParser, TurnParser, parse_output};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of a fake CLI gave.
struct Run {
    events: Vec<TurnEvent>,
    /// When the first and the last event were read, from the start.
    first_at: Duration,
    last_at: Duration,
    outcome: TurnOutcome,
    code: i32,
    stderr: String,
}

struct Fake {
    cli: TurnCli,
    state: tempfile::TempDir,
    env: Vec<(&'static str, String)>,
}

impl Fake {
    fn new(cli: TurnCli) -> Self {
        Self {
            cli,
            state: tempfile::tempdir().unwrap(),
            env: Vec::new(),
        }
    }

    fn with(mut self, key: &'static str, value: &str) -> Self {
        self.env.push((key, value.to_owned()));
        self
    }

    fn program(&self) -> &'static str {
        match self.cli {
            TurnCli::Claude => env!("CARGO_BIN_EXE_fake-claude"),
            TurnCli::Codex => env!("CARGO_BIN_EXE_fake-codex"),
            TurnCli::Gemini => unreachable!("no fake Gemini CLI"),
        }
    }

    /// The built-in profile's turn, with the fake as its program.
    fn turn(&self, message: &str, session: SessionPlan) -> Run {
        let id = match self.cli {
            TurnCli::Claude => CLAUDE_CODE,
            TurnCli::Codex => CODEX,
            TurnCli::Gemini => unreachable!("no fake Gemini CLI"),
        };
        let mut profile = builtin_profiles()
            .into_iter()
            .find(|p| p.id.as_str() == id)
            .unwrap();
        profile.command = self.program().into();
        let invocation = turn_invocation(&TurnInputs {
            profile: &profile,
            project_root: self.state.path(),
            run_dir: self.state.path(),
            message,
            session: &session,
        })
        .unwrap();
        assert_eq!(invocation.cli, self.cli);
        assert_eq!(invocation.cwd, self.state.path());
        self.run(&invocation.args)
    }

    fn run(&self, args: &[String]) -> Run {
        let started = Instant::now();
        let mut child = Command::new(self.program())
            .args(args)
            .current_dir(self.state.path())
            .env("FAKE_CLI_STATE", self.state.path())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut parser = AnyTurnParser::new(self.cli);
        let mut events = Vec::new();
        let (mut first_at, mut last_at) = (None, Duration::ZERO);
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let new = parser.parse_line(&line.unwrap());
            if !new.is_empty() {
                first_at.get_or_insert(started.elapsed());
                last_at = started.elapsed();
            }
            events.extend(new);
        }
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let code = child.wait().unwrap().code().unwrap();
        Run {
            events,
            first_at: first_at.unwrap_or_default(),
            last_at,
            outcome: parser.finish(),
            code,
            stderr,
        }
    }
}

/// The kinds of events, in order: what a chat view would draw.
fn kinds(events: &[TurnEvent]) -> Vec<&'static str> {
    events
        .iter()
        .map(|e| match e {
            TurnEvent::Started { .. } => "started",
            TurnEvent::Text { .. } => "text",
            TurnEvent::ToolCall { .. } => "toolCall",
            TurnEvent::ToolResult { .. } => "toolResult",
            TurnEvent::Usage { .. } => "usage",
            TurnEvent::Notice { .. } => "notice",
            TurnEvent::Finished(_) => "finished",
        })
        .collect()
}

/// The events of a captured real output.
fn real(cli: TurnCli, captured: &str) -> Vec<TurnEvent> {
    parse_output(cli, captured).0
}

macro_rules! captured {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../crates/infrastructure/tests/fixtures/cli-output/",
            $name
        ))
    };
}

fn assert_answer(run: &Run, text: &str, session: &str) {
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.outcome.text, text);
    assert_eq!(run.outcome.engine_session_id.as_deref(), Some(session));
    assert!(!run.outcome.is_error && run.outcome.error.is_none());
    assert!(run.outcome.usage.is_some());
    assert_eq!(
        run.events.last(),
        Some(&TurnEvent::Finished(run.outcome.clone()))
    );
}

/// A transient 429 ended the turn: an API failure with its status, no usage limit.
fn assert_api_429(run: &Run) {
    assert_eq!(run.code, 1);
    assert!(run.outcome.is_error);
    assert!(
        matches!(
            run.outcome.error,
            Some(TurnError::Api {
                status: Some(429),
                ..
            })
        ),
        "{:?}",
        run.outcome.error
    );
}

fn assert_usage_limit(run: &Run) {
    assert_eq!(run.code, 1);
    assert!(run.outcome.is_error);
    assert!(
        matches!(run.outcome.error, Some(TurnError::UsageLimit { .. })),
        "{:?}",
        run.outcome.error
    );
    assert!(run.outcome.engine_session_id.is_some());
}

/// The CLI's first event was read while it waited (with room for a slow machine), its
/// answer only after the wait.
fn assert_streamed_with_delay(run: &Run, delay: Duration) {
    assert!(matches!(
        run.events.first(),
        Some(TurnEvent::Started { .. })
    ));
    assert!(run.last_at >= delay, "answered after {:?}", run.last_at);
    assert!(
        run.first_at + delay / 2 <= run.last_at,
        "started at {:?}, answered at {:?}",
        run.first_at,
        run.last_at
    );
}

#[path = "turns/claude.rs"]
mod claude;
#[path = "turns/codex.rs"]
mod codex;
