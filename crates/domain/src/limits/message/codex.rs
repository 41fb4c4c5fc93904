//! Codex CLI's limit sentences (0.171.0): `You’ve hit your usage limit. <what the plan
//! offers> try again at <when>.` (`Try again later.` when the server gave no reset time); a
//! workspace out of credits needs the user.

use super::{Found, ends_inside, reset_after};
use crate::limits::SightedReset;
use crate::limits::text::Folded;

/// Limits no reset lifts.
const NEEDS_USER: [&str; 1] = ["your workspace is out of credits"];

pub(super) fn find(folded: &Folded) -> Option<Found> {
    if let Some(at) = NEEDS_USER.iter().find_map(|p| folded.find(p)) {
        return Some(Found {
            reset: SightedReset::NeedsUser,
            window: None,
            at,
        });
    }
    const OPENING: &str = "you've hit your usage limit";
    let at = folded.find(OPENING)?;
    let after = at + OPENING.len();
    let reset = if folded.lower.get(after..)?.contains("try again at ") {
        reset_after(folded, after, "try again at ")?
    } else {
        // The sentence ends with a period; before it, the rest may still be arriving.
        let complete = folded.lower.ends_with('.') || folded.contains("try again later");
        if !complete || ends_inside(&folded.lower, "try again at ") {
            return None;
        }
        SightedReset::Unknown
    };
    Some(Found {
        reset,
        window: None,
        at,
    })
}
