//! The `idea` binary, run for real against temp folders.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn idea(args: &[&str], cwd: &Path, user_dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_idea"))
        .args(args)
        .current_dir(cwd)
        .env("IDEA_USER_DIR", user_dir)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

struct Sandbox {
    _dir: tempfile::TempDir,
    project: std::path::PathBuf,
    user: std::path::PathBuf,
}

fn sandbox() -> Sandbox {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let user = dir.path().join("user");
    fs::create_dir_all(&project).unwrap();
    Sandbox {
        _dir: dir,
        project,
        user,
    }
}

#[test]
fn init_is_idempotent_and_ignores_the_run_dir() {
    let s = sandbox();
    let first = idea(&["init"], &s.project, &s.user);
    assert!(first.status.success(), "{}", stderr(&first));
    let project_json = fs::read_to_string(s.project.join(".ideai/project.json")).unwrap();
    let second = idea(
        &["init", s.project.to_str().unwrap()],
        s.user.parent().unwrap(),
        &s.user,
    );
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(stdout(&second).contains("Already"));
    assert_eq!(
        fs::read_to_string(s.project.join(".ideai/project.json")).unwrap(),
        project_json
    );
    assert_eq!(
        fs::read_to_string(s.project.join(".gitignore")).unwrap(),
        ".ideai/run/\n"
    );
}

#[test]
fn create_list_show_delete() {
    let s = sandbox();
    assert!(idea(&["init"], &s.project, &s.user).status.success());
    let created = idea(
        &[
            "agent",
            "create",
            "--name",
            "Ada",
            "--profile",
            "shell",
            "--template",
            "reviewer",
            "--json",
        ],
        &s.project,
        &s.user,
    );
    assert!(created.status.success(), "{}", stderr(&created));
    let agent: serde_json::Value = serde_json::from_str(&stdout(&created)).unwrap();
    assert_eq!(agent["name"], "Ada");
    assert_eq!(agent["mdPath"], "agents/ada.md");

    let list = idea(&["agent", "list", "--json"], &s.project, &s.user);
    let list: serde_json::Value = serde_json::from_str(&stdout(&list)).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["agentId"], agent["agentId"]);
    assert_eq!(list[0]["profileId"], "shell");
    assert_eq!(
        list[0]["origin"],
        serde_json::json!({"kind": "template", "template": "reviewer"})
    );

    let show = idea(&["agent", "show", "ada", "--json"], &s.project, &s.user);
    let shown: serde_json::Value = serde_json::from_str(&stdout(&show)).unwrap();
    assert!(shown["persona"].as_str().unwrap().contains("reviewer"));

    let id = agent["agentId"].as_str().unwrap();
    let deleted = idea(&["agent", "delete", id], &s.project, &s.user);
    assert!(deleted.status.success(), "{}", stderr(&deleted));
    assert!(
        s.project.join(".ideai/agents/ada.md").exists(),
        "persona kept"
    );
    let list = idea(&["agent", "list", "--json"], &s.project, &s.user);
    assert_eq!(stdout(&list).trim(), "[]");
}

#[test]
fn user_errors_exit_2_with_one_line() {
    let s = sandbox();
    let not_project = idea(&["agent", "list"], &s.project, &s.user);
    assert_eq!(not_project.status.code(), Some(2));
    assert!(
        stderr(&not_project).contains("not an IdeA project"),
        "{}",
        stderr(&not_project)
    );
    assert_eq!(stderr(&not_project).lines().count(), 1);

    assert!(idea(&["init"], &s.project, &s.user).status.success());
    let cases: [(&[&str], &str); 4] = [
        (&["agent", "show", "ghost"], "no agent \"ghost\""),
        (
            &["agent", "create", "--name", "../x", "--profile", "shell"],
            "invalid agent name",
        ),
        (
            &["agent", "create", "--name", "x", "--profile", "nope"],
            "unknown profile",
        ),
        (
            &["agent", "delete", "00000000-0000-0000-0000-000000000000"],
            "no agent",
        ),
    ];
    for (args, needle) in cases {
        let out = idea(args, &s.project, &s.user);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{args:?}");
    }
}

#[test]
fn a_corrupt_manifest_is_reported_and_kept() {
    let s = sandbox();
    assert!(idea(&["init"], &s.project, &s.user).status.success());
    let path = s.project.join(".ideai/agents.json");
    fs::write(&path, b"{ not json").unwrap();
    for args in [
        &["agent", "list"][..],
        &["agent", "create", "--name", "Ada", "--profile", "shell"][..],
    ] {
        let out = idea(args, &s.project, &s.user);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("agents.json is corrupt"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(fs::read(&path).unwrap(), b"{ not json");
}

#[test]
fn profiles_merge_user_file_and_report_bad_entries() {
    let s = sandbox();
    fs::create_dir_all(&s.user).unwrap();
    fs::write(
        s.user.join("profiles.json"),
        r#"{"version":1,"profiles":[{"id":"mine","name":"Mine","command":"mine","contextInjection":{"kind":"stdin"}}, {"id":"broken"}]}"#,
    )
    .unwrap();
    let out = idea(&["profiles", "--json"], &s.project, &s.user);
    assert!(out.status.success(), "{}", stderr(&out));
    let profiles: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let ids: Vec<_> = profiles
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    for id in [
        "claude-code",
        "codex",
        "gemini",
        "aider",
        "opencode",
        "shell",
        "mine",
    ] {
        assert!(ids.contains(&id.to_owned()), "{id} missing from {ids:?}");
    }
    assert!(stderr(&out).contains("broken"), "{}", stderr(&out));
}

#[test]
fn doctor_reports_as_json() {
    let s = sandbox();
    let out = idea(&["doctor", "--json"], &s.project, &s.user);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let shell = report["clis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["profileId"] == "shell")
        .unwrap();
    assert!(
        shell["path"].is_string(),
        "a shell is always installed: {shell}"
    );
    assert!(report["landlock"]["supported"].is_boolean());
    // git is on this machine (the suite runs from a clone): its version is read.
    assert!(report["git"]["version"].is_string(), "{}", report["git"]);
    assert!(report["webkit"].is_boolean());
    assert_eq!(report["userDir"], s.user.to_str().unwrap());
    let log = std::path::PathBuf::from(report["log"].as_str().unwrap());
    assert_eq!(log.parent(), Some(s.user.join("logs").as_path()));
    assert!(
        log.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("idea.log."),
        "{}",
        log.display()
    );
}

#[test]
fn doctor_says_what_an_installed_cli_still_needs() {
    let s = sandbox();
    let bin = s.user.join("bin");
    let home = s.user.join("home");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let claude = bin.join("claude");
    std::fs::write(&claude, "#!/bin/sh\necho '2.1.332 (Claude Code)'\n").unwrap();
    let mut perms = std::fs::metadata(&claude).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&claude, perms).unwrap();
    let doctor = |extra: &[(&str, &str)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_idea"));
        cmd.args(["doctor", "--json"])
            .current_dir(&s.project)
            .env("IDEA_USER_DIR", &s.user)
            .env("HOME", &home)
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("CLAUDE_CONFIG_DIR");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        report["clis"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["profileId"] == "claude-code")
            .unwrap()
            .clone()
    };
    let fresh = doctor(&[]);
    assert_eq!(fresh["version"], "2.1.332 (Claude Code)");
    assert!(
        fresh["setup"]
            .as_str()
            .unwrap()
            .contains("run `claude` once"),
        "{fresh}"
    );
    std::fs::write(
        home.join(".claude.json"),
        r#"{"hasCompletedOnboarding":true}"#,
    )
    .unwrap();
    assert!(
        doctor(&[])["setup"]
            .as_str()
            .unwrap()
            .contains("ANTHROPIC_API_KEY")
    );
    assert!(doctor(&[("ANTHROPIC_API_KEY", "sk-test")])["setup"].is_null());
}

/// `git -C dir args`, which must succeed; its output.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    stdout(&out).trim().to_owned()
}

#[test]
fn an_agent_on_its_own_branch_from_the_command_line() {
    let s = sandbox();
    let data = s.project.parent().unwrap().join("data");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_idea"))
            .args(args)
            .current_dir(&s.project)
            .env("IDEA_USER_DIR", &s.user)
            .env("XDG_DATA_HOME", &data)
            .output()
            .unwrap()
    };
    git(&s.project, &["init", "-q", "-b", "main"]);
    git(&s.project, &["config", "user.name", "User"]);
    git(&s.project, &["config", "user.email", "user@example.com"]);
    fs::write(s.project.join("lib.rs"), "fn one() {}\n").unwrap();
    assert!(run(&["init"]).status.success());
    git(&s.project, &["add", "-A"]);
    git(&s.project, &["commit", "-q", "-m", "first"]);
    let created = run(&["agent", "create", "--name", "Ada", "--profile", "shell"]);
    assert!(created.status.success(), "{}", stderr(&created));

    // A set-up script: it runs in the new worktree and sees the variables.
    let project_file = s.project.join(".ideai/project.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&project_file).unwrap()).unwrap();
    settings["worktrees"] = serde_json::json!({
        "setupScript": "echo \"$IDEA_WORKTREE_ROOT|$IDEA_MAIN_ROOT|$IDEA_BASE_REF|$IDEA_PORT\" > setup.out"
    });
    fs::write(&project_file, settings.to_string()).unwrap();
    git(&s.project, &["commit", "-qam", "set-up script"]);
    let out = run(&["worktree", "create", "Ada", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let status: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(status["branch"], "idea/ada");
    assert_eq!(status["baseRef"], "main");
    let dir = std::path::PathBuf::from(status["path"].as_str().unwrap());
    assert!(dir.starts_with(&data), "{}", dir.display());
    let seen = fs::read_to_string(dir.join("setup.out")).unwrap();
    let seen: Vec<&str> = seen.trim().split('|').collect();
    assert_eq!(seen[0], dir.to_str().unwrap());
    assert_eq!(
        std::path::Path::new(seen[1]).canonicalize().unwrap(),
        s.project.canonicalize().unwrap()
    );
    assert_eq!(seen[2], "main");
    assert!(
        seen[3].parse::<u16>().is_ok_and(|p| p >= 20_000),
        "{seen:?}"
    );
    fs::remove_file(dir.join("setup.out")).unwrap();

    fs::write(dir.join("lib.rs"), "fn one() {}\nfn two() {}\n").unwrap();
    let out = run(&["worktree", "diff", "Ada"]);
    assert!(stdout(&out).contains("M +1 -0"), "{}", stdout(&out));
    let out = run(&["worktree", "diff", "Ada", "lib.rs"]);
    assert!(stdout(&out).contains("+fn two() {}"), "{}", stdout(&out));

    // Without --yes: the plan only.
    let before = git(&s.project, &["rev-parse", "main"]);
    let out = run(&["worktree", "merge", "Ada"]);
    assert!(
        stdout(&out).contains("Would squash 1 file(s) into main"),
        "{}",
        stdout(&out)
    );
    assert_eq!(git(&s.project, &["rev-parse", "main"]), before);
    let out = run(&["worktree", "merge", "Ada", "--yes", "-m", "two", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plan: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        git(&s.project, &["rev-parse", "main"]),
        plan["commit"].as_str().unwrap()
    );
    assert_eq!(
        fs::read_to_string(s.project.join("lib.rs")).unwrap(),
        "fn one() {}\nfn two() {}\n"
    );

    fs::write(dir.join("later.txt"), "not committed\n").unwrap();
    assert!(run(&["worktree", "archive", "Ada"]).status.success());
    assert!(!dir.exists());
    let out = run(&["worktree", "list"]);
    assert!(stdout(&out).contains("Ada (archived)"), "{}", stdout(&out));
    assert!(run(&["worktree", "restore", "Ada"]).status.success());
    assert_eq!(
        fs::read_to_string(dir.join("later.txt")).unwrap(),
        "not committed\n"
    );

    // An agent without a worktree, an unknown one: one line each, exit 2.
    assert!(
        run(&["agent", "create", "--name", "Bob", "--profile", "shell"])
            .status
            .success()
    );
    let out = run(&["worktree", "diff", "Bob"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("Bob works in the project's tree"),
        "{}",
        stderr(&out)
    );
    let out = run(&["worktree", "create", "Nobody"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn skills_and_tools_from_the_command_line() {
    let s = sandbox();
    let run = |args: &[&str]| idea(args, &s.project, &s.user);
    assert!(run(&["init"]).status.success());
    assert!(
        run(&["agent", "create", "--name", "Ada", "--profile", "shell"])
            .status
            .success()
    );

    let created = run(&[
        "skill",
        "create",
        "review-checklist",
        "--description",
        "Use when: reviewing a change",
        "--body",
        "Check the tests first.",
    ]);
    assert!(created.status.success(), "{}", stderr(&created));
    let bad = run(&["skill", "create", "../up", "--description", "x"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("skill name"), "{}", stderr(&bad));
    let listed = run(&["skill", "list", "--json"]);
    let listing: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listing["skills"][0]["name"], "review-checklist");
    assert_eq!(
        listing["skills"][0]["description"],
        "Use when: reviewing a change"
    );
    let assigned = run(&["skill", "assign", "Ada", "review-checklist"]);
    assert_eq!(stdout(&assigned).trim(), "Ada's skills: review-checklist");
    let shown = run(&["skill", "show", "review-checklist"]);
    assert!(
        stdout(&shown).contains("Check the tests first."),
        "{}",
        stdout(&shown)
    );
    let unassigned = run(&["skill", "unassign", "Ada", "review-checklist", "--json"]);
    let agent: serde_json::Value = serde_json::from_slice(&unassigned.stdout).unwrap();
    assert_eq!(agent["skills"], serde_json::json!([]));

    let dir = s.project.join(".ideai/tools/shout");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("TOOL.json"),
        r#"{"description": "Says it, then fails when told",
            "command": {"parameters": [{"name": "word", "type": "string"},
                                       {"name": "code", "type": "number", "default": 0}],
                        "run": "sh -c 'echo \"$0\"; exit \"$1\"' {{word}} {{code}}"}}"#,
    )
    .unwrap();
    fs::create_dir_all(s.project.join(".ideai/tools/broken")).unwrap();
    fs::write(
        s.project.join(".ideai/tools/broken/TOOL.json"),
        "{ not json",
    )
    .unwrap();
    let tools = run(&["tool", "list"]);
    assert!(
        stdout(&tools).contains("shout(word, code=0)"),
        "{}",
        stdout(&tools)
    );
    assert!(
        stdout(&tools).contains("skipped .ideai/tools/broken/TOOL.json"),
        "{}",
        stdout(&tools)
    );
    let said = run(&["tool", "run", "shout", "--args", r#"{"word": "a; b $(x)"}"#]);
    assert!(said.status.success(), "{}", stderr(&said));
    assert_eq!(stdout(&said), "a; b $(x)\n");
    let failed = run(&[
        "tool",
        "run",
        "shout",
        "--args",
        r#"{"word": "x", "code": 3}"#,
    ]);
    assert_eq!(failed.status.code(), Some(3));
    let refused = run(&["tool", "run", "shout", "--args", r#"{"code": "three"}"#]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("shout"), "{}", stderr(&refused));
}
