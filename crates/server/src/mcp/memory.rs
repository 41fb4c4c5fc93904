//! The project memory over MCP: agents keep lasting notes in `.ideai/memory/` themselves,
//! since a note written into their convention file is lost when IdeA rewrites it.

use super::call::{call, failure, in_place, json, refusal, run_in_order, success};
use super::order::Admitted;
use super::params::{MemorySearchParams, MemorySlugParams, MemoryWriteParams};
use super::{IdeaTools, roster};
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};
use std::sync::Arc;

#[tool_router(router = memory_router, vis = "pub(super)")]
impl IdeaTools {
    #[tool(
        name = "idea_memory_list",
        description = "List the project's memory: notes the team and the agents keep in \
            .ideai/memory/ (slug, title, type, and a hook saying when each is useful). Read \
            the ones whose hook fits your task with idea_memory_read.",
        annotations(read_only_hint = true)
    )]
    async fn memory_list(&self) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_memory_list", "mcp: tool call");
        match call(&self.deps, "listMemory", Value::Null).await {
            Ok(view) => {
                let entries: Vec<Value> = view["entries"]
                    .as_array()
                    .map(|all| {
                        all.iter()
                            .map(|e| {
                                json!({"slug": e["slug"], "title": e["title"], "type": e["type"], "hook": e["hook"], "writer": e["writer"]})
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if entries.is_empty() {
                    return success(
                        "The project memory is empty. Keep a lasting note with idea_memory_write.",
                        None,
                    );
                }
                json(json!({ "entries": entries }))
            }
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_memory_read",
        description = "Read one note of the project's memory, whole.",
        annotations(read_only_hint = true)
    )]
    async fn memory_read(&self, Parameters(read): Parameters<MemorySlugParams>) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_memory_read", slug = %read.slug, "mcp: tool call");
        match call(&self.deps, "readMemory", json!({ "slug": read.slug })).await {
            Ok(entry) => {
                let text = format!(
                    "# {}\n\n{} ({}; written by {})\n\n{}",
                    entry["title"].as_str().unwrap_or_default(),
                    entry["hook"].as_str().unwrap_or_default(),
                    entry["type"].as_str().unwrap_or_default(),
                    entry["writer"].as_str().unwrap_or("unknown"),
                    entry["body"].as_str().unwrap_or_default()
                );
                success(text, Some(entry))
            }
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_memory_search",
        description = "Search the project's memory for notes whose title, hook or text hold \
            these words, best first.",
        annotations(read_only_hint = true)
    )]
    async fn memory_search(
        &self,
        Parameters(search): Parameters<MemorySearchParams>,
    ) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_memory_search", "mcp: tool call");
        let params = json!({ "query": search.query, "limit": search.limit });
        match call(&self.deps, "searchMemory", params).await {
            Ok(Value::Array(hits)) if hits.is_empty() => {
                success("No note of the project's memory matches.", None)
            }
            Ok(hits) => json(json!({ "hits": hits })),
            Err(e) => failure(&e),
        }
    }

    #[tool(
        name = "idea_memory_write",
        description = "Keep a lasting note in the project's memory (.ideai/memory/), which \
            every agent of the project, of every vendor, recalls at its next start. Use it \
            for what should outlive this conversation (a decision, a convention, how the user \
            wants things done): never write such notes into your CLAUDE.md, AGENTS.md or \
            GEMINI.md, which IdeA rewrites at each launch.",
        annotations(read_only_hint = false, destructive_hint = false)
    )]
    async fn memory_write(
        &self,
        Parameters(write): Parameters<MemoryWriteParams>,
        Extension(admitted): Extension<Admitted>,
    ) -> CallToolResult {
        tracing::info!(requester = %self.requester, tool = "idea_memory_write", "mcp: tool call");
        let Some(kind) = idea_domain::memory::MemoryType::parse(&write.kind) else {
            return refusal(format!(
                "\"{}\" is not a memory type (INVALID_PARAMS): use project, feedback, user or \
                 reference.",
                write.kind
            ));
        };
        let agents = match self.agents().await {
            Ok(agents) => agents,
            Err(e) => return failure(&e),
        };
        let writer = roster::find(&agents, &self.requester)
            .map_or_else(|| self.requester.to_string(), |a| a.name.to_string());
        let params = json!({
            "slug": write.slug, "title": write.title, "hook": write.hook,
            "type": kind, "body": write.body, "writer": writer,
        });
        let deps = Arc::clone(&self.deps);
        match in_place(&admitted, move |ticket| {
            run_in_order(&deps, "writeMemory", params, ticket)
        })
        .await
        {
            Ok(entry) => success(
                format!(
                    "Kept in the project's memory as {} (.ideai/memory/{}.md).",
                    entry["slug"].as_str().unwrap_or_default(),
                    entry["slug"].as_str().unwrap_or_default()
                ),
                Some(entry),
            ),
            Err(e) => failure(&e),
        }
    }
}
