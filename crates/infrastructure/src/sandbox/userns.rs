//! The helper's own user and mount namespace: entered in place (same pid, process group,
//! session and terminal, since no new pid namespace and no fork), with the user's ids mapped
//! to themselves, and mounts that do not propagate back. See `docs/sandbox.md`.

use super::{SandboxError, sys};
use std::io;

/// Set (to anything but empty) on the helper, it behaves as on a kernel that refuses user
/// namespaces: the probe says so and a plan that needs one fails. A test switch.
pub const NO_USERNS_ENV: &str = "IDEA_SANDBOX_NO_USERNS";

fn step(step: &'static str) -> impl FnOnce(io::Error) -> SandboxError {
    move |source| SandboxError::Namespace { step, source }
}

/// Enters a new user namespace and mount namespace. The ids: for root, every id its own
/// namespace maps, each to itself; for anyone else, their own uid and gid (and `setgroups`
/// denied, as the kernel requires).
///
/// # Errors
/// The step that failed: the kernel or a test switch refused the namespace, a map that
/// cannot be written, mounts that cannot be made private.
pub(super) fn enter() -> Result<(), SandboxError> {
    if std::env::var_os(NO_USERNS_ENV).is_some_and(|v| !v.is_empty()) {
        return Err(SandboxError::Namespace {
            step: "unshare (user namespace)",
            source: io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("refused by ${NO_USERNS_ENV}"),
            ),
        });
    }
    // SAFETY-free reads of this process's ids.
    let (uid, gid) = (nix::unistd::getuid(), nix::unistd::getgid());
    // Read before: the maps of the namespace we leave.
    let outer_uids = std::fs::read_to_string("/proc/self/uid_map").unwrap_or_default();
    let outer_gids = std::fs::read_to_string("/proc/self/gid_map").unwrap_or_default();
    sys::unshare_user_and_mounts().map_err(step("unshare (user and mount namespace)"))?;
    let identity = |outer: &str| -> String {
        outer
            .lines()
            .filter_map(|line| {
                let mut parts = line.split_whitespace();
                let first = parts.next()?;
                let count = parts.nth(1)?;
                Some(format!("{first} {first} {count}\n"))
            })
            .collect()
    };
    let wide = uid.is_root()
        && std::fs::write("/proc/self/uid_map", identity(&outer_uids)).is_ok()
        && std::fs::write("/proc/self/gid_map", identity(&outer_gids)).is_ok();
    if !wide {
        std::fs::write("/proc/self/setgroups", "deny")
            .map_err(step("write /proc/self/setgroups"))?;
        std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1\n"))
            .map_err(step("write /proc/self/uid_map"))?;
        std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1\n"))
            .map_err(step("write /proc/self/gid_map"))?;
    }
    sys::make_mounts_slave().map_err(step("make the mounts private (mount --make-rslave /)"))
}

/// What `idea sandbox-exec --probe` does: enters the namespaces and mounts a read-only tmpfs
/// in them, as a plan would. Run in a process of its own, which then exits.
///
/// # Errors
/// The step the kernel refused.
pub fn probe() -> Result<(), SandboxError> {
    enter()?;
    let tmpfs = sys::empty_tmpfs().map_err(step("mount a tmpfs"))?;
    let target = std::fs::File::open("/").map_err(step("open /"))?;
    let clone = sys::clone_tree(
        std::os::fd::AsFd::as_fd(&tmpfs),
        Some(std::ffi::OsStr::new("d")),
    )
    .map_err(step("clone a mount (open_tree)"))?;
    sys::set_attributes(
        std::os::fd::AsFd::as_fd(&clone),
        sys::MOUNT_ATTR_RDONLY,
        0,
        false,
    )
    .map_err(step("make a mount read-only (mount_setattr)"))?;
    sys::attach(
        std::os::fd::AsFd::as_fd(&clone),
        std::os::fd::AsFd::as_fd(&target),
    )
    .map_err(step("attach a mount (move_mount)"))?;
    sys::drop_capabilities().map_err(step("drop capabilities"))
}
