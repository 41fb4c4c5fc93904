//! Permissions: which tool calls an agent may make without asking, must ask for, or may not
//! make. Pure: files arrive as text, shell commands already parsed (see [`command`]).
//!
//! - [`rule`]: the grammar of one rule, `Tool` or `Tool(pattern)`.
//! - [`wildcard`], [`command`], [`path`]: what a pattern matches, by tool.
//! - [`file`]: a permissions file's shape, read entry by entry, and edited without losing any.
//! - [`set`]: the rules of every file added together and the decision for one call: `deny`
//!   beats `ask` beats `allow`, and no rule means `ask`.

pub mod claude;
pub mod command;
pub mod file;
pub mod gemini;
pub mod path;
pub mod rule;
pub mod set;
pub mod wildcard;

pub use command::{CommandPart, CommandPattern, ShellCommand, Word};
pub use file::{RuleChange, RuleEntry};
pub use path::PathContext;
pub use rule::{Pattern, Rule, RuleError};
pub use set::{
    DeniedPath, PathAccess, PermissionFile, PermissionSet, PermissionWarning, RuleRef, ToolCall,
    ToolInput, Verdict,
};

use serde::{Deserialize, Serialize};

/// The three families of rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum RuleKind {
    Allow,
    Ask,
    Deny,
}

impl RuleKind {
    /// In file order.
    pub const ALL: [Self; 3] = [Self::Allow, Self::Ask, Self::Deny];

    /// The key of its list in a file.
    pub fn key(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::Deny => "deny",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }
}

/// What happens to one tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Decision {
    /// Runs without asking.
    Allow,
    /// The user confirms it first.
    Ask,
    /// Refused.
    Deny,
}

/// Whose file a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum PermissionScope {
    /// `~/.ideai/permissions.json`: every project of this user.
    User,
    /// `.ideai/permissions.json`: this project (shared with whoever clones it).
    Project,
}

#[cfg(test)]
mod tests;
