//! Running and reading one JSON-mode turn of an agent CLI (the command line is
//! `idea_domain::turn::turn_invocation`): [`ProcessTurnRunner`] runs it (the `TurnRunner`
//! port); each CLI's event stream, fed one stdout line at a time, becomes the `TurnEvent`s a
//! chat view shows and, at the end, a `TurnOutcome` (the final text, the CLI's conversation
//! id to continue, token usage, why it failed).
//!
//! A line that is not a JSON event is skipped (counted; when nothing else came the outcome is
//! a `Cli` error), never a panic. A stream that stops before the CLI's final event (killed,
//! timed out) ends in the last error the CLI reported, else `NoAnswer`.

mod claude;
mod codex;
mod errors;
mod gemini;
mod lines;
mod process;
mod runner;

pub use claude::ClaudeTurnParser;
pub use codex::CodexTurnParser;
pub use gemini::GeminiTurnParser;
pub use runner::ProcessTurnRunner;

use idea_domain::turn::{TurnCli, TurnEvent, TurnOutcome};

/// Reads one CLI's turn, line by line.
pub trait TurnParser {
    /// What `line` (one line of the CLI's stdout, with or without its newline) shows.
    fn parse_line(&mut self, line: &str) -> Vec<TurnEvent>;
    /// What the turn came to, once the CLI's stdout is closed.
    fn finish(self) -> TurnOutcome;
}

/// The parser of any supported CLI.
#[derive(Debug)]
pub enum AnyTurnParser {
    Claude(ClaudeTurnParser),
    Codex(CodexTurnParser),
    Gemini(GeminiTurnParser),
}

impl AnyTurnParser {
    pub fn new(cli: TurnCli) -> Self {
        match cli {
            TurnCli::Claude => Self::Claude(ClaudeTurnParser::new()),
            TurnCli::Codex => Self::Codex(CodexTurnParser::new()),
            TurnCli::Gemini => Self::Gemini(GeminiTurnParser::new()),
        }
    }
}

impl TurnParser for AnyTurnParser {
    fn parse_line(&mut self, line: &str) -> Vec<TurnEvent> {
        match self {
            Self::Claude(p) => p.parse_line(line),
            Self::Codex(p) => p.parse_line(line),
            Self::Gemini(p) => p.parse_line(line),
        }
    }

    fn finish(self) -> TurnOutcome {
        match self {
            Self::Claude(p) => p.finish(),
            Self::Codex(p) => p.finish(),
            Self::Gemini(p) => p.finish(),
        }
    }
}

/// A whole captured output at once: every event, then the outcome.
pub fn parse_output(cli: TurnCli, output: &str) -> (Vec<TurnEvent>, TurnOutcome) {
    let mut parser = AnyTurnParser::new(cli);
    let events = output
        .lines()
        .flat_map(|line| parser.parse_line(line))
        .collect();
    (events, parser.finish())
}
