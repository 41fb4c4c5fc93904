//! `turn_invocation`: the command line of one JSON-mode turn, expanded from the profile's
//! `structured` mode (the one source, so a user profile can be asked too; facts in
//! `docs/profiles/claude-code.md`, `codex.md`, `gemini.md`, "Structured mode").
//!
//! The built-ins pass the message so that no CLI can read it as one of its options, even when
//! it starts with `-`: last, after `--`, for Claude Code (2.1.332) and Codex (0.171.0), as
//! `--prompt=<message>` for Gemini CLI (0.61.0); each was checked against that version.
//! After `--` is also the only safe place for Claude: its options that take several values
//! (`--add-dir`, `--mcp-config`, `--allowedTools`) swallow a message that follows them.

use crate::invocation::{STRIPPED_ENV, SessionPlan, agent_cwd, context_delivery};
use crate::placeholders::{expand, mentions};
use crate::profile::{AgentProfile, StructuredMode};
use crate::sandbox::SandboxPlan;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A CLI whose JSON-mode event stream IdeA can read (`StructuredMode::provider`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TurnCli {
    /// Claude Code's `-p --output-format stream-json --verbose`.
    Claude,
    /// Codex CLI's `exec --json`.
    Codex,
    /// Gemini CLI's `-o stream-json`.
    Gemini,
}

impl TurnCli {
    /// The reader of `provider`'s output, if IdeA has one.
    pub fn from_provider(provider: &str) -> Option<Self> {
        match provider {
            "claude" => Some(Self::Claude),
            "codex" => Some(Self::Codex),
            "gemini" => Some(Self::Gemini),
            _ => None,
        }
    }
}

/// Why an agent's profile cannot run a turn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnSetupError {
    #[error("{profile} has no JSON mode (no `structured` in its profile): it cannot be asked")]
    NoJsonMode { profile: String },
    #[error(
        "{profile}: IdeA cannot read the output of provider \"{provider}\" (known: claude, codex, gemini)"
    )]
    UnknownProvider { profile: String, provider: String },
    #[error("{profile}: structured.{field} must contain {placeholder}")]
    Template {
        profile: String,
        field: &'static str,
        placeholder: &'static str,
    },
}

impl TurnSetupError {
    /// The agent simply has no JSON mode IdeA can use (rather than a broken profile).
    pub fn is_not_askable(&self) -> bool {
        !matches!(self, Self::Template { .. })
    }
}

/// The profile's JSON mode and the reader of its output, once its templates are checked.
///
/// # Errors
/// No JSON mode, an unknown provider, or a template without `{prompt}` (or, to resume,
/// without `{id}`).
pub fn json_mode(profile: &AgentProfile) -> Result<(&StructuredMode, TurnCli), TurnSetupError> {
    let name = || profile.name.clone();
    let mode = profile
        .structured
        .as_ref()
        .ok_or_else(|| TurnSetupError::NoJsonMode { profile: name() })?;
    let cli =
        TurnCli::from_provider(&mode.provider).ok_or_else(|| TurnSetupError::UnknownProvider {
            profile: name(),
            provider: mode.provider.clone(),
        })?;
    let needs = [
        ("args", &mode.args, "{prompt}"),
        ("resumeArgs", &mode.resume_args, "{prompt}"),
        ("resumeArgs", &mode.resume_args, "{id}"),
    ];
    for (field, template, placeholder) in needs {
        if !mentions(template, placeholder) {
            return Err(TurnSetupError::Template {
                profile: name(),
                field,
                placeholder,
            });
        }
    }
    Ok((mode, cli))
}

/// What a turn is made of.
#[derive(Debug, Clone, Copy)]
pub struct TurnInputs<'a> {
    pub profile: &'a AgentProfile,
    pub project_root: &'a Path,
    pub run_dir: &'a Path,
    /// The message sent to the agent.
    pub message: &'a str,
    /// `Resume(id)` continues conversation `id`; `Assign(id)` starts it (where the CLI takes
    /// ids of ours); `None` starts one under the CLI's own id.
    pub session: &'a SessionPlan,
}

/// One turn's process: run with stdin at `/dev/null` (on any other stdin Codex waits for end
/// of input, Claude waits 3 s for it, and Claude and Gemini add what arrives to the message),
/// never through a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnInvocation {
    pub program: String,
    pub args: Vec<String>,
    /// Variables set on top of the inherited environment.
    pub env: BTreeMap<String, String>,
    /// Inherited variables removed.
    pub env_remove: Vec<String>,
    pub cwd: PathBuf,
    /// How to read its output.
    pub cli: TurnCli,
    /// Where the agent's composed context goes (written before the turn), as for a launch. A
    /// profile that types its context in (`stdin`) gets the file but no pointer to it.
    pub context_file: Option<PathBuf>,
    /// The OS sandbox the turn runs in (as `SpawnSpec::sandbox`); `None` runs it natively.
    pub sandbox: Option<SandboxPlan>,
}

/// The command line of one JSON-mode turn of the agent's CLI.
///
/// # Errors
/// See [`json_mode`]; also an `Assign`-less first turn whose template wants an `{id}`.
pub fn turn_invocation(inputs: &TurnInputs<'_>) -> Result<TurnInvocation, TurnSetupError> {
    let profile = inputs.profile;
    let (mode, cli) = json_mode(profile)?;
    let (template, id) = match inputs.session {
        SessionPlan::Resume(id) => (&mode.resume_args, id.as_str()),
        SessionPlan::Assign(id) => (&mode.args, id.as_str()),
        SessionPlan::None if mode.assigns_ids() => {
            return Err(TurnSetupError::Template {
                profile: profile.name.clone(),
                field: "args",
                placeholder: "no {id} (the turn has no conversation id to give)",
            });
        }
        SessionPlan::None => (&mode.args, ""),
    };
    let cwd = agent_cwd(profile, inputs.project_root, inputs.run_dir);
    let (root, run) = (
        inputs.project_root.display().to_string(),
        inputs.run_dir.display().to_string(),
    );
    let values = [
        ("{prompt}", inputs.message),
        ("{id}", id),
        ("{projectRoot}", root.as_str()),
        ("{runDir}", run.as_str()),
    ];
    let mut args: Vec<String> = template.iter().map(|a| expand(a, &values)).collect();
    let context = context_delivery(profile, &cwd, inputs.run_dir);
    // Arguments naming the context file go before the message (and its `--`).
    let message_at = template
        .iter()
        .position(|a| a == "--" || a.contains("{prompt}"))
        .unwrap_or(args.len());
    args.splice(message_at..message_at, context.args);
    let mut env = profile.env.clone();
    env.extend(context.env);
    Ok(TurnInvocation {
        program: profile.command.clone(),
        args,
        env,
        env_remove: STRIPPED_ENV.iter().map(|s| (*s).to_owned()).collect(),
        cwd,
        cli,
        context_file: context.file,
        sandbox: None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
