//! What an agent was doing, handed to the engine it continues on (`ChangeAgentProfile`): an
//! objective and where the work stands, kept in `.ideai/conversations/<pairId>/handoff.json`
//! and injected as the convention file's `# Conversation resume` while the agent runs on the
//! engine it was written for.

use crate::ProfileId;
use serde::{Deserialize, Serialize};

/// The most of each part a handoff keeps (a user's edit included): the convention file is read
/// whole by every CLI at start.
pub const OBJECTIVE_MAX_CHARS: usize = 2_000;
pub const SUMMARY_MAX_CHARS: usize = 12_000;
/// A drafted summary's budget for the conversation (the newest exchanges win) and per message.
const EXCHANGES_MAX_CHARS: usize = 6_000;
const MESSAGE_MAX_CHARS: usize = 800;
const WORK_IN_PROGRESS_MAX_CHARS: usize = 3_000;

/// An objective and where the work stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
    pub objective: String,
    pub summary: String,
}

impl Handoff {
    /// Both parts trimmed and cut to their bounds (on a character boundary).
    #[must_use]
    pub fn bounded(self) -> Self {
        Self {
            objective: cut(self.objective.trim(), OBJECTIVE_MAX_CHARS),
            summary: cut(self.summary.trim(), SUMMARY_MAX_CHARS),
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.objective.trim().is_empty() && self.summary.trim().is_empty()
    }
}

/// The `version` of `handoff.json` this build writes and reads.
pub const HANDOFF_VERSION: u32 = 1;

/// `handoff.json`: the handoff and the engine it was written for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredHandoff {
    pub version: u32,
    /// The profile the agent moved to: injected only while it runs on that one.
    pub for_profile: ProfileId,
    /// The profile it left.
    pub from_profile: ProfileId,
    /// Seconds since the epoch.
    pub written_at: u64,
    #[serde(flatten)]
    pub handoff: Handoff,
}

/// Who said a message of a saved conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    User,
    Assistant,
}

/// One message of a CLI's saved conversation: its text only (no tool calls or results).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub speaker: Speaker,
    pub text: String,
}

/// A handoff drafted from the conversation (oldest message first) and the work in progress
/// (`git diff --stat`): the objective is the user's first ask, the summary the newest
/// exchanges that fit, then the changed files.
#[must_use]
pub fn draft(exchanges: &[Exchange], work_in_progress: Option<&str>) -> Handoff {
    let objective = exchanges
        .iter()
        .find(|e| e.speaker == Speaker::User && !e.text.trim().is_empty())
        .map(|e| cut(e.text.trim(), OBJECTIVE_MAX_CHARS))
        .unwrap_or_default();
    let mut recent = Vec::new();
    let mut used = 0;
    for exchange in exchanges.iter().rev() {
        let text = one_line(&exchange.text);
        if text.is_empty() {
            continue;
        }
        let who = match exchange.speaker {
            Speaker::User => "User",
            Speaker::Assistant => "You",
        };
        let line = format!("- {who}: {}", cut(&text, MESSAGE_MAX_CHARS));
        used += line.chars().count() + 1;
        if used > EXCHANGES_MAX_CHARS && !recent.is_empty() {
            break;
        }
        recent.push(line);
    }
    recent.reverse();
    let mut summary = String::new();
    if !recent.is_empty() {
        let skipped = exchanges
            .iter()
            .filter(|e| !one_line(&e.text).is_empty())
            .count()
            - recent.len();
        summary.push_str("The conversation so far");
        if skipped > 0 {
            summary.push_str(&format!(" ({skipped} earlier messages left out)"));
        }
        summary.push_str(", on the previous engine:\n\n");
        summary.push_str(&recent.join("\n"));
    }
    add_work_in_progress(&mut summary, work_in_progress);
    Handoff { objective, summary }.bounded()
}

/// Appends `git diff --stat`'s lines, when there are any, after a blank line.
fn add_work_in_progress(summary: &mut String, work_in_progress: Option<&str>) {
    if let Some(stat) = work_in_progress.map(str::trim).filter(|s| !s.is_empty()) {
        if !summary.is_empty() {
            summary.push_str("\n\n");
        }
        summary.push_str("Work in progress (`git diff --stat HEAD`):\n\n```\n");
        summary.push_str(&cut(stat, WORK_IN_PROGRESS_MAX_CHARS));
        summary.push_str("\n```");
    }
}

/// What IdeA asks the old engine in a summary turn (its own words are the best handoff).
pub const SUMMARY_ASK: &str = "You are being moved to another engine; whoever continues reads only \
what you write now. Do not use any tool. Reply with exactly two parts and nothing else:\n\
OBJECTIVE: one line, what the user wants done.\n\
SUMMARY: what is done, what is left, the next step, and the files involved.";

/// The handoff an answer to [`SUMMARY_ASK`] gives, with the work in progress appended as in
/// [`draft`]; `None` when the answer does not have both parts (the transcript's draft is then
/// used instead).
pub fn from_summary(answer: &str, work_in_progress: Option<&str>) -> Option<Handoff> {
    let upper = answer.to_ascii_uppercase();
    let objective_at = upper.find("OBJECTIVE:")?;
    let summary_at = upper.find("SUMMARY:")?;
    if summary_at < objective_at {
        return None;
    }
    let objective = answer[objective_at + "OBJECTIVE:".len()..summary_at].trim();
    let mut summary = answer[summary_at + "SUMMARY:".len()..].trim().to_owned();
    if objective.is_empty() || summary.is_empty() {
        return None;
    }
    add_work_in_progress(&mut summary, work_in_progress);
    Some(
        Handoff {
            objective: objective.to_owned(),
            summary,
        }
        .bounded(),
    )
}

/// Whitespace runs (newlines included) as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters, with an ellipsis when cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_turns_answer_gives_both_parts_or_nothing() {
        let answer = "Sure.\nObjective: port the parser to nom\nSUMMARY: lexer done; parser next (src/parse.rs).";
        let handoff = from_summary(answer, Some(" src/parse.rs | 3 ++-")).expect("both parts");
        assert_eq!(handoff.objective, "port the parser to nom");
        assert!(
            handoff
                .summary
                .starts_with("lexer done; parser next (src/parse.rs).")
        );
        assert!(handoff.summary.contains("src/parse.rs | 3 ++-"));
        assert_eq!(from_summary("I did some things.", None), None);
        assert_eq!(from_summary("SUMMARY: x\nOBJECTIVE: y", None), None);
        assert_eq!(from_summary("OBJECTIVE:\nSUMMARY: x", None), None);
        // Non-ASCII text keeps its byte positions through the search.
        let accented = from_summary("OBJECTIVE: réécrire é\nSUMMARY: fait à moitié", None)
            .expect("both parts");
        assert_eq!(accented.objective, "réécrire é");
    }

    fn said(speaker: Speaker, text: &str) -> Exchange {
        Exchange {
            speaker,
            text: text.into(),
        }
    }

    #[test]
    fn a_draft_takes_the_first_ask_the_newest_exchanges_and_the_changed_files() {
        let exchanges = [
            said(Speaker::User, "Add a --json flag to `idea usage`"),
            said(
                Speaker::Assistant,
                "I will start with the parser.\nThen the output.",
            ),
            said(Speaker::User, "   "),
            said(Speaker::User, "Also document it"),
        ];
        let handoff = draft(
            &exchanges,
            Some(" src/usage.rs | 12 ++++\n 1 file changed\n"),
        );
        assert_eq!(handoff.objective, "Add a --json flag to `idea usage`");
        assert!(
            handoff
                .summary
                .contains("- You: I will start with the parser. Then the output.")
        );
        assert!(handoff.summary.contains("- User: Also document it"));
        assert!(handoff.summary.contains("src/usage.rs | 12 ++++"));
        assert!(!handoff.summary.contains("left out"));
    }

    #[test]
    fn a_long_conversation_keeps_its_newest_messages_within_the_bound() {
        let exchanges: Vec<_> = (0..500)
            .map(|i| {
                said(
                    if i % 2 == 0 {
                        Speaker::User
                    } else {
                        Speaker::Assistant
                    },
                    &format!("message {i} {}", "x".repeat(2_000)),
                )
            })
            .collect();
        let handoff = draft(&exchanges, None);
        assert!(handoff.summary.chars().count() <= SUMMARY_MAX_CHARS + 1);
        assert!(handoff.summary.contains("message 499"));
        assert!(!handoff.summary.contains("message 400 "));
        assert!(handoff.summary.contains("earlier messages left out"));
        assert!(handoff.objective.starts_with("message 0"));
        assert!(handoff.objective.chars().count() <= OBJECTIVE_MAX_CHARS + 1);
    }

    #[test]
    fn nothing_known_drafts_an_empty_handoff() {
        assert!(draft(&[], None).is_empty());
        assert!(draft(&[], Some("  \n")).is_empty());
    }

    #[test]
    fn cutting_respects_characters() {
        assert_eq!(cut("ééé", 2), "éé…");
        assert_eq!(cut("ab", 2), "ab");
    }
}
