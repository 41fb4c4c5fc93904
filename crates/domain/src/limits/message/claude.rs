//! Claude Code's limit sentences (2.1.332, and the older ones users still report):
//! `You've hit your <window> limit · resets <when>`, `Claude AI usage limit reached|<epoch>`,
//! `Claude usage limit reached. Your limit will reset at <when>.`, `5-hour limit reached ∙
//! resets <when>`, the TUI's `Usage limit reached · set to continue automatically at <when>`
//! and `Usage limit reached · limit resets <when>`; an org out of usage and a monthly spend
//! limit need the user.

use super::{Found, ends_inside, first_of, reset_after};
use crate::limits::SightedReset;
use crate::limits::text::Folded;

/// Refusals that are not the user's limit, whatever else they say.
const NOT_A_LIMIT: [&str; 2] = ["not your usage limit", "request rejected (429)"];

/// Limits no reset lifts.
const NEEDS_USER: [(&str, Option<&str>); 2] = [
    ("your org is out of usage", None),
    ("you've hit your monthly spend limit", Some("monthly spend")),
];

/// Window names that open `<window> limit reached`.
const WINDOW_WORDS: [&str; 5] = ["weekly", "session", "opus", "sonnet", "daily"];

pub(super) fn find(folded: &Folded) -> Option<Found> {
    if NOT_A_LIMIT.iter().any(|p| folded.contains(p)) {
        return None;
    }
    if let Some((at, phrase)) = first_of(folded, &NEEDS_USER.map(|(p, _)| p)) {
        let window = NEEDS_USER
            .iter()
            .find(|(p, _)| *p == phrase)
            .and_then(|(_, w)| w.map(str::to_owned));
        return Some(Found {
            reset: SightedReset::NeedsUser,
            window,
            at,
        });
    }
    hit_your(folded)
        .or_else(|| usage_limit_reached(folded))
        .or_else(|| window_limit_reached(folded))
}

/// `You've hit your [<window> ]limit[ · resets <when>]`.
fn hit_your(folded: &Folded) -> Option<Found> {
    const OPENING: &str = "you've hit your ";
    let at = folded.find(OPENING)?;
    let start = at + OPENING.len();
    let rest = folded.lower.get(start..)?;
    let name_end = rest.find("limit")?;
    let name = folded.text.get(start..start + name_end)?.trim();
    // "your limit", "your 5-hour limit", "your usage credit limit": a short name, no sentence.
    let plausible = name.split(' ').count() <= 3 && !name.contains(['.', '%', ',', '·']);
    if !plausible {
        return None;
    }
    let after_name = start + name_end;
    Some(Found {
        reset: reset_after(folded, after_name, " · resets ")?,
        window: (!name.is_empty()).then(|| name.to_owned()),
        at,
    })
}

/// `Usage limit reached` and what follows it: an epoch after `|`, or words after `reset at`,
/// `continue automatically at`, `limit resets`.
fn usage_limit_reached(folded: &Folded) -> Option<Found> {
    const PHRASE: &str = "usage limit reached";
    let at = folded.find(PHRASE)?;
    let end = at + PHRASE.len();
    let start = ["claude ai ", "claude "]
        .iter()
        .find(|lead| at >= lead.len() && folded.lower.get(at - lead.len()..at) == Some(**lead))
        .map_or(at, |lead| at - lead.len());
    if let Some(epoch) = epoch_after_bar(folded.text.get(end..)?) {
        return Some(Found {
            reset: SightedReset::Epoch(epoch),
            window: None,
            at: start,
        });
    }
    let markers = [
        "will reset at ",
        "continue automatically at ",
        "limit resets ",
        "continuing automatically at ",
    ];
    let reset = match first_of(folded, &markers) {
        Some((_, marker)) => reset_after(folded, end, marker)?,
        None if markers.iter().any(|m| ends_inside(&folded.lower, m)) => return None,
        None => SightedReset::Unknown,
    };
    Some(Found {
        reset,
        window: None,
        at: start,
    })
}

/// `|1762952400` right after the phrase (Claude Code 1.0's machine-readable reset).
fn epoch_after_bar(rest: &str) -> Option<u64> {
    let digits = rest.strip_prefix('|')?;
    let len = digits.bytes().take_while(u8::is_ascii_digit).count();
    (9..=11)
        .contains(&len)
        .then(|| digits.get(..len)?.parse().ok())?
}

/// `5-hour limit reached ∙ resets <when>`, `weekly limit reached` (Claude Code 1.0).
fn window_limit_reached(folded: &Folded) -> Option<Found> {
    let at = folded.find(" limit reached")?;
    let before = folded.lower.get(..at)?;
    let word_start = before.rfind(' ').map_or(0, |i| i + 1);
    let word = before.get(word_start..)?;
    let hours = word
        .strip_suffix("-hour")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !hours && !WINDOW_WORDS.contains(&word) {
        return None;
    }
    Some(Found {
        reset: reset_after(folded, at, " · resets ")?,
        window: folded.text.get(word_start..at).map(str::to_owned),
        at: word_start,
    })
}
