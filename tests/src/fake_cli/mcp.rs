//! The fakes as MCP clients: like the real CLIs they start the `idea` server their
//! configuration names (Claude: `--mcp-config` files; Codex: `-c mcp_servers.idea.*`), with the
//! environment each real CLI gives it, and call one of its tools with rmcp's client.
//!
//! A prompt `ask <agent>: <message>` makes a fake call `idea_ask_agent`; the answer it then
//! gives is `<agent> answered: <tool result>` (see [`AskPrompt`]).

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ContentBlock};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::process::Stdio;
use std::time::Duration;

/// How long a fake waits for the server's handshake and for one tool call.
const CALL_DEADLINE: Duration = Duration::from_secs(120);

/// Variables Codex hands an MCP server from its own environment (its `DEFAULT_ENV_VARS`);
/// everything else must be in the server's `env`.
pub const CODEX_INHERITED_ENV: &[&str] = &[
    "HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ",
];

/// One stdio MCP server as a CLI's configuration names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerSpec {
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// Start it with only these variables of the CLI's own environment (plus `env`); `None`
    /// passes the whole environment on (Claude Code).
    pub inherited: Option<&'static [&'static str]>,
}

/// A prompt asking another agent through IdeA: `ask <agent>: <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskPrompt {
    pub agent: String,
    pub message: String,
}

impl AskPrompt {
    /// The ask in `prompt`, if it is one.
    pub fn parse(prompt: &str) -> Option<Self> {
        let rest = prompt.trim().strip_prefix("ask ")?;
        let (agent, message) = rest.split_once(':')?;
        let (agent, message) = (agent.trim(), message.trim());
        (!agent.is_empty() && !message.is_empty()).then(|| Self {
            agent: agent.to_owned(),
            message: message.to_owned(),
        })
    }

    /// The tool's arguments.
    pub fn arguments(&self) -> Value {
        json!({"agent": self.agent, "message": self.message})
    }

    /// What the fake answers once the tool returned `result`.
    pub fn answer(&self, result: &str) -> String {
        format!("{} answered: {result}", self.agent)
    }
}

/// Starts `server`, calls `tool` with `arguments` and returns the result's text; an error
/// result's text (or a failure to start or call) is `Err`.
///
/// # Errors
/// The text the fake reports as the tool's failure.
pub fn call_tool(server: &ServerSpec, tool: &str, arguments: Value) -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("no runtime: {e}"))?;
    runtime.block_on(async {
        tokio::time::timeout(CALL_DEADLINE, call(server, tool, arguments))
            .await
            .map_err(|_| format!("MCP tool call {tool} timed out"))?
    })
}

async fn call(server: &ServerSpec, tool: &str, arguments: Value) -> Result<String, String> {
    let command = tokio::process::Command::new(&server.command).configure(|cmd| {
        cmd.args(&server.args);
        if let Some(kept) = server.inherited {
            cmd.env_clear();
            for var in kept {
                if let Some(value) = std::env::var_os(var) {
                    cmd.env(var, value);
                }
            }
        }
        cmd.envs(&server.env);
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("MCP server idea failed to start: {e}"))?;
    let client = ()
        .serve(transport)
        .await
        .map_err(|e| format!("MCP client for `idea` failed to start: {e}"))?;
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(map) = arguments {
        params = params.with_arguments(map);
    }
    let result = client
        .call_tool(params)
        .await
        .map_err(|e| format!("MCP tool call {tool} failed: {e}"))?;
    let _ = client.cancel().await;
    let text = result
        .content
        .iter()
        .filter_map(|c| match c {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn ask_prompts_name_an_agent_and_a_message() {
        let ask = AskPrompt::parse("ask Reviewer: check src/a.rs: line 3").unwrap();
        assert_eq!(ask.agent, "Reviewer");
        assert_eq!(ask.message, "check src/a.rs: line 3");
        assert_eq!(AskPrompt::parse("hello"), None);
        assert_eq!(AskPrompt::parse("ask : x"), None);
        assert_eq!(AskPrompt::parse("ask Bob:   "), None);
    }
}
