//! The tools IdeA offers an agent over MCP. Each one is a few API calls through
//! [`super::call`]; every answer is text a model reads, errors included (`isError: true`).

use super::call::{
    call, call_as, decoded, failure, in_place, json, refusal, run_in_order, success,
};
use super::order::Admitted;
use super::params::{AgentParams, AskAgentParams, SpawnAgentParams, WorktreeDiffParams};
use super::{cancel, roster};
use idea_application::{Deps, WireError};
use idea_domain::Agent;
use idea_domain::terminal::SessionInfo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The MCP server of one connection: the project's API, and the agent it acts for.
#[derive(Debug, Clone)]
pub struct IdeaTools {
    pub(super) deps: Arc<Deps>,
    /// The handshake's agent (name or id): the asker of every `idea_ask_agent`.
    pub(super) requester: Arc<str>,
    pub(super) tool_router: ToolRouter<Self>,
}

impl IdeaTools {
    pub fn new(deps: Arc<Deps>, requester: &str) -> Self {
        Self {
            deps,
            requester: Arc::from(requester),
            tool_router: Self::all_tools(),
        }
    }

    /// IdeA's own tools (the project's tools are listed apart, see [`super::handler`]).
    fn all_tools() -> ToolRouter<Self> {
        Self::tool_router() + Self::memory_router()
    }

    /// IdeA's tools that change state: they run in the order they were called (see
    /// [`super::order`]); read-only ones and the project's tools (which may run for minutes
    /// and change no state of IdeA's) run beside them.
    pub fn ordered() -> HashSet<String> {
        Self::all_tools()
            .list_all()
            .into_iter()
            .filter(|tool| tool.annotations.as_ref().and_then(|a| a.read_only_hint) != Some(true))
            .map(|tool| tool.name.into_owned())
            .collect()
    }

    /// Whether `name` is one of IdeA's own tools.
    pub(super) fn is_own_tool(&self, name: &str) -> bool {
        self.tool_router.has_route(name)
    }

    pub(super) fn own_tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }

    pub(super) async fn agents(&self) -> Result<Vec<Agent>, WireError> {
        call_as(&self.deps, "listAgents", Value::Null).await
    }

    /// The agent `name_or_id`, or the tool error saying who exists.
    async fn resolve(&self, name_or_id: &str) -> Result<Agent, CallToolResult> {
        let agents = self.agents().await.map_err(|e| failure(&e))?;
        roster::find(&agents, name_or_id).cloned().ok_or_else(|| {
            refusal(format!(
                "no agent \"{name_or_id}\" in this project (AGENT_NOT_FOUND): {}. \
                 Call idea_list_agents to see them.",
                roster::names(&agents)
            ))
        })
    }
}

#[tool_router]
impl IdeaTools {
    #[tool(
        name = "idea_list_agents",
        description = "List the agents of this IdeA project: name, id, runtime profile, \
            state (\"running\", \"exited\" or \"not started\"), the cell showing its terminal, \
            and which one is you. Use a name from here with idea_ask_agent.",
        annotations(read_only_hint = true)
    )]
    async fn list_agents(&self) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_list_agents", "mcp: tool call");
        // Both at once: each is a blocking call of its own.
        let (agents, sessions) = tokio::join!(
            self.agents(),
            call_as::<Vec<SessionInfo>>(&self.deps, "listSessions", Value::Null)
        );
        let (agents, sessions) = match (agents, sessions) {
            (Ok(agents), Ok(sessions)) => (agents, sessions),
            (Err(e), _) | (_, Err(e)) => return failure(&e),
        };
        let views = roster::views(&agents, &sessions, &self.requester);
        json(json!({ "agents": views }))
    }

    #[tool(
        name = "idea_ask_agent",
        description = "Ask another agent of this project a question, or give it a task, and \
            wait for its answer. The agent sees only your message, its own persona and the \
            project files, so say everything it needs. Fails with a readable error when the \
            agent does not exist, cannot be asked, is busy or does not answer in time.",
        annotations(read_only_hint = false, open_world_hint = false)
    )]
    async fn ask_agent(
        &self,
        Parameters(ask): Parameters<AskAgentParams>,
        cancelled: CancellationToken,
        Extension(admitted): Extension<Admitted>,
    ) -> CallToolResult {
        tracing::info!(
            requester = %self.requester,
            tool = "idea_ask_agent",
            target = %ask.agent,
            "mcp: tool call"
        );
        // The API knows an asking agent by its id; the handshake may have named it.
        let agents = match self.agents().await {
            Ok(agents) => agents,
            Err(e) => return failure(&e),
        };
        let Some(requester) = roster::find(&agents, &self.requester).map(|me| me.agent_id) else {
            return refusal(format!(
                "this MCP server acts for \"{}\", which is not an agent of this project \
                 (AGENT_NOT_FOUND): IdeA cannot tell the asked agent who asks. Tell the user.",
                self.requester
            ));
        };
        // The request's id is ours, so that the client's cancellation can cancel it.
        let request_id = uuid::Uuid::new_v4();
        let params = json!({
            "requester": requester,
            "target": ask.agent,
            "message": ask.message,
            "timeoutSecs": ask.timeout_secs,
            "requestId": request_id,
        });
        // In the connection's order until it is queued; its answer is waited for beside.
        let deps = Arc::clone(&self.deps);
        let answer = in_place(&admitted, move |ticket| {
            run_in_order(&deps, "askAgent", params, ticket)
        });
        match cancel::on_cancel(&self.deps, request_id, answer, &cancelled).await {
            Ok(answer) => match answer.get("text").and_then(Value::as_str) {
                Some(text) => success(text.to_owned(), Some(answer.clone())),
                None => json(answer),
            },
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_spawn_agent",
        description = "Create a new agent in this project, with a runtime profile (see \
            idea_list_profiles) and a persona (Markdown instructions). It appears at once in \
            every open IdeA window; creating it does not start it.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false
        )
    )]
    async fn spawn_agent(
        &self,
        Parameters(spawn): Parameters<SpawnAgentParams>,
        Extension(admitted): Extension<Admitted>,
    ) -> CallToolResult {
        tracing::info!(
            requester = %self.requester,
            tool = "idea_spawn_agent",
            name = %spawn.name,
            "mcp: tool call"
        );
        let params = json!({
            "name": spawn.name,
            "profileId": spawn.profile,
            "template": spawn.template,
        });
        let deps = Arc::clone(&self.deps);
        // Both in the tool call's one place: no later call of the client comes in between.
        let created = in_place(&admitted, move |ticket| {
            let created = run_in_order(&deps, "createAgent", params, ticket)?;
            let agent: Agent = decoded("createAgent", created)?;
            let persona = spawn.persona.map(|persona| {
                let params = json!({ "agentId": agent.agent_id, "content": persona });
                run_in_order(&deps, "updateAgentContext", params, ticket)
            });
            Ok((agent, persona.and_then(Result::err)))
        })
        .await;
        let (agent, persona_failed) = match created {
            Ok(created) => created,
            Err(e) => return failure(&e),
        };
        if let Some(e) = persona_failed {
            let mut result = failure(&e);
            result.content.insert(
                0,
                rmcp::model::ContentBlock::text(format!(
                    "The agent {} was created, but its persona could not be written:",
                    agent.name
                )),
            );
            return result;
        }
        let text = format!(
            "Created agent {} (id {}, profile {}).",
            agent.name, agent.agent_id, agent.profile_id
        );
        success(text, serde_json::to_value(&agent).ok())
    }

    #[tool(
        name = "idea_read_agent_persona",
        description = "Read an agent's persona: the Markdown instructions it follows (its \
            role and rules). Useful before asking it something.",
        annotations(read_only_hint = true)
    )]
    async fn read_agent_persona(
        &self,
        Parameters(read): Parameters<AgentParams>,
    ) -> CallToolResult {
        tracing::info!(
            requester = %self.requester,
            tool = "idea_read_agent_persona",
            target = %read.agent,
            "mcp: tool call"
        );
        let agent = match self.resolve(&read.agent).await {
            Ok(agent) => agent,
            Err(refused) => return refused,
        };
        let params = json!({ "agentId": agent.agent_id });
        match call(&self.deps, "readAgentContext", params).await {
            Ok(Value::String(persona)) if persona.trim().is_empty() => {
                success(format!("{} has an empty persona.", agent.name), None)
            }
            Ok(Value::String(persona)) => success(persona, None),
            Ok(other) => json(other),
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_list_profiles",
        description = "List the runtime profiles an agent can run with (the agent CLIs IdeA \
            knows): id and name. Use an id with idea_spawn_agent.",
        annotations(read_only_hint = true)
    )]
    async fn list_profiles(&self) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_list_profiles", "mcp: tool call");
        match call(&self.deps, "listProfiles", Value::Null).await {
            Ok(answer) => {
                let profiles: Vec<Value> = answer["profiles"]
                    .as_array()
                    .map(|all| {
                        all.iter()
                            .map(|p| json!({ "id": p["id"], "name": p["name"] }))
                            .collect()
                    })
                    .unwrap_or_default();
                json(json!({ "profiles": profiles }))
            }
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_worktree_status",
        description = "List the agents that work on their own git branch (worktree): branch, \
            base, commits behind the base, the files each changed (committed or not) and the \
            files two agents both changed. Use it before reviewing or merging another agent's \
            work, and to avoid editing a file another agent is changing.",
        annotations(read_only_hint = true)
    )]
    async fn worktree_status(&self) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_worktree_status", "mcp: tool call");
        match call(&self.deps, "listWorktrees", Value::Null).await {
            Ok(Value::Array(all)) if all.is_empty() => success(
                "No agent of this project works on its own branch: every one works in the \
                 project's tree."
                    .to_owned(),
                None,
            ),
            Ok(all) => json(json!({ "worktrees": all })),
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_worktree_diff",
        description = "Read what an agent changed on its own branch against where it left its \
            base: the list of changed files, or one file's unified diff. For reviewing \
            another agent's work.",
        annotations(read_only_hint = true)
    )]
    async fn worktree_diff(
        &self,
        Parameters(read): Parameters<WorktreeDiffParams>,
    ) -> CallToolResult {
        tracing::info!(
            requester = %self.requester,
            tool = "idea_worktree_diff",
            target = %read.agent,
            "mcp: tool call"
        );
        let agent = match self.resolve(&read.agent).await {
            Ok(agent) => agent,
            Err(refused) => return refused,
        };
        if let Some(path) = read.path {
            let params = json!({ "agentId": agent.agent_id, "path": path });
            return match call(&self.deps, "worktreeDiff", params).await {
                Ok(Value::String(diff)) => success(diff, None),
                Ok(other) => json(other),
                Err(e) => failure(&e),
            };
        }
        let all: Vec<Value> = match call_as(&self.deps, "listWorktrees", Value::Null).await {
            Ok(all) => all,
            Err(e) => return failure(&e),
        };
        match all
            .into_iter()
            .find(|status| status["agentId"] == json!(agent.agent_id))
        {
            Some(status) => json(json!({
                "agent": agent.name,
                "branch": status["branch"],
                "baseRef": status["baseRef"],
                "changed": status["changed"],
                "problem": status["problem"],
            })),
            None => refusal(format!(
                "{} works in the project's tree, not on a branch of its own (NO_WORKTREE): \
                 there is no diff to read.",
                agent.name
            )),
        }
    }
}
