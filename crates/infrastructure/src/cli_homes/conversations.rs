//! Finding the conversations each CLI saved, so a cell resumes only one that exists.
//!
//! Missing or unreadable folders simply mean "no conversation": the launch then starts a new
//! one, which is always safe, while resuming an id the CLI never saved fails at every launch.

use idea_domain::invocation::SavedConversation;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The first line of a Codex rollout can hold the whole base instructions; read no more.
const FIRST_LINE_LIMIT: u64 = 1 << 20;

/// Claude Code saves `<claude dir>/projects/<cwd slug>/<id>.jsonl` once the conversation has
/// a first exchange, and resumes it from any cwd: any project folder will do.
pub(super) fn claude_has(claude_dir: &Path, id: &str) -> bool {
    if !is_plain_id(id) {
        return false;
    }
    let file = format!("{id}.jsonl");
    sub_dirs(&claude_dir.join("projects"))
        .iter()
        .any(|project| is_non_empty_file(&project.join(&file)))
}

/// Claude Code's transcript of conversation `id`, in whichever project folder it is.
pub(super) fn claude_file(claude_dir: &Path, id: &str) -> Option<PathBuf> {
    if !is_plain_id(id) {
        return None;
    }
    let file = format!("{id}.jsonl");
    sub_dirs(&claude_dir.join("projects"))
        .into_iter()
        .map(|project| project.join(&file))
        .find(|path| is_non_empty_file(path))
}

/// Codex's rollout of thread `id`, wherever it started.
pub(super) fn codex_file(codex_home: &Path, id: &str) -> Option<PathBuf> {
    if !is_plain_id(id) {
        return None;
    }
    codex_rollouts(codex_home).find(|file| rollout_id(file).as_deref() == Some(id))
}

/// Gemini CLI's session file of `id`, in `cwd`'s folder (see [`gemini`]).
pub(super) fn gemini_file(gemini_dir: &Path, cwd: &Path, id: &str) -> Option<PathBuf> {
    if !is_plain_id(id) {
        return None;
    }
    let slug = gemini_slug(gemini_dir, cwd)?;
    let suffix = format!("-{}.jsonl", id.get(..8).unwrap_or(id));
    files(&gemini_dir.join("tmp").join(slug).join("chats"))
        .into_iter()
        .filter(|file| {
            file.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("session-") && n.ends_with(&suffix))
        })
        .find(|file| gemini_session(file, id) == Some(true))
}

/// A Codex rollout `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` whose first line (the
/// session's metadata) records `cwd`: the thread is this agent's.
pub(super) fn codex_has(codex_home: &Path, cwd: &Path, id: &str) -> bool {
    is_plain_id(id)
        && codex_rollouts(codex_home)
            .any(|file| rollout_id(&file).as_deref() == Some(id) && rollout_cwd_is(&file, cwd))
}

/// The newest Codex rollout started in `cwd`.
pub(super) fn codex_latest(codex_home: &Path, cwd: &Path) -> Option<String> {
    codex_rollouts(codex_home)
        .filter(|file| rollout_cwd_is(file, cwd))
        .find_map(|file| rollout_id(&file))
}

/// Gemini CLI 0.61 keeps one folder per cwd, `tmp/<slug>/chats/`, the slug recorded in
/// `projects.json` (`{"projects": {"<cwd>": "<slug>"}}`), and resumes only from that cwd. A
/// session is `session-<UTC minute>-<first 8 chars of id>.jsonl`: a first line
/// `{"sessionId": …}`, then records, messages having `"type": "user"` or `"gemini"`. The file
/// exists from the start; a clean exit before any message deletes it, a SIGKILL leaves it, and
/// then the id can be neither resumed nor reused.
pub(super) fn gemini(gemini_dir: &Path, cwd: &Path, id: &str) -> SavedConversation {
    if !is_plain_id(id) {
        return SavedConversation::Missing;
    }
    let Some(slug) = gemini_slug(gemini_dir, cwd) else {
        return SavedConversation::Missing;
    };
    let suffix = format!("-{}.jsonl", id.get(..8).unwrap_or(id));
    let mut state = SavedConversation::Missing;
    for file in files(&gemini_dir.join("tmp").join(slug).join("chats")) {
        let named = file
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("session-") && n.ends_with(&suffix));
        if !named {
            continue;
        }
        match gemini_session(&file, id) {
            Some(true) => return SavedConversation::Resumable,
            Some(false) => state = SavedConversation::Blocked,
            None => {}
        }
    }
    state
}

/// The cwd's folder name under `tmp/`, as Gemini recorded it (never a path).
fn gemini_slug(gemini_dir: &Path, cwd: &Path) -> Option<String> {
    let text = fs::read_to_string(gemini_dir.join("projects.json")).ok()?;
    let projects: serde_json::Value = serde_json::from_str(&text).ok()?;
    let slug = projects
        .get("projects")?
        .get(cwd.to_str()?)?
        .as_str()?
        .to_owned();
    is_plain_id(&slug).then_some(slug)
}

/// `Some(has a message)` when the file is session `id`'s, `None` when it is another's.
fn gemini_session(file: &Path, id: &str) -> Option<bool> {
    let text = fs::read_to_string(file).ok()?;
    let mut lines = text.lines();
    let head: serde_json::Value = serde_json::from_str(lines.next()?).ok()?;
    if head.get("sessionId").and_then(|v| v.as_str()) != Some(id) {
        return None;
    }
    Some(lines.any(|line| {
        serde_json::from_str::<serde_json::Value>(line).is_ok_and(|record| {
            matches!(
                record.get("type").and_then(|t| t.as_str()),
                Some("user" | "gemini")
            )
        })
    }))
}

/// Ids are uuids or similar: never a path (`..`, `/`) that would leave the folders above.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Every rollout, newest first (the date folders and the timestamped names sort by time).
fn codex_rollouts(codex_home: &Path) -> impl Iterator<Item = PathBuf> {
    let years = sorted_newest_first(sub_dirs(&codex_home.join("sessions")));
    years.into_iter().flat_map(|year| {
        sorted_newest_first(sub_dirs(&year))
            .into_iter()
            .flat_map(|month| {
                sorted_newest_first(sub_dirs(&month))
                    .into_iter()
                    .flat_map(|day| {
                        sorted_newest_first(files(&day)).into_iter().filter(|f| {
                            f.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(|n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
                        })
                    })
            })
    })
}

/// `rollout-2026-11-30T10-00-00-<uuid>.jsonl` → the uuid (its last 36 characters).
fn rollout_id(file: &Path) -> Option<String> {
    let stem = file.file_stem()?.to_str()?;
    let id = stem.get(stem.len().checked_sub(36)?..)?;
    (uuid::Uuid::parse_str(id).is_ok()).then(|| id.to_owned())
}

fn rollout_cwd_is(file: &Path, cwd: &Path) -> bool {
    let Ok(handle) = fs::File::open(file) else {
        return false;
    };
    let mut line = String::new();
    if BufReader::new(handle.take(FIRST_LINE_LIMIT))
        .read_line(&mut line)
        .is_err()
    {
        return false;
    }
    let Ok(meta) = serde_json::from_str::<serde_json::Value>(&line) else {
        return false;
    };
    let recorded = meta
        .pointer("/payload/cwd")
        .or_else(|| meta.get("cwd"))
        .and_then(|v| v.as_str());
    recorded.is_some_and(|recorded| Path::new(recorded) == cwd)
}

fn is_non_empty_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
}

fn entries(dir: &Path, want_dir: bool) -> Vec<PathBuf> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    read.filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir() == want_dir))
        .map(|e| e.path())
        .collect()
}

fn sub_dirs(dir: &Path) -> Vec<PathBuf> {
    entries(dir, true)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    entries(dir, false)
}

fn sorted_newest_first(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort_unstable_by(|a, b| b.cmp(a));
    paths
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const A: &str = "0d3c4b8e-1f2a-4c5d-9e6f-7a8b9c0d1e2f";
    const B: &str = "5f1e2d3c-4b5a-4697-8877-665544332211";

    fn rollout(home: &Path, day: &str, time: &str, id: &str, cwd: &str) {
        let dir = home.join("sessions").join(day);
        fs::create_dir_all(&dir).unwrap();
        let meta = serde_json::json!({"type": "session_meta", "payload": {"id": id, "cwd": cwd}});
        fs::write(
            dir.join(format!("rollout-{time}-{id}.jsonl")),
            format!("{meta}\n{{}}\n"),
        )
        .unwrap();
    }

    #[test]
    fn claude_transcripts_are_found_in_any_project_folder() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("projects/-p--ideai-run-a");
        fs::create_dir_all(&project).unwrap();
        assert!(!claude_has(dir.path(), A));
        fs::write(project.join(format!("{A}.jsonl")), "").unwrap();
        assert!(
            !claude_has(dir.path(), A),
            "an empty transcript holds nothing to resume"
        );
        fs::write(project.join(format!("{A}.jsonl")), "{}\n").unwrap();
        assert!(claude_has(dir.path(), A));
        assert!(!claude_has(dir.path(), B));
        assert!(!claude_has(dir.path(), "../../etc/passwd"));
    }

    #[test]
    fn codex_rollouts_count_only_for_their_own_folder() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        rollout(
            home,
            "2026/11/29",
            "2026-11-29T23-59-00",
            A,
            "/p/.ideai/run/a",
        );
        rollout(
            home,
            "2026/11/30",
            "2026-11-30T08-00-00",
            B,
            "/p/.ideai/run/b",
        );
        assert!(codex_has(home, Path::new("/p/.ideai/run/a"), A));
        assert!(!codex_has(home, Path::new("/p/.ideai/run/b"), A));
        assert_eq!(
            codex_latest(home, Path::new("/p/.ideai/run/a")).as_deref(),
            Some(A)
        );
        assert_eq!(codex_latest(home, Path::new("/elsewhere")), None);
    }

    fn gemini_session_file(dir: &Path, cwd: &str, id: &str, records: &[&str]) {
        fs::write(
            dir.join("projects.json"),
            serde_json::json!({"projects": {cwd: "agent-1"}}).to_string(),
        )
        .unwrap();
        let chats = dir.join("tmp/agent-1/chats");
        fs::create_dir_all(&chats).unwrap();
        let mut text = serde_json::json!({"sessionId": id, "kind": "main"}).to_string();
        for record in records {
            text.push('\n');
            text.push_str(record);
        }
        let name = format!("session-2026-11-30T10-00-{}.jsonl", &id[..8]);
        fs::write(chats.join(name), text).unwrap();
    }

    #[test]
    fn a_gemini_session_with_a_message_is_resumable_from_its_own_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        gemini_session_file(
            dir.path(),
            "/run/a",
            A,
            &[
                r#"{"$set":{"messages":[]}}"#,
                r#"{"id":"1","type":"user","content":"hi"}"#,
            ],
        );
        assert_eq!(
            gemini(dir.path(), Path::new("/run/a"), A),
            SavedConversation::Resumable
        );
        assert_eq!(
            gemini(dir.path(), Path::new("/run/b"), A),
            SavedConversation::Missing
        );
        assert_eq!(
            gemini(dir.path(), Path::new("/run/a"), B),
            SavedConversation::Missing
        );
    }

    #[test]
    fn a_gemini_session_left_without_a_message_blocks_its_id() {
        let dir = tempfile::tempdir().unwrap();
        gemini_session_file(dir.path(), "/run/a", A, &[r#"{"$set":{"messages":[]}}"#]);
        assert_eq!(
            gemini(dir.path(), Path::new("/run/a"), A),
            SavedConversation::Blocked
        );
    }

    #[test]
    fn a_hostile_gemini_slug_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("projects.json"),
            r#"{"projects": {"/run/a": "../../etc"}}"#,
        )
        .unwrap();
        assert_eq!(
            gemini(dir.path(), Path::new("/run/a"), A),
            SavedConversation::Missing
        );
    }

    #[test]
    fn the_newest_codex_rollout_of_a_folder_wins() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        rollout(home, "2026/11/29", "2026-11-29T10-00-00", A, "/run");
        rollout(home, "2026/11/30", "2026-11-30T09-00-00", B, "/run");
        assert_eq!(codex_latest(home, Path::new("/run")).as_deref(), Some(B));
        assert_eq!(codex_latest(&home.join("absent"), Path::new("/run")), None);
    }
}
