//! `prepare_invocation`: the pure step of LaunchAgent that turns a profile, an agent and a
//! session plan into exactly what to spawn and where the context goes.

mod plan;

pub use plan::{
    SavedConversation, SessionCaps, SessionFacts, SessionPlan, plan_conversation, plan_session,
};

use crate::placeholders::expand;
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
    let (root, run_dir) = (inputs.project_root, inputs.run_dir);
    let mut args: Vec<String> = profile
        .args
        .iter()
        .map(|a| fill_paths(a, root, run_dir))
        .collect();
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
                .map(|a| expand(a, &[("{id}", id)])),
        );
    }
    let mut env: BTreeMap<String, String> = profile.env.clone();
    let context = context_delivery(profile, &cwd, inputs.run_dir);
    args.extend(context.args);
    env.extend(context.env);
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
        stdin_injection: context.typed,
        sandbox: None,
    };
    (spec, ContextPlan { file: context.file })
}

/// How the composed context reaches the CLI: the file to write, and the arguments, variable
/// or typed line that point the CLI at it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextDelivery {
    /// Where the composed context is written; `None` when the profile takes none.
    pub file: Option<PathBuf>,
    /// Arguments naming the file (`Args` injection).
    pub args: Vec<String>,
    /// The variable naming the file (`Env` injection).
    pub env: Option<(String, String)>,
    /// A line to type once the CLI is live (`Stdin` injection).
    pub typed: Option<String>,
}

/// The profile's context injection, for a CLI started in `cwd`.
pub fn context_delivery(profile: &AgentProfile, cwd: &Path, run_dir: &Path) -> ContextDelivery {
    let file = match &profile.context_injection {
        ContextInjection::ConventionFile { target } => Some(cwd.join(target)),
        ContextInjection::None => None,
        _ => Some(run_dir.join(CONTEXT_FILE_NAME)),
    };
    let path = file
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut delivery = ContextDelivery {
        file,
        ..ContextDelivery::default()
    };
    match &profile.context_injection {
        ContextInjection::Args { template } => {
            delivery.args = template
                .iter()
                .map(|a| expand(a, &[("{path}", &path)]))
                .collect();
        }
        ContextInjection::Env { var } => delivery.env = Some((var.clone(), path)),
        ContextInjection::Stdin => delivery.typed = Some(format!("Read {path} and follow it.\r")),
        ContextInjection::ConventionFile { .. } | ContextInjection::None => {}
    }
    delivery
}

/// Replaces `{projectRoot}` and `{runDir}` in a profile's text.
pub fn fill_paths(text: &str, project_root: &Path, run_dir: &Path) -> String {
    let root = project_root.display().to_string();
    let run = run_dir.display().to_string();
    expand(text, &[("{projectRoot}", &root), ("{runDir}", &run)])
}

/// The seed files to write before the launch: absolute path and content, placeholders filled.
/// Entries whose path would leave the run dir are dropped (and reported by the caller).
pub fn seed_plan(
    profile: &AgentProfile,
    project_root: &Path,
    run_dir: &Path,
) -> (Vec<(PathBuf, String)>, Vec<String>) {
    let mut plan = Vec::new();
    let mut refused = Vec::new();
    for seed in &profile.seed_files {
        if seed.has_safe_path() {
            plan.push((
                run_dir.join(&seed.path),
                fill_paths(&seed.content, project_root, run_dir),
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
