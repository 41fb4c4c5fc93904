//! An agent's own git worktree (`docs/worktrees.md`): where it lives, the branch it gets, the
//! block of ports it may use. Pure rules; the git work is the infrastructure's `git` module.

use std::path::{Path, PathBuf};

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
