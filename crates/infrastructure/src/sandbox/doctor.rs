//! `idea doctor`'s look at user namespaces: whether the helper can set one up (tried), and
//! when not, which of the kernel's settings refuses them and how to allow them.

use serde::Serialize;
use std::path::Path;

/// Whether agents get the full sandbox (namespaces) or the limited one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NamespaceSupport {
    pub supported: bool,
    pub detail: String,
    /// How to allow them, when refused.
    pub how_to_allow: Option<String>,
}

/// A kernel setting that refuses unprivileged user namespaces, with its fix.
fn refusing_setting() -> Option<String> {
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|v| v.trim().to_owned())
    };
    if read("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        return Some(
            "kernel.unprivileged_userns_clone is 0: `sudo sysctl -w kernel.unprivileged_userns_clone=1` \
             (and in /etc/sysctl.d/ to keep it)"
                .into(),
        );
    }
    if read("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        return Some(
            "user.max_user_namespaces is 0: `sudo sysctl -w user.max_user_namespaces=15000` \
             (and in /etc/sysctl.d/ to keep it)"
                .into(),
        );
    }
    if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1") {
        return Some(
            "AppArmor restricts unprivileged user namespaces \
             (kernel.apparmor_restrict_unprivileged_userns=1): give the idea executable an \
             AppArmor profile that allows `userns,` or set the sysctl to 0"
                .into(),
        );
    }
    None
}

/// Tries the helper's namespace step and explains a refusal.
pub fn namespace_support(helper: Option<&Path>) -> NamespaceSupport {
    let probed = match helper {
        Some(helper) => super::probe_namespaces(helper),
        None => Err("no sandbox helper".into()),
    };
    match probed {
        Ok(()) => NamespaceSupport {
            supported: true,
            detail: "user and mount namespaces work: agents can write their whole project \
                     while IdeA's state and git's hooks stay read-only"
                .into(),
            how_to_allow: None,
        },
        Err(why) => NamespaceSupport {
            supported: false,
            detail: format!(
                "refused ({why}): agents get the limited sandbox (new top-level entries \
                 cannot be created, git's hooks not protected)"
            ),
            how_to_allow: Some(refusing_setting().unwrap_or_else(|| {
                "no kernel setting refuses them: in a container, allow the unshare and mount \
                 system calls (e.g. podman/docker --security-opt seccomp=unconfined, or a \
                 seccomp profile allowing unshare with CLONE_NEWUSER)"
                    .into()
            })),
        },
    }
}
