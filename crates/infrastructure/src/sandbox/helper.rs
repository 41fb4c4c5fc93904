//! The helper's own work, shared by `idea sandbox-exec` and the `idea-sandbox-exec` binary:
//! read the plan, enter its namespace, apply Landlock, exec the command (no shell). The
//! separate binary exists because a process must be single-threaded to enter a user
//! namespace, and the desktop build of `idea` is not (WebKit starts a thread as it loads).

use super::{PLAN_ENV, required_abi};
use idea_domain::sandbox::SandboxPlan;
use std::ffi::OsString;
use std::path::Path;

/// Exit status when the plan cannot be enforced (the command was not started); 126 and 127
/// keep their usual meaning (found but not runnable, not found), as with `env`.
pub const ENFORCEMENT_FAILED: u8 = 125;

/// Why the helper did not exec its command: the exit status and the message for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperFailure {
    pub status: u8,
    pub message: String,
}

/// The plan from `plan_file`, else from [`PLAN_ENV`], applied to this process, then `command`
/// exec'd; returns only on failure.
pub fn exec(plan_file: Option<&Path>, command: &[OsString]) -> HelperFailure {
    let plan = match plan_file {
        Some(file) => std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read the plan {}: {e}", file.display()))
            .and_then(|text| parse_plan(&text, &file.display().to_string())),
        None => match std::env::var(PLAN_ENV) {
            Ok(json) => parse_plan(&json, PLAN_ENV),
            Err(_) => Err(format!("no sandbox plan (--plan FILE or ${PLAN_ENV})")),
        },
    };
    match plan {
        Ok(plan) => enforce_and_exec(&plan, command),
        Err(why) => not_started(command, &why),
    }
}

/// Enters the namespaces as a plan would, in this process (which then exits).
///
/// # Errors
/// The step the kernel refused.
pub fn probe() -> Result<(), HelperFailure> {
    #[cfg(target_os = "linux")]
    let probed = super::probe().map_err(|e| e.to_string());
    #[cfg(not(target_os = "linux"))]
    let probed: Result<(), String> = Err("user namespaces need Linux".into());
    probed.map_err(|why| HelperFailure {
        status: 1,
        message: format!("sandbox: {why}"),
    })
}

/// A plan read from `json`, checked.
///
/// # Errors
/// Not a plan, or one with a relative or `..` path.
pub fn parse_plan(json: &str, source: &str) -> Result<SandboxPlan, String> {
    let plan: SandboxPlan =
        serde_json::from_str(json).map_err(|e| format!("{source} is not a sandbox plan: {e}"))?;
    plan.check().map_err(|e| format!("{source}: {e}"))?;
    Ok(plan)
}

/// The failure of a command that was not started because of `why`.
pub fn not_started(command: &[OsString], why: &str) -> HelperFailure {
    let name = command.first().map(|c| c.to_string_lossy().into_owned());
    HelperFailure {
        status: ENFORCEMENT_FAILED,
        message: format!(
            "sandbox: {why}; {} was not started",
            name.unwrap_or_else(|| "the command".into())
        ),
    }
}

#[cfg(target_os = "linux")]
fn enforce_and_exec(plan: &SandboxPlan, command: &[OsString]) -> HelperFailure {
    use std::os::unix::process::CommandExt;
    let Some((program, args)) = command.split_first() else {
        return not_started(command, "no command given");
    };
    if let Err(e) = super::enforce(plan, required_abi()) {
        return not_started(command, &e.to_string());
    }
    // `exec` searches PATH as execvp does; no shell is involved.
    let error = std::process::Command::new(program)
        .args(args)
        .env_remove(PLAN_ENV)
        .exec();
    let status = if error.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    };
    HelperFailure {
        status,
        message: format!("cannot run {}: {error}", program.to_string_lossy()),
    }
}

#[cfg(not(target_os = "linux"))]
fn enforce_and_exec(_plan: &SandboxPlan, command: &[OsString]) -> HelperFailure {
    not_started(command, "the sandbox needs Linux (Landlock)")
}
