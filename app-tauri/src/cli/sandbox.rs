//! `idea sandbox` (run any command under a project's sandbox plan, or print the plan) and the
//! hidden `idea sandbox-exec`, the helper every sandboxed agent, turn and `idea sandbox` goes
//! through: apply the plan to this process with Landlock, then exec the command (no shell).

use super::{Failure, print_json};
use idea_domain::profile::AgentProfile;
use idea_domain::sandbox::{SandboxInputs, SandboxPlan, cli_state, compile_plan, temp_dirs};
use idea_infrastructure::sandbox::{PLAN_ENV, REQUIRED_ABI, kernel_abi, required_abi};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Exit status when the plan cannot be enforced (the command was not started); 126 and 127
/// keep their usual meaning (found but not runnable, not found), as with `env`.
pub const ENFORCEMENT_FAILED: u8 = 125;

#[derive(Debug, clap::Args)]
pub struct SandboxArgs {
    /// The project whose plan applies.
    #[arg(long, default_value = ".")]
    project: PathBuf,
    /// Also grant this agent's run dir and its CLI's own state folders (name or id).
    #[arg(long, conflicts_with = "plan")]
    agent: Option<String>,
    /// Use this plan (JSON, as `--explain --json` prints it) instead of the project's.
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,
    /// Print the plan instead of running a command.
    #[arg(long)]
    explain: bool,
    /// With --explain: print the plan as JSON.
    #[arg(long, requires = "explain")]
    json: bool,
    /// The command and its arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<OsString>,
}

/// `idea sandbox`.
///
/// # Errors
/// A project, agent or plan that cannot be read; on success with a command, it never returns
/// (the command replaced this process).
pub fn run(args: SandboxArgs) -> Result<(), Failure> {
    let (plan, state_dirs) = match &args.plan {
        Some(file) => (read_plan(file)?, vec![]),
        None => project_plan(&args.project, args.agent.as_deref())?,
    };
    if args.explain {
        return if args.json {
            print_json(&plan)
        } else {
            print!("{}", explain(&plan));
            Ok(())
        };
    }
    if args.command.is_empty() {
        return Err(Failure::User(
            "nothing to run: idea sandbox [--project DIR] [--agent NAME] -- CMD ARGS…".into(),
        ));
    }
    create_state_dirs(&state_dirs)?;
    Err(enforce_and_exec(&plan, &args.command))
}

/// The CLI's own state folders, made (private to the user) when missing: once sandboxed it
/// could not make them, its home not being writable.
fn create_state_dirs(dirs: &[PathBuf]) -> Result<(), Failure> {
    use std::os::unix::fs::DirBuilderExt;
    for dir in dirs.iter().filter(|d| !d.exists()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| Failure::User(format!("cannot create {}: {e}", dir.display())))?;
    }
    Ok(())
}

/// `idea sandbox-exec [--plan FILE] -- CMD ARGS…`: the plan from `FILE`, else from
/// [`PLAN_ENV`]. Never returns on success.
pub fn exec(plan_file: Option<&Path>, command: &[OsString]) -> Failure {
    let plan = match plan_file {
        Some(file) => read_plan(file),
        None => match std::env::var(PLAN_ENV) {
            Ok(json) => parse_plan(&json, PLAN_ENV),
            Err(_) => Err(Failure::User(format!(
                "no sandbox plan (--plan FILE or ${PLAN_ENV})"
            ))),
        },
    };
    match plan {
        Ok(plan) => enforce_and_exec(&plan, command),
        Err(Failure::User(message)) => not_started(command, &message),
        Err(other) => other,
    }
}

fn not_started(command: &[OsString], why: &str) -> Failure {
    let name = command.first().map(|c| c.to_string_lossy().into_owned());
    Failure::Status(
        ENFORCEMENT_FAILED,
        format!(
            "sandbox: {why}; {} was not started",
            name.unwrap_or_else(|| "the command".into())
        ),
    )
}

/// Applies `plan` to this process, then execs `command`; returns only on failure.
#[cfg(target_os = "linux")]
fn enforce_and_exec(plan: &SandboxPlan, command: &[OsString]) -> Failure {
    use std::os::unix::process::CommandExt;
    let Some((program, args)) = command.split_first() else {
        return not_started(command, "no command given");
    };
    if let Err(e) = idea_infrastructure::sandbox::enforce(plan, required_abi()) {
        return not_started(command, &e.to_string());
    }
    // `exec` searches PATH as execvp does; no shell is involved.
    let error = std::process::Command::new(program)
        .args(args)
        .env_remove(PLAN_ENV)
        .exec();
    let code = if error.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    };
    Failure::Status(
        code,
        format!("cannot run {}: {error}", program.to_string_lossy()),
    )
}

#[cfg(not(target_os = "linux"))]
fn enforce_and_exec(_plan: &SandboxPlan, command: &[OsString]) -> Failure {
    not_started(command, "the sandbox needs Linux (Landlock)")
}

fn read_plan(file: &Path) -> Result<SandboxPlan, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::User(format!("cannot read the plan {}: {e}", file.display())))?;
    parse_plan(&text, &file.display().to_string())
}

fn parse_plan(json: &str, source: &str) -> Result<SandboxPlan, Failure> {
    let plan: SandboxPlan = serde_json::from_str(json)
        .map_err(|e| Failure::User(format!("{source} is not a sandbox plan: {e}")))?;
    plan.check()
        .map_err(|e| Failure::User(format!("{source}: {e}")))?;
    Ok(plan)
}

/// The plan of `project` (and of `agent`'s CLI when given), as a launch would compute it,
/// and the CLI's state folders.
fn project_plan(
    project: &Path,
    agent: Option<&str>,
) -> Result<(SandboxPlan, Vec<PathBuf>), Failure> {
    let root = crate::compose::project_path(project)?;
    let (run_dir, state) = match agent {
        None => (None, Default::default()),
        Some(agent) => {
            let (run_dir, profile) = agent_facts(project, agent)?;
            let state = cli_state(&profile, &crate::compose::cli_state_env());
            (Some(run_dir), state)
        }
    };
    let tmpdir = std::env::var_os("TMPDIR").map(PathBuf::from);
    let denied = denied_paths(root.as_path());
    let plan = compile_plan(&SandboxInputs {
        project_root: root.as_path().to_path_buf(),
        run_dir,
        temp_dirs: temp_dirs(tmpdir.as_deref()),
        state_paths: state.paths(),
        deny_read: denied.read,
        deny_write: denied.write,
    });
    Ok((plan, state.dirs))
}

/// Paths the permission rules deny, absolute.
#[derive(Debug, Default)]
struct DeniedPaths {
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
}

/// SEAM: the permission rule engine (`.ideai/permissions.json`, `~/.ideai/permissions.json`)
/// compiles its deny rules into these paths. Until it is wired in, nothing is denied beyond
/// what the plan does not grant.
fn denied_paths(_project_root: &Path) -> DeniedPaths {
    DeniedPaths::default()
}

/// The agent's run dir (not created) and its profile.
fn agent_facts(project: &Path, agent: &str) -> Result<(PathBuf, AgentProfile), Failure> {
    use idea_domain::ports::ProfileCatalog;
    let open = crate::compose::open_project(project)?;
    let found = idea_application::agents::find(&open.deps, agent)?;
    let profile = crate::compose::profile_catalog()
        .get(&found.profile_id)
        .ok_or_else(|| {
            Failure::User(format!(
                "agent {} uses profile {}, which does not exist",
                found.name, found.profile_id
            ))
        })?;
    let run_dir = open
        .path
        .ideai_dir()
        .join("run")
        .join(found.agent_id.to_string());
    Ok((run_dir, profile))
}

/// The plan in words.
fn explain(plan: &SandboxPlan) -> String {
    let list = |paths: &[PathBuf], empty: &str| -> String {
        if paths.is_empty() {
            return format!("    ({empty})\n");
        }
        paths
            .iter()
            .map(|p| format!("    {}\n", p.display()))
            .collect()
    };
    let kernel = match kernel_abi() {
        Some(abi) if abi >= REQUIRED_ABI => format!("Landlock ABI {abi}: enforceable"),
        Some(abi) => format!("Landlock ABI {abi}: too old, ABI {REQUIRED_ABI} needed"),
        None => "no Landlock: cannot be enforced".to_owned(),
    };
    let scoped = |on: bool, what: &str| {
        if on {
            format!("only {what} in the same sandbox")
        } else {
            "not restricted".to_owned()
        }
    };
    format!(
        "Kernel: {kernel}\n\
         Read: everything except\n{}\
         Write: only under\n{}  except under\n{}\
         Signals: {}\n\
         Abstract Unix sockets: {}\n\
         Network: not restricted\n",
        list(&plan.read_denied, "nothing denied"),
        list(&plan.write_roots, "nowhere"),
        list(&plan.write_denied, "nothing denied"),
        scoped(plan.scope_signals, "to processes"),
        scoped(plan.scope_abstract_unix, "to sockets created"),
    )
}
