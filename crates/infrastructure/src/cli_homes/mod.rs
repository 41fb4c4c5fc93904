//! The agent CLIs' own user-level state, read and updated as the CLIs themselves do:
//! - [`trust`]: the folders each CLI trusts (IdeA adds every folder it hands an agent, so a new
//!   agent does not stop on a trust screen; everything else in those files is kept);
//! - [`conversations`]: the conversations each CLI saved (a cell resumes only one that exists);
//! - [`setup`]: whether the CLI was set up for this user (onboarding, login, API key);
//! - [`transcripts`]: the text of a saved conversation, for a handoff to another engine.

mod conversations;
mod setup;
mod transcripts;
mod trust;
mod watermarks;

use idea_domain::conversation::ConversationGlance;
use idea_domain::handoff::Exchange;
use idea_domain::invocation::SavedConversation;
use idea_domain::limits::{LimitSighting, Vendor, limit_at_transcript_end};
use idea_domain::ports::{CliHomes, StoreError, TrustOutcome};
use idea_domain::profile::CliHome;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where each CLI keeps its user state, under one home folder.
#[derive(Debug, Clone)]
pub struct FsCliHomes {
    /// `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`).
    pub claude_json: PathBuf,
    /// `~/.claude` (or `$CLAUDE_CONFIG_DIR`): transcripts, credentials.
    pub claude_dir: PathBuf,
    /// `$CODEX_HOME` (default `~/.codex`): config.toml, auth.json, sessions/.
    pub codex_home: PathBuf,
    /// `~/.gemini`: settings.json, trustedFolders.json, tmp/ (saved chats).
    pub gemini_dir: PathBuf,
    /// How far each watched conversation file was read (`limit_in_changed_file`).
    watermarks: watermarks::Watermarks,
}

impl FsCliHomes {
    /// The files for `home`, honouring `CLAUDE_CONFIG_DIR` and `CODEX_HOME` as the CLIs do.
    pub fn for_home(
        home: &Path,
        claude_config_dir: Option<PathBuf>,
        codex_home: Option<PathBuf>,
    ) -> Self {
        let claude_dir = claude_config_dir
            .clone()
            .unwrap_or_else(|| home.join(".claude"));
        Self {
            claude_json: claude_config_dir
                .unwrap_or_else(|| home.to_path_buf())
                .join(".claude.json"),
            claude_dir,
            codex_home: codex_home.unwrap_or_else(|| home.join(".codex")),
            gemini_dir: home.join(".gemini"),
            watermarks: watermarks::Watermarks::default(),
        }
    }

    /// The file where `home`'s CLI saved conversation `id`, and its format.
    fn transcript(
        &self,
        home: CliHome,
        cwd: &Path,
        id: &str,
    ) -> Option<(PathBuf, transcripts::Format)> {
        match home {
            CliHome::ClaudeCode => conversations::claude_file(&self.claude_dir, id)
                .map(|file| (file, transcripts::Format::Claude)),
            CliHome::Codex => conversations::codex_file(&self.codex_home, id)
                .map(|file| (file, transcripts::Format::Codex)),
            CliHome::Gemini => conversations::gemini_file(&self.gemini_dir, cwd, id)
                .map(|file| (file, transcripts::Format::Gemini)),
        }
    }

    /// `$CODEX_HOME/config.toml`.
    pub fn codex_config(&self) -> PathBuf {
        self.codex_home.join("config.toml")
    }
}

impl CliHomes for FsCliHomes {
    fn trust_folder(&self, home: CliHome, folder: &Path) -> Result<TrustOutcome, StoreError> {
        let key = folder.display().to_string();
        match home {
            CliHome::ClaudeCode => {
                trust::update(&self.claude_json, |text| trust::in_claude_json(text, &key))
            }
            CliHome::Codex => trust::update(&self.codex_config(), |text| {
                trust::in_codex_toml(text, &key)
            }),
            CliHome::Gemini => {
                trust::update(&self.gemini_dir.join("trustedFolders.json"), |text| {
                    trust::in_gemini_trusted_folders(text, &key)
                })
            }
        }
    }

    fn conversation(&self, home: CliHome, cwd: &Path, id: &str) -> SavedConversation {
        let resumable = |yes: bool| {
            if yes {
                SavedConversation::Resumable
            } else {
                SavedConversation::Missing
            }
        };
        match home {
            CliHome::ClaudeCode => resumable(conversations::claude_has(&self.claude_dir, id)),
            CliHome::Codex => resumable(conversations::codex_has(&self.codex_home, cwd, id)),
            CliHome::Gemini => conversations::gemini(&self.gemini_dir, cwd, id),
        }
    }

    fn latest_conversation(&self, home: CliHome, cwd: &Path) -> Option<String> {
        match home {
            CliHome::Codex => conversations::codex_latest(&self.codex_home, cwd),
            // These take IdeA's ids: the cell remembers which one is the agent's.
            CliHome::ClaudeCode | CliHome::Gemini => None,
        }
    }

    fn exchanges(&self, home: CliHome, cwd: &Path, id: &str) -> Vec<Exchange> {
        self.transcript(home, cwd, id)
            .map_or_else(Vec::new, |(file, format)| transcripts::read(&file, format))
    }

    fn glance(&self, home: CliHome, cwd: &Path, id: &str) -> Option<ConversationGlance> {
        self.transcript(home, cwd, id)
            .map(|(file, format)| transcripts::glance(&file, format))
    }

    fn limit_at_end(&self, home: CliHome, cwd: &Path, id: &str) -> Option<LimitSighting> {
        let vendor = match home {
            CliHome::ClaudeCode => Vendor::ClaudeCode,
            CliHome::Codex => Vendor::Codex,
            // Gemini CLI's session files record no limit.
            CliHome::Gemini => return None,
        };
        let (file, _) = self.transcript(home, cwd, id)?;
        let lines = transcripts::tail_lines(&file);
        limit_at_transcript_end(vendor, lines.iter().map(String::as_str))
    }

    fn limit_in_changed_file(&self, home: CliHome, cwd: &Path, id: &str) -> Option<LimitSighting> {
        let vendor = match home {
            CliHome::ClaudeCode => Vendor::ClaudeCode,
            CliHome::Codex => Vendor::Codex,
            CliHome::Gemini => return None,
        };
        let file = self
            .watermarks
            .changed(home, id, || self.transcript(home, cwd, id).map(|(f, _)| f))?;
        let lines = transcripts::tail_lines(&file);
        limit_at_transcript_end(vendor, lines.iter().map(String::as_str))
    }

    fn setup_problem(&self, home: CliHome, env: &BTreeMap<String, String>) -> Option<String> {
        let var = |name: &str| {
            env.get(name)
                .cloned()
                .or_else(|| std::env::var(name).ok())
                .filter(|v| !v.is_empty())
        };
        match home {
            CliHome::ClaudeCode => setup::claude(self, &var),
            CliHome::Codex => setup::codex(self, &var),
            CliHome::Gemini => setup::gemini(self, &var),
        }
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod limit_tests {
    use super::*;
    use idea_domain::limits::SightedReset;

    #[test]
    fn the_limit_a_claude_transcript_ends_in_carries_its_recorded_reset() {
        let home = tempfile::tempdir().expect("temp dir");
        let homes = FsCliHomes::for_home(home.path(), None, None);
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        let project = homes.claude_dir.join("projects").join("-p");
        std::fs::create_dir_all(&project).expect("mkdir");
        let line = r#"{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","apiError":"usage_limit_reached","quotaLimits":{"status":"rejected","resetsAt":1796154740,"rateLimitType":"five_hour"},"message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"You've hit your 5-hour limit · resets 3:53am (Asia/Shanghai)"}]}}"#;
        let user = r#"{"type":"user","message":{"content":"go on"}}"#;
        std::fs::write(
            project.join(format!("{id}.jsonl")),
            format!("{user}\n{line}\n"),
        )
        .expect("write");
        let limit = homes
            .limit_at_end(CliHome::ClaudeCode, Path::new("/p"), id)
            .expect("a limit");
        assert_eq!(limit.reset, SightedReset::Epoch(1_796_154_740));
        // The user typed again and the model answered: no limit at the end any more.
        let answered = r#"{"type":"assistant","message":{"model":"claude","content":[{"type":"text","text":"Done."}]}}"#;
        std::fs::write(
            project.join(format!("{id}.jsonl")),
            format!("{line}\n{user}\n{answered}\n"),
        )
        .expect("write");
        assert_eq!(
            homes.limit_at_end(CliHome::ClaudeCode, Path::new("/p"), id),
            None
        );
        assert_eq!(
            homes.limit_at_end(CliHome::ClaudeCode, Path::new("/p"), "../x"),
            None
        );
    }

    #[test]
    fn a_watched_transcript_is_read_once_per_change() {
        let home = tempfile::tempdir().expect("temp dir");
        let homes = FsCliHomes::for_home(home.path(), None, None);
        let id = "1f8fad5b-d9cb-469f-a165-70867728950e";
        let project = homes.claude_dir.join("projects").join("-p");
        std::fs::create_dir_all(&project).expect("mkdir");
        let file = project.join(format!("{id}.jsonl"));
        let watch = || homes.limit_in_changed_file(CliHome::ClaudeCode, Path::new("/p"), id);
        let user = r#"{"type":"user","message":{"content":"go on"}}"#;
        std::fs::write(&file, format!("{user}\n")).expect("write");
        assert_eq!(watch(), None, "no limit yet");
        let limit = r#"{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","apiError":"usage_limit_reached","quotaLimits":{"status":"rejected","resetsAt":1796154740,"rateLimitType":"five_hour"},"message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"You've hit your 5-hour limit"}]}}"#;
        std::fs::write(&file, format!("{user}\n{limit}\n")).expect("write");
        let seen = watch().expect("the limit, once the file grew");
        assert_eq!(seen.reset, SightedReset::Epoch(1_796_154_740));
        assert_eq!(watch(), None, "unchanged: not read again");
        assert_eq!(
            homes.limit_in_changed_file(CliHome::Gemini, Path::new("/p"), id),
            None
        );
    }
}
