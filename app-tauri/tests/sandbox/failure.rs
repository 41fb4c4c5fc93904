//! Fail-closed: when a plan cannot be enforced, the command does not start and the error says
//! why.

use super::support::{helper, stderr, world};
use idea_infrastructure::sandbox::kernel_abi;
use std::process::Command;

/// Exit status of `idea sandbox-exec` when the plan cannot be enforced.
const NOT_ENFORCED: i32 = 125;

#[test]
fn a_kernel_that_cannot_enforce_the_plan_starts_nothing() {
    let w = world();
    let marker = w.project.join("started");
    let file = w.plan_file(&w.plan());
    // Require an ABI above this kernel's: Landlock's hard requirement fails as it would on an
    // old kernel (and on a kernel without Landlock, this fails for that reason).
    let above = kernel_abi().map_or(6, |abi| abi + 1);
    let out = w
        .command(&file, &format!("touch '{}'", marker.display()))
        .env("IDEA_SANDBOX_REQUIRE_ABI", above.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(NOT_ENFORCED), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cannot enforce the sandbox"), "{err}");
    assert!(err.contains("sh was not started"), "{err}");
    assert!(!marker.exists(), "the command ran");
}

#[test]
fn a_plan_that_is_missing_broken_or_relative_starts_nothing() {
    let w = world();
    let marker = w.project.join("started");
    let touch = format!("touch '{}'", marker.display());
    let broken = w.root.join("broken.json");
    std::fs::write(&broken, "{\"writeRoots\": 7}").unwrap();
    let relative = w.root.join("relative.json");
    std::fs::write(&relative, r#"{"writeRoots": ["proj"]}"#).unwrap();
    let cases: [(Command, &str); 4] = [
        (
            {
                let mut c = Command::new(helper());
                c.args(["sandbox-exec", "--", "sh", "-c", &touch])
                    .env_remove("IDEA_SANDBOX_PLAN");
                c
            },
            "no sandbox plan",
        ),
        (
            {
                let mut c = Command::new(helper());
                c.args(["sandbox-exec", "--", "sh", "-c", &touch])
                    .env("IDEA_SANDBOX_PLAN", "not json");
                c
            },
            "is not a sandbox plan",
        ),
        (w.command(&broken, &touch), "is not a sandbox plan"),
        (w.command(&relative, &touch), "is not absolute"),
    ];
    for (mut command, why) in cases {
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(NOT_ENFORCED), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{why}: {}", stderr(&out));
        assert!(!marker.exists(), "the command ran ({why})");
    }
}

#[test]
fn a_missing_program_is_127_and_no_command_a_usage_error() {
    if !super::support::landlock() {
        return;
    }
    let w = world();
    let file = w.plan_file(&w.plan());
    let out = Command::new(helper())
        .args(["sandbox-exec", "--plan"])
        .arg(&file)
        .args(["--", "idea-no-such-program-7b1e"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127), "{}", stderr(&out));
    assert!(stderr(&out).contains("idea-no-such-program-7b1e"));
    let none = Command::new(helper())
        .args(["sandbox-exec", "--plan"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
}
