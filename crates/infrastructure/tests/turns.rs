//! The turn parsers against captured output of the real CLIs (`fixtures/cli-output/`, see its
//! README for the command and version behind each file).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_domain::limits::SightedReset;
use idea_domain::turn::{TokenUsage, TurnCli, TurnError, TurnEvent, TurnOutcome};
use idea_infrastructure::turns::{
    AnyTurnParser, ClaudeTurnParser, CodexTurnParser, TurnParser, parse_output,
};
use serde_json::json;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/cli-output/",
            $name
        ))
    };
}

fn texts(events: &[TurnEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn finished(events: &[TurnEvent]) -> &TurnOutcome {
    match events.last() {
        Some(TurnEvent::Finished(outcome)) => outcome,
        other => panic!("the last event is not Finished: {other:?}"),
    }
}

fn usage(input: u64, output: u64, cached: u64) -> Option<TokenUsage> {
    Some(TokenUsage {
        input,
        output,
        cached: Some(cached),
    })
}

#[path = "turns/claude.rs"]
mod claude;
#[path = "turns/codex.rs"]
mod codex;
#[path = "turns/garbage.rs"]
mod garbage;
#[path = "turns/gemini.rs"]
mod gemini;
