//! Telling a provider's usage or rate limit from other API failures, in the words the CLIs
//! use: Claude "API Error: Request rejected (429) · …" with `api_error_status: 429`, Codex
//! "exceeded retry limit, last status: 429 Too Many Requests", Gemini "[API Error: You have
//! exhausted your daily quota on this model.]".

use idea_domain::turn::TurnError;

/// Phrases (lower case) that mean "a limit was hit, try later".
const LIMIT_PHRASES: [&str; 8] = [
    "rate limit",
    "rate_limit",
    "usage limit",
    "usage_limit",
    "limit reached",
    "quota",
    "resource_exhausted",
    "too many requests",
];

/// An API failure: a usage limit when the status is 429 or the message says so, else `Api`.
pub(crate) fn api_error(status: Option<u16>, message: &str) -> TurnError {
    let status = status.or_else(|| status_in(message));
    let lower = message.to_lowercase();
    if status == Some(429) || LIMIT_PHRASES.iter().any(|p| lower.contains(p)) {
        TurnError::UsageLimit {
            resets_at: reset_epoch(message),
            message: message.to_owned(),
        }
    } else {
        TurnError::Api {
            status,
            message: message.to_owned(),
        }
    }
}

/// An HTTP status named in a message: "status: 429", "status 401", "(429)".
pub(crate) fn status_in(message: &str) -> Option<u16> {
    let lower = message.to_lowercase();
    let after_word = lower.match_indices("status").find_map(|(at, word)| {
        let rest = lower[at + word.len()..].trim_start_matches([':', ' ', '=']);
        http_status(rest)
    });
    after_word.or_else(|| {
        lower.match_indices('(').find_map(|(at, _)| {
            let inside = lower.get(at + 1..)?;
            http_status(inside).filter(|_| inside.get(3..).is_some_and(|r| r.starts_with(')')))
        })
    })
}

/// Three leading digits that make an HTTP error status (400–599).
fn http_status(text: &str) -> Option<u16> {
    let digits = text.get(..3)?;
    let boundary = text
        .get(3..)
        .and_then(|rest| rest.chars().next())
        .is_none_or(|c| !c.is_ascii_digit());
    digits.parse::<u16>().ok().filter(|s| {
        (400..600).contains(s) && boundary && digits.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The reset time Claude Code appends to its usage-limit message ("…usage limit
/// reached|1767225600", Unix seconds). Other CLIs say it in words, left to the caller.
fn reset_epoch(message: &str) -> Option<u64> {
    let (_, tail) = message.rsplit_once('|')?;
    let tail = tail.trim();
    (tail.len() >= 9 && tail.bytes().all(|b| b.is_ascii_digit()))
        .then(|| tail.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_is_a_usage_limit() {
        let codex = api_error(
            None,
            "exceeded retry limit, last status: 429 Too Many Requests",
        );
        assert!(matches!(
            codex,
            TurnError::UsageLimit {
                resets_at: None,
                ..
            }
        ));
        let claude = api_error(Some(429), "API Error: Request rejected (429) · slow down");
        assert!(matches!(claude, TurnError::UsageLimit { .. }));
        let gemini = api_error(
            None,
            "[API Error: You have exhausted your daily quota on this model.]",
        );
        assert!(matches!(gemini, TurnError::UsageLimit { .. }));
        assert_eq!(
            api_error(None, "Claude AI usage limit reached|1767225600"),
            TurnError::UsageLimit {
                resets_at: Some(1_767_225_600),
                message: "Claude AI usage limit reached|1767225600".into()
            }
        );
    }

    #[test]
    fn other_failures_keep_their_status() {
        assert_eq!(
            api_error(None, "unexpected status 401 Unauthorized: bad key"),
            TurnError::Api {
                status: Some(401),
                message: "unexpected status 401 Unauthorized: bad key".into()
            }
        );
        assert_eq!(status_in("Request rejected (503) · overloaded"), Some(503));
        assert_eq!(status_in("Requested 1429 tokens"), None);
        assert_eq!(status_in("status: 4290"), None);
        assert!(matches!(
            api_error(None, "Connection refused"),
            TurnError::Api { status: None, .. }
        ));
    }
}
