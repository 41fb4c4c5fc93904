//! Whether each CLI was set up for this user, read from the files the CLI itself writes. A
//! CLI that was never set up fails in the cell before its prompt (Claude, offline: "Unable to
//! connect to Anthropic services", exit 1); these checks let the cell and `idea doctor` say
//! what it needs instead of a bare exit code.

use super::FsCliHomes;
use std::fs;
use std::path::Path;

/// Reads a variable from the launch's environment, then the inherited one.
type Var<'a> = dyn Fn(&str) -> Option<String> + 'a;

pub(super) fn claude(homes: &FsCliHomes, var: &Var<'_>) -> Option<String> {
    let config = read_json(&homes.claude_json);
    let onboarded = config
        .as_ref()
        .and_then(|c| c.get("hasCompletedOnboarding"))
        .and_then(serde_json::Value::as_bool)
        == Some(true);
    if !onboarded {
        return Some(
            "Claude Code has not been set up for this user yet: run `claude` once in a terminal \
             to finish its first-run setup and log in (or set ANTHROPIC_API_KEY), then launch \
             the agent again."
                .to_owned(),
        );
    }
    let logged_in = homes.claude_dir.join(".credentials.json").is_file()
        || [
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_AUTH_TOKEN",
            "CLAUDE_CODE_OAUTH_TOKEN",
        ]
        .iter()
        .any(|name| var(name).is_some())
        || config
            .as_ref()
            .and_then(|c| c.get("oauthAccount"))
            .is_some_and(|a| !a.is_null())
        || has_api_key_helper(&homes.claude_dir.join("settings.json"));
    (!logged_in).then(|| {
        "Claude Code has no login for this user: run `claude` in a terminal and `/login`, or \
         set ANTHROPIC_API_KEY, then launch the agent again."
            .to_owned()
    })
}

/// Codex 0.171: a login (`auth.json`, written by its sign-in screen or `codex login`), or a
/// custom model provider whose key variable is set. OPENAI_API_KEY alone does not spare the
/// sign-in screen of the default provider.
pub(super) fn codex(homes: &FsCliHomes, var: &Var<'_>) -> Option<String> {
    if homes.codex_home.join("auth.json").is_file() {
        return None;
    }
    // A custom provider in config.toml brings its own key variable (`env_key`).
    let config = fs::read_to_string(homes.codex_config())
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok());
    if let Some(doc) = &config
        && let Some(provider) = doc.get("model_provider").and_then(|p| p.as_str())
        && let Some(table) = doc.get("model_providers").and_then(|t| t.get(provider))
    {
        return match table.get("env_key").and_then(|k| k.as_str()) {
            Some(key) if var(key).is_none() => Some(format!(
                "Codex's model provider \"{provider}\" reads its API key from {key}, which is not \
                 set: set it, then launch the agent again."
            )),
            _ => None,
        };
    }
    Some(
        "Codex is not signed in for this user: run `codex login` in a terminal (or \
         `codex login --with-api-key`), then launch the agent again."
            .to_owned(),
    )
}

pub(super) fn gemini(homes: &FsCliHomes, var: &Var<'_>) -> Option<String> {
    let settings = read_json(&homes.gemini_dir.join("settings.json"));
    let selected = settings.as_ref().and_then(|s| {
        s.pointer("/security/auth/selectedType")
            .or_else(|| s.get("selectedAuthType"))
            .and_then(|t| t.as_str())
            .map(str::to_owned)
    });
    // A key found in the environment only preselects an answer: the dialog still shows.
    let stored_key = homes.gemini_dir.join("gemini-credentials.json").is_file()
        || fs::read_to_string(homes.gemini_dir.join(".env")).is_ok_and(|env| {
            env.lines()
                .any(|l| l.trim_start().starts_with("GEMINI_API_KEY="))
        });
    match selected.as_deref() {
        None => Some(
            "Gemini CLI has not been told how to sign in for this user: run `gemini` once in a \
             terminal and choose a sign-in method (or set GEMINI_API_KEY), then launch the agent \
             again."
                .to_owned(),
        ),
        Some("gemini-api-key") if var("GEMINI_API_KEY").is_none() && !stored_key => Some(
            "Gemini CLI is set to use an API key, but GEMINI_API_KEY is not set: set it, then \
             launch the agent again."
                .to_owned(),
        ),
        Some("oauth-personal") if !homes.gemini_dir.join("oauth_creds.json").is_file() => Some(
            "Gemini CLI is set to sign in with Google but has no login: run `gemini` in a \
             terminal to sign in, then launch the agent again."
                .to_owned(),
        ),
        Some(_) => None,
    }
}

fn read_json(path: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&fs::read_to_string(path).ok()?).ok()
}

fn has_api_key_helper(settings: &Path) -> bool {
    read_json(settings).is_some_and(|s| s.get("apiKeyHelper").is_some_and(|h| h.is_string()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn claude_needs_onboarding_then_a_login() {
        let dir = tempfile::tempdir().unwrap();
        let h = FsCliHomes::for_home(dir.path(), None, None);
        assert!(
            claude(&h, &vars(&[]))
                .unwrap()
                .contains("run `claude` once")
        );
        fs::write(&h.claude_json, r#"{"hasCompletedOnboarding": true}"#).unwrap();
        assert!(claude(&h, &vars(&[])).unwrap().contains("/login"));
        assert_eq!(claude(&h, &vars(&[("ANTHROPIC_API_KEY", "k")])), None);
        fs::create_dir_all(&h.claude_dir).unwrap();
        fs::write(h.claude_dir.join(".credentials.json"), "{}").unwrap();
        assert_eq!(claude(&h, &vars(&[])), None);
    }

    #[test]
    fn codex_needs_a_login_or_its_providers_key() {
        let dir = tempfile::tempdir().unwrap();
        let h = FsCliHomes::for_home(dir.path(), None, None);
        assert!(codex(&h, &vars(&[])).unwrap().contains("codex login"));
        // The default provider asks to sign in even with the variable set.
        assert!(codex(&h, &vars(&[("OPENAI_API_KEY", "k")])).is_some());
        fs::create_dir_all(&h.codex_home).unwrap();
        fs::write(
            h.codex_config(),
            "model_provider = \"local\"\n[model_providers.local]\nenv_key = \"LOCAL_KEY\"\n",
        )
        .unwrap();
        assert!(codex(&h, &vars(&[])).unwrap().contains("LOCAL_KEY"));
        assert_eq!(codex(&h, &vars(&[("LOCAL_KEY", "k")])), None);
        fs::write(h.codex_config(), "").unwrap();
        fs::write(h.codex_home.join("auth.json"), "{}").unwrap();
        assert_eq!(codex(&h, &vars(&[])), None);
    }

    #[test]
    fn gemini_needs_a_sign_in_method_and_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let h = FsCliHomes::for_home(dir.path(), None, None);
        assert!(
            gemini(&h, &vars(&[]))
                .unwrap()
                .contains("run `gemini` once")
        );
        fs::create_dir_all(&h.gemini_dir).unwrap();
        fs::write(
            h.gemini_dir.join("settings.json"),
            r#"{"security": {"auth": {"selectedType": "gemini-api-key"}}}"#,
        )
        .unwrap();
        assert!(gemini(&h, &vars(&[])).unwrap().contains("GEMINI_API_KEY"));
        assert_eq!(gemini(&h, &vars(&[("GEMINI_API_KEY", "k")])), None);
    }
}
