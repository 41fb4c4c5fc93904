//! The `idea` command line. Output of `--json` is stable: see `docs/cli.md`.

mod agent;
mod doctor;
mod hook;
mod mcp_server;
pub mod sandbox;
pub mod skill;
mod tool;
mod worktree;

use crate::compose::OPENER;
use clap::{Parser, Subcommand};
use idea_application::AppError;
use idea_server::ServerError;
use std::ffi::OsString;
use std::path::PathBuf;

/// IdeA: several coding agents at once on one project.
#[derive(Debug, Parser)]
#[command(name = "idea", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Make DIR (default: the current folder) an IdeA project; safe to run twice.
    Init { dir: Option<PathBuf> },
    /// Create, list, show and delete the project's agents.
    #[command(subcommand)]
    Agent(agent::AgentCommand),
    /// The runtime-profile catalogue (built-ins merged with ~/.ideai/profiles.json).
    Profiles {
        #[arg(long)]
        json: bool,
    },
    /// Which agent CLIs are installed, Landlock support, WebKit, the data folders used.
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Serve the project to a browser on 127.0.0.1 (DIR defaults to the current folder and
    /// becomes a project if it is not one); prints the URL to open, with its token.
    Serve {
        dir: Option<PathBuf>,
        /// 0 = any free port.
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The secret in the URL (default: $IDEA_TOKEN, else 32 random hex digits). Other
        /// local users can read a command line (`ps`): prefer IDEA_TOKEN or --token-file.
        #[arg(long)]
        token: Option<String>,
        /// Read the token from PATH, a file only you may read (chmod 600).
        #[arg(long, value_name = "PATH", conflicts_with = "token")]
        token_file: Option<PathBuf>,
    },
    /// Open the project in the desktop window (needs a display).
    #[cfg(feature = "desktop")]
    Desktop { dir: Option<PathBuf> },
    /// The stdio MCP server an agent CLI starts: relays MCP between stdin/stdout and the
    /// IdeA that has the project open (fails at once when none has).
    McpServer {
        /// The project folder.
        #[arg(long, default_value = ".")]
        project: PathBuf,
        /// The agent (name or id) on whose behalf the CLI calls the tools.
        #[arg(long)]
        requester: String,
    },
    /// What an agent CLI's hook runs: reports one of its turn's events to the IdeA that has
    /// the project open. Prints nothing and exits 0 whatever happens.
    #[command(hide = true)]
    Hook {
        #[arg(long)]
        project: PathBuf,
        /// The agent's id.
        #[arg(long)]
        agent: String,
        /// prompt-submitted, tool-done, needs-input or turn-done.
        #[arg(long)]
        event: String,
        /// The JSON Codex appends to its notify program's arguments.
        payload: Option<String>,
    },
    /// Run a command under the project's sandbox plan (Landlock): it reads everything except
    /// denied paths, writes only in the project, the temp dirs (and with --agent its run dir
    /// and its CLI's own state), and cannot signal processes outside the sandbox.
    Sandbox(sandbox::SandboxArgs),
    /// Agents on their own branches: git worktrees, their diffs, merging back, archiving.
    #[command(subcommand)]
    Worktree(worktree::WorktreeCommand),
    /// Skills written once, delivered natively to every agent's CLI.
    #[command(subcommand)]
    Skill(skill::SkillCommand),
    /// The project's tools (.ideai/tools), served to every agent over MCP.
    #[command(subcommand)]
    Tool(tool::ToolCommand),
    /// The helper of every sandboxed process: applies the plan (--plan FILE, else
    /// $IDEA_SANDBOX_PLAN) to itself, then execs CMD. Exit 125 when the plan cannot be
    /// enforced (CMD not started).
    #[command(hide = true)]
    SandboxExec {
        #[arg(long, value_name = "FILE")]
        plan: Option<PathBuf>,
        /// Only try whether the user and mount namespace can be set up here (exit 0 if so).
        #[arg(long, conflicts_with = "plan")]
        probe: bool,
        #[arg(last = true, required_unless_present = "probe", value_name = "CMD")]
        command: Vec<OsString>,
    },
}

impl Command {
    /// The subcommand's name, for the log (its arguments may hold a secret: `--token`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Init { .. } => "init",
            Self::Agent(_) => "agent",
            Self::Profiles { .. } => "profiles",
            Self::Doctor { .. } => "doctor",
            Self::Serve { .. } => "serve",
            #[cfg(feature = "desktop")]
            Self::Desktop { .. } => "desktop",
            Self::McpServer { .. } => "mcp-server",
            Self::Hook { .. } => "hook",
            Self::Sandbox(_) => "sandbox",
            Self::Worktree(_) => "worktree",
            Self::Skill(_) => "skill",
            Self::Tool(_) => "tool",
            Self::SandboxExec { .. } => "sandbox-exec",
        }
    }

    /// Whether the command writes IdeA's log. Not the sandbox helper: it runs inside the
    /// sandbox's parent's place, often where the log folder is not writable, and must start
    /// no thread before it execs.
    pub fn logs(&self) -> bool {
        // Nor a hook: it runs on every turn of every agent and must return in milliseconds.
        !matches!(self, Self::SandboxExec { .. } | Self::Hook { .. })
    }
}

/// Why a command failed, split by audience.
#[derive(Debug)]
pub enum Failure {
    /// Bad input, unknown agent, corrupt file, not a project: exit 2, one line.
    User(String),
    /// A failure of the machine or of IdeA: exit 1.
    Internal(anyhow::Error),
    /// A failure with its own exit status (the sandbox helper's 125, 126, 127).
    Status(u8, String),
}

/// The server's failures keep their audience.
impl From<ServerError> for Failure {
    fn from(error: ServerError) -> Self {
        match error {
            ServerError::User(message) => Self::User(message),
            internal @ ServerError::Internal(_) => Self::Internal(internal.into()),
        }
    }
}

/// By the server's rule: a user's error, else an internal one.
impl From<AppError> for Failure {
    fn from(error: AppError) -> Self {
        ServerError::from(error).into()
    }
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        Self::Internal(error)
    }
}

/// Runs one parsed command.
///
/// # Errors
/// A [`Failure`] the binary turns into an exit code.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Init { dir } => init(&dir.unwrap_or_else(|| PathBuf::from("."))),
        Command::Agent(command) => agent::run(command),
        Command::Profiles { json } => doctor::profiles(json),
        Command::Doctor { json } => doctor::doctor(json),
        Command::Serve {
            dir,
            port,
            token,
            token_file,
        } => Ok(idea_server::serve::run(
            &dir.unwrap_or_else(|| PathBuf::from(".")),
            port,
            token,
            token_file,
            &OPENER,
        )?),
        #[cfg(feature = "desktop")]
        Command::Desktop { dir } => Ok(crate::desktop::run(
            &dir.unwrap_or_else(|| PathBuf::from(".")),
        )?),
        Command::McpServer { project, requester } => mcp_server::run(&project, &requester),
        Command::Hook {
            project,
            agent,
            event,
            payload,
        } => {
            // An unknown event (a newer CLI's hook file, say) is ignored like every failure.
            if let Ok(event) = event.parse() {
                hook::run(&project, &agent, event, payload.as_deref());
            }
            Ok(())
        }
        Command::Sandbox(args) => sandbox::run(args),
        Command::Worktree(command) => worktree::run(command),
        Command::Skill(command) => skill::run(command),
        Command::Tool(command) => tool::run(command),
        Command::SandboxExec { probe: true, .. } => sandbox::probe(),
        Command::SandboxExec { plan, command, .. } => Err(sandbox::exec(plan.as_deref(), &command)),
    }
}

fn init(dir: &std::path::Path) -> Result<(), Failure> {
    if !dir.exists() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::User(format!("cannot create {}: {e}", dir.display())))?;
    }
    let path = idea_server::paths::project_path(dir)?;
    let store = idea_infrastructure::store::FsProjectStore::new(path.as_path());
    let done =
        idea_application::project::init(&store, &idea_infrastructure::system::RandomIds, &path)?;
    let verb = if done.created {
        "Initialised"
    } else {
        "Already an IdeA project:"
    };
    println!(
        "{verb} {} ({})",
        path.as_path().display(),
        done.project.name
    );
    Ok(())
}

/// Prints `value` as pretty JSON.
pub(crate) fn print_json(value: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Internal(e.into()))?;
    println!("{text}");
    Ok(())
}
