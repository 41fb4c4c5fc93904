//! Text as the recognisers compare it: one line, the CLIs' typographic variants folded to one
//! spelling, capped. Matching is ASCII case-insensitive on a copy with the same byte offsets,
//! so a phrase found in the lower-case copy cuts the original at the same place.

use super::MESSAGE_MAX;

/// The most characters of one message or screen block the recognisers read: a limit message
/// is a few hundred characters, and a huge line must not cost more than this.
pub(crate) const SCAN_MAX: usize = 4096;

/// A text folded for matching.
#[derive(Debug, Clone)]
pub(crate) struct Folded {
    /// The text on one line: whitespace runs (newlines too) are one space, `’` is `'`, `∙` is
    /// `·`, control characters are gone.
    pub(crate) text: String,
    /// `text` in ASCII lower case (same byte offsets).
    pub(crate) lower: String,
}

impl Folded {
    pub(crate) fn new(raw: &str) -> Self {
        let mut text = String::with_capacity(raw.len().min(SCAN_MAX));
        let mut space = false;
        for c in raw.chars().take(SCAN_MAX) {
            let c = match c {
                '\u{2019}' | '\u{2018}' => '\'',
                '\u{2219}' => '\u{00B7}',
                c if c.is_whitespace() => ' ',
                c if c.is_control() => continue,
                c => c,
            };
            if c == ' ' {
                space = !text.is_empty();
                continue;
            }
            if space {
                text.push(' ');
                space = false;
            }
            text.push(c);
        }
        let lower = text.to_ascii_lowercase();
        Self { text, lower }
    }

    /// Where `phrase` (lower case) first occurs.
    pub(crate) fn find(&self, phrase: &str) -> Option<usize> {
        self.lower.find(phrase)
    }

    pub(crate) fn contains(&self, phrase: &str) -> bool {
        self.lower.contains(phrase)
    }
}

/// A message as a limit keeps it: one line, at most [`MESSAGE_MAX`] characters.
pub(crate) fn message_of(folded: &Folded) -> String {
    folded.text.chars().take(MESSAGE_MAX).collect()
}
