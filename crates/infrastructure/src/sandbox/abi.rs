//! Which Landlock ABI the running kernel offers.

/// The oldest ABI that can enforce a plan: ABI 6 brought the signal and abstract Unix socket
/// scopes (Linux 6.12). The plan's file access rights are those of this ABI.
pub const REQUIRED_ABI: u8 = 6;

/// Raises the Landlock ABI required (never lowers it below [`REQUIRED_ABI`]), in the parent
/// that wraps a program and in the helper alike: the kernel tests set it above this kernel's
/// ABI to check that an enforcement failure starts nothing.
pub const REQUIRE_ABI_ENV: &str = "IDEA_SANDBOX_REQUIRE_ABI";

/// The ABI a plan needs here: [`REQUIRED_ABI`], or more when [`REQUIRE_ABI_ENV`] says so.
pub fn required_abi() -> u8 {
    std::env::var(REQUIRE_ABI_ENV)
        .ok()
        .and_then(|v| v.parse::<u8>().ok())
        .map_or(REQUIRED_ABI, |v| v.max(REQUIRED_ABI))
}

/// The kernel's Landlock ABI version, `None` when Landlock is not built in or not enabled.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn kernel_abi() -> Option<u8> {
    // `landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)` only returns the ABI
    // version: no memory is passed, nothing is created. The `landlock` crate keeps this query
    // private, hence the direct system call.
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: a null attribute pointer with size 0 is the documented form of this query; the
    // kernel reads no memory and returns an integer (or -1 with errno).
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    u8::try_from(version).ok().filter(|v| *v > 0)
}

/// Landlock exists only on Linux.
#[cfg(not(target_os = "linux"))]
pub fn kernel_abi() -> Option<u8> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use landlock::{ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr};

    #[test]
    fn the_version_agrees_with_what_the_kernel_accepts() {
        let accepts = |abi: ABI| {
            Ruleset::default()
                .set_compatibility(CompatLevel::HardRequirement)
                .handle_access(AccessFs::from_all(abi))
                .and_then(|r| r.create())
                .is_ok()
        };
        let version = super::kernel_abi();
        assert_eq!(version.is_some(), accepts(ABI::V1));
        // ABI 3 added Truncate, ABI 5 IoctlDev: each is accepted exactly from its version on.
        assert_eq!(version.is_some_and(|v| v >= 3), accepts(ABI::V3));
        assert_eq!(version.is_some_and(|v| v >= 5), accepts(ABI::V5));
    }
}
