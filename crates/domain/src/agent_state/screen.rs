//! Per-CLI detectors over the visible screen, for what a CLI shows but does not signal: a
//! permission prompt (and, later, a usage-limit banner). A detector reads the screen's rows as
//! text, bottom first: the CLIs draw their prompts at the bottom, so a question that scrolled
//! up or that the model merely quoted does not count. Texts checked against the pinned CLIs
//! (`docs/agent-states.md`).

use serde::{Deserialize, Serialize};

/// Which detector a session's screen gets (from the profile's CLI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ScreenDetector {
    ClaudeCode,
    Codex,
    Gemini,
}

/// What a detector sees on screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScreenFinding {
    /// A prompt that waits for the user; the question as shown.
    NeedsYou(String),
}

/// How many rows from the bottom (ignoring blank ones) a prompt's question may sit.
const PROMPT_DEPTH: usize = 16;

/// A question and the answer options that must follow it, below it on screen.
struct Prompt {
    questions: &'static [&'static str],
    options: &'static [&'static str],
}

const CLAUDE: Prompt = Prompt {
    questions: &[
        "Do you want to proceed?",
        "Do you want to make this edit",
        "Do you want to create",
        "Do you want to allow",
    ],
    options: &["1. Yes"],
};

const CODEX: Prompt = Prompt {
    questions: &[
        "Would you like to run the following command",
        "Would you like to make the following edits",
        "Would you like to grant these permissions",
    ],
    options: &["1. Yes", "Yes, just this once", "Yes, proceed"],
};

const GEMINI: Prompt = Prompt {
    questions: &["Allow execution of", "Apply this change?"],
    options: &["1. Allow once", "Allow once"],
};

/// What `detector` reads on a screen of `rows` (top to bottom).
pub fn detect_screen(detector: ScreenDetector, rows: &[String]) -> Option<ScreenFinding> {
    let prompt = match detector {
        ScreenDetector::ClaudeCode => &CLAUDE,
        ScreenDetector::Codex => &CODEX,
        ScreenDetector::Gemini => &GEMINI,
    };
    let bottom: Vec<&str> = rows
        .iter()
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
        .collect();
    let start = bottom.len().saturating_sub(PROMPT_DEPTH);
    let recent = &bottom[start..];
    // The question opens its row (inside the CLI's box): a model's reply that quotes it does
    // not.
    let (at, question) = recent.iter().enumerate().rev().find_map(|(i, row)| {
        let text = clean(row);
        prompt
            .questions
            .iter()
            .any(|q| text.starts_with(q))
            .then_some((i, text))
    })?;
    let answered = recent[at + 1..]
        .iter()
        .any(|row| prompt.options.iter().any(|o| option_row(row, o)));
    answered.then_some(ScreenFinding::NeedsYou(question))
}

/// An option row: the option text at the start of the row, after a selection marker or box
/// border the CLI may draw (`❯`, `›`, `>`, `●`, `│`).
fn option_row(row: &str, option: &str) -> bool {
    let bare = row.trim_start_matches(|c: char| c.is_whitespace() || "❯›>●○│|".contains(c));
    bare.starts_with(option)
}

/// The question without box borders.
fn clean(row: &str) -> String {
    row.trim_matches(|c: char| c.is_whitespace() || "│|╭╮╰╯─".contains(c))
        .to_owned()
}
