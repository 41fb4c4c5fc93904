//! The tools' arguments, as a model sends them. Each `description` is what `list_tools`
//! publishes in the tool's JSON schema: written for a model to read, one line each (a doc
//! comment would keep its line breaks).

use schemars::JsonSchema;
use serde::Deserialize;

/// `idea_ask_agent`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AskAgentParams {
    #[schemars(
        description = "The agent to ask: its name (as idea_list_agents shows it, any \
        case) or its id."
    )]
    pub agent: String,
    #[schemars(
        description = "What to ask, as you would write it to a colleague: the agent \
        sees only this message (and its own persona and the project), not your conversation."
    )]
    pub message: String,
    #[schemars(
        description = "How long the agent may take to answer, in seconds (default \
        300, at most 600)."
    )]
    #[serde(default)]
    pub timeout_secs: Option<u64>,
}

/// `idea_spawn_agent`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpawnAgentParams {
    #[schemars(description = "The new agent's name, unique in the project (e.g. \
        \"Reviewer\"): letters, digits, spaces and punctuation, no slashes.")]
    pub name: String,
    #[schemars(description = "The runtime profile it runs with: an id from \
        idea_list_profiles (e.g. \"claude-code\", \"codex\", \"gemini\").")]
    pub profile: String,
    #[schemars(
        description = "Its persona: Markdown instructions it follows (its role, what \
        to do, what not to do). Omit it to start from the template, or from an empty persona."
    )]
    #[serde(default)]
    pub persona: Option<String>,
    #[schemars(description = "A persona template to start from: \"architect\", \
        \"implementer\", \"reviewer\" or \"tester\". A persona, when given, replaces the \
        template's text.")]
    #[serde(default)]
    pub template: Option<String>,
}

/// `idea_read_agent_persona`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentParams {
    #[schemars(description = "The agent: its name (any case) or its id.")]
    pub agent: String,
}

/// `idea_worktree_diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorktreeDiffParams {
    #[schemars(description = "The agent whose branch to read: its name (any case) or its id.")]
    pub agent: String,
    #[schemars(
        description = "One file it changed, as idea_worktree_status lists it; omit it for \
        the list of changed files with their line counts."
    )]
    #[serde(default)]
    pub path: Option<String>,
}

/// `idea_memory_read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemorySlugParams {
    #[schemars(
        description = "The entry's slug, as idea_memory_list or idea_memory_search \
        show it (e.g. \"we-use-tabs\")."
    )]
    pub slug: String,
}

/// `idea_memory_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemorySearchParams {
    #[schemars(description = "Words to look for in the entries' titles, hooks and bodies.")]
    pub query: String,
    #[schemars(description = "At most this many entries (default 10, at most 50).")]
    #[serde(default)]
    pub limit: Option<usize>,
}

/// `idea_memory_write`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MemoryWriteParams {
    #[schemars(description = "A short title (e.g. \"We use tabs\").")]
    pub title: String,
    #[schemars(
        description = "One sentence saying when this note is useful, so that an \
        agent decides from the list alone whether to read it."
    )]
    pub hook: String,
    #[schemars(description = "\"project\" (a fact or decision about the project), \
        \"feedback\" (how the user wants work done), \"user\" (about the user), or \
        \"reference\" (where to find something).")]
    #[serde(rename = "type")]
    pub kind: String,
    #[schemars(description = "The note itself, in Markdown.")]
    #[serde(default)]
    pub body: String,
    #[schemars(
        description = "The slug of an entry to replace; leave it out to add a new \
        entry."
    )]
    #[serde(default)]
    pub slug: Option<String>,
}
