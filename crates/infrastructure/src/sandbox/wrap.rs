//! The parent's side: the command line that runs a program under a plan.

use super::{SandboxError, kernel_abi, required_abi};
use idea_domain::sandbox::SandboxPlan;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The variable that hands the plan (JSON) to `idea sandbox-exec`; the helper removes it
/// before the exec.
pub const PLAN_ENV: &str = "IDEA_SANDBOX_PLAN";

/// The hidden subcommand of `idea` that applies a plan and execs the program.
pub const SANDBOX_EXEC: &str = "sandbox-exec";

/// A sandboxed program's command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapped {
    /// The helper (`idea`).
    pub program: PathBuf,
    /// `sandbox-exec -- PROGRAM`, to which the caller appends the program's arguments.
    pub args: Vec<OsString>,
    /// The value of [`PLAN_ENV`].
    pub plan_json: String,
}

/// `helper sandbox-exec -- program`, with the plan for [`PLAN_ENV`]; `program` is resolved
/// already (the helper execs it as given).
///
/// # Errors
/// No helper, a plan that is not well formed, or a kernel that cannot enforce it: the caller
/// starts nothing (fail-closed).
pub fn wrap(
    helper: Option<&Path>,
    plan: &SandboxPlan,
    program: &Path,
) -> Result<Wrapped, SandboxError> {
    let helper = helper.ok_or(SandboxError::NoHelper)?;
    plan.check()?;
    let offered = kernel_abi();
    let needed = required_abi();
    if offered.is_none_or(|abi| abi < needed) {
        return Err(SandboxError::Unsupported { needed, offered });
    }
    let plan_json = serde_json::to_string(plan).map_err(|e| SandboxError::Json(e.to_string()))?;
    Ok(Wrapped {
        program: helper.to_path_buf(),
        args: vec![SANDBOX_EXEC.into(), "--".into(), program.into()],
        plan_json,
    })
}

/// The helper's flag that only tries the namespace step and says whether it works.
pub const PROBE_FLAG: &str = "--probe";

/// Whether `helper` can set up a user and mount namespace here: run as `helper sandbox-exec
/// --probe` (a process of its own, since a namespace is entered for good and only by a
/// single-threaded process). Tried, not guessed from the kernel's settings.
///
/// # Errors
/// What the helper reported (the step the kernel refused), or why it could not run.
pub fn probe_namespaces(helper: &Path) -> Result<(), String> {
    let out = std::process::Command::new(helper)
        .args([SANDBOX_EXEC, PROBE_FLAG])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", helper.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    Err(said.trim().trim_start_matches("idea: ").to_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::sandbox::REQUIRED_ABI;

    #[test]
    fn without_a_helper_nothing_runs() {
        let err = wrap(None, &SandboxPlan::default(), Path::new("/bin/true")).unwrap_err();
        assert!(matches!(err, SandboxError::NoHelper), "{err}");
    }

    #[test]
    fn a_relative_plan_is_refused_before_anything_runs() {
        let plan = SandboxPlan {
            write_roots: vec![PathBuf::from("proj")],
            ..SandboxPlan::default()
        };
        let err = wrap(Some(Path::new("/idea")), &plan, Path::new("/bin/true")).unwrap_err();
        assert!(matches!(err, SandboxError::Plan(_)), "{err}");
    }

    #[test]
    fn the_program_follows_the_separator() {
        let plan = SandboxPlan {
            write_roots: vec![PathBuf::from("/w")],
            scope_signals: true,
            ..SandboxPlan::default()
        };
        match wrap(
            Some(Path::new("/opt/idea")),
            &plan,
            Path::new("/usr/bin/env"),
        ) {
            Ok(w) => {
                assert_eq!(w.program, PathBuf::from("/opt/idea"));
                assert_eq!(
                    w.args,
                    ["sandbox-exec", "--", "/usr/bin/env"]
                        .map(OsString::from)
                        .to_vec()
                );
                let back: SandboxPlan = serde_json::from_str(&w.plan_json).unwrap();
                assert_eq!(back, plan);
            }
            // A kernel without Landlock ABI 6 refuses: that is the fail-closed answer.
            Err(SandboxError::Unsupported { needed, offered }) => {
                assert_eq!(needed, REQUIRED_ABI);
                assert!(offered.is_none_or(|abi| abi < REQUIRED_ABI));
            }
            Err(other) => panic!("{other}"),
        }
    }
}
