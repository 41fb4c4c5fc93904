//! What a sandboxed agent may not touch by default although nothing in the rules names it:
//! the user's well-known credential stores (read-denied), and git's files that run code
//! outside the sandbox (read-only). The rules' allow entries lift either (the caller filters).

use super::CliStateEnv;
use std::path::{Path, PathBuf};

/// The entries of `.git/` that make git run something, read-only by default: hooks run on
/// commit, `config` can name programs (`core.hooksPath`, `core.fsmonitor`, aliases), `info/`
/// holds attributes and excludes. Objects, refs and the index stay writable, so agents commit.
pub const GIT_PROTECTED: &[&str] = &["hooks", "config", "info"];

/// The names in `~/.ssh` that are not secret: everything else there (private keys, whatever
/// their name) is denied. `*.pub` files too are kept readable.
pub const SSH_PUBLIC: &[&str] = &[
    "config",
    "known_hosts",
    "known_hosts.old",
    "authorized_keys",
    "authorized_keys2",
];

/// Credential stores under the home folder.
const HOME_STORES: &[&str] = &[
    ".aws",
    ".azure",
    ".gnupg",
    ".netrc",
    ".git-credentials",
    ".docker/config.json",
    ".kube",
    ".password-store",
    ".local/share/keyrings",
    ".pki",
    ".mozilla",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".pypirc",
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
];

/// Credential stores under the XDG config folder (`~/.config` by default): the GitHub CLI,
/// git's credential store, gcloud, and the browsers' profiles (cookies, saved passwords).
const CONFIG_STORES: &[&str] = &[
    "gh",
    "git/credentials",
    "gcloud",
    "google-chrome",
    "chromium",
    "BraveSoftware",
    "microsoft-edge",
    "vivaldi",
    "opera",
];

/// `.git/hooks`, `.git/config` and `.git/info` of `git_dir`.
pub fn git_protected(git_dir: &Path) -> Vec<PathBuf> {
    GIT_PROTECTED
        .iter()
        .map(|name| git_dir.join(name))
        .collect()
}

/// The agent CLIs' login files, by where each CLI keeps its state.
fn cli_logins(env: &CliStateEnv) -> Vec<PathBuf> {
    let home = &env.home;
    let claude = env
        .claude_config_dir
        .clone()
        .unwrap_or_else(|| home.join(".claude"));
    let codex = env
        .codex_home
        .clone()
        .unwrap_or_else(|| home.join(".codex"));
    let data = env
        .xdg_data_home
        .clone()
        .unwrap_or_else(|| home.join(".local/share"));
    vec![
        claude.join(".credentials.json"),
        codex.join("auth.json"),
        home.join(".gemini/oauth_creds.json"),
        data.join("opencode/auth.json"),
    ]
}

/// The built-in read-deny list: the credential stores above, the private entries of `~/.ssh`
/// (`ssh_entries`: its entry names; `None` when it cannot be listed, then `~/.ssh` whole), and
/// the other CLIs' login files: a login file inside `own_state` (the agent's own CLI state)
/// is its own and stays readable.
pub fn credential_paths(
    env: &CliStateEnv,
    own_state: &[PathBuf],
    ssh_entries: Option<&[String]>,
) -> Vec<PathBuf> {
    let home = &env.home;
    let config = env
        .xdg_config_home
        .clone()
        .unwrap_or_else(|| home.join(".config"));
    let ssh = home.join(".ssh");
    let private: Vec<PathBuf> = match ssh_entries {
        Some(names) => names
            .iter()
            .filter(|n| !SSH_PUBLIC.contains(&n.as_str()) && !n.ends_with(".pub"))
            .map(|n| ssh.join(n))
            .collect(),
        None => vec![ssh.clone()],
    };
    let private = if private.is_empty() && ssh_entries.is_none_or(<[String]>::is_empty) {
        vec![ssh]
    } else {
        private
    };
    private
        .into_iter()
        .chain(HOME_STORES.iter().map(|s| home.join(s)))
        .chain(CONFIG_STORES.iter().map(|s| config.join(s)))
        .chain(
            cli_logins(env)
                .into_iter()
                .filter(|login| !own_state.iter().any(|own| login.starts_with(own))),
        )
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn env() -> CliStateEnv {
        CliStateEnv {
            home: PathBuf::from("/h"),
            ..CliStateEnv::default()
        }
    }

    #[test]
    fn private_ssh_entries_are_denied_public_ones_are_not() {
        let names = [
            "id_ed25519",
            "id_ed25519.pub",
            "known_hosts",
            "config",
            "work",
        ]
        .map(String::from);
        let denied = credential_paths(&env(), &[], Some(&names));
        assert!(denied.contains(&PathBuf::from("/h/.ssh/id_ed25519")));
        assert!(denied.contains(&PathBuf::from("/h/.ssh/work")));
        for public in ["id_ed25519.pub", "known_hosts", "config"] {
            assert!(!denied.contains(&PathBuf::from("/h/.ssh").join(public)));
        }
        assert!(!denied.contains(&PathBuf::from("/h/.ssh")));
        // Nothing to list (absent, empty, unreadable): the folder whole.
        for listing in [None, Some(&[][..])] {
            let denied = credential_paths(&env(), &[], listing);
            assert!(denied.contains(&PathBuf::from("/h/.ssh")), "{listing:?}");
        }
    }

    #[test]
    fn the_agents_own_login_stays_readable_the_others_do_not() {
        let own = vec![PathBuf::from("/h/.codex")];
        let denied = credential_paths(&env(), &own, None);
        assert!(!denied.contains(&PathBuf::from("/h/.codex/auth.json")));
        assert!(denied.contains(&PathBuf::from("/h/.claude/.credentials.json")));
        assert!(denied.contains(&PathBuf::from("/h/.gemini/oauth_creds.json")));
        for store in [
            "/h/.aws",
            "/h/.config/gh",
            "/h/.netrc",
            "/h/.docker/config.json",
        ] {
            assert!(denied.contains(&PathBuf::from(store)), "{store}");
        }
    }

    #[test]
    fn git_protects_hooks_config_and_info() {
        assert_eq!(
            git_protected(Path::new("/p/.git")),
            ["/p/.git/hooks", "/p/.git/config", "/p/.git/info"].map(PathBuf::from)
        );
    }
}
