//! One JSON-mode event line per vendor. Only error records count, never the model's prose:
//! Claude's `rate_limit_event` with `status: "rejected"`, its synthetic assistant error
//! (`is_api_error_message`, `api_error: "usage_limit_reached"`) and an `is_error` result;
//! Codex's `error` and `turn.failed`; Gemini's `result` with `status: "error"`.

use super::json::{content_text, epoch_at, is_true, parse_line, str_at};
use super::{LimitSighting, LimitSource, SightedReset, Vendor, combine_sightings};
use super::{message::recognise_message, window_names::claude_window};
use serde_json::Value;

/// The usage limit one event line of a JSON-mode turn reports, if it is one.
pub fn recognise_event(vendor: Vendor, line: &str) -> Option<LimitSighting> {
    recognise_event_json(vendor, &parse_line(line)?)
}

/// [`recognise_event`] of a line already parsed.
pub fn recognise_event_json(vendor: Vendor, event: &Value) -> Option<LimitSighting> {
    let source = LimitSource::Event;
    match (vendor, str_at(event, "type")?) {
        (Vendor::ClaudeCode, "rate_limit_event") => {
            rate_limit_info(event.get("rate_limit_info")?, source)
        }
        (Vendor::ClaudeCode, "assistant") => claude_api_error(event),
        (Vendor::ClaudeCode, "result") if is_true(event, "is_error") => {
            recognise_message(vendor, str_at(event, "result")?, source)
        }
        (Vendor::Codex, "error") => recognise_message(vendor, str_at(event, "message")?, source),
        (Vendor::Codex, "turn.failed") => {
            let message = event.pointer("/error/message").and_then(Value::as_str)?;
            recognise_message(vendor, message, source)
        }
        (Vendor::Gemini, "result") if str_at(event, "status") == Some("error") => {
            let message = event.pointer("/error/message").and_then(Value::as_str)?;
            recognise_message(vendor, message, source)
        }
        _ => None,
    }
}

/// Claude's `rate_limit_info` (in a `rate_limit_event`, or an API error's
/// `api_error_params`): a limit only when `rejected`; `allowed_warning` is a warning.
pub(crate) fn rate_limit_info(info: &Value, source: LimitSource) -> Option<LimitSighting> {
    if str_at(info, "status")? != "rejected" {
        return None;
    }
    let kind = str_at(info, "rateLimitType");
    Some(LimitSighting {
        reset: epoch_at(info, "resetsAt").map_or(SightedReset::Unknown, SightedReset::Epoch),
        window: kind.map(claude_window),
        source,
        message: format!("usage limit reached ({})", kind.unwrap_or("rate limit")),
    })
}

/// The synthetic assistant message Claude Code writes for a failed API call: a usage limit
/// when `api_error` says so (its `rate_limit_info` gives the reset), else only when its words
/// are a limit sentence. The model's own messages never count.
fn claude_api_error(event: &Value) -> Option<LimitSighting> {
    let synthetic = event.pointer("/message/model").and_then(Value::as_str) == Some("<synthetic>");
    if !is_true(event, "is_api_error_message") && !synthetic {
        return None;
    }
    let text = content_text(event.pointer("/message/content"));
    let source = LimitSource::Event;
    let worded = recognise_message(Vendor::ClaudeCode, &text, source);
    if str_at(event, "api_error") != Some("usage_limit_reached") {
        return worded;
    }
    let structured = event
        .pointer("/api_error_params/rate_limit_info")
        .and_then(|info| rate_limit_info(info, source));
    let worded = worded.or_else(|| {
        Some(LimitSighting {
            reset: SightedReset::Unknown,
            window: None,
            source,
            message: super::text::message_of(&super::text::Folded::new(&text)),
        })
    });
    combine_sightings(structured, worded)
}
