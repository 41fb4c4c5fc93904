//! `git diff --stat HEAD` of the project, for a handoff (through [`crate::git::Git`], which
//! turns off the programs an untrusted repository's config may name), given 5 s.

use crate::git::Git;
use std::path::Path;
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(5);
const OUTPUT_MAX: usize = 64 * 1024;

pub(super) fn diff_stat(root: &Path) -> Option<String> {
    let ran = Git::at(root)
        .patient(PATIENCE)
        .run(&[
            "diff",
            "--stat",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            "HEAD",
            "--",
        ])
        .map_err(|e| tracing::warn!(root = %root.display(), error = %e, "git diff --stat"))
        .ok()?;
    let mut bytes = ran.stdout;
    bytes.truncate(OUTPUT_MAX);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (ran.ok && !text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .expect("git runs")
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn the_changed_files_are_listed_and_a_hostile_config_runs_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("a.txt"), "one\n").expect("write");
        git(root, &["add", "a.txt"]);
        git(root, &["commit", "-qm", "first"]);
        std::fs::write(root.join("a.txt"), "one\ntwo\n").expect("write");
        // A repository that names programs git would run on a diff.
        let planted = root.join("ran");
        let hook = format!("touch {}", planted.display());
        for (key, value) in [
            ("core.fsmonitor", &hook),
            ("core.pager", &hook),
            ("diff.external", &hook),
        ] {
            git(root, &["config", key, value]);
        }
        let stat = diff_stat(root).expect("a diff");
        assert!(stat.contains("a.txt"), "{stat}");
        assert!(!planted.exists(), "the repository's config ran a program");
    }

    #[test]
    fn outside_a_repository_there_is_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(diff_stat(dir.path()), None);
    }
}
