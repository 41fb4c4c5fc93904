//! Runtime profiles (`docs/profiles/`): how to run one agent CLI.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A profile's id (`claude-code`, `codex`, …). User profiles with the same id replace built-ins.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(transparent)]
pub struct ProfileId(pub String);

impl ProfileId {
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ProfileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The working directory an agent's PTY starts in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum CwdTemplate {
    /// `.ideai/run/<agentId>/`: isolated, so each agent finds its own convention file.
    #[default]
    #[serde(rename = "{agentRunDir}")]
    AgentRunDir,
    /// The project root (legacy; two agents then share one convention file).
    #[serde(rename = "{projectRoot}")]
    ProjectRoot,
}

/// How the composed context (project, persona, skills, memory…) reaches the CLI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ContextInjection {
    /// Written to `<cwd>/<target>` (e.g. `CLAUDE.md`), which the CLI reads by convention.
    ConventionFile { target: String },
    /// Passed as arguments; `{path}` in `template` is replaced by the context file's path.
    Args { template: Vec<String> },
    /// The context file's path is put in the environment variable `var`.
    Env { var: String },
    /// Typed into the PTY once the session is live.
    Stdin,
    /// The CLI gets no context (a plain shell).
    None,
}

/// How a CLI's conversation is started with a known id and reopened later. `{id}` in the
/// argument templates is replaced by the conversation's engine session id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SessionStrategy {
    /// Starts a new conversation with an id IdeA mints (e.g. `["--session-id", "{id}"]`);
    /// absent when the CLI cannot take an id of ours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assign_args: Option<Vec<String>>,
    /// Reopens an existing conversation (e.g. `["--resume", "{id}"]`).
    pub resume_args: Vec<String>,
}

/// How to hand a CLI IdeA's MCP server (`mcp_handoff`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum McpStyle {
    /// A JSON file `{"mcpServers":{…}}` in the run dir, passed with `flag` (Claude `--mcp-config`).
    ConfigFileFlag { flag: String },
    /// `-c mcp_servers.idea.*=…` config overrides (Codex).
    ConfigOverrides,
    /// A settings file at `path` (relative to the cwd) holding `mcpServers` (Gemini). With
    /// `env`, the CLI is pointed at the file by that variable instead of finding it by its
    /// place (Gemini CLI: `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, as its interactive mode loses a
    /// resumed chat's history when the cwd holds a `.gemini/settings.json`).
    SettingsFile {
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        env: Option<String>,
        /// Only for JSON-mode turns; a cell gets the file-drop route and no settings file
        /// (Gemini CLI 0.61.0's interactive mode loses a resumed chat's history when extra
        /// settings slow its start-up: `docs/profiles/gemini.md`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        turns_only: bool,
    },
    /// An OpenCode config file at `path` (relative to the cwd) holding `mcp` (`opencode.json`).
    OpencodeConfig { path: String },
}

/// A CLI's JSON mode, used to run one turn non-interactively (orchestration, structured cells).
/// The command line of a turn is `command` followed by one of these templates, expanded by
/// `turn::turn_invocation`: `{prompt}` (the message), `{id}` (the conversation),
/// `{projectRoot}` and `{runDir}` are replaced. The message should come last, after `--` (or
/// as an option's `=` value), so that no message is read as an option. Stdin is always
/// `/dev/null`. The profile's `args`, `session` and `viaShell` are not used for a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct StructuredMode {
    /// Which CLI's event stream this is (`claude`, `codex`, `gemini`): how IdeA reads the
    /// output, and the key under which the conversation's id is stored.
    pub provider: String,
    /// Arguments of a first turn. With `{id}` in them, the conversation starts under an id
    /// IdeA mints; without, the CLI mints its own (read from its output).
    pub args: Vec<String>,
    /// Arguments of a turn that continues conversation `{id}`.
    pub resume_args: Vec<String>,
}

impl McpStyle {
    /// Whether a cell (an interactive session) gets the server too, not only JSON-mode turns.
    pub fn serves_cells(&self) -> bool {
        !matches!(
            self,
            Self::SettingsFile {
                turns_only: true,
                ..
            }
        )
    }
}

impl StructuredMode {
    /// Whether a first turn starts under an id IdeA mints (`{id}` in `args`).
    pub fn assigns_ids(&self) -> bool {
        crate::placeholders::mentions(&self.args, "{id}")
    }
}

/// A CLI whose own user-level state IdeA knows how to read and update (in the user's home):
/// the folders it trusts, the conversations it saved, and whether it has been set up. This
/// is what lets a new agent start with no trust screen, a cell resume only a conversation
/// that exists, and a failed first run say what the CLI needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum CliHome {
    /// Claude Code: `~/.claude.json` (trust, onboarding) and `~/.claude/projects/` (transcripts).
    #[serde(alias = "claudeJson")]
    ClaudeCode,
    /// Codex: `$CODEX_HOME/config.toml` (trust), `$CODEX_HOME/sessions/` (rollouts), `auth.json`.
    #[serde(alias = "codexConfig")]
    Codex,
    /// Gemini CLI: `~/.gemini/trustedFolders.json`, `settings.json`, `tmp/<project>/chats/`.
    Gemini,
}

impl CliHome {
    /// The CLI's own command that compacts its conversation, typed at its prompt (Claude Code
    /// and Codex `/compact`, Gemini CLI `/compress`).
    pub const fn compact_command(self) -> &'static str {
        match self {
            Self::ClaudeCode | Self::Codex => "/compact",
            Self::Gemini => "/compress",
        }
    }
}

/// A per-CLI config file IdeA writes into the agent's run dir before a launch. `{projectRoot}`
/// and `{runDir}` in `content` are replaced. A file the user edited is never overwritten.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SeedFile {
    /// Relative to the run dir, without `..` (e.g. `.claude/settings.local.json`).
    pub path: String,
    pub content: String,
}

impl SeedFile {
    /// Whether `path` stays inside the run dir.
    pub fn has_safe_path(&self) -> bool {
        let path = std::path::Path::new(&self.path);
        !self.path.is_empty()
            && path
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
    }
}

/// How to run one agent CLI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AgentProfile {
    pub id: ProfileId,
    pub name: String,
    /// The program; `{loginShell}` stands for the user's `$SHELL`.
    pub command: String,
    /// Arguments; `{projectRoot}` and `{runDir}` are replaced.
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub cwd_template: CwdTemplate,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub context_injection: ContextInjection,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionStrategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mcp: Option<McpStyle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<StructuredMode>,
    /// Run `command` through `sh -c`; off unless the profile says so (no shell interpolation of
    /// agent commands by default).
    #[serde(default)]
    pub via_shell: bool,
    /// The CLI's own user state: every folder IdeA hands the CLI is trusted there before a
    /// launch, saved conversations are looked up there before resuming one.
    #[serde(default, alias = "trust", skip_serializing_if = "Option::is_none")]
    pub home: Option<CliHome>,
    /// Config files seeded into the run dir before each launch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seed_files: Vec<SeedFile>,
    /// Arguments that print the CLI's version (`idea doctor`).
    #[serde(default = "default_version_args")]
    pub version_args: Vec<String>,
    /// How a user installs the CLI, shown where it is missing (the picker, `idea doctor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install_hint: Option<String>,
}

fn default_version_args() -> Vec<String> {
    vec!["--version".to_owned()]
}

impl AgentProfile {
    /// Whether IdeA can mint the conversation id itself (Assign plan).
    pub fn can_assign_session(&self) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| s.assign_args.is_some())
    }

    /// Whether a cell's conversation can be reopened after a restart.
    pub fn can_resume_session(&self) -> bool {
        self.session.is_some()
    }

    /// Whether IdeA can find the CLI's latest conversation for a folder by itself (a CLI
    /// that mints its own ids, when IdeA knows where it saves them).
    pub fn can_discover_session(&self) -> bool {
        self.can_resume_session() && !self.can_assign_session() && self.home.is_some()
    }
}
