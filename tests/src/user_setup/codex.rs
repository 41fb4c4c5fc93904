//! The Codex CLI as a user who already set it up with an API key and a custom model provider
//! has it: `$CODEX_HOME/config.toml` names the model and the provider (the fake model server,
//! OpenAI Responses API) and records the start-up notices as seen. No folder is trusted here:
//! IdeA adds that (`[projects."<git root>"] trust_level = "trusted"`).

use std::path::Path;

/// The API key the fake model server is called with (sent as `Authorization: Bearer …`).
pub const API_KEY: &str = "sk-proj-idea-e2e-fake-model-key-0123456789abcdef";

/// The model named in config.toml; its migration notice is recorded as seen below.
pub const MODEL: &str = "gpt-5.5";

/// Prepares `home` for Codex and returns the environment variables to set. `base_url` is the
/// fake model server's root (`http://127.0.0.1:PORT`); a trailing `/v1` is accepted too.
pub fn prepare_home(home: &Path, base_url: &str) -> Vec<(String, String)> {
    let codex_home = home.join(".codex");
    // Codex refuses to create its helper binaries (the `apply_patch` alias… under
    // `$CODEX_HOME/tmp/arg0`) when CODEX_HOME is inside the temp dir, and prints a warning.
    // It compares with TMPDIR (default /tmp), so a temp dir inside the home avoids that.
    let tmp = home.join(".tmp");
    let _ = std::fs::create_dir_all(&codex_home);
    let _ = std::fs::create_dir_all(&tmp);
    let root = base_url.trim_end_matches('/');
    let api_root = if root.ends_with("/v1") {
        root.to_owned()
    } else {
        format!("{root}/v1")
    };
    let config = format!(
        r#"# The model and the provider used, as `codex` writes them once set up.
model = "{MODEL}"
model_provider = "fake"
# Offline: no look-up of a newer release at start.
check_for_update_on_startup = false

# A custom provider: the fake model server, called with the key in OPENAI_API_KEY.
[model_providers.fake]
name = "Fake model server"
base_url = "{api_root}"
env_key = "OPENAI_API_KEY"
wire_api = "responses"

# Skips the "Meet …" model-migration screen shown at start (the user kept their model).
[notice.model_migrations]
"{MODEL}" = "gpt-6-sol"
"#
    );
    let _ = std::fs::write(codex_home.join("config.toml"), config);
    let (home, codex_home, tmp) = (
        home.to_string_lossy(),
        codex_home.to_string_lossy(),
        tmp.to_string_lossy(),
    );
    super::env(&[
        ("HOME", &home),
        ("CODEX_HOME", &codex_home),
        ("TMPDIR", &tmp),
        ("OPENAI_API_KEY", API_KEY),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_provider_and_returns_the_environment() {
        let Ok(home) = tempfile::tempdir() else {
            return;
        };
        let env = prepare_home(home.path(), "http://127.0.0.1:4000/");
        let config = std::fs::read_to_string(home.path().join(".codex/config.toml"));
        let config = config.unwrap_or_default();
        assert!(config.contains("base_url = \"http://127.0.0.1:4000/v1\""));
        assert!(!config.contains("[projects"));
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["HOME", "CODEX_HOME", "TMPDIR", "OPENAI_API_KEY"]);
        assert!(home.path().join(".tmp").is_dir());
    }
}
