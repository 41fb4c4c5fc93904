//! Project memory index entries (planned; `docs/design.md`, "Project and `.ideai/`"):
//! `.ideai/memory/<slug>.md`.

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
    /// The front-matter spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Feedback => "feedback",
            Self::Project => "project",
            Self::Reference => "reference",
        }
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
