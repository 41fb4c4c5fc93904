//! `idea sandbox` (run any command under a project's sandbox plan, or print the plan) and the
//! hidden `idea sandbox-exec`, the helper every sandboxed agent, turn and `idea sandbox` goes
//! through: enter the plan's namespace (when it has one), apply Landlock to this process, then
//! exec the command (no shell).

use super::{Failure, print_json};
use idea_domain::sandbox::{LIMITED_NOTE, SandboxPlan};
use idea_infrastructure::sandbox::{PLAN_ENV, REQUIRED_ABI, helper, kernel_abi};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub use idea_infrastructure::sandbox::helper::ENFORCEMENT_FAILED;

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
    let (plan, has_rules) = match &args.plan {
        Some(file) => (read_plan(file)?, true),
        None => project_plan(&args.project, args.agent.as_deref())?,
    };
    if args.explain {
        return if args.json {
            print_json(&plan)
        } else {
            if !has_rules {
                println!(
                    "No permission rules: this project's agents run natively (not sandboxed).\n\
                     The plan they would get once a rule exists:"
                );
            }
            print!("{}", explain(&plan));
            Ok(())
        };
    }
    let Some((program, rest)) = args.command.split_first() else {
        return Err(Failure::User(
            "nothing to run: idea sandbox [--project DIR] [--agent NAME] -- CMD ARGS…".into(),
        ));
    };
    Err(through_helper(&plan, Path::new(program), rest))
}

/// Runs the command through `idea sandbox-exec`, as a launch does: this process has opened
/// the project (threads may run), and only a single-threaded process can enter a namespace.
/// The exec keeps the pid.
fn through_helper(plan: &SandboxPlan, program: &Path, args: &[OsString]) -> Failure {
    use std::os::unix::process::CommandExt;
    let helper = crate::compose::sandbox_helper();
    let wrapped = match idea_infrastructure::sandbox::wrap(helper.as_deref(), plan, program) {
        Ok(wrapped) => wrapped,
        Err(e) => return not_started(&[program.into()], &e.to_string()),
    };
    let error = std::process::Command::new(&wrapped.program)
        .args(&wrapped.args)
        .args(args)
        .env(PLAN_ENV, &wrapped.plan_json)
        .exec();
    not_started(
        &[program.into()],
        &format!(
            "cannot run the helper {}: {error}",
            wrapped.program.display()
        ),
    )
}

/// `idea sandbox-exec --probe`: whether the namespace step works here (exit 0), else the step
/// the kernel refused (exit 1).
pub fn probe() -> Result<(), Failure> {
    helper::probe().map_err(failure)
}

/// `idea sandbox-exec [--plan FILE] -- CMD ARGS…`: the plan from `FILE`, else from
/// [`PLAN_ENV`]. Never returns on success.
pub fn exec(plan_file: Option<&Path>, command: &[OsString]) -> Failure {
    failure(helper::exec(plan_file, command))
}

fn failure(why: helper::HelperFailure) -> Failure {
    Failure::Status(why.status, why.message)
}

fn not_started(command: &[OsString], why: &str) -> Failure {
    failure(helper::not_started(command, why))
}

fn read_plan(file: &Path) -> Result<SandboxPlan, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::User(format!("cannot read the plan {}: {e}", file.display())))?;
    helper::parse_plan(&text, &file.display().to_string()).map_err(Failure::User)
}

/// The plan of `project` (and of `agent`'s CLI when given): the one a launch or a turn
/// compiles from the permission rules (`idea_application::sandbox`), the agent's run dir and
/// its CLI's state folders made as a launch makes them. Also whether the rules call for it.
fn project_plan(project: &Path, agent: Option<&str>) -> Result<(SandboxPlan, bool), Failure> {
    let open = crate::compose::open_project(project)?;
    let plan = match agent {
        Some(agent) => idea_application::sandbox::plan_of_agent(&open.deps, agent)?,
        None => idea_application::sandbox::plan_of_project(&open.deps)?,
    };
    Ok((plan.plan, plan.has_rules))
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
    let (mode, read_only, writable) = match &plan.mounts {
        Some(m) => (
            "user and mount namespace, then Landlock: the project is writable whole".to_owned(),
            m.read_only.clone(),
            m.writable.clone(),
        ),
        None => (format!("Landlock only ({LIMITED_NOTE})"), vec![], vec![]),
    };
    format!(
        "Kernel: {kernel}\n\
         Sandbox: {mode}\n\
         Read: everything except\n{}\
         Credentials (not readable; an allow rule such as Read(~/.ssh/**) lifts one):\n{}\
         Write: only under\n{}  except under\n{}\
         Read-only (mounted over themselves):\n{}  writable again below them:\n{}\
         Signals: {}\n\
         Abstract Unix sockets: {}\n\
         Network: not restricted\n",
        list(&plan.read_denied, "nothing denied"),
        list(&plan.credentials, "none"),
        list(&plan.write_roots, "nowhere"),
        list(&plan.write_denied, "nothing denied"),
        list(&read_only, "none"),
        list(&writable, "none"),
        scoped(plan.scope_signals, "to processes"),
        scoped(plan.scope_abstract_unix, "to sockets created"),
    )
}
