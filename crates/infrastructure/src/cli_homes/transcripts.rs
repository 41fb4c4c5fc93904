//! The text of a conversation each CLI saved, for a handoff: what the user asked and what the
//! agent answered, without tool calls, tool results, thinking or the context the CLI adds.
//! Read leniently (a line that does not parse, or of a newer format, is skipped) and from the
//! end of a huge file only.

use idea_domain::conversation::ConversationGlance;
use idea_domain::handoff::{Exchange, Speaker};
use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// The most of a transcript read, from its end (Claude writes ~85 KB per turn).
const TAIL_BYTES: u64 = 8 * 1024 * 1024;
/// A longer line (a pasted file, a huge tool result) is skipped.
const LINE_MAX: usize = 1024 * 1024;

/// Which CLI wrote the file.
#[derive(Debug, Clone, Copy)]
pub(super) enum Format {
    Claude,
    Codex,
    Gemini,
}

pub(super) fn read(file: &Path, format: Format) -> Vec<Exchange> {
    scan(file, format).exchanges
}

/// What the resume prompt shows of a conversation: its title, last activity and number of
/// asks (unknown when only the end of a huge file was read).
pub(super) fn glance(file: &Path, format: Format) -> ConversationGlance {
    let scanned = scan(file, format);
    let asks = scanned
        .exchanges
        .iter()
        .filter(|e| e.speaker == Speaker::User)
        .count();
    let first_ask = scanned
        .exchanges
        .iter()
        .find(|e| e.speaker == Speaker::User)
        .filter(|_| !scanned.cut)
        .map(|e| e.text.split_whitespace().collect::<Vec<_>>().join(" "));
    let modified = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs());
    ConversationGlance {
        title: scanned.title.or(first_ask).map(|t| cut_title(&t)),
        last_activity: scanned.last_activity.or(modified),
        asks: (!scanned.cut).then(|| u32::try_from(asks).unwrap_or(u32::MAX)),
    }
}

/// The last lines of `file` (at most its last MiB; a first partial line is dropped).
pub(super) fn tail_lines(file: &Path) -> Vec<String> {
    const TAIL: u64 = 1024 * 1024;
    let Ok(mut handle) = File::open(file) else {
        return Vec::new();
    };
    let length = handle.metadata().map_or(0, |m| m.len());
    let cut = length > TAIL;
    if cut && handle.seek(SeekFrom::Start(length - TAIL)).is_err() {
        return Vec::new();
    }
    let mut text = Vec::new();
    if handle.take(TAIL).read_to_end(&mut text).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&text);
    text.lines()
        .skip(usize::from(cut))
        .map(str::to_owned)
        .collect()
}

/// A file read once: its messages, its latest title record, its newest timestamp.
#[derive(Default)]
struct Scan {
    exchanges: Vec<Exchange>,
    title: Option<String>,
    last_activity: Option<u64>,
    /// Only the end of the file was read.
    cut: bool,
}

fn scan(file: &Path, format: Format) -> Scan {
    let mut scanned = Scan::default();
    let Ok(mut handle) = File::open(file) else {
        return scanned;
    };
    let length = handle.metadata().map_or(0, |m| m.len());
    scanned.cut = length > TAIL_BYTES;
    if scanned.cut && handle.seek(SeekFrom::Start(length - TAIL_BYTES)).is_err() {
        return scanned;
    }
    let mut reader = BufReader::new(handle.take(TAIL_BYTES));
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Reading from the middle, the first line is a piece of one.
        if std::mem::take(&mut first) && scanned.cut {
            continue;
        }
        if line.len() > LINE_MAX {
            continue;
        }
        let Ok(record) = serde_json::from_slice::<Value>(&line) else {
            continue;
        };
        if let Some(title) = title_of(&record, format) {
            scanned.title = Some(title);
        }
        if let Some(at) = timestamp_of(&record) {
            scanned.last_activity = scanned.last_activity.max(Some(at));
        }
        let found = match format {
            Format::Claude => claude(&record),
            Format::Codex => codex(&record),
            Format::Gemini => gemini(&record),
        };
        if let Some(exchange) = found.filter(|e| !e.text.trim().is_empty()) {
            scanned.exchanges.push(exchange);
        }
    }
    scanned
}

/// A title record: Claude Code's `custom-title`, `ai-title` and `summary` lines (the last one
/// wins), Gemini CLI's `summary` (in a record or a `$set` patch).
fn title_of(record: &Value, format: Format) -> Option<String> {
    let text = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    match format {
        Format::Claude => match record.get("type")?.as_str()? {
            "custom-title" => text(record.get("customTitle").or_else(|| record.get("title"))),
            "ai-title" => text(record.get("aiTitle").or_else(|| record.get("title"))),
            "summary" => text(record.get("summary")),
            _ => None,
        },
        Format::Gemini => text(
            record
                .get("summary")
                .or_else(|| record.pointer("/$set/summary")),
        ),
        Format::Codex => None,
    }
}

/// A record's time (`timestamp`, or Gemini's `lastUpdated`), in seconds since the epoch.
fn timestamp_of(record: &Value) -> Option<u64> {
    let raw = record
        .get("timestamp")
        .or_else(|| record.get("lastUpdated"))
        .or_else(|| record.pointer("/$set/lastUpdated"))?
        .as_str()?;
    let at: jiff::Timestamp = raw.parse().ok()?;
    u64::try_from(at.as_second()).ok()
}

fn cut_title(title: &str) -> String {
    const MAX: usize = 120;
    match title.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &title[..at]),
        None => title.to_owned(),
    }
}

/// `{"type":"user"|"assistant","message":{"content": "…" | [{"type":"text","text":…}, …]}}`;
/// meta lines (an auto-continuation, a command's caveat) and sub-agents' lines left out.
fn claude(record: &Value) -> Option<Exchange> {
    let speaker = match record.get("type")?.as_str()? {
        "user" => Speaker::User,
        "assistant" => Speaker::Assistant,
        _ => return None,
    };
    let flag = |name: &str| record.get(name).and_then(Value::as_bool) == Some(true);
    if flag("isMeta") || flag("isSidechain") || flag("isApiErrorMessage") {
        return None;
    }
    let text = text_of(record.pointer("/message/content")?, &["text"]);
    // Slash commands and their output are recorded as tagged user lines.
    let tagged = ["<command-", "<local-command-"];
    if speaker == Speaker::User && tagged.iter().any(|tag| text.trim_start().starts_with(tag)) {
        return None;
    }
    Some(Exchange { speaker, text })
}

/// `{"type":"response_item","payload":{"type":"message","role":…,"content":[{"type":
/// "input_text"|"output_text","text":…}]}}`; the context Codex adds (environment, AGENTS.md)
/// left out.
fn codex(record: &Value) -> Option<Exchange> {
    if record.get("type")?.as_str()? != "response_item" {
        return None;
    }
    let payload = record.get("payload")?;
    if payload.get("type")?.as_str()? != "message" {
        return None;
    }
    let speaker = match payload.get("role")?.as_str()? {
        "user" => Speaker::User,
        "assistant" => Speaker::Assistant,
        _ => return None,
    };
    let text = text_of(payload.get("content")?, &["input_text", "output_text"]);
    let added = [
        "<environment_context>",
        "<user_instructions>",
        "# AGENTS.md instructions",
    ];
    if added.iter().any(|tag| text.trim_start().starts_with(tag)) {
        return None;
    }
    Some(Exchange { speaker, text })
}

/// `{"type":"user"|"gemini","content": "…" | [{"text":…}]}`; the session context Gemini adds
/// left out.
fn gemini(record: &Value) -> Option<Exchange> {
    let speaker = match record.get("type")?.as_str()? {
        "user" => Speaker::User,
        "gemini" => Speaker::Assistant,
        _ => return None,
    };
    let text = text_of(record.get("content")?, &["text"]);
    if text.trim_start().starts_with("<session_context>") {
        return None;
    }
    Some(Exchange { speaker, text })
}

/// A string, or the text of the parts of an array whose `type` is one of `kinds` (or that
/// have no type but a `text`).
fn text_of(content: &Value, kinds: &[&str]) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|part| {
                part.get("type")
                    .and_then(Value::as_str)
                    .is_none_or(|kind| kinds.contains(&kind))
            })
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(lines: &[&str]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        for line in lines {
            writeln!(f, "{line}").expect("write");
        }
        f
    }

    fn said(exchanges: &[Exchange]) -> Vec<(Speaker, &str)> {
        exchanges
            .iter()
            .map(|e| (e.speaker, e.text.as_str()))
            .collect()
    }

    #[test]
    fn claude_keeps_the_asks_and_the_answers_text_only() {
        let f = file(&[
            r#"{"type":"summary","summary":"Usage flag"}"#,
            r#"{"type":"user","message":{"role":"user","content":"Add a --json flag"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"On it."},{"type":"tool_use","name":"Edit","input":{}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"ok"}]}}"#,
            r#"{"type":"user","isMeta":true,"message":{"content":"Your usage limit has reset."}}"#,
            r#"{"type":"user","message":{"content":"<command-name>/compact</command-name>"}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"text","text":"sub-agent"}]}}"#,
            "not json at all",
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Done: src/usage.rs."}]}}"#,
        ]);
        assert_eq!(
            said(&read(f.path(), Format::Claude)),
            [
                (Speaker::User, "Add a --json flag"),
                (Speaker::Assistant, "On it."),
                (Speaker::Assistant, "Done: src/usage.rs.")
            ]
        );
    }

    #[test]
    fn codex_leaves_out_the_context_it_adds() {
        let f = file(&[
            r#"{"type":"session_meta","payload":{"id":"x","cwd":"/p"}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix the tests"}]}}"#,
            r#"{"type":"response_item","payload":{"type":"function_call","name":"shell"}}"#,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed."}]}}"#,
            r#"{"type":"event_msg","payload":{"type":"user_message","message":"Fix the tests"}}"#,
        ]);
        assert_eq!(
            said(&read(f.path(), Format::Codex)),
            [
                (Speaker::User, "Fix the tests"),
                (Speaker::Assistant, "Fixed.")
            ]
        );
    }

    #[test]
    fn gemini_messages_and_patches() {
        let f = file(&[
            r#"{"sessionId":"abc","projectHash":"h","kind":"main"}"#,
            r#"{"id":"1","type":"user","content":[{"text":"<session_context>…</session_context>"}]}"#,
            r#"{"id":"2","type":"user","content":"Rename the crate"}"#,
            r#"{"$set":{"lastUpdated":"2026-12-01"}}"#,
            r#"{"id":"3","type":"gemini","content":"Renamed.","tokens":{"input":5}}"#,
        ]);
        assert_eq!(
            said(&read(f.path(), Format::Gemini)),
            [
                (Speaker::User, "Rename the crate"),
                (Speaker::Assistant, "Renamed.")
            ]
        );
    }

    #[test]
    fn a_huge_transcript_is_read_from_its_end() {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        let filler = format!(
            r#"{{"type":"user","message":{{"content":"{}"}}}}"#,
            "x".repeat(100_000)
        );
        for _ in 0..100 {
            writeln!(f, "{filler}").expect("write");
        }
        writeln!(
            f,
            r#"{{"type":"assistant","message":{{"content":[{{"type":"text","text":"the end"}}]}}}}"#
        )
        .expect("write");
        let exchanges = read(f.path(), Format::Claude);
        assert!(exchanges.len() < 100, "read {} messages", exchanges.len());
        assert_eq!(exchanges.last().map(|e| e.text.as_str()), Some("the end"));
    }

    #[test]
    fn a_glance_gives_the_title_the_last_activity_and_the_asks() {
        let f = file(&[
            r#"{"type":"user","timestamp":"2026-12-01T10:00:00Z","message":{"content":"Add a --json flag\nto idea usage"}}"#,
            r#"{"type":"assistant","timestamp":"2026-12-01T10:00:30Z","message":{"content":[{"type":"text","text":"On it."}]}}"#,
            r#"{"type":"user","timestamp":"2026-12-01T10:05:00Z","message":{"content":"And document it"}}"#,
        ]);
        let seen = glance(f.path(), Format::Claude);
        assert_eq!(
            seen.title.as_deref(),
            Some("Add a --json flag to idea usage")
        );
        assert_eq!(seen.last_activity, Some(1_796_119_500));
        assert_eq!(seen.asks, Some(2));
        let titled = file(&[
            r#"{"type":"user","message":{"content":"hi"}}"#,
            r#"{"type":"ai-title","aiTitle":"Greeting"}"#,
            r#"{"type":"custom-title","customTitle":"My session"}"#,
        ]);
        assert_eq!(
            glance(titled.path(), Format::Claude).title.as_deref(),
            Some("My session")
        );
        let gemini = file(&[
            r#"{"sessionId":"abc","lastUpdated":"2026-12-01T09:00:00Z"}"#,
            r#"{"id":"2","type":"user","content":"Rename the crate"}"#,
            r#"{"$set":{"summary":"Crate rename","lastUpdated":"2026-12-01T09:30:00Z"}}"#,
        ]);
        let seen = glance(gemini.path(), Format::Gemini);
        assert_eq!(seen.title.as_deref(), Some("Crate rename"));
        assert_eq!(seen.last_activity, Some(1_796_117_400));
    }

    #[test]
    fn a_missing_file_has_no_messages() {
        assert!(read(Path::new("/nonexistent/transcript.jsonl"), Format::Codex).is_empty());
    }
}
