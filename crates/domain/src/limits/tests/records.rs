//! Structured records: JSON-mode events, transcript and rollout lines, the StopFailure hook.
//! Only error records count; structured resets win over words.

use super::*;
use serde_json::json;

const REJECTED: &str = r#"{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1796154740,"rateLimitType":"five_hour","overageStatus":"rejected","isUsingOverage":false},"uuid":"u","session_id":"s"}"#;

#[test]
fn claude_s_rate_limit_event_counts_only_when_rejected() {
    let seen = recognise_event(Vendor::ClaudeCode, REJECTED).unwrap();
    assert_eq!(seen.reset, SightedReset::Epoch(1_796_154_740));
    assert_eq!(seen.window.as_deref(), Some("5-hour"));
    assert_eq!(seen.source, LimitSource::Event);
    for status in ["allowed", "allowed_warning"] {
        let line = REJECTED.replace(
            "\"rejected\",\"resetsAt\"",
            &format!("\"{status}\",\"resetsAt\""),
        );
        assert_eq!(recognise_event(Vendor::ClaudeCode, &line), None, "{status}");
    }
    let weekly = REJECTED.replace("five_hour", "seven_day_sonnet");
    let seen = recognise_event(Vendor::ClaudeCode, &weekly).unwrap();
    assert_eq!(seen.window.as_deref(), Some("Sonnet"));
}

fn synthetic(text: &str, extra: serde_json::Value) -> String {
    let mut line = json!({"type": "assistant", "message": {"model": "<synthetic>", "role": "assistant",
        "content": [{"type": "text", "text": text}]}, "error": "rate_limit",
        "is_api_error_message": true, "api_error_status": 429, "session_id": "s"});
    for (k, v) in extra.as_object().unwrap() {
        line[k] = v.clone();
    }
    line.to_string()
}

#[test]
fn claude_s_synthetic_error_message() {
    let limit = synthetic(
        "You've hit your 5-hour limit · resets 7:52pm (UTC)",
        json!({"api_error": "usage_limit_reached", "api_error_params": {"rate_limit_info":
            {"status": "rejected", "resetsAt": 1_796_154_740u64, "rateLimitType": "five_hour"}}}),
    );
    let seen = recognise_event(Vendor::ClaudeCode, &limit).unwrap();
    assert_eq!(
        seen.reset,
        SightedReset::Epoch(1_796_154_740),
        "the epoch beats the words"
    );
    assert_eq!(
        seen.message,
        "You've hit your 5-hour limit · resets 7:52pm (UTC)"
    );
    // Words alone, no api_error: still the limit sentence.
    let words = synthetic(
        "You've hit your 5-hour limit · resets 7:52pm (UTC)",
        json!({}),
    );
    let seen = recognise_event(Vendor::ClaudeCode, &words).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("7:52pm (UTC)".into()));
    // A transient refusal with the same `error` is not a limit.
    let transient = synthetic(
        "API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited",
        json!({}),
    );
    assert_eq!(recognise_event(Vendor::ClaudeCode, &transient), None);
    let overloaded = synthetic(
        "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.",
        json!({"error": "server_error"}),
    );
    assert_eq!(recognise_event(Vendor::ClaudeCode, &overloaded), None);
    // The model's own message never counts, whatever it says.
    let prose = json!({"type": "assistant", "message": {"model": "claude-opus-5-5",
        "content": [{"type": "text", "text": "You've hit your 5-hour limit · resets 7:52pm (UTC)"}]}});
    assert_eq!(
        recognise_event(Vendor::ClaudeCode, &prose.to_string()),
        None
    );
}

#[test]
fn claude_s_result_counts_only_with_is_error() {
    let result = |is_error: bool| {
        json!({"type": "result", "subtype": "success", "is_error": is_error,
            "terminal_reason": "api_error", "result": "You've hit your weekly limit · resets Dec 3, 3:52am (Asia/Shanghai)"})
        .to_string()
    };
    let seen = recognise_event(Vendor::ClaudeCode, &result(true)).unwrap();
    assert_eq!(
        seen.reset,
        SightedReset::Text("Dec 3, 3:52am (Asia/Shanghai)".into())
    );
    assert_eq!(seen.window.as_deref(), Some("weekly"));
    assert_eq!(recognise_event(Vendor::ClaudeCode, &result(false)), None);
    let credit = json!({"type": "result", "is_error": true, "result": "Credit balance is too low"});
    assert_eq!(
        recognise_event(Vendor::ClaudeCode, &credit.to_string()),
        None
    );
}

#[test]
fn codex_s_error_and_turn_failed() {
    let message = "You’ve hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 7:50 PM.";
    let error = json!({"type": "error", "message": message}).to_string();
    let failed = json!({"type": "turn.failed", "error": {"message": message}}).to_string();
    for line in [error, failed] {
        let seen = recognise_event(Vendor::Codex, &line).unwrap();
        assert_eq!(seen.reset, SightedReset::Text("7:50 PM".into()));
    }
    let retry = json!({"type": "turn.failed", "error": {"message": "exceeded retry limit, last status: 429 Too Many Requests"}});
    assert_eq!(recognise_event(Vendor::Codex, &retry.to_string()), None);
    let item = json!({"type": "item.completed", "item": {"type": "error", "message": message}});
    assert_eq!(
        recognise_event(Vendor::Codex, &item.to_string()),
        None,
        "not an error record the facts list"
    );
}

#[test]
fn gemini_s_error_result() {
    let ok = json!({"type": "result", "status": "success", "error": {"message": "You have exhausted your daily quota on this model."}});
    assert_eq!(recognise_event(Vendor::Gemini, &ok.to_string()), None);
    let capacity = json!({"type": "result", "status": "error", "error": {"message": "[API Error: You have exhausted your capacity on this model. Your quota will reset after 2h52m39s.]"}});
    let seen = recognise_event(Vendor::Gemini, &capacity.to_string()).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("after 2h52m39s".into()));
    let retrying = json!({"type": "result", "status": "error", "error": {"message": "Attempt 1 failed: You have exhausted your daily quota on this model.. Retrying after 6173ms..."}});
    assert_eq!(recognise_event(Vendor::Gemini, &retrying.to_string()), None);
}

const CLAUDE_API_ERROR_LINE: &str = r#"{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","apiError":"usage_limit_reached","quotaLimits":{"status":"rejected","resetsAt":1796154740,"rateLimitType":"five_hour"},"message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"You've hit your 5-hour limit · resets 3:53am (Asia/Shanghai)"}]},"timestamp":"2026-12-01T18:52:20.000Z"}"#;
const CLAUDE_NOTICE_LINE: &str = r#"{"type":"system","subtype":"informational","content":"Usage limit reached · set to continue automatically at 3:53am","level":"notice"}"#;
const CLAUDE_REPLY_LINE: &str = r#"{"type":"assistant","message":{"model":"claude-opus-5-5","role":"assistant","content":[{"type":"text","text":"Continuing: You've hit your 5-hour limit earlier."}]}}"#;

#[test]
fn claude_s_transcript_lines() {
    let seen = recognise_transcript_line(Vendor::ClaudeCode, CLAUDE_API_ERROR_LINE).unwrap();
    assert_eq!(seen.reset, SightedReset::Epoch(1_796_154_740));
    assert_eq!(seen.window.as_deref(), Some("5-hour"));
    assert_eq!(seen.source, LimitSource::Transcript);
    assert_eq!(
        seen.message,
        "You've hit your 5-hour limit · resets 3:53am (Asia/Shanghai)"
    );
    let notice = recognise_transcript_line(Vendor::ClaudeCode, CLAUDE_NOTICE_LINE).unwrap();
    assert_eq!(notice.reset, SightedReset::Text("3:53am".into()));
    assert_eq!(
        recognise_transcript_line(Vendor::ClaudeCode, CLAUDE_REPLY_LINE),
        None
    );
    let user = r#"{"type":"user","message":{"role":"user","content":"You've hit your 5-hour limit · resets 3:53am (UTC)"}}"#;
    assert_eq!(recognise_transcript_line(Vendor::ClaudeCode, user), None);
}

#[test]
fn a_claude_transcript_ends_limited_until_the_agent_goes_on() {
    let lines = [CLAUDE_API_ERROR_LINE, CLAUDE_NOTICE_LINE];
    let seen = limit_at_transcript_end(Vendor::ClaudeCode, lines).unwrap();
    assert_eq!(
        seen.reset,
        SightedReset::Epoch(1_796_154_740),
        "the structured reset is kept"
    );
    assert_eq!(seen.window.as_deref(), Some("5-hour"));
    let went_on = [CLAUDE_API_ERROR_LINE, CLAUDE_NOTICE_LINE, CLAUDE_REPLY_LINE];
    assert_eq!(limit_at_transcript_end(Vendor::ClaudeCode, went_on), None);
}

fn token_count(primary: f64, secondary: f64) -> String {
    json!({"timestamp": "2026-12-01T18:49:49.700Z", "type": "event_msg", "payload": {"type": "token_count", "info": null,
        "rate_limits": {"limit_id": "codex", "primary": {"used_percent": primary, "window_minutes": 300, "resets_at": 1_796_154_590u64},
            "secondary": {"used_percent": secondary, "window_minutes": 10080, "resets_at": 1_796_500_000u64},
            "credits": null, "plan_type": "plus"}}})
    .to_string()
}

fn task_complete(error: serde_json::Value) -> String {
    json!({"type": "event_msg", "payload": {"type": "task_complete", "last_agent_message": null, "error": error}}).to_string()
}

#[test]
fn codex_s_rollout_lines() {
    let seen = recognise_transcript_line(Vendor::Codex, &token_count(100.0, 41.0)).unwrap();
    assert_eq!(seen.reset, SightedReset::Epoch(1_796_154_590));
    assert_eq!(seen.window.as_deref(), Some("5-hour"));
    let both = recognise_transcript_line(Vendor::Codex, &token_count(100.0, 100.0)).unwrap();
    assert_eq!(
        both.reset,
        SightedReset::Epoch(1_796_500_000),
        "lifted when the last window resets"
    );
    assert_eq!(both.window.as_deref(), Some("weekly"));
    assert_eq!(
        recognise_transcript_line(Vendor::Codex, &token_count(99.5, 41.0)),
        None
    );
    let exceeded = task_complete(
        json!({"message": "Something new", "codex_error_info": "usage_limit_exceeded"}),
    );
    let seen = recognise_transcript_line(Vendor::Codex, &exceeded).unwrap();
    assert_eq!(
        (seen.reset, seen.message.as_str()),
        (SightedReset::Unknown, "Something new")
    );
    let other =
        task_complete(json!({"message": "stream disconnected", "codex_error_info": "other"}));
    assert_eq!(recognise_transcript_line(Vendor::Codex, &other), None);
}

#[test]
fn a_codex_rollout_ends_limited_until_a_turn_completes() {
    let limit = token_count(100.0, 41.0);
    let failed = task_complete(
        json!({"message": "You’ve hit your usage limit. Try again later.", "codex_error_info": "usage_limit_exceeded"}),
    );
    let seen = limit_at_transcript_end(Vendor::Codex, [limit.as_str(), failed.as_str()]).unwrap();
    assert_eq!(
        seen.reset,
        SightedReset::Epoch(1_796_154_590),
        "the rollout's epoch, not 'later'"
    );
    assert_eq!(
        seen.message,
        "You've hit your usage limit. Try again later."
    );
    assert_eq!(seen.window.as_deref(), Some("5-hour"));
    let (fresh, done) = (
        token_count(3.0, 42.0),
        task_complete(serde_json::Value::Null),
    );
    let went_on = [
        limit.as_str(),
        failed.as_str(),
        fresh.as_str(),
        done.as_str(),
    ];
    assert_eq!(limit_at_transcript_end(Vendor::Codex, went_on), None);
}

#[test]
fn claude_s_stop_failure_hook() {
    let payload = |error: &str, text: &str| {
        json!({"session_id": "s", "hook_event_name": "StopFailure", "error": error, "last_assistant_message": text}).to_string()
    };
    let seen = recognise_stop_failure(&payload(
        "rate_limit",
        "You've hit your 5-hour limit · resets 7:52pm (UTC)",
    ))
    .unwrap();
    assert_eq!(seen.source, LimitSource::Hook);
    assert_eq!(seen.reset, SightedReset::Text("7:52pm (UTC)".into()));
    assert_eq!(
        recognise_stop_failure(&payload(
            "rate_limit",
            "API Error: Server is temporarily limiting requests (not your usage limit) · x"
        )),
        None
    );
    assert_eq!(
        recognise_stop_failure(&payload("billing_error", "Credit balance is too low")),
        None
    );
    let stop = json!({"hook_event_name": "Stop", "error": "rate_limit", "last_assistant_message": "You've hit your 5-hour limit"});
    assert_eq!(recognise_stop_failure(&stop.to_string()), None);
}
