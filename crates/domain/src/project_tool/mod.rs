//! Project tools: a command the team defines once, in `.ideai/tools/<folder>/TOOL.json` (or
//! the user's `~/.ideai/tools/`), that every agent calls as an MCP tool whatever its CLI.
//! The format is MAIA's:
//!
//! ```json
//! { "name": "Addition", "description": "Adds two numbers",
//!   "command": { "parameters": [ {"name": "a", "type": "number", "default": "0"} ],
//!                "run": "node ./add.js {{a}} {{b}}" } }
//! ```
//!
//! The `run` line is split into words once, like a POSIX shell would quote it but with no
//! expansion; a call's values then replace the `{{placeholders}}` inside their words and are
//! never split again, so no value can add an argument or reach a shell.

mod bind;
mod parse;
mod placeholder;
mod schema;

pub use bind::{BoundCall, ToolArgsError};
pub use parse::{MAX_TOOL_NAME_CHARS, RESERVED_PREFIX, parse_tool_json, valid_tool_name};

use serde::{Deserialize, Serialize};

/// The file a tool's folder holds.
pub const TOOL_FILE: &str = "TOOL.json";

/// A parameter's type, as in JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum ParamKind {
    Number,
    String,
}

impl ParamKind {
    /// The `TOOL.json` and JSON Schema spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Number => "number",
            Self::String => "string",
        }
    }
}

/// One parameter of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolParam {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ParamKind,
    /// The value when the call gives none, as text; a parameter without one is required.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl ToolParam {
    /// Whether a call must give it.
    pub const fn required(&self) -> bool {
        self.default.is_none()
    }
}

/// Where a tool is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub enum ToolSource {
    /// The project's `.ideai/tools/`.
    Project,
    /// The user's `~/.ideai/tools/`.
    User,
}

impl ToolSource {
    /// The folder the tools are read from, for display (`~` is the user's home).
    pub const fn folder(self) -> &'static str {
        match self {
            Self::Project => ".ideai/tools",
            Self::User => "~/.ideai/tools",
        }
    }
}

/// A tool as read from its `TOOL.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ProjectTool {
    /// The MCP tool name (`name`, else the folder's).
    pub name: String,
    /// The folder under the source's `tools/`: the tool's working directory.
    pub folder: String,
    pub source: ToolSource,
    pub description: String,
    pub params: Vec<ToolParam>,
    /// The run line split into words, placeholders kept.
    pub run: Vec<String>,
}

impl ProjectTool {
    /// The declared parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ToolParam> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// A tool that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ToolProblem {
    /// Its `TOOL.json`, as the user would find it (`.ideai/tools/add/TOOL.json`).
    pub path: String,
    pub reason: String,
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
