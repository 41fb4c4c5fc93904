//! A CLI's limit message in words, per vendor: the sentence that says a usage limit was hit,
//! its window and its reset. Only for text already known to be the CLI's own error (an error
//! record, a hook's failure, the bottom block of its screen): the callers decide that.

mod claude;
mod codex;
mod gemini;

use super::reset_words::{Reading, read_reset_words};
use super::text::{Folded, message_of};
use super::{LimitSighting, LimitSource, SightedReset, Vendor};

/// What a vendor's sentence says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub(crate) reset: SightedReset,
    pub(crate) window: Option<String>,
    /// Where the sentence starts in the folded text (the screen wants it to open its block).
    pub(crate) at: usize,
}

/// The usage limit `text` (a CLI's error message) reports, if it is one.
///
/// Not a limit: transient refusals (429, 529, "not your usage limit"), context-window and
/// budget limits, warnings ("You've used 92% of…"), capacity and retry messages. A message
/// cut off inside its reset time (the rest still to come) is not read yet.
pub fn recognise_message(vendor: Vendor, text: &str, source: LimitSource) -> Option<LimitSighting> {
    let folded = Folded::new(text);
    let found = find(vendor, &folded)?;
    Some(sighting(found, &folded, source))
}

pub(crate) fn find(vendor: Vendor, folded: &Folded) -> Option<Found> {
    match vendor {
        Vendor::ClaudeCode => claude::find(folded),
        Vendor::Codex => codex::find(folded),
        Vendor::Gemini => gemini::find(folded),
    }
}

pub(crate) fn sighting(found: Found, folded: &Folded, source: LimitSource) -> LimitSighting {
    LimitSighting {
        reset: found.reset,
        window: found.window,
        source,
        message: message_of(folded),
    }
}

/// The reset words after the first `marker` (lower case) at or after `from`: `Unknown`
/// without the marker or when the words are of a shape not known; `None` when the text ends
/// inside them (the rest of the message is still to come).
pub(crate) fn reset_after(folded: &Folded, from: usize, marker: &str) -> Option<SightedReset> {
    let Some(found) = folded.lower.get(from..).and_then(|rest| rest.find(marker)) else {
        return (!ends_inside(&folded.lower, marker)).then_some(SightedReset::Unknown);
    };
    let start = from + found + marker.len();
    let words = folded.text.get(start..).unwrap_or_default();
    match read_reset_words(words) {
        Reading::Read(_, len) => Some(SightedReset::Text(
            words.get(..len).unwrap_or(words).trim().to_owned(),
        )),
        Reading::Truncated => None,
        Reading::Unreadable => Some(SightedReset::Unknown),
    }
}

/// Whether `lower` ends with the start of `marker` (two bytes or more, opening a word): the
/// marker may be arriving.
pub(crate) fn ends_inside(lower: &str, marker: &str) -> bool {
    let marker = marker.trim_end();
    (2..=marker.len()).any(|k| {
        marker.get(..k).is_some_and(|head| {
            lower.ends_with(head) && {
                let before = &lower[..lower.len() - head.len()];
                head.starts_with(' ') || before.is_empty() || before.ends_with(' ')
            }
        })
    })
}

/// The first of `phrases` (lower case) in the text: where, and which.
pub(crate) fn first_of<'p>(folded: &Folded, phrases: &[&'p str]) -> Option<(usize, &'p str)> {
    phrases
        .iter()
        .filter_map(|p| folded.find(p).map(|at| (at, *p)))
        .min_by_key(|(at, _)| *at)
}
