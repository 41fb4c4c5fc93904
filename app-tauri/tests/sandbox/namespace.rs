//! The namespace sandbox on this kernel, through the real `idea sandbox`: the project tree is
//! writable whole (root included, entries made later too), IdeA's state, other agents' run
//! dirs and git's hooks are not, credentials are unreadable until a rule allows them, the
//! mounts cannot be undone from inside; the fallback without user namespaces keeps the split
//! plan and says so; what cannot be set up starts nothing.

use super::support::{IDEA, World, helper, landlock, stderr, stdout, world};
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Whether this machine lets the helper set up a user and mount namespace; says so loudly
/// when it does not (the fallback tests still run).
pub(super) fn namespaces() -> bool {
    let probe = Command::new(helper())
        .args(["sandbox-exec", "--probe"])
        .env_remove("IDEA_SANDBOX_NO_USERNS")
        .output()
        .unwrap();
    if !probe.status.success() {
        eprintln!(
            "SKIPPED: the kernel refuses user namespaces here ({})",
            stderr(&probe).trim()
        );
    }
    probe.status.success()
}

/// Shell functions: `t LABEL CMD…` prints `LABEL=ok` or `LABEL=refused`.
const T: &str = "t() { l=$1; shift; if \"$@\" >/dev/null 2>&1; then echo \"$l=ok\"; else echo \"$l=refused\"; fi; }\n";

fn git(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    out
}

/// A git project with one commit, `idea init`, two agents (`gem` and `other`, whose run dir
/// exists), a fake home with an SSH key, and `rules` as the project's permissions file.
fn project(w: &World, rules: &str) -> String {
    git(&w.project, &["init", "-q", "."]);
    git(&w.project, &["config", "user.email", "t@example.com"]);
    git(&w.project, &["config", "user.name", "T"]);
    fs::write(w.project.join("README.md"), "hello\n").unwrap();
    git(&w.project, &["add", "README.md"]);
    git(&w.project, &["commit", "-qm", "first"]);
    assert!(idea(w, &["init"]).status.success());
    for (name, profile) in [("gem", "gemini"), ("other", "claude-code")] {
        let created = idea(
            w,
            &["agent", "create", "--name", name, "--profile", profile],
        );
        assert!(created.status.success(), "{}", stderr(&created));
    }
    fs::write(w.project.join(".ideai/permissions.json"), rules).unwrap();
    fs::create_dir_all(w.home.join(".ssh")).unwrap();
    fs::write(w.home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    fs::write(w.home.join(".ssh/id_ed25519.pub"), "ssh-ed25519 AAAA").unwrap();
    fs::write(w.project.join("secret.txt"), "s3cr3t").unwrap();
    let other = run_dir_of(w, "other");
    fs::create_dir_all(&other).unwrap();
    other
}

fn idea_command(w: &World, args: &[&str]) -> Command {
    let mut command = Command::new(IDEA);
    command
        .args(args)
        .current_dir(&w.project)
        .env("HOME", &w.home)
        .env("IDEA_USER_DIR", w.root.join("user"))
        // Set by rustup around `cargo test`: the world's caches are under its own HOME.
        .env_remove("CARGO_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("TMPDIR")
        .env_remove("IDEA_SANDBOX_NO_USERNS")
        .env_remove("IDEA_SANDBOX_REQUIRE_ABI");
    command
}

fn idea(w: &World, args: &[&str]) -> Output {
    idea_command(w, args).output().unwrap()
}

fn run_dir_of(w: &World, name: &str) -> String {
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(w.project.join(".ideai/agents.json")).unwrap())
            .unwrap();
    let id = manifest["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap()["agentId"]
        .as_str()
        .unwrap()
        .to_owned();
    w.project.join(".ideai/run").join(id).display().to_string()
}

const RULES: &str =
    r#"{"permissions": {"allow": ["Bash(git status)"], "deny": ["Read(./secret.txt)"]}}"#;

#[test]
fn the_project_is_writable_whole_and_ideas_state_git_hooks_and_credentials_are_not() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    let other = project(&w, RULES);
    let own = run_dir_of(&w, "gem");
    let ready = w.project.join("ready");
    let later = w.project.join("later");
    let script = format!(
        "{T}t create touch new.txt\n\
         t rename mv new.txt renamed.txt\n\
         t delete rm renamed.txt\n\
         t mkdir mkdir target\n\
         t sed sed -i s/hello/bye/ README.md\n\
         t top_file sh -c 'echo added > CHANGELOG.md'\n\
         t permissions sh -c 'echo {{}} > .ideai/permissions.json'\n\
         t new_state sh -c 'echo x > .ideai/layouts.json'\n\
         t other_run_dir sh -c 'echo x > {other}/note'\n\
         t own_run_dir sh -c 'echo x > {own}/note'\n\
         t hook sh -c 'echo evil > .git/hooks/pre-commit'\n\
         t git_config sh -c 'echo x >> .git/config'\n\
         t secret cat secret.txt\n\
         t ssh_key cat \"$HOME/.ssh/id_ed25519\"\n\
         t ssh_pub cat \"$HOME/.ssh/id_ed25519.pub\"\n\
         t umount umount .ideai\n\
         t mount_over mount --bind target .ideai\n\
         t nested_umount unshare -Urm umount .ideai\n\
         t move_git mv .git .git-away\n\
         t still_protected sh -c 'echo {{}} > .ideai/permissions.json'\n\
         t commit sh -c 'git add README.md CHANGELOG.md && git commit -qm sandboxed'\n\
         touch '{ready}'\n\
         i=0; while [ ! -e '{later}/done' ] && [ $i -lt 2000 ]; do sleep 0.05; i=$((i+1)); done\n\
         t later_read cat '{later}/file'\n\
         t later_write sh -c 'echo more >> {later}/file'\n\
         t later_create touch '{later}/made-inside'\n",
        ready = ready.display(),
        later = later.display(),
    );
    let rules_before = fs::read_to_string(w.project.join(".ideai/permissions.json")).unwrap();
    let child = idea_command(
        &w,
        &["sandbox", "--agent", "gem", "--", "sh", "-c", &script],
    )
    .env("GIT_CONFIG_NOSYSTEM", "1")
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // The user makes a folder while the agent runs.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ready.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    fs::create_dir_all(&later).unwrap();
    fs::write(later.join("file"), "from the user\n").unwrap();
    fs::write(later.join("done"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    let expect = [
        "create=ok",
        "rename=ok",
        "delete=ok",
        "mkdir=ok",
        "sed=ok",
        "top_file=ok",
        "permissions=refused",
        "new_state=refused",
        "other_run_dir=refused",
        "own_run_dir=ok",
        "hook=refused",
        "git_config=refused",
        "secret=refused",
        "ssh_key=refused",
        "ssh_pub=ok",
        "umount=refused",
        "mount_over=refused",
        "nested_umount=refused",
        "move_git=refused",
        "still_protected=refused",
        "commit=ok",
        "later_read=ok",
        "later_write=ok",
        "later_create=ok",
    ];
    for line in expect {
        assert!(
            text.lines().any(|l| l == line),
            "{line} expected:\n{text}{}",
            stderr(&out)
        );
    }
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(w.project.join(".ideai/permissions.json")).unwrap(),
        rules_before
    );
    assert!(!w.project.join(".git/hooks/pre-commit").exists());
    assert!(!w.project.join(".ideai/layouts.json").exists());
    assert!(w.project.join(".git").is_dir());
    let log = git(&w.project, &["log", "--format=%s"]);
    assert_eq!(stdout(&log), "sandboxed\nfirst\n");
    assert_eq!(
        fs::read_to_string(later.join("file")).unwrap(),
        "from the user\nmore\n"
    );
}

#[test]
fn allow_rules_lift_the_credential_and_git_defaults() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    let rules = r#"{"permissions": {"allow": ["Read(~/.ssh/**)", "Edit(.git/hooks/**)"],
        "deny": ["Read(./secret.txt)"]}}"#;
    project(&w, rules);
    let script = format!(
        "{T}t ssh_key cat \"$HOME/.ssh/id_ed25519\"\n\
         t aws cat \"$HOME/.aws/credentials\"\n\
         t hook sh -c 'echo ok > .git/hooks/post-commit'\n\
         t git_config sh -c 'echo x >> .git/config'\n"
    );
    fs::create_dir_all(w.home.join(".aws")).unwrap();
    fs::write(w.home.join(".aws/credentials"), "aws").unwrap();
    let out = idea(&w, &["sandbox", "--", "sh", "-c", &script]);
    let text = stdout(&out);
    for line in ["ssh_key=ok", "aws=refused", "hook=ok", "git_config=refused"] {
        assert!(
            text.lines().any(|l| l == line),
            "{line}:\n{text}{}",
            stderr(&out)
        );
    }
    let explained = stdout(&idea(&w, &["sandbox", "--explain"]));
    assert!(explained.contains("Credentials"), "{explained}");
    assert!(explained.contains(".aws") && !explained.contains("id_ed25519"));
}

#[test]
fn without_user_namespaces_the_split_plan_runs_and_says_it_is_limited() {
    if !landlock() {
        return;
    }
    let w = world();
    project(&w, RULES);
    fs::create_dir_all(w.project.join("src")).unwrap();
    let script = format!(
        "{T}t top_file touch new_at_root\n\
         t in_folder touch src/new.rs\n\
         t permissions sh -c 'echo {{}} > .ideai/permissions.json'\n\
         t ssh_key cat \"$HOME/.ssh/id_ed25519\"\n"
    );
    let out = idea_command(&w, &["sandbox", "--", "sh", "-c", &script])
        .env("IDEA_SANDBOX_NO_USERNS", "1")
        .output()
        .unwrap();
    let text = stdout(&out);
    for line in [
        "top_file=refused",
        "in_folder=ok",
        "permissions=refused",
        "ssh_key=refused",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "{line}:\n{text}{}",
            stderr(&out)
        );
    }
    let json = idea_command(&w, &["sandbox", "--explain", "--json"])
        .env("IDEA_SANDBOX_NO_USERNS", "1")
        .output()
        .unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(plan.get("mounts").is_none(), "{plan}");
    let words = idea_command(&w, &["sandbox", "--explain"])
        .env("IDEA_SANDBOX_NO_USERNS", "1")
        .output()
        .unwrap();
    assert!(
        stdout(&words).contains("limited sandbox: new top-level entries cannot be created"),
        "{}",
        stdout(&words)
    );
}

#[test]
fn what_cannot_be_set_up_starts_nothing_and_names_the_step() {
    if !landlock() {
        return;
    }
    let w = world();
    let marker = w.project.join("started");
    let touch = format!("touch '{}'", marker.display());
    // A plan that needs a namespace the kernel (here: the test switch) refuses.
    let mut plan = w.plan();
    plan.mounts = Some(idea_domain::sandbox::MountPlan {
        read_only: vec![w.project.join(".ideai")],
        writable: vec![],
        private_caches: vec![],
    });
    fs::create_dir_all(w.project.join(".ideai")).unwrap();
    let out = w
        .command(&w.plan_file(&plan), &touch)
        .env("IDEA_SANDBOX_NO_USERNS", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(125), "{}", stderr(&out));
    assert!(stderr(&out).contains("unshare"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("sh was not started"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists());
    if !namespaces() {
        return;
    }
    // A protected path that is a symbolic link.
    let elsewhere = w.sibling.join("hooks");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::create_dir_all(w.project.join(".git")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, w.project.join(".git/hooks")).unwrap();
    plan.mounts = Some(idea_domain::sandbox::MountPlan {
        read_only: vec![w.project.join(".ideai"), w.project.join(".git/hooks")],
        writable: vec![],
        private_caches: vec![],
    });
    let out = w.command(&w.plan_file(&plan), &touch).output().unwrap();
    assert_eq!(out.status.code(), Some(125), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists());
}

#[test]
fn a_project_path_with_odd_characters_is_protected_all_the_same() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    let odd = w.root.join("odd name\nwith 'quotes' é");
    fs::create_dir_all(odd.join(".ideai/run/me")).unwrap();
    fs::write(odd.join(".ideai/agents.json"), "{}").unwrap();
    let mut plan = w.plan();
    plan.write_roots = vec![odd.clone(), "/dev/null".into()];
    plan.mounts = Some(idea_domain::sandbox::MountPlan {
        read_only: vec![odd.join(".ideai")],
        writable: vec![odd.join(".ideai/run/me")],
        private_caches: vec![],
    });
    let script = format!(
        "{T}cd \"$ODD\"\nt top touch new\nt state sh -c 'echo x > .ideai/agents.json'\n\
         t own sh -c 'echo x > .ideai/run/me/note'\n"
    );
    let out = w
        .command(&w.plan_file(&plan), &script)
        .env("ODD", &odd)
        .output()
        .unwrap();
    let text = stdout(&out);
    for line in ["top=ok", "state=refused", "own=ok"] {
        assert!(
            text.lines().any(|l| l == line),
            "{line}:\n{text}{}",
            stderr(&out)
        );
    }
    assert_eq!(
        fs::read_to_string(odd.join(".ideai/agents.json")).unwrap(),
        "{}"
    );
}

/// Issue 19: under a plan, `cargo build` and `npm install` that download failed, as the user's
/// package caches were read-only (granting them would let an agent plant code that the user's
/// next build runs outside the sandbox). Each agent now writes an overlay of them: the user's
/// cache reads as it is, the agent's writes land in its run dir, and the user's cache is never
/// changed. A cache the user never made (here npm's) is made empty first.
#[test]
fn package_caches_are_written_privately_and_the_users_stay_as_they_were() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    project(&w, RULES);
    let own = run_dir_of(&w, "gem");
    let registry = w.home.join(".cargo/registry");
    fs::create_dir_all(registry.join("src/crate-1.0")).unwrap();
    fs::write(registry.join("src/crate-1.0/lib.rs"), "pub fn good() {}\n").unwrap();
    fs::write(w.home.join(".cargo/config.toml"), "[build]\n").unwrap();
    let script = format!(
        "{T}t read_cache cat \"$HOME/.cargo/registry/src/crate-1.0/lib.rs\"\n\
         t download sh -c 'mkdir -p \"$HOME/.cargo/registry/cache\" && echo crate > \"$HOME/.cargo/registry/cache/new.crate\"'\n\
         t plant sh -c 'echo evil > \"$HOME/.cargo/registry/src/crate-1.0/lib.rs\"'\n\
         t read_back grep -q evil \"$HOME/.cargo/registry/src/crate-1.0/lib.rs\"\n\
         t npm_cache sh -c 'mkdir -p \"$HOME/.npm/_cacache\" && echo x > \"$HOME/.npm/_cacache/entry\"'\n\
         t cargo_config sh -c 'echo x >> \"$HOME/.cargo/config.toml\"'\n"
    );
    let out = idea(
        &w,
        &["sandbox", "--agent", "gem", "--", "sh", "-c", &script],
    );
    let text = stdout(&out);
    for line in [
        "read_cache=ok",
        "download=ok",
        "plant=ok",
        "read_back=ok",
        "npm_cache=ok",
        "cargo_config=refused",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "{line} expected:\n{text}{}",
            stderr(&out)
        );
    }
    // The user's cache is as it was; the agent's writes are in its run dir.
    assert_eq!(
        fs::read_to_string(registry.join("src/crate-1.0/lib.rs")).unwrap(),
        "pub fn good() {}\n"
    );
    assert!(!registry.join("cache/new.crate").exists());
    assert!(!w.home.join(".npm/_cacache/entry").exists());
    let private = Path::new(&own).join("caches");
    assert!(
        private
            .join("cargo-registry/upper/cache/new.crate")
            .exists()
    );
    assert!(private.join("npm/upper/_cacache/entry").exists());
    assert_eq!(
        fs::read_to_string(w.home.join(".cargo/config.toml")).unwrap(),
        "[build]\n"
    );
}

/// `idea sandbox` without an agent (a user trying their plan: `idea sandbox -- npm install`)
/// writes its own private copies too, in `.ideai/run/sandbox/`; the user's caches stay as
/// they were.
#[test]
fn a_command_of_no_agent_writes_the_package_caches_privately() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    project(&w, RULES);
    let script = format!(
        "{T}t npm_cache sh -c 'mkdir -p \"$HOME/.npm/_cacache\" && echo x > \"$HOME/.npm/_cacache/entry\"'\n\
         t state sh -c 'echo x > .ideai/permissions.json'\n"
    );
    let out = idea(&w, &["sandbox", "--", "sh", "-c", &script]);
    let text = stdout(&out);
    for line in ["npm_cache=ok", "state=refused"] {
        assert!(
            text.lines().any(|l| l == line),
            "{line} expected:\n{text}{}",
            stderr(&out)
        );
    }
    assert!(!w.home.join(".npm/_cacache/entry").exists());
    let private = w
        .project
        .join(".ideai/run/sandbox/caches/npm/upper/_cacache/entry");
    assert!(private.exists(), "not in the command's own copy");
}

/// With `$CARGO_HOME` set (rustup sets it, Docker images move it), cargo's downloads go there:
/// that is the cache the agent gets a private copy of.
#[test]
fn a_moved_cargo_home_is_the_cache_written_privately() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    project(&w, RULES);
    let own = run_dir_of(&w, "gem");
    let cargo_home = w.home.join("opt-cargo");
    fs::create_dir_all(cargo_home.join("registry")).unwrap();
    let script = format!(
        "{T}t download sh -c 'mkdir -p \"$CARGO_HOME/registry/cache\" && echo crate > \"$CARGO_HOME/registry/cache/new.crate\"'\n"
    );
    let out = idea_command(
        &w,
        &["sandbox", "--agent", "gem", "--", "sh", "-c", &script],
    )
    .env("CARGO_HOME", &cargo_home)
    .output()
    .unwrap();
    let text = stdout(&out);
    assert!(
        text.lines().any(|l| l == "download=ok"),
        "{text}{}",
        stderr(&out)
    );
    assert!(!cargo_home.join("registry/cache/new.crate").exists());
    let private = Path::new(&own).join("caches/cargo-registry/upper/cache/new.crate");
    assert!(private.exists(), "not in the agent's copy");
}

/// A deny rule naming a file that does not exist yet (`Read(./secret.txt)` before the user
/// makes it) split the project root for Landlock: no agent could create a file at the root,
/// found by the real Claude Code, Codex and Gemini CLI under a plan. It waits for the file to
/// exist (the next launch enforces it, as for a glob that matched nothing); the root stays
/// writable.
#[test]
fn a_denied_path_that_does_not_exist_yet_leaves_the_root_writable() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    project(&w, RULES);
    fs::remove_file(w.project.join("secret.txt")).unwrap();
    let script = format!("{T}t create touch new.txt\nt mkdir mkdir target\n");
    let out = idea(
        &w,
        &["sandbox", "--agent", "gem", "--", "sh", "-c", &script],
    );
    let text = stdout(&out);
    for line in ["create=ok", "mkdir=ok"] {
        assert!(
            text.lines().any(|l| l == line),
            "{line} expected:\n{text}{}",
            stderr(&out)
        );
    }
    // Once it exists, the next launch keeps it out.
    fs::write(w.project.join("secret.txt"), "s3cr3t").unwrap();
    let script = format!("{T}t secret cat secret.txt\nt create touch newer.txt\n");
    let text = stdout(&idea(
        &w,
        &["sandbox", "--agent", "gem", "--", "sh", "-c", &script],
    ));
    assert!(text.lines().any(|l| l == "secret=refused"), "{text}");
    assert!(text.lines().any(|l| l == "create=ok"), "{text}");
}
