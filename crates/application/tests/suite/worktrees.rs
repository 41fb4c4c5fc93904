//! Agents on their own branches, over real git in a temporary repository: creation from a
//! chosen base, the Review listing, overlaps, squashing into the user's checkout, archive and
//! restore, and a launch that works in the worktree.

use crate::support::{GitWorld, git, git_world};
use idea_application::agents::{self, NewAgent};
use idea_application::{ErrorCode, worktrees};
use idea_domain::{Agent, ProfileId};
use std::path::Path;

fn agent(w: &GitWorld, name: &str) -> Agent {
    agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: name.into(),
            profile_id: ProfileId::new("fake"),
        },
    )
    .unwrap()
}

/// Ada and Bob, each in a worktree of their own, both changing `lib.rs`'s second line.
fn two_agents_on_lib_rs(w: &GitWorld) -> (std::path::PathBuf, std::path::PathBuf) {
    agent(w, "Ada");
    agent(w, "Bob");
    let ada = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let bob = worktrees::create(&w.deps, "Bob", None).unwrap().path;
    std::fs::write(ada.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    std::fs::write(bob.join("lib.rs"), "fn one() {}\nfn bob() {}\n").unwrap();
    (ada, bob)
}

fn code(e: &idea_application::AppError) -> &'static str {
    ErrorCode::from(&e.kind()).as_str()
}

#[test]
fn a_worktree_is_made_outside_the_project_from_the_chosen_base_with_the_included_files() {
    let w = git_world();
    let root = w.dir.path();
    std::fs::write(root.join(".env"), "SECRET=1\n").unwrap();
    std::fs::write(root.join(".worktreeinclude"), ".env\n").unwrap();
    git(root, &["add", ".worktreeinclude"]);
    git(root, &["commit", "-q", "-m", "include"]);
    // A base that is not the current HEAD.
    git(root, &["branch", "older", "HEAD~1"]);
    agent(&w, "Ada");
    let status = worktrees::create(&w.deps, "Ada", Some("older")).unwrap();
    assert!(
        status
            .path
            .starts_with(w.data.path().join("ideai/worktrees"))
    );
    assert!(!status.path.starts_with(root));
    assert_eq!(status.record.branch, "idea/ada");
    assert_eq!(status.record.base_ref, "older");
    assert_eq!(
        status.record.base_commit,
        git(root, &["rev-parse", "older"])
    );
    assert_eq!(
        git(&status.path, &["rev-parse", "HEAD"]),
        status.record.base_commit
    );
    assert_eq!(status.behind_base, Some(0));
    // Kept with the agent in the manifest.
    let saved = agents::find(&w.deps, "Ada").unwrap();
    assert_eq!(saved.worktree.as_ref(), Some(&status.record));
    // The ignored file the user's `.worktreeinclude` names was copied in.
    assert_eq!(
        std::fs::read_to_string(status.path.join(".env")).unwrap(),
        "SECRET=1\n"
    );
    // A second one is refused, and the user's tree is untouched.
    let again = worktrees::create(&w.deps, "Ada", None).unwrap_err();
    assert_eq!(code(&again), "WORKTREE_EXISTS");
    assert_eq!(
        git(root, &["status", "--porcelain", "--untracked-files=no"]),
        ""
    );
    assert_eq!(git(root, &["branch", "--show-current"]), "main");
}

#[test]
fn a_bad_base_and_a_folder_that_is_not_a_repository_get_their_codes() {
    let w = git_world();
    agent(&w, "Ada");
    let unknown = worktrees::create(&w.deps, "Ada", Some("no-such-branch")).unwrap_err();
    assert_eq!(code(&unknown), "UNKNOWN_REF");
    let option = worktrees::create(&w.deps, "Ada", Some("--output=/tmp/x")).unwrap_err();
    assert_eq!(code(&option), "UNKNOWN_REF");
    assert!(agents::find(&w.deps, "Ada").unwrap().worktree.is_none());
    std::fs::remove_dir_all(w.dir.path().join(".git")).unwrap();
    let not_git = worktrees::create(&w.deps, "Ada", None).unwrap_err();
    assert_eq!(code(&not_git), "NOT_A_GIT_REPOSITORY");
}

#[test]
fn the_review_lists_committed_and_untracked_changes_and_two_agents_overlap() {
    let w = git_world();
    let (ada, _) = two_agents_on_lib_rs(&w);
    git(&ada, &["commit", "-q", "-am", "ada"]);
    std::fs::write(ada.join("notes.md"), "untracked\n").unwrap();
    let all = worktrees::list(&w.deps).unwrap();
    let ada_status = all.iter().find(|s| s.agent_name == "Ada").unwrap();
    let files: Vec<(&str, &str, Option<u64>)> = ada_status
        .changed
        .iter()
        .map(|f| (f.path.as_str(), f.status.as_str(), f.added))
        .collect();
    assert_eq!(
        files,
        [("lib.rs", "M", Some(1)), ("notes.md", "A", Some(1))]
    );
    assert_eq!(ada_status.overlaps.len(), 1);
    assert_eq!(ada_status.overlaps[0].path, "lib.rs");
    assert_eq!(ada_status.overlaps[0].with, ["Bob"]);
    let bob_status = all.iter().find(|s| s.agent_name == "Bob").unwrap();
    assert_eq!(bob_status.overlaps[0].with, ["Ada"]);
    // One file's diff; a path the Review does not list is refused.
    let diff = worktrees::diff(&w.deps, "Bob", "lib.rs").unwrap();
    assert!(diff.contains("+fn bob() {}"), "{diff}");
    let other = worktrees::diff(&w.deps, "Bob", "../../etc/passwd").unwrap_err();
    assert_eq!(code(&other), "INVALID_PARAMS");
}

#[test]
fn a_squash_goes_into_a_clean_checkout_and_is_refused_for_a_dirty_one() {
    let w = git_world();
    let root = w.dir.path();
    let (ada, _) = two_agents_on_lib_rs(&w);
    std::fs::write(ada.join("new.rs"), "// new\n").unwrap();
    let before = git(root, &["rev-parse", "main"]);

    // Dirty checkout of main: refused, nothing moves.
    std::fs::write(root.join("lib.rs"), "fn one() { /* the user's edit */ }\n").unwrap();
    let plan = worktrees::plan_squash(&w.deps, "Ada").unwrap();
    assert_eq!(
        plan.checkout
            .as_deref()
            .map(Path::canonicalize)
            .map(Result::unwrap),
        Some(root.canonicalize().unwrap())
    );
    let dirty = worktrees::squash(&w.deps, "Ada", None).unwrap_err();
    assert_eq!(code(&dirty), "CHECKOUT_DIRTY");
    assert_eq!(git(root, &["rev-parse", "main"]), before);
    assert_eq!(
        std::fs::read_to_string(root.join("lib.rs")).unwrap(),
        "fn one() { /* the user's edit */ }\n"
    );
    git(root, &["checkout", "--", "lib.rs"]);

    // Clean: one commit on main, the user's files follow, their branch is still main.
    let done = worktrees::squash(&w.deps, "Ada", Some("Ada's work")).unwrap();
    let commit = done.commit.unwrap();
    assert_eq!(git(root, &["rev-parse", "main"]), commit);
    assert_eq!(git(root, &["rev-parse", "main~1"]), before);
    assert_eq!(git(root, &["log", "-1", "--format=%s"]), "Ada's work");
    assert_eq!(git(root, &["branch", "--show-current"]), "main");
    assert_eq!(
        git(root, &["status", "--porcelain", "--untracked-files=no"]),
        ""
    );
    assert_eq!(
        std::fs::read_to_string(root.join("new.rs")).unwrap(),
        "// new\n"
    );
    // The agent's branch is kept, and the squash recorded.
    assert!(!git(root, &["branch", "--list", "idea/ada"]).is_empty());
    let record = agents::find(&w.deps, "Ada").unwrap().worktree.unwrap();
    assert_eq!(record.squashed_as.as_deref(), Some(commit.as_str()));

    // Bob changed the same line: the preview names the file, the squash refuses.
    let plan = worktrees::plan_squash(&w.deps, "Bob").unwrap();
    assert_eq!(plan.conflicts, ["lib.rs"]);
    let conflict = worktrees::squash(&w.deps, "Bob", None).unwrap_err();
    assert_eq!(code(&conflict), "MERGE_CONFLICT");
    assert_eq!(git(root, &["rev-parse", "main"]), commit);
}

#[test]
fn a_squash_into_a_base_not_checked_out_moves_only_the_branch() {
    let w = git_world();
    let root = w.dir.path();
    git(root, &["branch", "release"]);
    agent(&w, "Ada");
    let ada = worktrees::create(&w.deps, "Ada", Some("release"))
        .unwrap()
        .path;
    std::fs::write(ada.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    let main_before = git(root, &["rev-parse", "main"]);
    let plan = worktrees::plan_squash(&w.deps, "Ada").unwrap();
    assert_eq!(plan.checkout, None);
    let done = worktrees::squash(&w.deps, "Ada", None).unwrap();
    assert_eq!(git(root, &["rev-parse", "release"]), done.commit.unwrap());
    assert_eq!(git(root, &["rev-parse", "main"]), main_before);
    assert_eq!(
        git(root, &["status", "--porcelain", "--untracked-files=no"]),
        ""
    );
}

#[test]
fn archive_then_restore_brings_every_byte_back_and_keeps_the_branch() {
    let w = git_world();
    let root = w.dir.path();
    std::fs::write(root.join(".env"), "SECRET=1\n").unwrap();
    std::fs::write(root.join(".worktreeinclude"), ".env\n").unwrap();
    agent(&w, "Ada");
    let dir = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    std::fs::write(dir.join("lib.rs"), "fn one() {}\nfn committed() {}\n").unwrap();
    git(&dir, &["commit", "-q", "-am", "committed"]);
    let tip = git(&dir, &["rev-parse", "HEAD"]);
    std::fs::write(dir.join("lib.rs"), "fn one() {}\nfn unstaged() {}\n").unwrap();
    let binary: Vec<u8> = (0..=255u8).collect();
    std::fs::write(dir.join("blob.bin"), &binary).unwrap();

    let archived = worktrees::archive(&w.deps, "Ada").unwrap();
    assert!(archived.record.archived);
    assert!(!dir.exists());
    assert_eq!(
        git(root, &["rev-parse", "idea/ada"]),
        tip,
        "the branch is kept"
    );
    // Archived already: said so.
    let again = worktrees::archive(&w.deps, "Ada").unwrap_err();
    assert_eq!(code(&again), "NO_WORKTREE");

    let restored = worktrees::restore(&w.deps, "Ada").unwrap();
    assert!(!restored.record.archived);
    assert_eq!(
        std::fs::read_to_string(dir.join("lib.rs")).unwrap(),
        "fn one() {}\nfn unstaged() {}\n"
    );
    assert_eq!(std::fs::read(dir.join("blob.bin")).unwrap(), binary);
    assert_eq!(
        std::fs::read_to_string(dir.join(".env")).unwrap(),
        "SECRET=1\n"
    );
    assert_eq!(git(&dir, &["rev-parse", "HEAD"]), tip);
    assert!(git(root, &["for-each-ref", "refs/idea/wip"]).is_empty());
}

#[test]
fn a_launch_works_in_the_worktree_and_a_vanished_one_is_refused() {
    use idea_application::layouts;
    use idea_application::sessions::{self, LaunchAgent};
    use idea_domain::CellRef;
    let w = git_world();
    let ada = agent(&w, "Ada");
    let dir = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let l = layouts::get(&w.deps).unwrap();
    let cell = CellRef::new(l.active, l.layouts[0].tree.leaves()[0].id);
    let launch = LaunchAgent {
        agent_id: ada.agent_id,
        cell,
        size: idea_domain::terminal::TerminalSize { rows: 24, cols: 80 },
        fresh: false,
    };
    sessions::launch_agent(&w.deps, launch).unwrap();
    let spec = w.terminals.spawned.lock().unwrap()[0].clone();
    assert_eq!(
        spec.env.get("IDEA_WORKTREE_ROOT").map(Path::new),
        Some(dir.as_path())
    );
    assert_eq!(
        spec.env.get("IDEA_MAIN_ROOT").map(Path::new),
        Some(w.dir.path())
    );
    assert_eq!(
        spec.env.get("IDEA_BASE_REF").map(String::as_str),
        Some("main")
    );
    // Its run dir stays in the project's `.ideai/run/`.
    assert!(spec.cwd.starts_with(w.dir.path().join(".ideai/run")));
    sessions::stop_all(&w.deps);
    // Deleted by hand: refused with a reason, never launched in the project's tree instead.
    let path = dir.to_string_lossy().into_owned();
    git(w.dir.path(), &["worktree", "remove", "--force", &path]);
    let gone = sessions::launch_agent(&w.deps, launch).unwrap_err();
    assert_eq!(code(&gone), "NO_WORKTREE");
    assert!(gone.to_string().contains("idea/ada"), "{gone}");
}

#[test]
fn the_sandbox_of_an_agent_in_its_worktree_writes_there_and_in_the_repositorys_objects_only() {
    let w = git_world();
    agent(&w, "Ada");
    let dir = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let plan = idea_application::sandbox::plan_of_agent(&w.deps, "Ada")
        .unwrap()
        .plan;
    // The temp dirs are writable to every agent, and this test's folders may lie in one:
    // the grants that matter here are the others.
    let writes = |path: &Path| {
        plan.write_roots
            .iter()
            .filter(|root| !matches!(root.to_str(), Some("/tmp" | "/var/tmp")))
            .any(|root| path.starts_with(root))
    };
    let git_dir = w.dir.path().join(".git");
    assert!(writes(&dir.join("src/new.rs")));
    assert!(writes(&git_dir.join("objects/ab/cdef")));
    assert!(writes(&git_dir.join("refs/heads/idea/ada")));
    assert!(writes(&git_dir.join("worktrees/ada/index")));
    // Not the user's checkout, nor what git would run or read as configuration.
    assert!(!writes(&w.dir.path().join("lib.rs")));
    assert!(!writes(&git_dir.join("hooks/pre-commit")));
    assert!(!writes(&git_dir.join("config")));
    // Its run dir, in the project's `.ideai/run/`, stays writable.
    assert!(writes(&w.dir.path().join(".ideai/run").join(
        agents::find(&w.deps, "Ada").unwrap().agent_id.to_string()
    )));
}

#[test]
fn a_rebase_onto_a_moved_base_stops_on_conflicts_aborts_or_moves_the_recorded_base() {
    let w = git_world();
    let root = w.dir.path();
    agent(&w, "Ada");
    agent(&w, "Bob");
    agent(&w, "Cy");
    let ada = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let bob = worktrees::create(&w.deps, "Bob", None).unwrap().path;
    let cy = worktrees::create(&w.deps, "Cy", None).unwrap().path;
    std::fs::write(ada.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    worktrees::squash(&w.deps, "Ada", None).unwrap();
    std::fs::write(bob.join("lib.rs"), "fn one() {}\nfn bob() {}\n").unwrap();
    git(&bob, &["commit", "-q", "-am", "bob"]);
    let bob_tip = git(&bob, &["rev-parse", "HEAD"]);

    let stopped = worktrees::rebase(&w.deps, "Bob").unwrap();
    assert_eq!(stopped.conflicts, ["lib.rs"]);
    let ask = stopped.resolve_request.unwrap();
    assert!(
        ask.contains("- lib.rs") && ask.contains("git rebase --continue"),
        "{ask}"
    );
    // While it is in progress nothing else starts there.
    let again = worktrees::rebase(&w.deps, "Bob").unwrap_err();
    assert_eq!(code(&again), "REBASE_IN_PROGRESS");
    worktrees::abort_rebase(&w.deps, "Bob").unwrap();
    assert_eq!(git(&bob, &["rev-parse", "HEAD"]), bob_tip);

    // No conflict: Cy's branch now starts at main's tip, and its Review shows only its file.
    std::fs::write(cy.join("cy.rs"), "// cy\n").unwrap();
    git(&cy, &["add", "cy.rs"]);
    git(&cy, &["commit", "-q", "-m", "cy"]);
    let done = worktrees::rebase(&w.deps, "Cy").unwrap();
    assert!(done.conflicts.is_empty() && done.resolve_request.is_none());
    let main = git(root, &["rev-parse", "main"]);
    assert_eq!(done.status.record.base_commit, main);
    assert_eq!(git(&cy, &["rev-parse", "HEAD~1"]), main);
    assert_eq!(done.status.behind_base, Some(0));
    let files: Vec<&str> = done
        .status
        .changed
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(files, ["cy.rs"]);
}

#[test]
fn the_set_up_script_runs_in_a_cell_of_its_own_in_the_worktree_with_its_variables() {
    use idea_application::layouts;
    use idea_domain::CellRef;
    let w = git_world();
    agent(&w, "Ada");
    let dir = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let l = layouts::get(&w.deps).unwrap();
    let cell = CellRef::new(l.active, l.layouts[0].tree.leaves()[0].id);
    let size = idea_domain::terminal::TerminalSize { rows: 24, cols: 80 };
    // None set: said so.
    let none = worktrees::run_setup(&w.deps, "Ada", cell, size).unwrap_err();
    assert_eq!(code(&none), "INVALID_PARAMS");
    let store = idea_infrastructure::store::FsProjectStore::new(w.dir.path());
    let mut project = idea_domain::ports::ProjectStore::load_project(&store).unwrap();
    project.worktrees.setup_script = Some("npm ci && echo ready".into());
    idea_domain::ports::ProjectStore::save_project(&store, &project).unwrap();

    let info = worktrees::run_setup(&w.deps, "Ada", cell, size).unwrap();
    assert!(
        info.agent_id.is_none(),
        "a shell of the user's, not the agent"
    );
    let spec = w.terminals.spawned.lock().unwrap().last().unwrap().clone();
    assert_eq!(spec.args, ["-l", "-c", "npm ci && echo ready"]);
    assert_eq!(spec.cwd, dir);
    assert_eq!(
        spec.env.get("IDEA_WORKTREE_ROOT").map(Path::new),
        Some(dir.as_path())
    );
    assert_eq!(
        spec.env.get("IDEA_BASE_REF").map(String::as_str),
        Some("main")
    );
    assert!(spec.env.contains_key("IDEA_PORT") && spec.env.contains_key("IDEA_MAIN_ROOT"));
    assert!(spec.sandbox.is_none());
}

#[test]
fn removing_keeps_a_branch_whose_work_is_not_on_the_base_and_drops_one_that_is() {
    let w = git_world();
    let root = w.dir.path();
    agent(&w, "Ada");
    agent(&w, "Bob");
    let ada = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    let bob = worktrees::create(&w.deps, "Bob", None).unwrap().path;
    // Ada's work is squashed into main, then she commits it on her branch too.
    std::fs::write(ada.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    worktrees::squash(&w.deps, "Ada", None).unwrap();
    git(&ada, &["commit", "-q", "-am", "ada"]);
    // Bob committed work main does not have.
    std::fs::write(bob.join("bob.rs"), "// bob\n").unwrap();
    git(&bob, &["add", "bob.rs"]);
    git(&bob, &["commit", "-q", "-m", "bob"]);
    let bob_tip = git(&bob, &["rev-parse", "HEAD"]);

    let gone = worktrees::remove(&w.deps, "Ada").unwrap();
    assert!(
        gone.branch_deleted && gone.record_removed && !gone.saved_work_kept,
        "{gone:?}"
    );
    assert!(git(root, &["branch", "--list", "idea/ada"]).is_empty());
    assert!(!ada.exists());
    assert!(agents::find(&w.deps, "Ada").unwrap().worktree.is_none());

    let kept = worktrees::remove(&w.deps, "Bob").unwrap();
    assert!(!kept.branch_deleted && !kept.record_removed, "{kept:?}");
    assert!(kept.summary.contains("not on main"), "{}", kept.summary);
    assert_eq!(git(root, &["rev-parse", "idea/bob"]), bob_tip, "never lost");
    assert!(
        agents::find(&w.deps, "Bob")
            .unwrap()
            .worktree
            .unwrap()
            .archived
    );
    // And it comes back.
    worktrees::restore(&w.deps, "Bob").unwrap();
    assert_eq!(
        std::fs::read_to_string(bob.join("bob.rs")).unwrap(),
        "// bob\n"
    );
}

#[test]
fn a_pull_request_without_gh_gives_the_commands_to_run() {
    let w = git_world();
    agent(&w, "Ada");
    worktrees::create(&w.deps, "Ada", None).unwrap();
    // The test machine has no `gh` on the PATH the test runs with, or no login for it.
    let pr = worktrees::pull_request(&w.deps, "Ada").unwrap();
    if pr.url.is_none() {
        assert!(
            pr.reason.as_deref().is_some_and(|r| r.contains("gh")),
            "{pr:?}"
        );
        assert_eq!(pr.commands[0], "git push -u origin idea/ada");
        assert!(
            pr.commands[1].starts_with(
                "gh pr create --base main --head idea/ada --title 'Ada: work from idea/ada'"
            ),
            "{pr:?}"
        );
    }
}

#[test]
fn idea_s_own_state_committed_in_the_checkout_does_not_make_it_dirty_for_a_squash() {
    let w = git_world();
    let root = w.dir.path();
    // A team that shares its agents commits `.ideai/agents.json`.
    agent(&w, "Ada");
    git(root, &["add", "-f", ".ideai/agents.json"]);
    git(root, &["commit", "-q", "-m", "agents"]);
    // Making the worktree records it there: the file changes in the user's checkout.
    let ada = worktrees::create(&w.deps, "Ada", None).unwrap().path;
    assert!(!git(root, &["status", "--porcelain", "--untracked-files=no"]).is_empty());
    std::fs::write(ada.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    let done = worktrees::squash(&w.deps, "Ada", None).unwrap();
    assert_eq!(git(root, &["rev-parse", "main"]), done.commit.unwrap());
    // The squash did not take the user's change to IdeA's state away.
    assert!(agents::find(&w.deps, "Ada").unwrap().worktree.is_some());
}

#[test]
fn from_a_detached_head_the_base_is_that_commit_and_a_squash_says_it_needs_a_branch() {
    let w = git_world();
    let root = w.dir.path();
    let head = git(root, &["rev-parse", "HEAD"]);
    git(root, &["checkout", "-q", "--detach"]);
    agent(&w, "Ada");
    let status = worktrees::create(&w.deps, "Ada", None).unwrap();
    assert_eq!(status.record.base_ref, "HEAD");
    assert_eq!(status.record.base_commit, head);
    std::fs::write(status.path.join("lib.rs"), "fn one() {}\nfn ada() {}\n").unwrap();
    let refused = worktrees::plan_squash(&w.deps, "Ada").unwrap_err();
    assert_eq!(code(&refused), "BASE_NOT_A_BRANCH");
    // A base branch deleted since: the same, and nothing changes.
    git(root, &["checkout", "-q", "main"]);
    agent(&w, "Bob");
    git(root, &["branch", "gone"]);
    worktrees::create(&w.deps, "Bob", Some("gone")).unwrap();
    git(root, &["branch", "-D", "gone"]);
    let gone = worktrees::plan_squash(&w.deps, "Bob").unwrap_err();
    assert_eq!(code(&gone), "BASE_NOT_A_BRANCH");
    assert_eq!(git(root, &["rev-parse", "main"]), head);
}

#[test]
fn an_agent_with_its_own_worktree_is_not_deleted_until_the_worktree_is_removed() {
    let w = git_world();
    let ada = agent(&w, "Ada");
    worktrees::create(&w.deps, "Ada", None).unwrap();
    let refused = agents::delete(&w.deps, ada.agent_id).unwrap_err();
    assert_eq!(code(&refused), "WORKTREE_EXISTS");
    assert!(
        refused.to_string().contains("idea worktree remove"),
        "{refused}"
    );
    worktrees::remove(&w.deps, "Ada").unwrap();
    agents::delete(&w.deps, ada.agent_id).unwrap();
}

/// Regression (an attacker's repository): a branch named like an option in a committed
/// `.ideai/agents.json` would have run a program at `git push --receive-pack=…`.
#[test]
fn a_manifest_whose_branch_git_would_read_as_an_option_is_refused_before_git_sees_it() {
    let w = git_world();
    let ada = agent(&w, "Ada");
    worktrees::create(&w.deps, "Ada", None).unwrap();
    let store = idea_infrastructure::store::FsProjectStore::new(w.dir.path());
    let proof = w.data.path().join("pwned");
    let mut manifest = idea_domain::ports::ProjectStore::load_manifest(&store).unwrap();
    let entry = manifest
        .entries
        .iter_mut()
        .find(|a| a.agent_id == ada.agent_id)
        .unwrap();
    entry.worktree.as_mut().unwrap().branch = format!("--receive-pack=touch {}", proof.display());
    idea_domain::ports::ProjectStore::save_manifest(&store, &manifest).unwrap();

    for refused in [
        worktrees::pull_request(&w.deps, "Ada").unwrap_err(),
        worktrees::remove(&w.deps, "Ada").unwrap_err(),
        worktrees::squash(&w.deps, "Ada", None).unwrap_err(),
    ] {
        assert_eq!(code(&refused), "CORRUPT_FILE", "{refused}");
    }
    // Listed with the reason; the other agents' listings are unaffected.
    let listed = worktrees::list(&w.deps).unwrap();
    assert!(
        listed[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("does not hand to git"))
    );
    assert!(!proof.exists());
    // A base named like an option is refused at creation too.
    agent(&w, "Bob");
    let option = worktrees::create(&w.deps, "Bob", Some("--upload-pack=x")).unwrap_err();
    assert_eq!(code(&option), "UNKNOWN_REF");
}
