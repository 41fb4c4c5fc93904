//! Project memory: one Markdown file per entry in `.ideai/memory/<slug>.md` (front matter
//! `title`, `hook`, `type`, `writer`, `updated`), plus a generated `MEMORY.md` index. Every
//! agent of the project recalls the index and reads, writes and searches the entries.

mod entry;
mod recall;
mod slug;

pub use entry::{MEMORY_INDEX, parse_memory_entry, render_memory_entry, render_memory_index};
pub use recall::{MemoryHit, recall_order, search_memory};
pub use slug::{MAX_SLUG_CHARS, memory_slug, valid_memory_slug};

use serde::{Deserialize, Serialize};

/// The kind of a memory entry, as in its front matter `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum MemoryType {
    User,
    Feedback,
    Project,
    Reference,
}

impl MemoryType {
    /// Every kind, in front-matter spelling order.
    pub const ALL: [Self; 4] = [Self::User, Self::Feedback, Self::Project, Self::Reference];

    /// The front-matter spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Feedback => "feedback",
            Self::Project => "project",
            Self::Reference => "reference",
        }
    }

    /// Reads a front-matter spelling, ignoring case and surrounding space.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(text))
    }
}

/// One line of the memory index: enough to decide whether to read the entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MemoryIndexEntry {
    pub slug: String,
    pub title: String,
    /// One sentence that says when this memory is useful.
    pub hook: String,
    #[serde(rename = "type")]
    pub kind: MemoryType,
}

/// A memory entry, as in its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct MemoryEntry {
    /// The file's name without `.md`.
    pub slug: String,
    pub title: String,
    /// One sentence that says when this memory is useful.
    pub hook: String,
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Who wrote it last: an agent's name, or "user".
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<String>,
    /// Unix seconds of the last write.
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<u64>,
    /// The Markdown after the front matter.
    pub body: String,
}

impl MemoryEntry {
    /// Its line in the index.
    pub fn index_entry(&self) -> MemoryIndexEntry {
        MemoryIndexEntry {
            slug: self.slug.clone(),
            title: self.title.clone(),
            hook: self.hook.clone(),
            kind: self.kind,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
