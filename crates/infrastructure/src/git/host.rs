//! The [`WorktreeHost`] port on the git command line: the functions of this module, put
//! together the way a use case needs them.

use super::{
    Git, GitError, archive_worktree, behind_base, changed_files, copy_included, in_progress,
    link_folders, list_worktrees, resolve_commit, restore_worktree, snapshot_tree,
};
use idea_domain::ports::WorktreeHost;
use idea_domain::worktree::{ChangedFile, PullRequest, WorktreeError};
use std::path::{Path, PathBuf};

/// git's worktrees for agents.
#[derive(Debug, Default, Clone, Copy)]
pub struct GitWorktrees;

impl From<GitError> for WorktreeError {
    fn from(error: GitError) -> Self {
        match error {
            GitError::Missing => Self::GitMissing,
            GitError::TooOld { found } => Self::GitTooOld { found },
            GitError::NotARepository(path) => Self::NotARepository(path),
            GitError::BranchTaken(branch) => Self::BranchTaken(branch),
            GitError::UnknownRef(reference) => Self::UnknownRef(reference),
            GitError::Moved { branch } => Self::Moved { branch },
            GitError::Conflicts(files) => Self::Conflicts(files),
            GitError::InProgress { what, dir } => Self::InProgress {
                what: what.to_owned(),
                dir,
            },
            other @ (GitError::Failed { .. } | GitError::TimedOut { .. }) => {
                Self::Failed(other.to_string())
            }
        }
    }
}

/// Refused while a rebase, merge, cherry-pick or revert is in progress in `git`'s tree.
fn nothing_in_progress(git: &Git) -> Result<(), GitError> {
    match in_progress(git)? {
        Some(what) => Err(GitError::InProgress {
            what,
            dir: git.dir().to_path_buf(),
        }),
        None => Ok(()),
    }
}

/// Everything in the worktree now, as a commit: what the Review shows is what a squash
/// brings.
fn snapshot_commit(worktree: &Git) -> Result<String, GitError> {
    super::snapshot::snapshot_commit(worktree, "IdeA: the worktree as it is")
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl WorktreeHost for GitWorktrees {
    fn resolve_commit(&self, repo: &Path, reference: &str) -> Result<String, WorktreeError> {
        Ok(resolve_commit(&Git::at(repo), reference)?)
    }

    fn current_branch(&self, repo: &Path) -> Result<Option<String>, WorktreeError> {
        let git = Git::at(repo);
        let ran = git.run(&["symbolic-ref", "--quiet", "--short", "HEAD"])?;
        if ran.ok {
            return Ok(Some(String::from_utf8_lossy(&ran.stdout).trim().to_owned()));
        }
        // Detached, or no repository at all (which this says).
        git.output(&["rev-parse", "--git-dir"])?;
        Ok(None)
    }

    fn branch_exists(&self, repo: &Path, branch: &str) -> Result<bool, WorktreeError> {
        let full = format!("refs/heads/{branch}");
        Ok(Git::at(repo)
            .run(&["rev-parse", "--verify", "--quiet", &full])?
            .ok)
    }

    fn add(
        &self,
        repo: &Path,
        dir: &Path,
        branch: &str,
        base_commit: &str,
        links: &[String],
    ) -> Result<(), WorktreeError> {
        let main = Git::at(repo);
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                WorktreeError::Failed(format!("cannot make {}: {e}", parent.display()))
            })?;
        }
        super::add_worktree(&main, dir, branch, base_commit)?;
        let set_up = copy_included(&main, dir).and_then(|_| link_folders(repo, dir, links));
        if let Err(e) = set_up {
            // A half set-up worktree is no use: take it back (it holds nothing of anyone's),
            // with its branch, which nothing else has.
            let path = dir.to_string_lossy();
            let _ = main.run(&["worktree", "remove", "--force", "--", path.as_ref()]);
            let _ = main.run(&["branch", "-D", "--", branch]);
            return Err(e.into());
        }
        Ok(())
    }

    fn is_worktree_of(&self, repo: &Path, dir: &Path) -> bool {
        list_worktrees(&Git::at(repo))
            .map(|all| all.iter().skip(1).any(|w| same_dir(&w.path, dir)))
            .unwrap_or(false)
    }

    fn changed_files(
        &self,
        dir: &Path,
        base_commit: &str,
    ) -> Result<Vec<ChangedFile>, WorktreeError> {
        Ok(changed_files(&Git::at(dir), base_commit)?
            .into_iter()
            .map(|change| ChangedFile {
                path: change.path,
                status: change.status.to_string(),
                added: change.lines.map(|(added, _)| added),
                removed: change.lines.map(|(_, removed)| removed),
            })
            .collect())
    }

    fn file_diff(
        &self,
        dir: &Path,
        base_commit: &str,
        path: &str,
    ) -> Result<String, WorktreeError> {
        let git = Git::at(dir);
        let base = resolve_commit(&git, base_commit)?;
        let fork = git.output(&["merge-base", &base, "HEAD"])?;
        let tree = snapshot_tree(&git)?;
        Ok(git.output(&[
            "diff-tree",
            "-p",
            "--no-renames",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            &fork,
            &tree,
            "--",
            path,
        ])?)
    }

    fn behind_base(&self, dir: &Path, base_ref: &str) -> Result<u64, WorktreeError> {
        Ok(behind_base(&Git::at(dir), base_ref)?)
    }

    fn checkout_of(&self, repo: &Path, branch: &str) -> Result<Option<PathBuf>, WorktreeError> {
        Ok(list_worktrees(&Git::at(repo))?
            .into_iter()
            .find(|w| w.branch.as_deref() == Some(branch))
            .map(|w| w.path))
    }

    fn conflicts(
        &self,
        repo: &Path,
        dir: &Path,
        base_branch: &str,
    ) -> Result<Vec<String>, WorktreeError> {
        let main = Git::at(repo);
        let tip = resolve_commit(&main, base_branch)?;
        let theirs = snapshot_commit(&Git::at(dir))?;
        Ok(super::conflict_preview(&main, &tip, &theirs)?.conflicts)
    }

    fn squash(
        &self,
        repo: &Path,
        dir: &Path,
        base_branch: &str,
        message: &str,
        checkout: Option<&Path>,
    ) -> Result<String, WorktreeError> {
        let (main, worktree) = (Git::at(repo), Git::at(dir));
        nothing_in_progress(&worktree)?;
        if let Some(checkout) = checkout {
            let user = Git::at(checkout);
            nothing_in_progress(&user)?;
            let status = user.output(&[
                "--no-optional-locks",
                "status",
                "--porcelain=v1",
                "-z",
                "--untracked-files=no",
            ])?;
            // IdeA's own state (`.ideai/agents.json` records the worktree) is no change of the
            // user's; git's merge still refuses to overwrite it.
            let dirty = status
                .split('\0')
                .filter(|entry| entry.len() > 3)
                .any(|entry| !entry[3..].starts_with(".ideai/"));
            if dirty {
                return Err(WorktreeError::CheckoutDirty(checkout.to_path_buf()));
            }
        }
        let tip = resolve_commit(&main, base_branch)?;
        let theirs = snapshot_commit(&worktree)?;
        let commit = super::merge::squash_commit(&main, &tip, &theirs, message)?;
        match checkout {
            // git's own merge moves the branch and the user's files together; it refuses
            // rather than overwrite anything, and a branch moved meanwhile is no fast-forward.
            Some(checkout) => {
                let user = Git::at(checkout);
                let ran = user.run(&["merge", "--ff-only", "--quiet", &commit])?;
                if !ran.ok {
                    let now = resolve_commit(&user, "HEAD")?;
                    return Err(if now == tip {
                        user.failed(&["merge", "--ff-only"], &ran).into()
                    } else {
                        WorktreeError::Moved {
                            branch: base_branch.to_owned(),
                        }
                    });
                }
            }
            None => super::merge::move_branch(&main, base_branch, &commit, &tip)?,
        }
        Ok(commit)
    }

    fn archive(&self, repo: &Path, dir: &Path, slug: &str) -> Result<String, WorktreeError> {
        nothing_in_progress(&Git::at(dir))?;
        Ok(archive_worktree(&Git::at(repo), dir, slug)?)
    }

    fn restore(
        &self,
        repo: &Path,
        dir: &Path,
        branch: &str,
        slug: &str,
        links: &[String],
    ) -> Result<(), WorktreeError> {
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                WorktreeError::Failed(format!("cannot make {}: {e}", parent.display()))
            })?;
        }
        let main = Git::at(repo);
        restore_worktree(&main, dir, branch, slug)?;
        // The ignored files were copies of the user's; they are copied again.
        copy_included(&main, dir)?;
        link_folders(repo, dir, links)?;
        Ok(())
    }

    fn rebase(&self, dir: &Path, base_ref: &str) -> Result<Vec<String>, WorktreeError> {
        Ok(match super::rebase_onto(&Git::at(dir), base_ref)? {
            super::Rebased::Done => Vec::new(),
            super::Rebased::Conflicts(files) => files,
        })
    }

    fn abort_rebase(&self, dir: &Path) -> Result<(), WorktreeError> {
        Ok(super::abort_rebase(&Git::at(dir))?)
    }

    fn pull_request(
        &self,
        dir: &Path,
        branch: &str,
        base: &str,
        title: &str,
    ) -> Result<PullRequest, WorktreeError> {
        let quoted = |s: &str| shell_words::quote(s).into_owned();
        let push = format!("git push -u origin {}", quoted(branch));
        let create = format!(
            "gh pr create --base {} --head {} --title {} --fill",
            quoted(base),
            quoted(branch),
            quoted(title)
        );
        let commands = vec![push, create];
        let by_hand = |reason: String| PullRequest {
            url: None,
            commands: commands.clone(),
            reason: Some(reason),
        };
        let gh = |args: &[&str]| {
            std::process::Command::new("gh")
                .args(args)
                .current_dir(dir)
                .env("GH_PROMPT_DISABLED", "1")
                .env("GIT_TERMINAL_PROMPT", "0")
                .stdin(std::process::Stdio::null())
                .output()
        };
        match gh(&["auth", "status"]) {
            Err(_) => {
                return Ok(by_hand(
                    "gh (GitHub's command line) is not installed".into(),
                ));
            }
            Ok(out) if !out.status.success() => {
                return Ok(by_hand("gh is not logged in (gh auth login)".into()));
            }
            Ok(_) => {}
        }
        let git = Git::at(dir).patient(std::time::Duration::from_secs(120));
        let pushed = git.run(&["push", "--quiet", "-u", "origin", branch])?;
        if !pushed.ok {
            let why = pushed
                .stderr
                .lines()
                .last()
                .unwrap_or("no message")
                .to_owned();
            return Ok(by_hand(format!("the push failed: {why}")));
        }
        match gh(&[
            "pr", "create", "--base", base, "--head", branch, "--title", title, "--fill",
        ]) {
            Ok(out) if out.status.success() => Ok(PullRequest {
                url: Some(String::from_utf8_lossy(&out.stdout).trim().to_owned()),
                commands: Vec::new(),
                reason: None,
            }),
            Ok(out) => Ok(by_hand(format!(
                "gh pr create failed: {}",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("no message")
            ))),
            Err(e) => Ok(by_hand(format!("gh could not run: {e}"))),
        }
    }

    fn delete_branch(
        &self,
        repo: &Path,
        branch: &str,
        merged_into: &str,
    ) -> Result<bool, WorktreeError> {
        let main = Git::at(repo);
        // Its work is on the base when merging it there would change nothing: true after a
        // merge, a squash (IdeA's or anyone's) or cherry-picks alike.
        let merged = super::conflict_preview(&main, merged_into, branch)?;
        let base_tree = main.output(&["rev-parse", &format!("{merged_into}^{{tree}}")])?;
        if !merged.conflicts.is_empty() || merged.tree != base_tree {
            return Ok(false);
        }
        main.output(&["branch", "-D", "--", branch])?;
        Ok(true)
    }

    fn drop_empty_saved_work(
        &self,
        repo: &Path,
        branch: &str,
        slug: &str,
    ) -> Result<bool, WorktreeError> {
        let main = Git::at(repo);
        let reference = super::wip_ref(slug);
        let Ok(saved) = resolve_commit(&main, &reference) else {
            return Ok(true);
        };
        let tree_of = |rev: &str| main.output(&["rev-parse", &format!("{rev}^{{tree}}")]);
        if tree_of(&saved)? != tree_of(branch)? {
            return Ok(false);
        }
        main.output(&["update-ref", "-d", &reference, &saved])?;
        Ok(true)
    }

    fn ports_free(&self, first: u16, count: u16) -> bool {
        (first..first.saturating_add(count))
            .all(|port| std::net::TcpListener::bind(("127.0.0.1", port)).is_ok())
    }

    fn git_write_dirs(&self, dir: &Path) -> Result<Vec<PathBuf>, WorktreeError> {
        let git = Git::at(dir);
        let path =
            |args: &[&str]| -> Result<PathBuf, GitError> { Ok(PathBuf::from(git.output(args)?)) };
        let common = path(&["rev-parse", "--path-format=absolute", "--git-common-dir"])?;
        let own = path(&["rev-parse", "--path-format=absolute", "--git-dir"])?;
        Ok(vec![
            common.join("objects"),
            common.join("refs"),
            common.join("logs"),
            own,
        ])
    }
}
