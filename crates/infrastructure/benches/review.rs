//! The Review listing of a worktree with 300 changed files (`git::changed_files`: a snapshot
//! with a temporary index, then `diff-tree` against the merge base, twice: statuses and line
//! counts) beside `git diff --numstat` of the same tree, in one run, interleaved.
//!
//! `cargo bench -p idea-infrastructure --bench review` prints p50/p99 and the ratio; it
//! asserts nothing about speed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_infrastructure::git::{Git, add_worktree, changed_files, resolve_commit};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const FILES: usize = 300;
const WARMUP: usize = 3;
const SAMPLES: usize = 40;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=b", "-c", "user.email=b@b"])
        .args(args)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok, "git {args:?}");
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir(&root).unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    for i in 0..FILES {
        let text: String = (0..40).map(|l| format!("line {l} of file {i}\n")).collect();
        std::fs::write(root.join(format!("f{i:03}.txt")), text).unwrap();
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "base"]);
    let repo = Git::at(&root);
    let worktree = dir.path().join("wt");
    add_worktree(
        &repo,
        &worktree,
        "idea/bench",
        &resolve_commit(&repo, "main").unwrap(),
    )
    .unwrap();
    // 300 changed files: a third committed, a third staged, a third unstaged.
    for i in 0..FILES {
        let file = worktree.join(format!("f{i:03}.txt"));
        let mut text = std::fs::read_to_string(&file).unwrap();
        text.push_str("changed\n");
        std::fs::write(&file, text).unwrap();
        if i == FILES / 3 {
            git(&worktree, &["commit", "-qam", "a third"]);
        }
    }
    git(&worktree, &["add", "f2*.txt"]);
    let agent = Git::at(&worktree);
    let (mut ours, mut numstat) = (Vec::new(), Vec::new());
    for round in 0..WARMUP + SAMPLES {
        let started = Instant::now();
        let listed = changed_files(&agent, "main").unwrap();
        let ours_ms = started.elapsed().as_secs_f64() * 1000.0;
        assert_eq!(listed.len(), FILES);
        let started = Instant::now();
        let out = Command::new("git")
            .arg("-C")
            .arg(&worktree)
            .args(["diff", "--numstat", "main"])
            .output()
            .unwrap();
        let numstat_ms = started.elapsed().as_secs_f64() * 1000.0;
        assert!(out.status.success());
        if round >= WARMUP {
            ours.push(ours_ms);
            numstat.push(numstat_ms);
        }
    }
    ours.sort_by(f64::total_cmp);
    numstat.sort_by(f64::total_cmp);
    let (o50, o99) = (percentile(&ours, 0.5), percentile(&ours, 0.99));
    let (n50, n99) = (percentile(&numstat, 0.5), percentile(&numstat, 0.99));
    println!("review listing of {FILES} changed files, {SAMPLES} samples each");
    println!("  git diff --numstat main   p50 {n50:7.2} ms  p99 {n99:7.2} ms  (baseline)");
    println!(
        "  changed_files             p50 {o50:7.2} ms  p99 {o99:7.2} ms  ({:.2}× / {:.2}×)",
        o50 / n50,
        o99 / n99
    );
}
