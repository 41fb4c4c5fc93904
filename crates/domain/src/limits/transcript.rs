//! The CLIs' own files: a line of Claude Code's transcript (`~/.claude/projects/…/<id>.jsonl`)
//! or of a Codex rollout (`$CODEX_HOME/sessions/…/rollout-….jsonl`), and the limit a file
//! ends in (what a restarted IdeA reads: blocked, and until when).

use super::event::rate_limit_info;
use super::json::{content_text, epoch_at, is_true, parse_line, str_at};
use super::message::recognise_message;
use super::text::{Folded, message_of};
use super::window_names::codex_window;
use super::{LimitSighting, LimitSource, SightedReset, Vendor, combine_sightings};
use serde_json::Value;

const SOURCE: LimitSource = LimitSource::Transcript;

/// The usage limit one transcript (Claude) or rollout (Codex) line records, if it is one.
/// Gemini's session files record none.
pub fn recognise_transcript_line(vendor: Vendor, line: &str) -> Option<LimitSighting> {
    recognise_transcript_json(vendor, &parse_line(line)?)
}

/// [`recognise_transcript_line`] of a line already parsed.
pub fn recognise_transcript_json(vendor: Vendor, line: &Value) -> Option<LimitSighting> {
    match vendor {
        Vendor::ClaudeCode => claude_line(line),
        Vendor::Codex => codex_line(line),
        Vendor::Gemini => None,
    }
}

/// The limit a transcript's `lines` (oldest first; the tail of the file will do) end in:
/// the last one recorded, unless the agent went on after it (a real answer, a Codex turn
/// that completed). The structured reset of an earlier line of the same limit is kept.
pub fn limit_at_transcript_end<'a>(
    vendor: Vendor,
    lines: impl IntoIterator<Item = &'a str>,
) -> Option<LimitSighting> {
    let mut limit: Option<LimitSighting> = None;
    for line in lines {
        let Some(value) = parse_line(line) else {
            continue;
        };
        if let Some(seen) = recognise_transcript_json(vendor, &value) {
            // A new reset given outright is a new limit; words only add to the last one.
            let fresh = matches!(seen.reset, SightedReset::Epoch(_) | SightedReset::NeedsUser);
            limit = if fresh {
                Some(LimitSighting {
                    window: seen.window.clone().or(limit.and_then(|l| l.window)),
                    ..seen
                })
            } else {
                combine_sightings(limit.take(), Some(seen))
            };
        } else if went_on(vendor, &value) {
            limit = None;
        }
    }
    limit
}

/// A line that shows the agent working again after a limit.
fn went_on(vendor: Vendor, line: &Value) -> bool {
    match vendor {
        Vendor::ClaudeCode => {
            str_at(line, "type") == Some("assistant") && !is_true(line, "isApiErrorMessage")
        }
        Vendor::Codex => {
            let payload = line.get("payload").unwrap_or(&Value::Null);
            match str_at(payload, "type") {
                Some("task_complete") => payload.get("error").is_none_or(Value::is_null),
                // A request answered with every window below its limit.
                Some("token_count") => payload.get("rate_limits").is_some_and(Value::is_object),
                _ => false,
            }
        }
        Vendor::Gemini => false,
    }
}

/// Claude: an API error line (`isApiErrorMessage`; a usage limit by `apiError` or
/// `quotaLimits.status`, its words otherwise), or the TUI's informational notice.
fn claude_line(line: &Value) -> Option<LimitSighting> {
    if is_true(line, "isApiErrorMessage") {
        let text = content_text(line.pointer("/message/content"));
        let worded = recognise_message(Vendor::ClaudeCode, &text, SOURCE);
        let quota = line
            .get("quotaLimits")
            .and_then(|q| rate_limit_info(q, SOURCE));
        if str_at(line, "apiError") != Some("usage_limit_reached") && quota.is_none() {
            return worded;
        }
        let worded = worded.or_else(|| Some(words_only(&text)));
        return combine_sightings(quota, worded);
    }
    let informational =
        str_at(line, "type") == Some("system") && str_at(line, "subtype") == Some("informational");
    if informational {
        return recognise_message(Vendor::ClaudeCode, str_at(line, "content")?, SOURCE);
    }
    None
}

/// Codex: `token_count` with a window used up (its `resets_at`), or a `task_complete` /
/// `error` whose error is `usage_limit_exceeded` (or reads as a limit).
fn codex_line(line: &Value) -> Option<LimitSighting> {
    if str_at(line, "type")? != "event_msg" {
        return None;
    }
    let payload = line.get("payload")?;
    match str_at(payload, "type")? {
        "token_count" => exhausted_window(payload.get("rate_limits")?),
        "task_complete" => codex_error(payload.get("error")?),
        "error" => codex_error(payload),
        _ => None,
    }
}

fn codex_error(error: &Value) -> Option<LimitSighting> {
    let message = str_at(error, "message").unwrap_or_default();
    let worded = recognise_message(Vendor::Codex, message, SOURCE);
    let info = error.get("codex_error_info");
    let exceeded = info.and_then(Value::as_str) == Some("usage_limit_exceeded")
        || info.is_some_and(|i| i.get("usage_limit_exceeded").is_some());
    if exceeded {
        worded.or_else(|| Some(words_only(message)))
    } else {
        worded
    }
}

/// The windows of `rate_limits` at 100 % or more: the limit lifts when the last of them
/// resets.
fn exhausted_window(rate_limits: &Value) -> Option<LimitSighting> {
    let windows = rate_limits.as_object()?;
    let exhausted = windows.values().filter(|w| {
        w.get("used_percent")
            .and_then(Value::as_f64)
            .is_some_and(|p| p >= 100.0)
    });
    let last = exhausted.max_by_key(|w| epoch_at(w, "resets_at").unwrap_or(0))?;
    let window = last
        .get("window_minutes")
        .and_then(Value::as_u64)
        .map(codex_window);
    Some(LimitSighting {
        reset: epoch_at(last, "resets_at").map_or(SightedReset::Unknown, SightedReset::Epoch),
        message: format!(
            "usage limit reached ({} window used up)",
            window.as_deref().unwrap_or("rate limit")
        ),
        window,
        source: SOURCE,
    })
}

/// A limit known from a structured field, with the CLI's words as its message.
fn words_only(text: &str) -> LimitSighting {
    LimitSighting {
        reset: SightedReset::Unknown,
        window: None,
        source: SOURCE,
        message: message_of(&Folded::new(text)),
    }
}
