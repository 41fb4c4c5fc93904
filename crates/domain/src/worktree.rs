//! An agent's own git worktree (`docs/worktrees.md`): where it lives, the branch it gets, the
//! block of ports it may use. Pure rules; the git work is the infrastructure's `git` module.

use crate::ids::AgentId;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// An agent's own worktree as the manifest records it. Its folder is not recorded: it is
/// always [`worktree_dir`] of the project and the agent's slug, because the manifest is the
/// repository's (untrusted) and a recorded path would become a sandbox write grant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct AgentWorktree {
    /// The agent's branch (`idea/<slug>`).
    pub branch: String,
    /// The base the user chose (a branch such as `main`, or any ref), as they named it.
    pub base_ref: String,
    /// The commit the base named when the worktree was made.
    pub base_commit: String,
    /// Archived: the folder is gone, its uncommitted work saved under `refs/idea/wip/<slug>`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub archived: bool,
    /// The last squash of its work into the base (that commit), so the branch may go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub squashed_as: Option<String>,
}

/// One file an agent's worktree changed against where it left its base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ChangedFile {
    pub path: String,
    /// `A`dded, `M`odified, `D`eleted, `T`ype changed.
    pub status: String,
    /// Lines added and removed; absent for a binary file.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub added: Option<u64>,
    #[cfg_attr(feature = "ts", ts(optional))]
    pub removed: Option<u64>,
}

/// An agent's worktree as the Review and `idea worktree list` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct WorktreeStatus {
    pub agent_id: AgentId,
    pub agent_name: String,
    pub path: PathBuf,
    #[serde(flatten)]
    pub record: AgentWorktree,
    /// Commits the base has that the branch lacks; absent when it cannot be told.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub behind_base: Option<u64>,
    /// What it changed (empty when archived or unreadable).
    pub changed: Vec<ChangedFile>,
    /// Files another agent's worktree changed too, with those agents' names.
    pub overlaps: Vec<Overlap>,
    /// Why the figures above are missing (the folder deleted by hand, git failing).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub problem: Option<String>,
}

/// A file two or more agents' worktrees changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Overlap {
    pub path: String,
    /// The other agents that changed it.
    pub with: Vec<String>,
}

/// What squashing an agent's work into its base would do, or did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct SquashPlan {
    /// The branch that gets one commit.
    pub base_branch: String,
    /// The user's checkout of that branch, updated by git's own merge (it must be clean).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub checkout: Option<PathBuf>,
    /// The files it brings (its Review listing).
    pub files: Vec<ChangedFile>,
    /// Files that would conflict: then nothing is done.
    pub conflicts: Vec<String>,
    /// The commit made, once done.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub commit: Option<String>,
}

/// A pull request of an agent's branch: opened with `gh`, or the commands to open it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PullRequest {
    /// The pull request's address, when IdeA opened it.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub url: Option<String>,
    /// Otherwise what to run, in the worktree, to open it.
    pub commands: Vec<String>,
    /// Why IdeA did not open it itself (`gh` missing or not logged in, the push failed).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<String>,
}

/// What removing an agent's worktree did, and what it kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    /// The branch was deleted: its work is on the base.
    pub branch_deleted: bool,
    /// The uncommitted work saved under `refs/idea/wip/<slug>` was kept (there was some).
    pub saved_work_kept: bool,
    /// The agent works in the project's tree again (nothing of its branch is left to keep).
    pub record_removed: bool,
    /// In words, for the user.
    pub summary: String,
}

/// How a rebase of an agent's branch onto its base ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RebaseOutcome {
    /// The files that conflict: the rebase is in progress in the worktree (abort it, fix them
    /// there, or ask the agent to). Empty: the branch sits on the base's tip.
    pub conflicts: Vec<String>,
    /// With conflicts: what to ask the agent so that it resolves them ([`resolve_request`]).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub resolve_request: Option<String>,
    pub status: WorktreeStatus,
}

/// What an agent is asked to do about a rebase that stopped on `files`.
pub fn resolve_request(base_ref: &str, files: &[String]) -> String {
    let list: Vec<String> = files.iter().map(|f| format!("- {f}")).collect();
    format!(
        "Rebasing your branch onto {base_ref} stopped on conflicts in these files:\n{}\n\n\
         Resolve each conflict in your worktree (keep both sides' intent), `git add` the files, \
         then run `git rebase --continue` until the rebase is done, and say what you decided.",
        list.join("\n")
    )
}

/// What went wrong in git's hands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorktreeError {
    #[error("git is not installed (or not on PATH)")]
    GitMissing,
    #[error("git {found} is too old: worktrees need git 2.38 or later")]
    GitTooOld { found: String },
    #[error("{} is not a git repository", .0.display())]
    NotARepository(PathBuf),
    #[error("the branch {0} already exists")]
    BranchTaken(String),
    #[error("{0} names no commit")]
    UnknownRef(String),
    #[error("{branch} moved while IdeA was merging into it: nothing was changed")]
    Moved { branch: String },
    #[error("merging would conflict in {}", .0.join(", "))]
    Conflicts(Vec<String>),
    #[error("a {what} is already in progress in {}", dir.display())]
    InProgress { what: String, dir: PathBuf },
    #[error("{} has uncommitted changes: commit or stash them first", .0.display())]
    CheckoutDirty(PathBuf),
    #[error("{0}")]
    Failed(String),
}

/// The branch prefix unless the project sets another (it may be empty).
pub const DEFAULT_BRANCH_PREFIX: &str = "idea/";

/// How many ports each worktree gets, from the first of its block.
pub const PORTS_PER_WORKTREE: u16 = 10;
/// Blocks are taken from this range, out of the well-known ports and below the usual
/// ephemeral range (32768 and up on Linux).
const PORT_RANGE: std::ops::Range<u16> = 20_000..32_000;

/// `<data home>/ideai/worktrees/<project id>/<agent slug>`: outside the repository, and not
/// under `~/.ideai/`, which the sandbox keeps agents out of. `data_home` is
/// `$XDG_DATA_HOME`, else `~/.local/share`.
pub fn worktree_dir(data_home: &Path, project_id: &str, agent_slug: &str) -> PathBuf {
    data_home
        .join("ideai")
        .join("worktrees")
        .join(project_id)
        .join(agent_slug)
}

/// The agent's branch, `<prefix><slug>`, or with `-2`, `-3`… when `taken` says a name is used.
/// A prefix that git would refuse as part of a ref is dropped.
pub fn branch_name(prefix: &str, agent_slug: &str, taken: impl Fn(&str) -> bool) -> String {
    let prefix = if valid_prefix(prefix) { prefix } else { "" };
    let first = format!("{prefix}{agent_slug}");
    if !taken(&first) {
        return first;
    }
    (2u32..)
        .map(|n| format!("{first}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or(first)
}

/// Whether `name` is a branch name IdeA hands to git as one: what [`branch_name`] makes, and
/// nothing git could read as an option (a manifest is the repository's: a "branch" named
/// `--receive-pack=…` would run a program at a push).
pub fn valid_branch(name: &str) -> bool {
    !name.is_empty() && !name.ends_with('/') && !name.ends_with('.') && valid_prefix(name)
}

/// A ref as the user named it for a base: anything git resolves, but never an option.
pub fn valid_base_ref(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('-') && !name.chars().any(char::is_control)
}

/// A prefix git accepts in a branch name (`git check-ref-format`'s rules that a prefix can
/// break): no `..`, no control characters, spaces or `~^:?*[\`, no `//`, not starting with
/// `/` or `-`, no component starting with `.` or ending in `.lock`.
fn valid_prefix(prefix: &str) -> bool {
    if prefix.is_empty() {
        return true;
    }
    let bad_char = |c: char| c.is_control() || " ~^:?*[\\".contains(c);
    !prefix.contains("..")
        && !prefix.contains("//")
        && !prefix.contains("@{")
        && !prefix.starts_with(['/', '-'])
        && !prefix.chars().any(bad_char)
        && prefix
            .split('/')
            .all(|part| !part.starts_with('.') && !part.ends_with(".lock"))
}

/// The first port of the worktree's block: the same on every run for the same project and
/// agent (a hash of both), so a dev server keeps its address; the caller checks the ports
/// are free (binding) and takes the next block when they are not (`attempt`).
pub fn port_block(project_id: &str, agent_slug: &str, attempt: u16) -> u16 {
    // FNV-1a: stable across builds and platforms, unlike the standard hasher.
    let mut hash: u32 = 0x811c_9dc5;
    for byte in project_id.bytes().chain([0]).chain(agent_slug.bytes()) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    let blocks = (PORT_RANGE.end - PORT_RANGE.start) / PORTS_PER_WORKTREE;
    let hashed = u16::try_from(hash % u32::from(blocks)).unwrap_or(0);
    let block = (hashed + attempt) % blocks;
    PORT_RANGE.start + block * PORTS_PER_WORKTREE
}

/// The files more than one agent's worktree changed, each with those agents (in the order
/// given), sorted by path: what both cells and both Review panes warn about before anyone
/// merges.
pub fn overlaps<A: Clone + PartialEq>(
    changed: &[(A, Vec<String>)],
) -> std::collections::BTreeMap<String, Vec<A>> {
    let mut by_file: std::collections::BTreeMap<String, Vec<A>> = Default::default();
    for (agent, files) in changed {
        for file in files {
            let agents = by_file.entry(file.clone()).or_default();
            if !agents.contains(agent) {
                agents.push(agent.clone());
            }
        }
    }
    by_file.retain(|_, agents| agents.len() > 1);
    by_file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_in_the_data_home_per_project_and_agent() {
        assert_eq!(
            worktree_dir(Path::new("/home/u/.local/share"), "p1", "ada"),
            PathBuf::from("/home/u/.local/share/ideai/worktrees/p1/ada")
        );
    }

    #[test]
    fn a_branch_or_base_that_git_could_read_as_an_option_is_refused() {
        for good in ["idea/ada", "ada-2", "team/idea-ada"] {
            assert!(valid_branch(good), "{good}");
        }
        for bad in [
            "",
            "--receive-pack=/tmp/x",
            "-x",
            "a..b",
            "a b",
            "x.lock",
            "a/",
            ".a",
            "a~1",
        ] {
            assert!(!valid_branch(bad), "{bad:?}");
        }
        assert!(valid_base_ref("main") && valid_base_ref("HEAD~2") && valid_base_ref("v1.0"));
        assert!(
            !valid_base_ref("--output=/tmp/x") && !valid_base_ref("") && !valid_base_ref("a\nb")
        );
    }

    #[test]
    fn a_taken_branch_gets_the_next_number() {
        let taken = ["idea/ada", "idea/ada-2"];
        assert_eq!(
            branch_name("idea/", "bob", |n| taken.contains(&n)),
            "idea/bob"
        );
        assert_eq!(
            branch_name("idea/", "ada", |n| taken.contains(&n)),
            "idea/ada-3"
        );
        assert_eq!(branch_name("", "ada", |_| false), "ada");
        for bad in [
            "../", "-x/", "a..b/", ".hidden/", "x.lock/", "a b/", "x~/", "//",
        ] {
            assert_eq!(branch_name(bad, "ada", |_| false), "ada", "{bad}");
        }
        assert_eq!(branch_name("team/idea-", "ada", |_| false), "team/idea-ada");
    }

    #[test]
    fn a_file_two_agents_changed_is_an_overlap() {
        let changed = [
            ("ada", vec!["src/lib.rs".to_owned(), "README.md".to_owned()]),
            (
                "bob",
                vec!["src/lib.rs".to_owned(), "src/main.rs".to_owned()],
            ),
            ("cy", vec!["README.md".to_owned()]),
        ];
        let found = overlaps(&changed);
        let found: Vec<(&str, Vec<&str>)> =
            found.iter().map(|(f, a)| (f.as_str(), a.clone())).collect();
        assert_eq!(
            found,
            [
                ("README.md", vec!["ada", "cy"]),
                ("src/lib.rs", vec!["ada", "bob"])
            ]
        );
        assert!(overlaps(&[("ada", vec!["a".to_owned()])]).is_empty());
    }

    #[test]
    fn port_blocks_are_stable_in_range_and_differ_between_agents() {
        let a = port_block("p1", "ada", 0);
        assert_eq!(a, port_block("p1", "ada", 0));
        assert!(PORT_RANGE.contains(&a) && PORT_RANGE.contains(&(a + PORTS_PER_WORKTREE - 1)));
        assert_eq!(a % PORTS_PER_WORKTREE, 0);
        assert_ne!(a, port_block("p1", "bob", 0));
        assert_ne!(a, port_block("p1", "ada", 1));
        // The last block wraps to the first.
        let blocks = (PORT_RANGE.end - PORT_RANGE.start) / PORTS_PER_WORKTREE;
        assert_eq!(port_block("p1", "ada", blocks), a);
    }
}
