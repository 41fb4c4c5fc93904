//! The names of the windows a limit is counted over, as the CLIs print them.

/// Claude Code's `rateLimitType` as its TUI names the limit ("5-hour limit", "weekly
/// limit"…); a type it does not know is kept as given.
pub(crate) fn claude_window(rate_limit_type: &str) -> String {
    match rate_limit_type {
        "five_hour" => "5-hour",
        "seven_day" => "weekly",
        "seven_day_opus" => "Opus",
        "seven_day_sonnet" => "Sonnet",
        "seven_day_overage_included" => "Fable",
        "overage" => "usage credit",
        other => other,
    }
    .to_owned()
}

/// A Codex rate-limit window of `minutes`: "5-hour", "weekly", else in hours or minutes.
pub(crate) fn codex_window(minutes: u64) -> String {
    match minutes {
        10080 => "weekly".to_owned(),
        1440 => "daily".to_owned(),
        m if m % 60 == 0 && m > 0 => format!("{}-hour", m / 60),
        m => format!("{m}-minute"),
    }
}
