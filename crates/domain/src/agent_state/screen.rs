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
    /// A usage-limit message, as shown (the application puts its reset on its clock and
    /// hands the tracker a [`super::Signal::UsageLimit`]).
    UsageLimit(crate::limits::LimitSighting),
}

/// How many rows from the bottom (ignoring blank ones) a prompt's question may sit.
const PROMPT_DEPTH: usize = 16;

/// A question, the answer options that must follow it below on screen, and the marker the CLI
/// draws before the selected choice.
struct Prompt {
    questions: &'static [&'static str],
    options: &'static [&'static str],
    selected: char,
}

const CLAUDE: Prompt = Prompt {
    questions: &[
        "Do you want to proceed?",
        "Do you want to make this edit",
        "Do you want to create",
        "Do you want to allow",
    ],
    options: &["1. Yes"],
    selected: '❯',
};

const CODEX: Prompt = Prompt {
    questions: &[
        "Would you like to run the following command",
        "Would you like to make the following edits",
        "Would you like to grant these permissions",
    ],
    options: &["1. Yes", "Yes, just this once", "Yes, proceed"],
    selected: '›',
};

const GEMINI: Prompt = Prompt {
    // "Do you want to proceed?": its consent before the model activates a skill (and other
    // confirmations in its "Action Required" box).
    questions: &[
        "Allow execution of",
        "Apply this change?",
        "Do you want to proceed?",
    ],
    options: &["1. Allow once", "Allow once"],
    selected: '●',
};

/// What `detector` reads on a screen of `rows` (top to bottom): a prompt waiting for the
/// user, else a usage limit in the last block the CLI drew ([`crate::limits::recognise_screen`]).
///
/// A prompt is its question opening a row, one of its options opening a row below it, and a
/// numbered choice below it drawn as selected (whichever the user moved to). Checked against
/// the live screens of the pinned CLIs (`fixtures/README.md`): a transcript or a message that
/// quotes a prompt, options and all, has no selected choice.
pub fn detect_screen(detector: ScreenDetector, rows: &[String]) -> Option<ScreenFinding> {
    prompt_on_screen(detector, rows)
        .or_else(|| crate::limits::recognise_screen(detector, rows).map(ScreenFinding::UsageLimit))
}

/// A permission prompt or question on screen (see [`detect_screen`]).
fn prompt_on_screen(detector: ScreenDetector, rows: &[String]) -> Option<ScreenFinding> {
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
    // The question opens its row (inside the CLI's box): a model's reply that quotes it after
    // a bullet does not.
    let (at, question) = recent.iter().enumerate().rev().find_map(|(i, row)| {
        let text = clean(row);
        prompt
            .questions
            .iter()
            .any(|q| text.starts_with(q))
            .then_some((i, text))
    })?;
    let below = &recent[at + 1..];
    let options = below
        .iter()
        .any(|row| prompt.options.iter().any(|o| option_row(row, o)));
    let selected = below
        .iter()
        .any(|row| selected_choice(row, prompt.selected));
    (options && selected).then_some(ScreenFinding::NeedsYou(question))
}

/// Box borders and the selection markers the CLIs draw before an option.
const OPTION_LEAD: &str = "❯›>●○│|";

/// An option row: the option text at the start of the row, after a selection marker or box
/// border the CLI may draw.
fn option_row(row: &str, option: &str) -> bool {
    let bare = row.trim_start_matches(|c: char| c.is_whitespace() || OPTION_LEAD.contains(c));
    bare.starts_with(option)
}

/// A numbered choice drawn as selected: `marker`, then `N.` (inside a box border, if any).
fn selected_choice(row: &str, marker: char) -> bool {
    let inside = row.trim_start_matches(|c: char| c.is_whitespace() || "│|".contains(c));
    let Some(rest) = inside.strip_prefix(marker) else {
        return false;
    };
    let rest = rest.trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with('.')
}

/// The question without box borders.
fn clean(row: &str) -> String {
    row.trim_matches(|c: char| c.is_whitespace() || "│|╭╮╰╯─".contains(c))
        .to_owned()
}
