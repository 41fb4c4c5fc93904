//! Handing IdeA's MCP server to an agent's CLI: the `idea mcp-server` bridge written into the
//! CLI's own configuration, in the format that CLI documents (`docs/mcp.md`, "Handing the
//! server to each CLI"), plus what the convention file tells the agent about its route.
//!
//! Pure: the application writes the files and prepends the arguments.

use crate::profile::McpStyle;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The name of IdeA's server in every CLI's configuration: its tools appear to Claude as
/// `mcp__idea__<tool>`.
pub const SERVER_NAME: &str = "idea";

/// The file Claude Code's `--mcp-config` reads, relative to the run dir.
pub const CLAUDE_MCP_FILE: &str = ".idea-mcp.json";

/// How to start the bridge: the `idea` executable and the environment it needs to find the
/// owner's socket (some CLIs, Codex among them, start MCP servers with a bare environment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpBridge {
    pub program: PathBuf,
    pub env: BTreeMap<String, String>,
}

/// One agent's bridge command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeCommand<'a> {
    pub bridge: &'a McpBridge,
    pub project_root: &'a Path,
    /// The requesting agent, as `--requester` (its id: stable across renames).
    pub requester: &'a str,
}

impl BridgeCommand<'_> {
    fn args(&self) -> Vec<String> {
        vec![
            "mcp-server".to_owned(),
            "--project".to_owned(),
            self.project_root.display().to_string(),
            "--requester".to_owned(),
            self.requester.to_owned(),
        ]
    }

    fn program(&self) -> String {
        self.bridge.program.display().to_string()
    }
}

/// What a launch or a turn adds for the MCP server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpHandoff {
    /// Arguments that go right after the program (before a subcommand such as `exec`).
    pub args: Vec<String>,
    /// Files to write (absolute paths inside the run dir), whole.
    pub files: Vec<(PathBuf, String)>,
    /// Variables to set for the CLI.
    pub env: Vec<(String, String)>,
}

/// The configuration of IdeA's server for a CLI of `style` whose cwd is `cwd` (inside the run
/// dir, where IdeA's generated files live).
pub fn mcp_handoff(style: &McpStyle, bridge: &BridgeCommand<'_>, cwd: &Path) -> McpHandoff {
    let env = &bridge.bridge.env;
    match style {
        McpStyle::ConfigFileFlag { flag } => {
            let file = cwd.join(CLAUDE_MCP_FILE);
            let config = json!({"mcpServers": {SERVER_NAME: {
                "type": "stdio",
                "command": bridge.program(),
                "args": bridge.args(),
                "env": env,
            }}});
            McpHandoff {
                // `--allowedTools mcp__idea`: IdeA's tools need no prompt; every other tool keeps
                // the user's rules. Both options take every value up to the next option, so
                // nothing positional may follow them: callers put these first and the message
                // (a turn's) after `--`.
                args: vec![
                    flag.clone(),
                    file.display().to_string(),
                    "--allowedTools".to_owned(),
                    format!("mcp__{SERVER_NAME}"),
                ],
                files: vec![(file, pretty(&config))],
                env: Vec::new(),
            }
        }
        McpStyle::ConfigOverrides => {
            // Codex's `-c key=value` takes TOML values; a JSON string or array of strings is
            // valid TOML, and an inline table is written key by key.
            let key = |field: &str| format!("mcp_servers.{SERVER_NAME}.{field}");
            let mut args = vec![
                "-c".to_owned(),
                format!("{}={}", key("command"), json_string(&bridge.program())),
                "-c".to_owned(),
                format!("{}={}", key("args"), Value::from(bridge.args())),
                "-c".to_owned(),
                format!("{}={}", key("env"), toml_inline_table(env)),
                // Without it an unattended call fails with "MCP tool call requires approval".
                "-c".to_owned(),
                format!("{}=\"approve\"", key("default_tools_approval_mode")),
            ];
            args.shrink_to_fit();
            McpHandoff {
                args,
                ..McpHandoff::default()
            }
        }
        McpStyle::SettingsFile { path, env: var, .. } => {
            // Gemini CLI: `trust` spares IdeA's tools the confirmation prompt.
            let config = json!({"mcpServers": {SERVER_NAME: {
                "command": bridge.program(),
                "args": bridge.args(),
                "env": env,
                "trust": true,
            }}});
            let file = cwd.join(path);
            let env = var
                .iter()
                .map(|var| (var.clone(), file.display().to_string()))
                .collect();
            McpHandoff {
                args: Vec::new(),
                files: vec![(file, pretty(&config))],
                env,
            }
        }
        McpStyle::OpencodeConfig { path } => {
            // OpenCode: `mcp.<name>` of type `local`, the command as one array.
            let mut command = vec![bridge.program()];
            command.extend(bridge.args());
            let config = json!({"mcp": {SERVER_NAME: {
                "type": "local",
                "command": command,
                "environment": env,
                "enabled": true,
            }}});
            McpHandoff {
                args: Vec::new(),
                files: vec![(cwd.join(path), pretty(&config))],
                env: Vec::new(),
            }
        }
    }
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

fn json_string(text: &str) -> String {
    Value::from(text).to_string()
}

/// `{K="v",…}`; keys that are not bare TOML keys are quoted.
fn toml_inline_table(entries: &BTreeMap<String, String>) -> String {
    let mut out = String::from("{");
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let bare = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let key = if bare { key.clone() } else { json_string(key) };
        let _ = write!(out, "{key}={}", json_string(value));
    }
    out.push('}');
    out
}

/// The convention file's "Working with the other agents" section for an agent whose CLI has
/// IdeA's MCP server, with one worked example. (Without it: `filedrop::file_drop_guide`.)
pub fn mcp_guide() -> String {
    "You can ask the other agents of this project for help through IdeA's MCP server `idea`, \
     already configured for you:\n\n\
     - `idea_list_agents`: who is here (name, profile, live state, cell).\n\
     - `idea_ask_agent {agent, message, timeoutSecs?}`: one turn of that agent; its final \
     answer comes back as the tool's result (a busy or unknown agent is an error you can \
     read).\n\
     - `idea_spawn_agent {name, profile, persona?}` and `idea_list_profiles`: add a teammate.\n\
     - `idea_read_agent_persona {agent}`: what an agent is for.\n\n\
     Example: to have the agent named Reviewer check your change, call `idea_ask_agent` with \
     `{\"agent\": \"Reviewer\", \"message\": \"Review the diff in src/parser.rs for \
     off-by-one errors; answer with a list of findings.\"}` and read its answer in the tool \
     result. Say everything the other agent needs in the message: it does not see your \
     conversation."
        .to_owned()
}

#[cfg(test)]
mod tests;
