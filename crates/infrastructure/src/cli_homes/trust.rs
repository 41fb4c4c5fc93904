//! Adding a folder to each CLI's trust record, keeping everything else in the file; a file
//! IdeA cannot parse is left untouched (the CLI then asks, as it would anyway).

use crate::atomic::write_atomic;
use idea_domain::ports::{StoreError, TrustOutcome};
use std::fs;
use std::io;
use std::path::Path;

/// What an edit of a config's text gives: the new text, or why nothing is written.
pub(super) enum Edit {
    Write(String),
    AlreadyTrusted,
    Unreadable,
}

pub(super) fn update(
    path: &Path,
    edit: impl FnOnce(&str) -> Edit,
) -> Result<TrustOutcome, StoreError> {
    let current = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            return Ok(TrustOutcome::LeftUnreadableConfig);
        }
        Err(source) => {
            return Err(StoreError::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    match edit(&current) {
        Edit::AlreadyTrusted => Ok(TrustOutcome::AlreadyTrusted),
        Edit::Unreadable => Ok(TrustOutcome::LeftUnreadableConfig),
        Edit::Write(text) => write_atomic(path, text.as_bytes())
            .map(|()| TrustOutcome::Recorded)
            .map_err(|source| StoreError::Io {
                action: "write",
                path: path.to_path_buf(),
                source,
            }),
    }
}

/// A JSON config whose top level must be an object; empty text is an empty object.
fn json_object(text: &str) -> Option<serde_json::Value> {
    if text.trim().is_empty() {
        return Some(serde_json::json!({}));
    }
    serde_json::from_str(text)
        .ok()
        .filter(serde_json::Value::is_object)
}

pub(super) fn in_claude_json(text: &str, folder: &str) -> Edit {
    let Some(mut config) = json_object(text) else {
        return Edit::Unreadable;
    };
    let Some(projects) = config
        .as_object_mut()
        .map(|c| c.entry("projects").or_insert_with(|| serde_json::json!({})))
    else {
        return Edit::Unreadable;
    };
    let Some(project) = projects
        .as_object_mut()
        .map(|p| p.entry(folder).or_insert_with(|| serde_json::json!({})))
    else {
        return Edit::Unreadable;
    };
    let Some(project) = project.as_object_mut() else {
        return Edit::Unreadable;
    };
    if project.get("hasTrustDialogAccepted") == Some(&serde_json::Value::Bool(true)) {
        return Edit::AlreadyTrusted;
    }
    project.insert(
        "hasTrustDialogAccepted".into(),
        serde_json::Value::Bool(true),
    );
    serde_json::to_string_pretty(&config).map_or(Edit::Unreadable, Edit::Write)
}

pub(super) fn in_codex_toml(text: &str, folder: &str) -> Edit {
    let Ok(mut doc) = text.parse::<toml_edit::DocumentMut>() else {
        return Edit::Unreadable;
    };
    let projects = doc.entry("projects").or_insert_with(|| {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        toml_edit::Item::Table(table)
    });
    let Some(projects) = projects.as_table_like_mut() else {
        return Edit::Unreadable;
    };
    let project = projects
        .entry(folder)
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let Some(project) = project.as_table_like_mut() else {
        return Edit::Unreadable;
    };
    if project.get("trust_level").and_then(|v| v.as_str()) == Some("trusted") {
        return Edit::AlreadyTrusted;
    }
    project.insert("trust_level", toml_edit::value("trusted"));
    Edit::Write(doc.to_string())
}

/// Gemini CLI's `trustedFolders.json`: `{"<abs path>": "TRUST_FOLDER", …}`.
pub(super) fn in_gemini_trusted_folders(text: &str, folder: &str) -> Edit {
    let Some(mut config) = json_object(text) else {
        return Edit::Unreadable;
    };
    let Some(folders) = config.as_object_mut() else {
        return Edit::Unreadable;
    };
    if folders.get(folder).and_then(|v| v.as_str()) == Some("TRUST_FOLDER") {
        return Edit::AlreadyTrusted;
    }
    folders.insert(folder.to_owned(), "TRUST_FOLDER".into());
    serde_json::to_string_pretty(&config).map_or(Edit::Unreadable, Edit::Write)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::FsCliHomes;
    use idea_domain::ports::{CliHomes, TrustOutcome};
    use idea_domain::profile::CliHome;
    use std::fs;
    use std::path::Path;

    fn homes(dir: &Path) -> FsCliHomes {
        FsCliHomes::for_home(dir, None, None)
    }

    #[test]
    fn claude_trust_is_added_keeping_every_other_key() {
        let dir = tempfile::tempdir().unwrap();
        let h = homes(dir.path());
        fs::write(
            &h.claude_json,
            r#"{"numStartups": 3, "projects": {"/other": {"allowedTools": ["x"]}}, "zeta": true}"#,
        )
        .unwrap();
        assert_eq!(
            h.trust_folder(CliHome::ClaudeCode, Path::new("/p/.ideai/run/a"))
                .unwrap(),
            TrustOutcome::Recorded
        );
        let config: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&h.claude_json).unwrap()).unwrap();
        assert_eq!(
            config["projects"]["/p/.ideai/run/a"]["hasTrustDialogAccepted"],
            true
        );
        assert_eq!(config["projects"]["/other"]["allowedTools"][0], "x");
        assert_eq!(
            (config["numStartups"].clone(), config["zeta"].clone()),
            (3.into(), true.into())
        );
        assert_eq!(
            h.trust_folder(CliHome::ClaudeCode, Path::new("/p/.ideai/run/a"))
                .unwrap(),
            TrustOutcome::AlreadyTrusted
        );
    }

    #[test]
    fn an_absent_config_is_created_and_a_broken_one_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let h = homes(dir.path());
        assert_eq!(
            h.trust_folder(CliHome::ClaudeCode, Path::new("/run"))
                .unwrap(),
            TrustOutcome::Recorded
        );
        assert!(
            fs::read_to_string(&h.claude_json)
                .unwrap()
                .contains("hasTrustDialogAccepted")
        );
        fs::write(&h.claude_json, "{ broken").unwrap();
        assert_eq!(
            h.trust_folder(CliHome::ClaudeCode, Path::new("/run2"))
                .unwrap(),
            TrustOutcome::LeftUnreadableConfig
        );
        assert_eq!(fs::read_to_string(&h.claude_json).unwrap(), "{ broken");
    }

    #[test]
    fn codex_trust_is_added_keeping_comments_and_settings() {
        let dir = tempfile::tempdir().unwrap();
        let h = homes(dir.path());
        fs::create_dir_all(h.codex_config().parent().unwrap()).unwrap();
        fs::write(
            h.codex_config(),
            "# my settings\nmodel = \"o4\"\n\n[projects.\"/old\"]\ntrust_level = \"trusted\"\n",
        )
        .unwrap();
        assert_eq!(
            h.trust_folder(CliHome::Codex, Path::new("/p/.ideai/run/b"))
                .unwrap(),
            TrustOutcome::Recorded
        );
        let text = fs::read_to_string(h.codex_config()).unwrap();
        assert!(
            text.starts_with("# my settings\nmodel = \"o4\"\n"),
            "{text}"
        );
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(
            doc["projects"]["/p/.ideai/run/b"]["trust_level"].as_str(),
            Some("trusted")
        );
        assert_eq!(
            doc["projects"]["/old"]["trust_level"].as_str(),
            Some("trusted")
        );
        assert_eq!(
            h.trust_folder(CliHome::Codex, Path::new("/old")).unwrap(),
            TrustOutcome::AlreadyTrusted
        );
        fs::write(h.codex_config(), "not = [toml").unwrap();
        assert_eq!(
            h.trust_folder(CliHome::Codex, Path::new("/x")).unwrap(),
            TrustOutcome::LeftUnreadableConfig
        );
    }

    #[test]
    fn gemini_trust_is_added_keeping_other_folders() {
        let dir = tempfile::tempdir().unwrap();
        let h = homes(dir.path());
        let file = h.gemini_dir.join("trustedFolders.json");
        fs::create_dir_all(&h.gemini_dir).unwrap();
        fs::write(&file, r#"{"/mine": "TRUST_PARENT"}"#).unwrap();
        assert_eq!(
            h.trust_folder(CliHome::Gemini, Path::new("/p")).unwrap(),
            TrustOutcome::Recorded
        );
        let folders: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(folders["/p"], "TRUST_FOLDER");
        assert_eq!(folders["/mine"], "TRUST_PARENT");
        assert_eq!(
            h.trust_folder(CliHome::Gemini, Path::new("/p")).unwrap(),
            TrustOutcome::AlreadyTrusted
        );
        fs::write(&file, "[1]").unwrap();
        assert_eq!(
            h.trust_folder(CliHome::Gemini, Path::new("/q")).unwrap(),
            TrustOutcome::LeftUnreadableConfig
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "[1]");
    }
}
