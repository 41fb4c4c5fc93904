//! Telling a provider's usage limit from other API failures: the domain's limit recognisers
//! (`idea_domain::limits`, `docs/usage-limits.md`) decide, so a transient refusal (Claude
//! "API Error: Request rejected (429) · …", Codex "exceeded retry limit, last status: 429 Too
//! Many Requests", an overloaded server) is an API error worth retrying at once, and only a
//! real limit ("You've hit your 5-hour limit · resets …", "You’ve hit your usage limit. …",
//! "You have exhausted your daily quota …") waits for its reset.

use idea_domain::limits::{LimitSource, Vendor, recognise_message};
use idea_domain::turn::TurnError;

/// A failure the CLI reported in words: a usage limit when its words are one, else an API
/// error (with the HTTP status it names, if any).
pub(crate) fn api_error(vendor: Vendor, status: Option<u16>, message: &str) -> TurnError {
    match recognise_message(vendor, message, LimitSource::Event) {
        Some(limit) => limit.into(),
        None => TurnError::Api {
            status: status.or_else(|| status_in(message)),
            message: message.to_owned(),
        },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_is_an_api_error_and_only_a_limit_is_a_usage_limit() {
        let codex = api_error(
            Vendor::Codex,
            None,
            "exceeded retry limit, last status: 429 Too Many Requests",
        );
        assert!(matches!(
            codex,
            TurnError::Api {
                status: Some(429),
                ..
            }
        ));
        let claude = api_error(
            Vendor::ClaudeCode,
            Some(429),
            "API Error: Request rejected (429) · slow down",
        );
        assert!(matches!(
            claude,
            TurnError::Api {
                status: Some(429),
                ..
            }
        ));
        let gemini = api_error(
            Vendor::Gemini,
            None,
            "[API Error: You have exhausted your daily quota on this model.]",
        );
        assert!(matches!(gemini, TurnError::UsageLimit { .. }));
        assert_eq!(
            api_error(
                Vendor::ClaudeCode,
                Some(429),
                "Claude AI usage limit reached|1767225600"
            ),
            TurnError::UsageLimit {
                resets_at: Some(1_767_225_600),
                reset_text: None,
                window: None,
                needs_user: false,
                message: "Claude AI usage limit reached|1767225600".into()
            }
        );
    }

    #[test]
    fn other_failures_keep_their_status() {
        assert_eq!(
            api_error(
                Vendor::Codex,
                None,
                "unexpected status 401 Unauthorized: bad key"
            ),
            TurnError::Api {
                status: Some(401),
                message: "unexpected status 401 Unauthorized: bad key".into()
            }
        );
        assert_eq!(status_in("Request rejected (503) · overloaded"), Some(503));
        assert_eq!(status_in("Requested 1429 tokens"), None);
        assert_eq!(status_in("status: 4290"), None);
        assert!(matches!(
            api_error(Vendor::Codex, None, "Connection refused"),
            TurnError::Api { status: None, .. }
        ));
    }
}
