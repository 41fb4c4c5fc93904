//! `git diff --stat HEAD` of the project, for a handoff. The repository is untrusted input: its
//! config may name programs git would run (an fsmonitor hook, a pager, an external diff, a
//! textconv filter); those are turned off, and git gets no terminal, no input and 5 s.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(5);
const OUTPUT_MAX: u64 = 64 * 1024;

pub(super) fn diff_stat(root: &Path) -> Option<String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.pager=cat",
            "--no-pager",
            "diff",
            "--stat",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            "HEAD",
            "--",
        ])
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_EXTERNAL_DIFF")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let stdout = child.stdout.take()?;
    let reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.take(OUTPUT_MAX).read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                tracing::warn!(root = %root.display(), "git diff --stat did not finish in time");
                return None;
            }
        }
    };
    let text = reader.join().ok()?;
    (status.success() && !text.trim().is_empty()).then_some(text)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

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
