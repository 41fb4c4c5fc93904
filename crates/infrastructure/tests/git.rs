//! The git adapter against real `git` in temporary repositories.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_infrastructure::git::{
    self, FileChange, Git, GitError, Rebased, abort_rebase, add_worktree, archive_worktree,
    behind_base, changed_files, conflict_preview, copy_included, in_progress, link_folders,
    list_worktrees, rebase_onto, resolve_commit, restore_worktree, save_work_in_progress,
    squash_onto,
};
use std::fs;
use std::path::Path;
use std::process::Command;

fn sh(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "User")
        .env("GIT_AUTHOR_EMAIL", "user@example.com")
        .env("GIT_COMMITTER_NAME", "User")
        .env("GIT_COMMITTER_EMAIL", "user@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Writes `file` in `dir` and commits it alone with `message`.
fn commit_file(dir: &Path, file: &str, text: &str, message: &str) {
    fs::write(dir.join(file), text).unwrap();
    sh(dir, &["add", "--", file]);
    sh(dir, &["commit", "-qm", message]);
}

/// A repository on `main` with two commits (`v1` tags the first), identity set in its config.
fn repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    fs::create_dir(&root).unwrap();
    sh(&root, &["init", "-q", "-b", "main"]);
    sh(&root, &["config", "user.name", "User"]);
    sh(&root, &["config", "user.email", "user@example.com"]);
    fs::write(root.join("lib.rs"), "fn a() {}\n").unwrap();
    fs::write(root.join(".gitignore"), "target/\n").unwrap();
    sh(&root, &["add", "-A"]);
    sh(&root, &["commit", "-qm", "one"]);
    sh(&root, &["tag", "v1"]);
    fs::write(root.join("lib.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    sh(&root, &["commit", "-qam", "two"]);
    (dir, root)
}

/// [`repo`] with a worktree `wt` on `idea/ada` from `main`.
fn repo_with_worktree() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let (dir, root) = repo();
    let git = Git::at(&root);
    let path = dir.path().join("wt");
    let main = resolve_commit(&git, "main").unwrap();
    add_worktree(&git, &path, "idea/ada", &main).unwrap();
    (dir, root, path)
}

#[test]
fn git_is_recent_enough() {
    let (major, minor, _) = git::version().unwrap();
    assert!((major, minor) >= git::MIN_VERSION);
}

#[test]
fn a_worktree_starts_from_the_chosen_base_on_its_own_branch() {
    let (dir, root) = repo();
    let git = Git::at(&root);
    let base = resolve_commit(&git, "v1").unwrap();
    let path = dir.path().join("wt-ada");
    add_worktree(&git, &path, "idea/ada", &base).unwrap();
    assert_eq!(sh(&path, &["rev-parse", "HEAD"]), base);
    assert_eq!(
        fs::read_to_string(path.join("lib.rs")).unwrap(),
        "fn a() {}\n"
    );
    let listed = list_worktrees(&git).unwrap();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0].branch.as_deref(), Some("main"));
    assert_eq!(listed[1].branch.as_deref(), Some("idea/ada"));
    assert_eq!(
        listed[1].path.canonicalize().unwrap(),
        path.canonicalize().unwrap()
    );
    // A taken name is refused, and nothing is made.
    let again = add_worktree(&git, &dir.path().join("wt-2"), "idea/ada", &base);
    assert!(matches!(again, Err(GitError::BranchTaken(_))), "{again:?}");
    assert!(!dir.path().join("wt-2").exists());
    // The user's checkout did not move.
    assert_eq!(sh(&root, &["branch", "--show-current"]), "main");
}

#[test]
fn bad_refs_and_folders_are_named() {
    let (dir, root) = repo();
    let git = Git::at(&root);
    for bad in ["no-such-branch", "--upload-pack=touch /tmp/x", "HEAD~99"] {
        let got = resolve_commit(&git, bad);
        assert!(
            matches!(got, Err(GitError::UnknownRef(_))),
            "{bad}: {got:?}"
        );
    }
    let plain = dir.path().join("plain");
    fs::create_dir(&plain).unwrap();
    let got = resolve_commit(&Git::at(&plain), "HEAD");
    assert!(matches!(got, Err(GitError::NotARepository(_))), "{got:?}");
}

/// A change as the test states it: path, status, lines added and removed.
type Brief<'a> = (&'a str, char, Option<(u64, u64)>);

#[test]
fn the_review_lists_every_change_and_leaves_the_agents_index_as_it_was() {
    // The temporary folder lives as long as the test.
    let (_dir, root, path) = repo_with_worktree();
    let agent = Git::at(&path);
    // Committed, staged, unstaged, untracked, deleted, binary, and an ignored build folder.
    commit_file(&path, "committed.rs", "1\n2\n", "agent work");
    fs::write(path.join("staged.rs"), "s\n").unwrap();
    sh(&path, &["add", "staged.rs"]);
    fs::write(path.join("lib.rs"), "fn a() {}\n").unwrap();
    fs::write(path.join("untracked.rs"), "u\nu\nu\n").unwrap();
    fs::write(path.join("blob.bin"), [0u8, 1, 2, 0, 255]).unwrap();
    fs::remove_file(path.join(".gitignore")).unwrap();
    fs::create_dir(path.join("target")).unwrap();
    fs::write(path.join("target/out"), "o\n").unwrap();
    let index = sh(&path, &["rev-parse", "--git-path", "index"]);
    let index = path.join(index);
    let before = fs::read(&index).unwrap();
    // The base moved on meanwhile: its change is not the agent's.
    commit_file(&root, "main-only.rs", "m\n", "on main");

    let changes = changed_files(&agent, "main").unwrap();
    let brief: Vec<Brief> = changes
        .iter()
        .map(
            |FileChange {
                 path,
                 status,
                 lines,
             }| (path.as_str(), *status, *lines),
        )
        .collect();
    assert_eq!(
        brief,
        [
            (".gitignore", 'D', Some((0, 1))),
            ("blob.bin", 'A', None),
            ("committed.rs", 'A', Some((2, 0))),
            ("lib.rs", 'M', Some((0, 1))),
            ("staged.rs", 'A', Some((1, 0))),
            ("target/out", 'A', Some((1, 0))),
            ("untracked.rs", 'A', Some((3, 0))),
        ]
    );
    assert_eq!(
        fs::read(&index).unwrap(),
        before,
        "the agent's index changed"
    );
}

#[test]
fn uncommitted_work_is_saved_to_a_ref_with_every_byte() {
    // The temporary folder lives as long as the test.
    let (_dir, root, path) = repo_with_worktree();
    fs::write(path.join("lib.rs"), "changed\n").unwrap();
    fs::write(path.join("new.txt"), "brand new\n").unwrap();
    let head = sh(&path, &["rev-parse", "HEAD"]);
    let saved = save_work_in_progress(&Git::at(&path), "refs/idea/wip/ada").unwrap();
    assert_eq!(sh(&root, &["rev-parse", "refs/idea/wip/ada"]), saved);
    assert_eq!(
        sh(&root, &["show", &format!("{saved}:new.txt")]),
        "brand new"
    );
    assert_eq!(sh(&root, &["show", &format!("{saved}:lib.rs")]), "changed");
    assert_eq!(sh(&root, &["rev-parse", &format!("{saved}^")]), head);
    // The worktree itself is as it was: nothing staged, nothing committed.
    assert_eq!(sh(&path, &["rev-parse", "HEAD"]), head);
    assert_eq!(sh(&path, &["diff", "--cached", "--name-only"]), "");
}

/// [`repo`] with a `release` branch at `main`, and two agents' worktrees from it.
struct Agents {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    git: Git,
    main: String,
    one: std::path::PathBuf,
    two: std::path::PathBuf,
}

fn two_agents() -> Agents {
    let (dir, root) = repo();
    let git = Git::at(&root);
    let main = resolve_commit(&git, "main").unwrap();
    sh(&root, &["branch", "release", &main]);
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    add_worktree(&git, &one, "idea/one", &main).unwrap();
    add_worktree(&git, &two, "idea/two", &main).unwrap();
    Agents {
        _dir: dir,
        root,
        git,
        main,
        one,
        two,
    }
}

#[test]
fn a_conflict_is_previewed_and_a_clean_branch_is_squashed_without_a_checkout() {
    let Agents {
        _dir,
        root,
        git,
        main,
        one,
        two,
    } = two_agents();
    fs::write(one.join("lib.rs"), "fn one() {}\n").unwrap();
    fs::write(one.join("one.rs"), "1\n").unwrap();
    sh(&one, &["add", "-A"]);
    sh(&one, &["commit", "-qm", "one's work"]);
    fs::write(two.join("lib.rs"), "fn two() {}\n").unwrap();
    sh(&two, &["commit", "-qam", "two's work"]);

    let clean = conflict_preview(&git, "release", "idea/one").unwrap();
    assert!(clean.conflicts.is_empty(), "{clean:?}");
    let squashed = squash_onto(&git, "release", "idea/one", "One's work").unwrap();
    assert_eq!(sh(&root, &["rev-parse", "release"]), squashed);
    assert_eq!(sh(&root, &["rev-parse", &format!("{squashed}^")]), main);
    assert_eq!(sh(&root, &["show", "release:one.rs"]), "1");
    assert_eq!(sh(&root, &["branch", "--show-current"]), "main");
    assert_eq!(
        sh(&root, &["status", "--porcelain"]),
        "",
        "the user's tree changed"
    );

    let conflicting = conflict_preview(&git, "release", "idea/two").unwrap();
    assert_eq!(conflicting.conflicts, ["lib.rs"]);
    let refused = squash_onto(&git, "release", "idea/two", "Two's work");
    assert!(
        matches!(refused, Err(GitError::Conflicts(ref files)) if files == &["lib.rs"]),
        "{refused:?}"
    );
    assert_eq!(
        sh(&root, &["rev-parse", "release"]),
        squashed,
        "release moved"
    );
}

#[test]
fn a_hostile_repository_config_runs_nothing_during_a_review() {
    let (dir, root) = repo();
    let planted = dir.path().join("ran");
    let hook = format!("touch {}", planted.display());
    for key in ["core.fsmonitor", "core.pager", "diff.external"] {
        sh(&root, &["config", key, &hook]);
    }
    fs::write(root.join("new.rs"), "n\n").unwrap();
    let changes = changed_files(&Git::at(&root), "v1").unwrap();
    assert!(changes.iter().any(|c| c.path == "new.rs"), "{changes:?}");
    assert!(!planted.exists(), "the repository's config ran a program");
}

#[test]
fn set_up_copies_only_ignored_files_the_include_file_names_and_links_listed_folders() {
    let (_dir, root, path) = repo_with_worktree();
    // Ignored: .env, .env.local, target/, secrets/key; named by .worktreeinclude: .env*,
    // notes.txt (not ignored: never copied), secrets/ (ignored and named).
    fs::write(
        root.join(".gitignore"),
        "target/\n.env*\nsecrets/\nnode_modules/\n",
    )
    .unwrap();
    fs::write(
        root.join(".worktreeinclude"),
        ".env*\nnotes.txt\nsecrets/\n",
    )
    .unwrap();
    fs::write(root.join(".env"), "KEY=1\n").unwrap();
    fs::write(root.join(".env.local"), "LOCAL=1\n").unwrap();
    fs::write(root.join("notes.txt"), "untracked, not ignored\n").unwrap();
    fs::create_dir_all(root.join("secrets")).unwrap();
    fs::write(root.join("secrets/key"), "k\n").unwrap();
    fs::create_dir_all(root.join("target/debug")).unwrap();
    fs::write(root.join("target/debug/big"), "b\n").unwrap();
    fs::create_dir_all(root.join("node_modules/left-pad")).unwrap();
    fs::write(root.join("node_modules/left-pad/index.js"), "x\n").unwrap();
    // One the worktree has already: kept as it is.
    fs::write(path.join(".env.local"), "MINE=1\n").unwrap();

    let done = copy_included(&Git::at(&root), &path).unwrap();
    assert_eq!(done.copied, [".env", "secrets/key"]);
    assert_eq!(done.skipped, [".env.local"]);
    assert_eq!(fs::read_to_string(path.join(".env")).unwrap(), "KEY=1\n");
    assert_eq!(
        fs::read_to_string(path.join(".env.local")).unwrap(),
        "MINE=1\n"
    );
    assert!(!path.join("notes.txt").exists());
    assert!(!path.join("target").exists());

    let linked = link_folders(&root, &path, &["node_modules".into(), "absent".into()]).unwrap();
    assert_eq!(linked, ["node_modules"]);
    assert!(
        path.join("node_modules")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(path.join("node_modules/left-pad/index.js").is_file());
    for bad in ["../outside", "/etc", ""] {
        let refused = link_folders(&root, &path, &[bad.into()]);
        assert!(refused.is_err(), "{bad:?}");
    }
    // Without a .worktreeinclude, nothing is copied.
    fs::remove_file(root.join(".worktreeinclude")).unwrap();
    assert_eq!(
        copy_included(&Git::at(&root), &path).unwrap(),
        Default::default()
    );
}

#[test]
fn an_archived_worktree_comes_back_with_every_byte_and_its_branch_is_kept() {
    let (_dir, root, path) = repo_with_worktree();
    let git = Git::at(&root);
    // A commit on the branch that is not on main, and uncommitted work of every kind.
    commit_file(&path, "done.rs", "committed\n", "agent commit");
    fs::write(path.join("lib.rs"), "modified\n").unwrap();
    fs::write(path.join("untracked.txt"), "new \u{e9}\u{0} bytes").unwrap();
    fs::remove_file(path.join(".gitignore")).unwrap();
    fs::create_dir_all(path.join("deep/er")).unwrap();
    fs::write(path.join("deep/er/file"), "deep\n").unwrap();
    let branch_tip = sh(&path, &["rev-parse", "HEAD"]);

    archive_worktree(&git, &path, "ada").unwrap();
    assert!(!path.exists(), "the folder stayed");
    assert_eq!(
        sh(&root, &["rev-parse", "idea/ada"]),
        branch_tip,
        "the branch moved or went"
    );
    assert_eq!(list_worktrees(&git).unwrap().len(), 1);

    restore_worktree(&git, &path, "idea/ada", "ada").unwrap();
    assert_eq!(
        fs::read_to_string(path.join("lib.rs")).unwrap(),
        "modified\n"
    );
    assert_eq!(
        fs::read(path.join("untracked.txt")).unwrap(),
        "new \u{e9}\u{0} bytes".as_bytes()
    );
    assert_eq!(
        fs::read_to_string(path.join("deep/er/file")).unwrap(),
        "deep\n"
    );
    assert_eq!(
        fs::read_to_string(path.join("done.rs")).unwrap(),
        "committed\n"
    );
    assert!(
        !path.join(".gitignore").exists(),
        "a deleted file came back"
    );
    // Uncommitted again: nothing staged, the branch where it was.
    assert_eq!(sh(&path, &["diff", "--cached", "--name-only"]), "");
    assert_eq!(sh(&path, &["rev-parse", "HEAD"]), branch_tip);
    let status = sh(&path, &["status", "--porcelain"]);
    for expected in [" M lib.rs", " D .gitignore", "?? untracked.txt", "?? deep/"] {
        // (`sh` trims the output's first line; nothing is staged, as checked above.)
        let found = status.lines().any(|l| l.trim() == expected.trim());
        assert!(found, "{expected} in:\n{status}");
    }
    // The saved ref is gone once restored; a second restore of a branch checked out already
    // is git's refusal, and makes nothing.
    assert!(sh(&root, &["for-each-ref", "refs/idea/wip"]).is_empty());
    let again = root.join("../again");
    assert!(restore_worktree(&git, &again, "idea/ada", "ada").is_err());
    assert!(!again.exists());
}

#[test]
fn a_worktree_counts_the_commits_its_base_got_since() {
    let (_dir, root, path) = repo_with_worktree();
    assert_eq!(behind_base(&Git::at(&path), "main").unwrap(), 0);
    for n in 0..2 {
        fs::write(root.join(format!("m{n}")), "m\n").unwrap();
        sh(&root, &["add", "-A"]);
        sh(&root, &["commit", "-qm", "main moves"]);
    }
    assert_eq!(behind_base(&Git::at(&path), "main").unwrap(), 2);
}

#[test]
fn the_second_agent_rebases_onto_the_first_ones_squash_and_meets_the_conflict() {
    let Agents {
        _dir,
        git,
        one,
        two,
        ..
    } = two_agents();
    fs::write(one.join("lib.rs"), "fn one() {}\n").unwrap();
    sh(&one, &["commit", "-qam", "one's work"]);
    fs::write(two.join("lib.rs"), "fn two() {}\n").unwrap();
    fs::write(two.join("extra.rs"), "e\n").unwrap();
    sh(&two, &["add", "-A"]);
    sh(&two, &["commit", "-qm", "two's work"]);
    squash_onto(&git, "release", "idea/one", "One's work").unwrap();
    let two_git = Git::at(&two);
    assert_eq!(behind_base(&two_git, "release").unwrap(), 1);
    let before = sh(&two, &["rev-parse", "HEAD"]);

    let stopped = rebase_onto(&two_git, "release").unwrap();
    assert_eq!(stopped, Rebased::Conflicts(vec!["lib.rs".to_owned()]));
    assert_eq!(in_progress(&two_git).unwrap(), Some("rebase"));
    // Nothing else starts while it is in progress.
    let again = rebase_onto(&two_git, "release");
    assert!(
        matches!(again, Err(GitError::InProgress { what: "rebase", .. })),
        "{again:?}"
    );
    abort_rebase(&two_git).unwrap();
    assert_eq!(in_progress(&two_git).unwrap(), None);
    assert_eq!(
        sh(&two, &["rev-parse", "HEAD"]),
        before,
        "the abort left the branch moved"
    );

    // A branch that does not touch what its base changed rebases cleanly.
    let (_other_dir, other_root, other) = repo_with_worktree();
    fs::write(other.join("new.rs"), "n\n").unwrap();
    sh(&other, &["add", "-A"]);
    sh(&other, &["commit", "-qm", "new"]);
    fs::write(other_root.join("base.rs"), "b\n").unwrap();
    sh(&other_root, &["add", "-A"]);
    sh(&other_root, &["commit", "-qm", "base moves"]);
    // Uncommitted work survives the rebase (set aside and put back).
    fs::write(other.join("wip.txt"), "w\n").unwrap();
    assert_eq!(
        rebase_onto(&Git::at(&other), "main").unwrap(),
        Rebased::Done
    );
    assert_eq!(behind_base(&Git::at(&other), "main").unwrap(), 0);
    assert_eq!(fs::read_to_string(other.join("wip.txt")).unwrap(), "w\n");
    assert!(other.join("base.rs").is_file());
}

#[test]
fn a_port_block_with_one_port_taken_is_not_free() {
    use idea_domain::ports::WorktreeHost;
    let host = idea_infrastructure::git::GitWorktrees;
    // A port the OS picks is free by construction; hold it and ask about a block starting there.
    let held = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = held.local_addr().unwrap().port();
    assert!(!host.ports_free(port, 1));
    assert!(
        !host.ports_free(port.saturating_sub(3), 10),
        "the block holds the taken port"
    );
    drop(held);
    assert!(host.ports_free(port, 1), "free once let go");
}
