//! Claude Code's `StopFailure` hook: an API error ended the turn. Its payload names the error
//! (`rate_limit` covers transient refusals too) and carries the CLI's sentence in
//! `last_assistant_message`, but no reset time beyond the words (the transcript's
//! `quotaLimits.resetsAt` has it).

use super::json::{parse_line, str_at};
use super::message::recognise_message;
use super::{LimitSighting, LimitSource, Vendor};
use serde_json::Value;

/// The usage limit a Claude Code `StopFailure` hook payload (the hook's stdin) reports.
pub fn recognise_stop_failure(payload: &str) -> Option<LimitSighting> {
    recognise_stop_failure_json(&parse_line(payload)?)
}

/// [`recognise_stop_failure`] of a payload already parsed.
pub fn recognise_stop_failure_json(payload: &Value) -> Option<LimitSighting> {
    let event = str_at(payload, "hook_event_name");
    if event.is_some_and(|e| e != "StopFailure") || str_at(payload, "error")? != "rate_limit" {
        return None;
    }
    let text = str_at(payload, "last_assistant_message")?;
    recognise_message(Vendor::ClaudeCode, text, LimitSource::Hook)
}
