//! One sighting from two views of the same limit: a structured record (an epoch, a window)
//! and the CLI's sentence (its words, maybe a reset in words).

use super::{LimitSighting, SightedReset};

/// `structured` (Claude's `rate_limit_event` or `quotaLimits`, Codex's `rate_limits`) and
/// `worded` (the sentence the CLI printed) as one: the structured reset unless the words say
/// no reset will come, the window either names, the CLI's words as the message, the
/// structured source.
pub fn combine_sightings(
    structured: Option<LimitSighting>,
    worded: Option<LimitSighting>,
) -> Option<LimitSighting> {
    let (structured, worded) = match (structured, worded) {
        (Some(s), Some(w)) => (s, w),
        (one, None) | (None, one) => return one,
    };
    let reset = match (&structured.reset, &worded.reset) {
        (_, SightedReset::NeedsUser) => SightedReset::NeedsUser,
        (SightedReset::Unknown, words) => words.clone(),
        (SightedReset::Text(_), words @ SightedReset::Text(_)) => words.clone(),
        (given, _) => given.clone(),
    };
    Some(LimitSighting {
        reset,
        window: structured.window.or(worded.window),
        source: structured.source,
        message: if worded.message.is_empty() {
            structured.message
        } else {
            worded.message
        },
    })
}
