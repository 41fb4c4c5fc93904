//! The params and handlers of what a project shares with every agent: skills, memory, project
//! tools, templates and the shared context (`idea_application::knowledge`).

use idea_application::agents::templates::{self, Template};
use idea_application::knowledge::memory::{self, MemoryView, MemoryWrite};
use idea_application::knowledge::skills::{self, SkillDraft, SkillEdit};
use idea_application::knowledge::tools::{self, ToolCallResult, ToolCaller, ToolsView};
use idea_application::{AppResult, Deps};
use idea_domain::Agent;
use idea_domain::knowledge::SkillListing;
use idea_domain::memory::{MemoryEntry, MemoryHit};
use idea_domain::skill::{Skill, SkillScope, SkillSource};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::params::params;

params! {
    pub struct ContextText {
        pub text: String,
    }

    pub struct SkillName {
        pub name: String,
    }

    pub struct SkillAt {
        pub source: SkillSource,
        pub name: String,
    }

    pub struct SkillInScope {
        pub scope: SkillScope,
        pub name: String,
    }

    pub struct SkillAssignment {
        /// The agent's name or id.
        pub agent: String,
        pub skill: String,
    }

    pub struct MemorySlug {
        pub slug: String,
    }

    pub struct MemoryQuery {
        pub query: String,
        /// At most this many hits (1–50); 10 when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub limit: Option<usize>,
    }

    pub struct WriteMemoryParams {
        #[serde(flatten)]
        pub entry: MemoryWrite,
        /// Who writes it: an agent's name (the MCP server says whose); `user` when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub writer: Option<String>,
    }

    pub struct CallToolParams {
        pub tool: String,
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
        pub arguments: Map<String, Value>,
        /// The calling agent (name or id): its permission rules and sandbox apply. The user
        /// runs it when absent.
        #[serde(default)]
        #[cfg_attr(feature = "ts", ts(optional))]
        pub agent: Option<String>,
    }

    pub struct AuthorizeToolParams {
        /// The calling agent (name or id).
        pub agent: String,
        /// One of IdeA's own MCP tools (`idea_ask_agent`, …).
        pub tool: String,
        #[serde(default)]
        pub arguments: Value,
    }

    pub struct ToolApprovalAnswer {
        pub approval_id: String,
        pub allow: bool,
    }
}

pub(crate) fn list_templates(deps: &Deps, (): ()) -> AppResult<Vec<Template>> {
    Ok(templates::all(deps))
}

pub(crate) fn read_project_context(deps: &Deps, (): ()) -> AppResult<String> {
    idea_application::knowledge::read_context(deps)
}

pub(crate) fn update_project_context(deps: &Deps, p: ContextText) -> AppResult<()> {
    idea_application::knowledge::update_context(deps, &p.text)
}

pub(crate) fn list_skills(deps: &Deps, (): ()) -> AppResult<SkillListing> {
    Ok(skills::list(deps))
}

pub(crate) fn show_skill(deps: &Deps, p: SkillName) -> AppResult<Skill> {
    skills::show(deps, &p.name)
}

pub(crate) fn read_skill_file(deps: &Deps, p: SkillAt) -> AppResult<String> {
    skills::text(deps, p.source, &p.name)
}

pub(crate) fn create_skill(deps: &Deps, p: SkillDraft) -> AppResult<Skill> {
    skills::create(deps, &p)
}

pub(crate) fn update_skill(deps: &Deps, p: SkillEdit) -> AppResult<Skill> {
    skills::update(deps, &p)
}

pub(crate) fn delete_skill(deps: &Deps, p: SkillInScope) -> AppResult<()> {
    skills::delete(deps, p.scope, &p.name)
}

pub(crate) fn adopt_skill(deps: &Deps, p: SkillAt) -> AppResult<Skill> {
    skills::adopt(deps, p.source, &p.name)
}

pub(crate) fn assign_skill(deps: &Deps, p: SkillAssignment) -> AppResult<Agent> {
    skills::assign(deps, &p.agent, &p.skill)
}

pub(crate) fn unassign_skill(deps: &Deps, p: SkillAssignment) -> AppResult<Agent> {
    skills::unassign(deps, &p.agent, &p.skill)
}

pub(crate) fn list_memory(deps: &Deps, (): ()) -> AppResult<MemoryView> {
    Ok(memory::list(deps))
}

pub(crate) fn read_memory(deps: &Deps, p: MemorySlug) -> AppResult<MemoryEntry> {
    memory::read(deps, &p.slug)
}

pub(crate) fn search_memory(deps: &Deps, p: MemoryQuery) -> AppResult<Vec<MemoryHit>> {
    Ok(memory::search(deps, &p.query, p.limit.unwrap_or(10)))
}

pub(crate) fn write_memory(deps: &Deps, p: WriteMemoryParams) -> AppResult<MemoryEntry> {
    let writer = p.writer.unwrap_or_else(|| "user".to_owned());
    memory::write(deps, &p.entry, &writer)
}

pub(crate) fn delete_memory(deps: &Deps, p: MemorySlug) -> AppResult<()> {
    memory::delete(deps, &p.slug)
}

pub(crate) fn list_tools(deps: &Deps, (): ()) -> AppResult<ToolsView> {
    Ok(tools::list(deps))
}

pub(crate) fn call_tool(deps: &Deps, p: CallToolParams) -> AppResult<ToolCallResult> {
    let caller = match &p.agent {
        Some(agent) => ToolCaller::Agent(Box::new(idea_application::agents::find(deps, agent)?)),
        None => ToolCaller::User,
    };
    tools::call(deps, &caller, &p.tool, &p.arguments)
}

pub(crate) fn answer_tool_approval(deps: &Deps, p: ToolApprovalAnswer) -> AppResult<()> {
    tools::answer(deps, &p.approval_id, p.allow)
}

pub(crate) fn authorize_tool_call(deps: &Deps, p: AuthorizeToolParams) -> AppResult<()> {
    tools::authorize_idea_tool(deps, &p.agent, &p.tool, &p.arguments)
}
