//! Sandbox start-up cost: how long a sandboxed `true` takes to start and end, beside a bare
//! `true`, in one run (interleaved, so all see the same machine):
//!
//! 1. `true`, spawned and waited for: the baseline;
//! 2. `idea sandbox-exec --plan FILE -- true` with the project's namespace plan (user and
//!    mount namespace, read-only mounts, then Landlock): what every sandboxed launch adds;
//! 3. the same helper with the split plan (Landlock only, as where namespaces are refused);
//! 4. `idea sandbox -- true`: the command line, which also opens the project, loads the rules,
//!    compiles the plan and probes namespaces before it runs (2).
//!
//! `cargo bench -p idea-app --no-default-features --bench sandbox` prints p50/p99 and ratios;
//! it asserts nothing about speed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/world_dir.rs"]
mod world_dir;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const COMMAND: &str = "cargo bench -p idea-app --no-default-features --bench sandbox";
const IDEA: &str = env!("CARGO_BIN_EXE_idea");
const WARMUP: usize = 10;
const SAMPLES: usize = 200;

fn timed(command: &mut Command) -> f64 {
    let started = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    assert!(status.success(), "{command:?} failed");
    elapsed
}

fn idea(project: &Path, home: &Path, user: &Path) -> Command {
    let mut command = Command::new(IDEA);
    command
        .current_dir(project)
        .env("HOME", home)
        .env("IDEA_USER_DIR", user)
        .env_remove("IDEA_SANDBOX_NO_USERNS");
    command
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn main() {
    println!("command: {COMMAND}");
    println!("idea binary: {IDEA}");
    let world = world_dir::world_dir("sandbox-bench-");
    let project = world.path().join("proj");
    let home = world.path().join("home");
    let user = world.path().join("user");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    assert!(
        idea(&project, &home, &user)
            .arg("init")
            .stdout(Stdio::null())
            .status()
            .unwrap()
            .success()
    );
    std::fs::write(
        project.join(".ideai/permissions.json"),
        r#"{"permissions": {"deny": ["Read(./secret.txt)"]}}"#,
    )
    .unwrap();
    std::fs::write(project.join("secret.txt"), "s").unwrap();
    let plan = |split: bool| {
        let mut command = idea(&project, &home, &user);
        command.args(["sandbox", "--explain", "--json"]);
        if split {
            command.env("IDEA_SANDBOX_NO_USERNS", "1");
        }
        let out = command.output().unwrap();
        assert!(out.status.success());
        let file = world
            .path()
            .join(if split { "split.json" } else { "ns.json" });
        std::fs::write(&file, out.stdout).unwrap();
        file
    };
    let (namespace_plan, split_plan) = (plan(false), plan(true));
    let namespaces = std::fs::read_to_string(&namespace_plan)
        .unwrap()
        .contains("\"mounts\"");
    println!(
        "namespace plan: {}",
        if namespaces {
            "yes"
        } else {
            "NO (the kernel refuses user namespaces: rows 2 and 3 are both split plans)"
        }
    );
    let helper = |file: &Path, split: bool| {
        let mut command = idea(&project, &home, &user);
        command.args(["sandbox-exec", "--plan"]).arg(file);
        command.args(["--", "true"]);
        if split {
            command.env("IDEA_SANDBOX_NO_USERNS", "1");
        }
        command
    };
    let mut rows: [(&str, Vec<f64>); 4] = [
        ("true", vec![]),
        ("idea sandbox-exec (namespaces)", vec![]),
        ("idea sandbox-exec (split plan)", vec![]),
        ("idea sandbox -- true", vec![]),
    ];
    for round in 0..WARMUP + SAMPLES {
        let times = [
            timed(&mut Command::new("true")),
            timed(&mut helper(&namespace_plan, false)),
            timed(&mut helper(&split_plan, true)),
            timed(idea(&project, &home, &user).args(["sandbox", "--", "true"])),
        ];
        if round >= WARMUP {
            for (row, time) in rows.iter_mut().zip(times) {
                row.1.push(time);
            }
        }
    }
    let base = {
        let mut t = rows[0].1.clone();
        t.sort_by(f64::total_cmp);
        percentile(&t, 0.5)
    };
    println!();
    println!("{SAMPLES} samples each, milliseconds");
    println!("{:<34} {:>8} {:>8} {:>10}", "", "p50", "p99", "p50/true");
    for (name, mut times) in rows {
        times.sort_by(f64::total_cmp);
        let p50 = percentile(&times, 0.5);
        println!(
            "{name:<34} {p50:>8.2} {:>8.2} {:>10.1}",
            percentile(&times, 0.99),
            p50 / base
        );
    }
}
