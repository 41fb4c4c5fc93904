//! A usage limit on a terminal cell's screen, as the CLI's TUI shows it now: only in the last
//! block it rendered above its input box (a sentence it wrapped at the terminal's width is
//! joined), and only when the sentence opens that block. Text higher up, or a model's reply
//! that quotes a limit message, does not count. Claude Code's dialog for a limit with its
//! auto-continue off counts too.

use super::message::{Found, find, sighting};
use super::text::Folded;
use super::{LimitSighting, LimitSource, SightedReset, Vendor};

/// How many non-blank rows from the bottom the input box and its footer may take.
const CHROME_DEPTH: usize = 10;

/// How many non-blank rows from the bottom a dialog's question may sit.
const DIALOG_DEPTH: usize = 16;

/// The most rows one block may have (a long wrapped message is a few).
const BLOCK_MAX: usize = 12;

/// The usage limit the screen's `rows` (top to bottom, as shown now) report.
pub fn recognise_screen(vendor: Vendor, rows: &[String]) -> Option<LimitSighting> {
    let rows: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
    let tui = Tui::of(vendor);
    let body = &rows[..tui.input_top(&rows)];
    let (block, above) = tui.last_blocks(body);
    let last = tui.limit_in(vendor, &block);
    if vendor == Vendor::ClaudeCode {
        if let Some(dialog) = claude_dialog(&rows) {
            return Some(last.unwrap_or(dialog));
        }
        // `● Usage limit reached · set to continue automatically at 3:53am` follows the
        // sentence with the window and the zone: that one says more.
        let bare_notice = last.as_ref().is_some_and(|notice| notice.window.is_none());
        if let Some(richer) = bare_notice.then(|| tui.limit_in(vendor, &above)).flatten() {
            return Some(richer);
        }
    }
    last
}

/// A screen watched over time: a limit is reported once while it stays on screen, however
/// often the TUI redraws it.
#[derive(Debug, Clone)]
pub struct ScreenLimitWatch {
    vendor: Vendor,
    shown: Option<LimitSighting>,
}

impl ScreenLimitWatch {
    pub fn new(vendor: Vendor) -> Self {
        Self {
            vendor,
            shown: None,
        }
    }

    /// The limit the screen shows now, if it was not showing it already. A message that grew
    /// (the rest of it arrived in a later output batch) is the same limit.
    pub fn observe(&mut self, rows: &[String]) -> Option<LimitSighting> {
        let now = recognise_screen(self.vendor, rows);
        let same = match (&self.shown, &now) {
            (Some(before), Some(after)) => {
                after.message.starts_with(&before.message)
                    || before.message.starts_with(&after.message)
            }
            _ => false,
        };
        let new = if same { None } else { now.clone() };
        self.shown = now;
        new
    }
}

/// One vendor's screen layout.
struct Tui {
    /// What opens a block at the start of a row.
    markers: &'static str,
    /// What opens the user's own messages: never the CLI's limit, whatever they quote.
    user: char,
    /// Where the input box starts, from the bottom rows.
    input: fn(&str) -> bool,
    /// Whether the input box is the second-to-last such row (Claude draws a rule above and
    /// below it).
    input_between_two: bool,
    /// Rows drawn between the transcript and the input box (status, hints).
    chrome: &'static [&'static str],
}

impl Tui {
    fn of(vendor: Vendor) -> Self {
        match vendor {
            Vendor::ClaudeCode => Self {
                markers: "●⎿⚠❯✻",
                user: '❯',
                input: is_rule,
                input_between_two: true,
                chrome: &["✻", "⏸", "? for shortcuts", "esc to interrupt"],
            },
            Vendor::Codex => Self {
                markers: "■•›✔⚠",
                user: '›',
                input: |row| row.trim_start().starts_with('›'),
                input_between_two: false,
                chrome: &["Worked for", "─ Worked for", "esc to interrupt"],
            },
            Vendor::Gemini => Self {
                markers: "✦✕⚡>ℹ",
                user: '>',
                input: |row| {
                    let row = row.trim();
                    row.len() >= 10 && row.chars().all(|c| c == '▄')
                },
                input_between_two: false,
                chrome: &["? for shortcuts", "Shift+Tab", "esc to cancel"],
            },
        }
    }

    /// The row where the input box starts (the rows' length when none is seen).
    fn input_top(&self, rows: &[&str]) -> usize {
        let bottom: Vec<usize> = (0..rows.len())
            .rev()
            .filter(|&i| !rows[i].trim().is_empty())
            .take(CHROME_DEPTH)
            .filter(|&i| (self.input)(rows[i]))
            .collect();
        let pick = if self.input_between_two && bottom.len() >= 2 {
            bottom.get(1)
        } else {
            bottom.first()
        };
        pick.copied().unwrap_or(rows.len())
    }

    fn is_chrome(&self, row: &str) -> bool {
        let row = row.trim();
        is_rule(row)
            || self
                .chrome
                .iter()
                .any(|c| row.starts_with(c) || row.ends_with(c))
    }

    fn opens_block(&self, row: &str) -> bool {
        row.trim_start()
            .chars()
            .next()
            .is_some_and(|c| self.markers.contains(c))
    }

    /// The last block of `rows` and the one above it (a block: rows from one that opens with
    /// a marker, or from after a blank row, down to the next).
    fn last_blocks<'r>(&self, rows: &[&'r str]) -> (Vec<&'r str>, Vec<&'r str>) {
        let mut end = rows.len();
        while end > 0 && (rows[end - 1].trim().is_empty() || self.is_chrome(rows[end - 1])) {
            end -= 1;
        }
        let last_start = self.block_start(rows, end);
        let mut above_end = last_start;
        while above_end > 0 && rows[above_end - 1].trim().is_empty() {
            above_end -= 1;
        }
        let above_start = self.block_start(rows, above_end);
        (
            rows[last_start..end].to_vec(),
            rows[above_start..above_end].to_vec(),
        )
    }

    fn block_start(&self, rows: &[&str], end: usize) -> usize {
        let mut start = end;
        while start > 0 && end - start < BLOCK_MAX {
            let row = rows[start - 1];
            if row.trim().is_empty() {
                break;
            }
            start -= 1;
            if self.opens_block(row) {
                break;
            }
        }
        start
    }

    /// The limit a block reports: its rows joined, the vendor's sentence opening it.
    fn limit_in(&self, vendor: Vendor, block: &[&str]) -> Option<LimitSighting> {
        let joined = block.iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
        if joined.starts_with(self.user) {
            return None;
        }
        let text = joined.trim_start_matches(|c: char| {
            c.is_whitespace() || self.markers.contains(c) || "│|".contains(c)
        });
        let folded = Folded::new(text);
        let found = find(vendor, &folded)?;
        opens(&folded, &found).then(|| sighting(found, &folded, LimitSource::Screen))
    }
}

/// Whether the sentence opens the block (after the error prefixes the CLIs print).
fn opens(folded: &Folded, found: &Found) -> bool {
    let lead = folded.lower.get(..found.at).unwrap_or("x");
    ["", "api error: ", "[api error: ", "error: "].contains(&lead)
}

/// A dialog's row without its box borders.
fn clean(row: &str) -> &str {
    row.trim_matches(|c: char| c.is_whitespace() || "│|".contains(c))
}

/// A horizontal rule the TUIs draw around their input box.
fn is_rule(row: &str) -> bool {
    let row = row.trim();
    row.chars().count() >= 10 && row.chars().all(|c| "─━═▀▄".contains(c))
}

/// Claude Code's dialog for a limit when its auto-continue is off: `What do you want to do?`,
/// `❯ 1. Stop and wait for limit to reset`, `2. Wait here, then continue automatically at
/// 3:53am`; a quoted copy has no selected choice.
fn claude_dialog(rows: &[&str]) -> Option<LimitSighting> {
    let recent: Vec<&str> = rows
        .iter()
        .rev()
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
        .take(DIALOG_DEPTH)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let at = recent
        .iter()
        .rposition(|r| clean(r).starts_with("What do you want to do?"))?;
    let below = &recent[at + 1..];
    let stop = below
        .iter()
        .any(|r| clean(r).contains("Stop and wait for limit to reset"));
    let selected = below.iter().any(|r| {
        clean(r)
            .strip_prefix('❯')
            .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    });
    if !(stop && selected) {
        return None;
    }
    let reset = below
        .iter()
        .find_map(|r| {
            let folded = Folded::new(clean(r));
            let at = folded.find("continue automatically at ")?;
            super::message::reset_after(&folded, at, "continue automatically at ")
        })
        .unwrap_or(SightedReset::Unknown);
    Some(LimitSighting {
        reset,
        window: None,
        source: LimitSource::Screen,
        message: "Usage limit reached · What do you want to do?".to_owned(),
    })
}
