//! The helper's side: applies a plan to the calling thread with Landlock, fail-closed.

use super::grant::{Rights, visit};
use super::{SandboxError, kernel_abi};
use idea_domain::sandbox::{SandboxPlan, read_layout, write_layout};
use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, RestrictionStatus,
    Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::path::{Path, PathBuf};

/// What was enforced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enforced {
    /// The kernel's Landlock ABI.
    pub kernel_abi: u8,
    /// Rules added (hierarchies granted).
    pub rules: usize,
}

/// The ABIs whose access rights this build knows, by number.
fn abi(number: u8) -> Option<ABI> {
    Some(match number {
        6 => ABI::V6,
        7 => ABI::V7,
        8 => ABI::V8,
        9 => ABI::V9,
        10 => ABI::V10,
        _ => return None,
    })
}

/// `plan` with every path resolved as the kernel will see it (symlinks followed; for a path
/// that does not exist, its deepest existing ancestor), so that a denied path behind a
/// symlink is denied where it really lives.
fn resolve(plan: &SandboxPlan) -> SandboxPlan {
    let all = |paths: &[PathBuf]| paths.iter().map(|p| real_path(p)).collect();
    SandboxPlan {
        read_denied: all(&plan.read_denied),
        write_roots: all(&plan.write_roots),
        write_denied: all(&plan.write_denied),
        credentials: all(&plan.credentials),
        ..plan.clone()
    }
}

pub(super) fn real_path(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut existing = path;
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Restricts the calling thread (and whatever it execs) to `plan`, with the file access
/// rights of Landlock ABI `required` (at least [`super::REQUIRED_ABI`]).
///
/// # Errors
/// A plan that is not well formed, a kernel older than `required`, a path granted whole that
/// cannot be opened, or Landlock not reporting the ruleset fully enforced: the caller must not
/// exec.
pub fn enforce(plan: &SandboxPlan, required: u8) -> Result<Enforced, SandboxError> {
    plan.check()?;
    let offered = kernel_abi();
    let unsupported = || SandboxError::Unsupported {
        needed: required,
        offered,
    };
    let abi = abi(required.max(super::REQUIRED_ABI)).ok_or_else(unsupported)?;
    if offered.is_none_or(|k| k < required) {
        return Err(unsupported());
    }
    // The namespace first: once Landlock restricts this process, the kernel refuses it the
    // uid map and every mount.
    let plan = super::mounts::isolate(plan)?;
    let plan = resolve(&plan);
    let mut scopes: BitFlags<Scope> = BitFlags::empty();
    if plan.scope_signals {
        scopes |= Scope::Signal;
    }
    if plan.scope_abstract_unix {
        scopes |= Scope::AbstractUnixSocket;
    }
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .map_err(landlock_error)?;
    if !scopes.is_empty() {
        ruleset = ruleset.scope(scopes).map_err(landlock_error)?;
    }
    let mut created = ruleset.create().map_err(landlock_error)?;
    let mut rules = 0usize;
    let mut add = |file: std::fs::File, access: BitFlags<AccessFs>| {
        (&mut created)
            .add_rule(PathBeneath::new(file, access))
            .map_err(landlock_error)?;
        rules += 1;
        Ok(())
    };
    let read = Rights {
        hierarchy: AccessFs::from_read(abi),
        split_folder: AccessFs::ReadDir.into(),
        file: AccessFs::from_file(abi),
    };
    visit(&read_layout(&plan), read, &mut add)?;
    let write = Rights {
        hierarchy: AccessFs::from_all(abi),
        split_folder: BitFlags::empty(),
        file: AccessFs::from_file(abi),
    };
    visit(&write_layout(&plan), write, &mut add)?;
    let status = created.restrict_self().map_err(landlock_error)?;
    check_status(&status)?;
    Ok(Enforced {
        kernel_abi: offered.unwrap_or_default(),
        rules,
    })
}

/// Anything short of "fully enforced, no new privileges" is a failure.
fn check_status(status: &RestrictionStatus) -> Result<(), SandboxError> {
    if status.ruleset == RulesetStatus::FullyEnforced && status.no_new_privs {
        return Ok(());
    }
    Err(SandboxError::NotFullyEnforced {
        status: format!(
            "ruleset {:?}, no_new_privs {}",
            status.ruleset, status.no_new_privs
        ),
    })
}

fn landlock_error(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Landlock(e.to_string())
}
