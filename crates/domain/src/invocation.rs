//! `prepare_invocation`: the pure step of LaunchAgent that turns a profile, an agent and a
//! session plan into exactly what to spawn and where the context goes.

use crate::profile::{AgentProfile, ContextInjection, CwdTemplate};
use crate::terminal::{SpawnSpec, TerminalSize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Inherited variables an agent must not see: it does not run inside the user's multiplexer,
/// nor inside the terminal IdeA was started from (Gemini CLI offers VS Code set-up dialogs when
/// `TERM_PROGRAM=vscode`), nor in a CI job: a cell is an interactive terminal, and Gemini CLI
/// turns headless and exits when `CI` or `GITHUB_ACTIONS` is `true`.
pub const STRIPPED_ENV: &[&str] = &[
    // `idea serve`'s token, when given by environment: no agent or shell may learn it.
    "IDEA_TOKEN",
    "CI",
    "GITHUB_ACTIONS",
    "TMUX",
    "TMUX_PANE",
    "STY",
    "ZELLIJ",
    "ZELLIJ_SESSION_NAME",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
];

/// Name of the composed context file when it is not a convention file (args/env/stdin).
pub const CONTEXT_FILE_NAME: &str = "IDEA_CONTEXT.md";

/// How the agent's conversation is opened (LaunchAgent's step 5; the rules are in
/// `docs/design.md`, "Sessions and resume").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionPlan {
    /// The cell already has a conversation: reopen it.
    Resume(String),
    /// A fresh conversation with an id IdeA minted (stored on the cell).
    Assign(String),
    /// The CLI manages its own conversation.
    None,
}

/// What a CLI has saved under a conversation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedConversation {
    /// A conversation with at least one exchange: it can be reopened.
    Resumable,
    /// Nothing: the id can start a new conversation.
    Missing,
    /// A record with no exchange that the CLI will neither resume nor reuse (Gemini CLI after
    /// a SIGKILL before the first prompt): only a new id starts.
    Blocked,
}

/// What is known, before a launch, about the conversations the agent could continue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionFacts<'a> {
    /// The engine session id the cell remembers for this agent.
    pub cell_session: Option<&'a str>,
    /// What the CLI saved under that id: `Some` when the profile says where the CLI keeps
    /// its conversations, `None` when IdeA cannot tell (it then trusts the cell).
    pub cell_session_saved: Option<SavedConversation>,
    /// The CLI's latest saved conversation in the agent's folder, for CLIs that mint their
    /// own ids (looked up only when the cell has hosted this agent before).
    pub latest_saved: Option<&'a str>,
}

/// Decides the session plan (LaunchAgent's step 5). A conversation is resumed only when it
/// exists: resuming an id the CLI never saved fails at every launch (Claude exits 1, Gemini
/// 42), so an unsaved id is started afresh instead, under the same id when the CLI takes ours.
pub fn plan_session(
    profile: &AgentProfile,
    facts: SessionFacts<'_>,
    fresh_id: impl FnOnce() -> String,
) -> SessionPlan {
    if !profile.can_resume_session() {
        return SessionPlan::None;
    }
    let assign = profile.can_assign_session();
    match (facts.cell_session, facts.cell_session_saved) {
        (Some(id), None | Some(SavedConversation::Resumable)) => {
            return SessionPlan::Resume(id.to_owned());
        }
        (Some(id), Some(SavedConversation::Missing)) if assign => {
            return SessionPlan::Assign(id.to_owned());
        }
        _ => {}
    }
    if let Some(id) = facts.latest_saved {
        return SessionPlan::Resume(id.to_owned());
    }
    if assign {
        SessionPlan::Assign(fresh_id())
    } else {
        SessionPlan::None
    }
}

/// Where the composed context is written, and whether it must also be typed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextPlan {
    /// Absolute path of the file to write; `None` when the profile takes no context.
    pub file: Option<PathBuf>,
}

/// What [`prepare_invocation`] needs.
#[derive(Debug, Clone, Copy)]
pub struct InvocationInputs<'a> {
    pub profile: &'a AgentProfile,
    pub project_root: &'a Path,
    pub run_dir: &'a Path,
    pub plan: &'a SessionPlan,
    /// The user's login shell, for `{loginShell}`.
    pub login_shell: &'a str,
    pub size: TerminalSize,
}

/// The folder the agent's CLI starts in (its run dir, or the project root for a profile that
/// asks for it); also where the CLI saves its conversations for some CLIs.
pub fn agent_cwd(profile: &AgentProfile, project_root: &Path, run_dir: &Path) -> PathBuf {
    match profile.cwd_template {
        CwdTemplate::AgentRunDir => run_dir.to_path_buf(),
        CwdTemplate::ProjectRoot => project_root.to_path_buf(),
    }
}

/// Builds the spawn spec and the context plan. Pure: same inputs, same result.
pub fn prepare_invocation(inputs: &InvocationInputs<'_>) -> (SpawnSpec, ContextPlan) {
    let profile = inputs.profile;
    let cwd = agent_cwd(profile, inputs.project_root, inputs.run_dir);
    let mut args: Vec<String> = profile.args.iter().map(|a| fill_paths(a, inputs)).collect();
    if let Some(session) = &profile.session {
        let (template, id) = match inputs.plan {
            SessionPlan::Resume(id) => (Some(&session.resume_args), id.as_str()),
            SessionPlan::Assign(id) => (session.assign_args.as_ref(), id.as_str()),
            SessionPlan::None => (None, ""),
        };
        args.extend(
            template
                .into_iter()
                .flatten()
                .map(|a| a.replace("{id}", id)),
        );
    }
    let mut env: BTreeMap<String, String> = profile.env.clone();
    let mut stdin_injection = None;
    let context_file = match &profile.context_injection {
        ContextInjection::ConventionFile { target } => Some(cwd.join(target)),
        ContextInjection::None => None,
        _ => Some(inputs.run_dir.join(CONTEXT_FILE_NAME)),
    };
    let context_path = context_file
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match &profile.context_injection {
        ContextInjection::Args { template } => {
            args.extend(template.iter().map(|a| a.replace("{path}", &context_path)))
        }
        ContextInjection::Env { var } => {
            env.insert(var.clone(), context_path.clone());
        }
        ContextInjection::Stdin => {
            stdin_injection = Some(format!("Read {context_path} and follow it.\r"));
        }
        ContextInjection::ConventionFile { .. } | ContextInjection::None => {}
    }
    let program = if profile.command == "{loginShell}" {
        inputs.login_shell.to_owned()
    } else {
        profile.command.clone()
    };
    let (command, args) = if profile.via_shell {
        let line = std::iter::once(program.as_str())
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        ("/bin/sh".to_owned(), vec!["-c".to_owned(), line])
    } else {
        (program, args)
    };
    let spec = SpawnSpec {
        command,
        args,
        env,
        env_remove: STRIPPED_ENV.iter().map(|s| (*s).to_owned()).collect(),
        cwd,
        size: inputs.size,
        stdin_injection,
        sandbox: None,
    };
    (spec, ContextPlan { file: context_file })
}

/// Replaces `{projectRoot}` and `{runDir}` in a profile's text.
pub fn fill_paths(text: &str, inputs: &InvocationInputs<'_>) -> String {
    text.replace("{projectRoot}", &inputs.project_root.display().to_string())
        .replace("{runDir}", &inputs.run_dir.display().to_string())
}

/// The seed files to write before the launch: absolute path and content, placeholders filled.
/// Entries whose path would leave the run dir are dropped (and reported by the caller).
pub fn seed_plan(inputs: &InvocationInputs<'_>) -> (Vec<(PathBuf, String)>, Vec<String>) {
    let mut plan = Vec::new();
    let mut refused = Vec::new();
    for seed in &inputs.profile.seed_files {
        if seed.has_safe_path() {
            plan.push((
                inputs.run_dir.join(&seed.path),
                fill_paths(&seed.content, inputs),
            ));
        } else {
            refused.push(seed.path.clone());
        }
    }
    (plan, refused)
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used)]
mod tests;
