//! The MCP server's handler: IdeA's own tools, and the project's tools (`.ideai/tools`,
//! `~/.ideai/tools`), listed and called beside them. Every call first goes through the
//! permission rules (`authorizeToolCall` for IdeA's own, `callTool` for the project's).
//! The tool list is watched while the client is connected: a tool added, changed or removed
//! sends `notifications/tools/list_changed`.

use super::IdeaTools;
use super::call::{call, failure, success};
use idea_domain::project_tool::ProjectTool;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// How often a connected client's tool list is compared with the tools on disk.
const TOOL_WATCH_INTERVAL: Duration = Duration::from_secs(2);

const INSTRUCTIONS: &str = "IdeA runs several coding agents on one project. These tools let \
you see the project's other agents, ask one of them a question and wait for its answer, create \
new agents, and keep the project's memory. The project's own tools are listed beside them. \
Start with idea_list_agents.";

impl IdeaTools {
    /// The project's tools, as MCP tools; a listing that fails lists none (and logs why).
    async fn project_tools(&self) -> Vec<ProjectTool> {
        match call(&self.deps, "listTools", Value::Null).await {
            Ok(view) => serde_json::from_value(view["tools"].clone()).unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "mcp: the project's tools could not be listed");
                Vec::new()
            }
        }
    }

    async fn all_listed(&self) -> Vec<Tool> {
        let mut tools = self.own_tools();
        let own: std::collections::HashSet<String> =
            tools.iter().map(|t| t.name.to_string()).collect();
        for tool in self.project_tools().await {
            if own.contains(&tool.name) {
                continue; // `idea_` is reserved: a clash cannot parse, but never shadow ours
            }
            tools.push(Tool::new(
                tool.name.clone(),
                tool.description.clone(),
                Arc::new(tool.input_schema()),
            ));
        }
        tools
    }

    /// A project tool's call, through the API (rules, sandbox, the user's answer).
    async fn call_project_tool(&self, name: &str, arguments: Value) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = %name, "mcp: project tool call");
        let params = json!({ "tool": name, "arguments": arguments, "agent": &*self.requester });
        match call(&self.deps, "callTool", params).await {
            Ok(result) => tool_result(&result),
            Err(e) => failure(&e),
        }
    }
}

/// A run's result as the model reads it: stdout; a failure is a tool error with stderr. Text
/// only: a client given structured content may show the model that instead (Codex does),
/// and a tool's output is its text.
fn tool_result(result: &Value) -> CallToolResult {
    let text = |key: &str| result[key].as_str().unwrap_or_default().to_owned();
    let (stdout, stderr) = (text("stdout"), text("stderr"));
    let mut notes = Vec::new();
    if result["truncated"] == json!(true) {
        notes.push("(output cut at 30,000 characters)".to_owned());
    }
    if result["ok"] == json!(true) {
        let mut said = if stdout.is_empty() {
            "(no output)".to_owned()
        } else {
            stdout
        };
        for note in notes {
            said.push('\n');
            said.push_str(&note);
        }
        let mut done = success(said, None);
        if !stderr.trim().is_empty() {
            done.content
                .push(ContentBlock::text(format!("stderr:\n{stderr}")));
        }
        return done;
    }
    let how = if result["timedOut"] == json!(true) {
        "The tool was stopped after 2 minutes.".to_owned()
    } else {
        match result["exitCode"].as_i64() {
            Some(code) => format!("The tool failed with exit code {code}."),
            None => "The tool was ended by a signal.".to_owned(),
        }
    };
    let mut said = vec![how];
    if !stderr.trim().is_empty() {
        said.push(format!("stderr:\n{stderr}"));
    }
    if !stdout.trim().is_empty() {
        said.push(format!("stdout:\n{stdout}"));
    }
    said.extend(notes);
    CallToolResult::error(vec![ContentBlock::text(said.join("\n\n"))])
}

/// A fingerprint of a tool list: what a client would see change.
fn fingerprint(tools: &[ProjectTool]) -> String {
    serde_json::to_string(tools).unwrap_or_default()
}

impl rmcp::ServerHandler for IdeaTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("idea", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS.to_owned())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.all_listed().await))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tool_router.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        if !self.is_own_tool(&name) {
            return Ok(self.call_project_tool(&name, arguments).await.into());
        }
        let params = json!({ "agent": &*self.requester, "tool": name, "arguments": arguments });
        if let Err(e) = call(&self.deps, "authorizeToolCall", params).await {
            return Ok(failure(&e).into());
        }
        self.tool_router
            .call(ToolCallContext::new(self, request, context))
            .await
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let peer = context.peer.clone();
        let tools = self.clone();
        tokio::spawn(async move {
            // Read from the store itself, not through the API: a poll every 2 s per agent
            // would fill the log with its requests.
            let on_disk = |tools: &IdeaTools| {
                let deps = Arc::clone(&tools.deps);
                async move {
                    tokio::task::spawn_blocking(move || deps.knowledge.tools().tools)
                        .await
                        .unwrap_or_default()
                }
            };
            let mut seen = fingerprint(&on_disk(&tools).await);
            loop {
                tokio::time::sleep(TOOL_WATCH_INTERVAL).await;
                if peer.is_transport_closed() {
                    break;
                }
                let now = fingerprint(&on_disk(&tools).await);
                if now == seen {
                    continue;
                }
                seen = now;
                tracing::info!(requester = %tools.requester, "mcp: the project's tools changed");
                if peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
            }
        });
    }
}
