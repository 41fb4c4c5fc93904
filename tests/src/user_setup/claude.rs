//! Claude Code as a user who already set it up with an API key has it: `~/.claude.json` records
//! the finished onboarding and the approved key. No folder is trusted here: IdeA adds that.

use serde_json::json;
use std::path::Path;

/// The API key the fake model server is called with (Claude only checks that one is set).
pub const API_KEY: &str = "sk-ant-api03-idea-e2e-fake-model-key-0123456789abcdef";

/// Prepares `home` for Claude Code and returns the environment variables to set.
pub fn prepare_home(home: &Path, base_url: &str) -> Vec<(String, String)> {
    // Claude remembers an approved custom key by its last 20 characters.
    let key_tail: String = {
        let chars: Vec<char> = API_KEY.chars().collect();
        chars[chars.len().saturating_sub(20)..].iter().collect()
    };
    let config = json!({
        // Skips the first-run screens (theme picker, security notes).
        "hasCompletedOnboarding": true,
        // Skips "Detected a custom API key in your environment … Do you want to use this API
        // key?" (default answer: No). An approved key also spares a never-onboarded start the
        // connectivity check of api.anthropic.com ("Unable to connect to Anthropic services").
        "customApiKeyResponses": {"approved": [key_tail], "rejected": []},
        // Skips the banner "Auto mode is now Claude Code's default permission mode." (not
        // blocking, but it pushes the prompt down the screen).
        "hasSeenAutoDefaultNotice": true,
    });
    let _ = std::fs::create_dir_all(home);
    let _ = std::fs::write(
        home.join(".claude.json"),
        serde_json::to_string_pretty(&config).unwrap_or_default(),
    );
    let home_str = home.to_string_lossy().into_owned();
    super::env(&[
        ("HOME", home_str.as_str()),
        // The fake model server instead of the real service, and the key it is called with.
        ("ANTHROPIC_BASE_URL", base_url),
        ("ANTHROPIC_API_KEY", API_KEY),
        // Offline: no update check, telemetry, error reports or other calls home.
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ("DISABLE_AUTOUPDATER", "1"),
        ("DISABLE_TELEMETRY", "1"),
        ("DISABLE_ERROR_REPORTING", "1"),
        // No `git clone` of the official plugin marketplace at start-up.
        ("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1"),
    ])
}
