//! Gemini CLI's terminal quota sentences (0.61.0 and reports of older ones): `You have
//! exhausted your daily quota on this model.`, `You have reached your daily <model> quota
//! limit.`, and `You have exhausted your capacity on this model. Your quota will reset after
//! 2h52m39s.` Its own retries ("Attempt N failed … Retrying after", "Suggested retry after",
//! "high demand") are not a limit IdeA waits for: the CLI waits by itself.

use super::{Found, reset_after};
use crate::limits::SightedReset;
use crate::limits::text::Folded;

/// The CLI retries by itself, or the refusal is not a quota.
const NOT_A_LIMIT: [&str; 4] = [
    "retrying after",
    "suggested retry after",
    "high demand",
    "at capacity",
];

pub(super) fn find(folded: &Folded) -> Option<Found> {
    if NOT_A_LIMIT.iter().any(|p| folded.contains(p)) {
        return None;
    }
    daily_quota(folded).or_else(|| quota_with_reset(folded))
}

/// `exhausted your daily quota`, `reached your daily <model> quota limit`: no reset given.
fn daily_quota(folded: &Folded) -> Option<Found> {
    if let Some(at) = folded.find("you have exhausted your daily quota") {
        return Some(Found {
            reset: SightedReset::Unknown,
            window: Some("daily".to_owned()),
            at,
        });
    }
    const OPENING: &str = "you have reached your daily ";
    let at = folded.find(OPENING)?;
    let start = at + OPENING.len() - "daily ".len();
    let end = start + folded.lower.get(start..)?.find(" quota limit")?;
    let window = folded.text.get(start..end)?;
    (window.split(' ').count() <= 3).then(|| Found {
        reset: SightedReset::Unknown,
        window: Some(window.to_owned()),
        at,
    })
}

/// `You have exhausted your capacity on this model. Your quota will reset after 2h52m39s.`
fn quota_with_reset(folded: &Folded) -> Option<Found> {
    let at = folded.find("you have exhausted your")?;
    if !folded.lower.get(at..)?.contains("quota will reset after") {
        return None;
    }
    // The words read are `after 2h52m39s`.
    let reset = reset_after(folded, at, "quota will reset ")?;
    Some(Found {
        reset,
        window: None,
        at,
    })
}
