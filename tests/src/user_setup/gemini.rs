//! Gemini CLI as a user who already set it up with an API key has it: `~/.gemini/settings.json`
//! names the auth method, the key comes from `GEMINI_API_KEY`. No folder is trusted here
//! (`~/.gemini/trustedFolders.json` is IdeA's to write).
//!
//! Gemini CLI 0.61 shows no theme picker, privacy notice or release notes to an API-key user;
//! its first-run screens are "How would you like to authenticate for this project?", which the
//! selected auth type skips, and, in an IDE's terminal, the IDE nudge and the keybinding offer,
//! both answered below. Tips and the true-colour warning are not dialogs and go away by
//! themselves after a few starts (counted in `~/.gemini/state.json`).

use serde_json::json;
use std::path::Path;

/// The API key the fake model server is called with (sent as `x-goog-api-key`, never checked).
pub const API_KEY: &str = "AIzaSy-idea-e2e-fake-model-key-0123456789";

/// Prepares `home` for Gemini CLI and returns the environment variables to set.
pub fn prepare_home(home: &Path, base_url: &str) -> Vec<(String, String)> {
    let settings = json!({
        // Skips "How would you like to authenticate for this project?": the key is read from
        // GEMINI_API_KEY (without it the CLI asks for a key to store in the keychain).
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {
            // Offline and pinned: no look-up of the latest version on the npm registry (this
            // flag gates the check itself) and no `npm install -g` of a newer one.
            "enableAutoUpdateNotification": false,
            "enableAutoUpdate": false,
        },
        // Skips "Do you want to connect VS Code to Gemini CLI?", asked at every start when the
        // environment names an IDE (TERM_PROGRAM=vscode inherited from an editor's terminal…).
        "ide": {"hasSeenNudge": true},
        // No usage statistics sent to Google (on by default; fails offline, but quietly).
        "privacy": {"usageStatisticsEnabled": false},
        // Off by default; stated so an outer GEMINI_TELEMETRY_* setting is the only way in.
        "telemetry": {"enabled": false},
    });
    let gemini_dir = home.join(".gemini");
    let _ = std::fs::create_dir_all(&gemini_dir);
    let _ = std::fs::write(
        gemini_dir.join("settings.json"),
        serde_json::to_string_pretty(&settings).unwrap_or_default(),
    );
    // The CLI's own memory of prompts already shown. Under TERM_PROGRAM=vscode (or Cursor,
    // Windsurf…) the first start asks "Would you like to automatically configure your terminal
    // keybindings?" once, and records that it asked here.
    let state = json!({"terminalSetupPromptShown": true});
    let _ = std::fs::write(
        gemini_dir.join("state.json"),
        serde_json::to_string_pretty(&state).unwrap_or_default(),
    );
    let home_str = home.to_string_lossy().into_owned();
    super::env(&[
        ("HOME", home_str.as_str()),
        // The fake model server instead of the real service, and the key it is called with.
        ("GOOGLE_GEMINI_BASE_URL", base_url),
        ("GEMINI_API_KEY", API_KEY),
    ])
}
