//! Which memory entries an agent sees first, and searching them.

use super::entry::one_line;
use super::{MemoryEntry, MemoryType};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// Longest excerpt of a hit, in characters.
const EXCERPT_CHARS: usize = 200;

/// Sorts entries most useful first: feedback (how the user wants things done), user,
/// project, reference; then the most recently updated (undated last); then by slug.
pub fn recall_order(entries: &mut [MemoryEntry]) {
    entries.sort_by(|a, b| {
        (type_rank(a.kind), Reverse(a.updated_at), &a.slug).cmp(&(
            type_rank(b.kind),
            Reverse(b.updated_at),
            &b.slug,
        ))
    });
}

const fn type_rank(kind: MemoryType) -> u8 {
    match kind {
        MemoryType::Feedback => 0,
        MemoryType::User => 1,
        MemoryType::Project => 2,
        MemoryType::Reference => 3,
    }
}

/// An entry a search found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MemoryHit {
    pub slug: String,
    pub title: String,
    pub hook: String,
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Title hits count 3, hook hits 2, body hits 1.
    pub score: u32,
    /// The line that matched best, trimmed to 200 chars.
    pub excerpt: String,
}

/// The entries that hold the query's words (ignoring case), best first (then by slug), at
/// most `limit`. A word counts each time it occurs: in the title 3 points, in the hook 2,
/// in the body 1. Entries without a hit are left out.
pub fn search_memory(entries: &[MemoryEntry], query: &str, limit: usize) -> Vec<MemoryHit> {
    let mut words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    words.sort();
    words.dedup();
    if words.is_empty() {
        return Vec::new();
    }
    let mut hits: Vec<MemoryHit> = entries
        .iter()
        .filter_map(|entry| hit(entry, &words))
        .collect();
    hits.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.slug.cmp(&b.slug)));
    hits.truncate(limit);
    hits
}

fn hit(entry: &MemoryEntry, words: &[String]) -> Option<MemoryHit> {
    let body_lines: Vec<(&str, u32)> = entry
        .body
        .lines()
        .map(|line| (line, count(line, words)))
        .collect();
    let body: u32 = body_lines.iter().map(|(_, n)| n).sum();
    let score = count(&entry.title, words)
        .saturating_mul(3)
        .saturating_add(count(&entry.hook, words).saturating_mul(2))
        .saturating_add(body);
    if score == 0 {
        return None;
    }
    // The first of the best body lines; the hook when only the title or hook matched.
    let best = body_lines
        .iter()
        .filter(|(_, n)| *n > 0)
        .fold(None::<(&str, u32)>, |best, &(line, n)| match best {
            Some((_, m)) if m >= n => best,
            _ => Some((line, n)),
        })
        .map_or(entry.hook.as_str(), |(line, _)| line);
    Some(MemoryHit {
        slug: entry.slug.clone(),
        title: entry.title.clone(),
        hook: entry.hook.clone(),
        kind: entry.kind,
        score,
        excerpt: excerpt(best),
    })
}

/// How many times the words occur in `text`, ignoring case.
fn count(text: &str, words: &[String]) -> u32 {
    let text = text.to_lowercase();
    let n: usize = words.iter().map(|w| text.matches(w.as_str()).count()).sum();
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn excerpt(line: &str) -> String {
    let line = one_line(line);
    if line.chars().count() <= EXCERPT_CHARS {
        return line;
    }
    let mut cut: String = line.chars().take(EXCERPT_CHARS - 1).collect();
    cut.push('…');
    cut
}
