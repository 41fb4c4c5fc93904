//! The real agent CLIs (Claude Code, Codex, Gemini CLI, at the versions pinned in
//! `tests/realcli/package.json`) launched through `idea serve` as a new user would, against the
//! fake model server. Run by `scripts/test.sh`, which installs them (`scripts/real-clis.sh`)
//! and sets `IDEA_REAL_CLI_BIN`; ignored by a plain `cargo test`. When a pinned version
//! changes, this suite is how a maintainer re-checks each profile (docs/real-cli-suite.md).
//!
//! Each CLI, for a user who set it up but never ran it in this project:
//! - reaches its input prompt with no dialog (checked on a screen model of the terminal);
//! - stopped before its first prompt and launched again, reaches it again;
//! - sends the composed convention file to the model (the fake server's request log), with
//!   IdeA's MCP tools among the tools it offers;
//! - stopped after a first exchange and launched again, resumes the same conversation (the
//!   earlier turn is in the next request).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "realcli/permission.rs"]
mod permission;
#[path = "realcli/process.rs"]
mod process;
#[path = "realcli/rig.rs"]
mod rig;
#[path = "realcli/wire.rs"]
mod wire;

use idea_e2e::user_setup;
use permission::{Asking, UserSetting};
use rig::{Cli, Rig};
use serde_json::json;

const CLAUDE: Cli = Cli {
    profile: "claude-code",
    prepare_home: user_setup::claude::prepare_home,
    // The footer under the prompt: "⏵⏵ auto mode on (shift+tab to cycle)".
    ready: "mode on",
    dialogs: &[
        "Quick safety check",
        "Adding a new directory",
        "No, exit",
        "Do you want to use this API key",
        "Unable to connect",
        "Not logged in",
    ],
    resume_failures: &["No conversation found", "already in use"],
    // Claude Code defers MCP tools: the model gets their names only.
    idea_tool: Some("mcp__idea__idea_list_profiles"),
    mcp_in_cells: true,
    history_before_typing: false,
};

const CODEX: Cli = Cli {
    profile: "codex",
    prepare_home: user_setup::codex::prepare_home,
    ready: "Ask Codex to do anything",
    dialogs: &[
        "Trust this folder",
        "Sign in with ChatGPT",
        "Error adding directories",
        "Try new model",
        "Use session directory",
    ],
    resume_failures: &["No saved session found"],
    // Codex 0.171.0 defers MCP tools behind `tool_search` without naming them.
    idea_tool: None,
    mcp_in_cells: true,
    history_before_typing: false,
};

const GEMINI: Cli = Cli {
    profile: "gemini",
    prepare_home: user_setup::gemini::prepare_home,
    ready: "Type your message",
    dialogs: &[
        "Do you trust",
        "How would you like to authenticate",
        "Enter Gemini API Key",
    ],
    resume_failures: &["Error resuming session", "No previous sessions"],
    // Its cells get the file-drop route (the profile's `turnsOnly`); its turns get the server
    // and send whole function declarations.
    idea_tool: Some("List the runtime profiles an agent can run with"),
    mcp_in_cells: false,
    history_before_typing: true,
};

/// One CLI through the whole story of the issue: first launch, stop before the first prompt,
/// relaunch, a first exchange, stop, relaunch and resume.
fn launch_stop_relaunch_and_resume(cli: Cli) {
    let mut rig = Rig::start(cli);
    let marker = format!("CODEWORD-{}", cli.profile.to_uppercase());
    let cell = rig.agent_in_first_cell("Scout", &marker);

    let first = rig.launch(&cell);
    let first_id = first["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&first_id);
    // Stopped before anything was typed: the CLI saved no conversation.
    let exit = rig.stop(&first_id);
    assert_eq!(exit["stopped"], true, "{exit}");

    let second = rig.launch(&cell);
    let second_id = second["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&second_id);
    rig.ask(
        &second_id,
        "first question alpha-one",
        &[&marker, "alpha-one"],
    );
    rig.wait_screen(&second_id, "FAKE-MODEL-REPLY");
    // The CLI started `idea mcp-server` from the configuration IdeA wrote, and the model is
    // offered IdeA's tools. (Asked once the first exchange is done: Claude Code connects its
    // MCP servers while its prompt is already up.)
    if cli.mcp_in_cells {
        rig.wait_bridge_connected(&cell.agent_id);
    }
    if let (true, Some(tool)) = (cli.mcp_in_cells, cli.idea_tool) {
        rig.ask(&second_id, "tools gamma-three", &["gamma-three", tool]);
    }
    let exit = rig.stop(&second_id);
    assert_eq!(exit["stopped"], true, "{exit}");

    let third = rig.launch(&cell);
    let third_id = third["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&third_id);
    assert!(
        third["engineSessionId"].is_string(),
        "the cell knows the conversation: {third}"
    );
    if !second["engineSessionId"].is_null() {
        assert_eq!(third["engineSessionId"], second["engineSessionId"]);
    }
    if cli.history_before_typing {
        rig.wait_screen(&third_id, "FAKE-MODEL-REPLY to: first question alpha-one");
    }
    rig.ask(
        &third_id,
        "second question beta-two",
        &["alpha-one", "beta-two"],
    );
    rig.stop(&third_id);

    // Asked through IdeA (a JSON-mode turn of the same CLI, no cell): the turn continues the
    // user's conversation with the agent, and gets IdeA's MCP server too.
    let answer = rig.wire.call(
        "askAgent",
        json!({"target": cell.agent_id, "message": "asked delta-four", "timeoutSecs": 120}),
    );
    assert!(
        answer["text"]
            .as_str()
            .is_some_and(|t| t.contains("delta-four")),
        "{answer}"
    );
    rig.wait_bridge_connected(&cell.agent_id);
    let mut needles = vec!["delta-four", "beta-two"];
    needles.extend(cli.idea_tool);
    rig.wait_request(&third_id, &needles);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_starts_clean_and_resumes() {
    launch_stop_relaunch_and_resume(CLAUDE);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_starts_clean_and_resumes() {
    launch_stop_relaunch_and_resume(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_starts_clean_and_resumes() {
    launch_stop_relaunch_and_resume(GEMINI);
}

/// With a permissions file the CLI runs under IdeA's kernel sandbox, starts, and answers, in
/// its cell and in a JSON-mode turn.
fn sandboxed_exchange(cli: Cli) {
    let rules = r#"{"permissions": {"allow": ["Bash(git status)", "Read"], "deny": ["Read(./secret.txt)"]}}"#;
    let mut rig = Rig::start_with(cli, Some(rules));
    let marker = format!("CODEWORD-{}", cli.profile.to_uppercase());
    let cell = rig.agent_in_first_cell("Scout", &marker);
    let launched = rig.launch(&cell);
    assert!(launched["sandbox"].is_object(), "not sandboxed: {launched}");
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    rig.ask(
        &id,
        "sandboxed question delta-four",
        &[&marker, "delta-four"],
    );
    rig.wait_screen(&id, "FAKE-MODEL-REPLY");
    rig.stop(&id);
    // Asked through IdeA: a JSON-mode turn of the same CLI runs under the same plan, and
    // answers in the agent's conversation.
    let answer = rig.wire.call(
        "askAgent",
        json!({"target": cell.agent_id, "message": "sandboxed ask echo-six", "timeoutSecs": 120}),
    );
    assert!(
        answer["text"]
            .as_str()
            .is_some_and(|t| t.contains("echo-six")),
        "{}: the sandboxed turn did not answer: {answer}",
        cli.profile
    );
    rig.wait_request(&id, &["echo-six", "delta-four"]);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_runs_sandboxed() {
    sandboxed_exchange(CLAUDE);
}

/// Issue 19: under a plan, the CLI's shell tool creates a file at the project root (outside
/// its cwd, the agent's run dir), builds a crate there with cargo and commits, while IdeA's
/// state, git's hooks and the user's SSH key stay out of its reach. A permission
/// prompt the CLI shows on the way is answered as a user would.
fn sandboxed_tool_writes_the_project_root(cli: Cli) {
    // The whole project is writable only with the namespace step, which IdeA's helper takes
    // (`idea-sandbox-exec`, beside `idea`) where the kernel allows it.
    let idea = process::idea_bin();
    let beside = idea.with_file_name("idea-sandbox-exec");
    let probe = std::process::Command::new(if beside.is_file() { beside } else { idea })
        .args(["sandbox-exec", "--probe"])
        .env_remove("IDEA_SANDBOX_NO_USERNS")
        .output()
        .expect("idea runs");
    if !probe.status.success() {
        eprintln!(
            "SKIPPED: {}: the sandbox helper cannot set up its namespace here ({})",
            cli.profile,
            String::from_utf8_lossy(&probe.stderr).trim()
        );
        return;
    }
    // Shell commands allowed by the rules (Gemini CLI, handed an allow list, denies what is
    // not on it rather than asking): what stops the agent is IdeA's sandbox, not the CLI.
    let rules = r#"{"permissions": {"allow": ["Bash", "Read"], "deny": ["Read(./secret.txt)"]}}"#;
    let mut rig = Rig::start_with(cli, Some(rules));
    if cli.profile == CLAUDE.profile {
        // Claude's auto mode checks actions such as `git commit` on Anthropic's servers, which
        // the fake model server is not: a user in the classic mode, asked each time, instead.
        claude_default_mode(&rig.home);
        rig.cli.ready = "? for shortcuts";
    }
    // A crate to build, and a key of the user's that the agent must not read.
    let root = rig.project.clone();
    std::fs::write(
        root.join("Cargo.toml"),
        // `[workspace]`: the world may lie inside IdeA's own checkout (its `target/`).
        "[package]\nname = \"proj\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    // As rustup's installer leaves it: a login shell (Codex runs its commands in one, and
    // Debian's /etc/profile resets PATH) finds cargo through ~/.profile.
    let cargo_bin = std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).find(|dir| dir.join("cargo").is_file()))
        .expect("cargo on PATH");
    std::fs::write(
        rig.home.join(".profile"),
        format!("export PATH=\"{}:$PATH\"\n", cargo_bin.display()),
    )
    .unwrap();
    let ssh = rig.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "SECRET-KEY-MATERIAL\n").unwrap();
    let cell = rig.agent_in_first_cell("Builder", "CODEWORD-ROOT");
    let launched = rig.launch(&cell);
    assert!(launched["sandbox"].is_object(), "not sandboxed: {launched}");
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    let changelog = root.join("CHANGELOG.md");
    let permissions = root.join(".ideai/permissions.json");
    let rules_before = std::fs::read_to_string(&permissions).unwrap();
    // Asks for `command`; waits until `done`, allowing a prompt of the CLI on the way.
    let run = |rig: &mut Rig, command: String, done: &dyn Fn(&mut Rig) -> bool| {
        rig.ask(&id, &format!("please run: {command}"), &[command.as_str()]);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
        while !done(rig) && std::time::Instant::now() < deadline {
            let me = rig.wire.call("listSessions", serde_json::json!(null));
            let state = me
                .as_array()
                .and_then(|all| all.iter().find(|s| s["sessionId"] == id.as_str()))
                .map(|s| s["state"].clone());
            if state.as_ref().is_some_and(|s| s == "needsYou") {
                // The CLI's own prompt for its shell tool: allowed, as its user would.
                rig.wire.call(
                    "writeTerminal",
                    serde_json::json!({"sessionId": id, "data": "\r"}),
                );
            }
            rig.wire.pump(std::time::Duration::from_millis(500));
        }
    };
    run(&mut rig, format!("touch {}", changelog.display()), &|_| {
        changelog.exists()
    });
    assert!(
        changelog.exists(),
        "{}: no CHANGELOG.md at the root; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    // `cargo build` in the project: `target/` and `Cargo.lock` at the root, cargo's own
    // caches (read-only, or the agent's private copy) good enough for a crate without
    // dependencies.
    let built = root.join("target/debug/proj");
    run(
        &mut rig,
        format!(
            "cargo build -q --manifest-path {}",
            root.join("Cargo.toml").display()
        ),
        &|_| built.exists(),
    );
    assert!(
        built.exists(),
        "{}: cargo build made nothing; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    // And commits it: git's objects, refs and index are writable under the plan.
    let committed = |_: &mut Rig| {
        std::process::Command::new("git")
            .args(["log", "--format=%s", "-1"])
            .current_dir(&root)
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "changelog")
    };
    run(
        &mut rig,
        format!(
            "git -C {r} add CHANGELOG.md && git -C {r} -c user.name=Agent -c user.email=agent@example.com commit -qm changelog",
            r = root.display()
        ),
        &committed,
    );
    assert!(
        committed(&mut rig),
        "{}: the commit was not made; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    // The tool's error reaches the model: the attempt was made, and the mount refused it.
    let refused = |rig: &mut Rig| {
        rig.find_request(
            &["permissions.json", "Read-only file system"],
            std::time::Duration::ZERO,
        )
        .is_some()
    };
    run(
        &mut rig,
        format!("echo '{{}}' > {}", permissions.display()),
        &refused,
    );
    assert!(
        refused(&mut rig),
        "{}: the refusal never reached the model; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    assert_eq!(
        std::fs::read_to_string(&permissions).unwrap(),
        rules_before,
        "{}: the agent changed IdeA's permissions",
        cli.profile
    );
    // A git hook would run outside the sandbox at the user's next commit: refused.
    let hook = root.join(".git/hooks/pre-commit");
    let hook_refused = |rig: &mut Rig| {
        rig.find_request(&["HOOK-REFUSED"], std::time::Duration::ZERO)
            .is_some()
    };
    run(
        &mut rig,
        format!(
            "echo 'touch /tmp/pwned' > {} || echo HOOK-REF''USED",
            hook.display()
        ),
        &hook_refused,
    );
    assert!(
        hook_refused(&mut rig) && !hook.exists(),
        "{}: the agent planted a git hook; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    // The user's SSH key: the tool runs, and reads nothing (the marker is split by quotes in
    // the ask, so only the shell's output matches it).
    let unreadable = |rig: &mut Rig| {
        rig.find_request(&["KEY-UNREADABLE"], std::time::Duration::ZERO)
            .is_some()
    };
    run(
        &mut rig,
        format!(
            "cat {} || echo KEY-UN''READABLE",
            ssh.join("id_ed25519").display()
        ),
        &unreadable,
    );
    assert!(
        unreadable(&mut rig),
        "{}: the key's refusal never reached the model; screen:\n{}",
        cli.profile,
        rig.wire.screen(&id)
    );
    assert!(
        rig.find_request(&["SECRET-KEY-MATERIAL"], std::time::Duration::ZERO)
            .is_none(),
        "{}: the agent read the user's SSH key",
        cli.profile
    );
    rig.stop(&id);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_writes_the_project_root_under_a_plan() {
    sandboxed_tool_writes_the_project_root(CLAUDE);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_writes_the_project_root_under_a_plan() {
    sandboxed_tool_writes_the_project_root(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_writes_the_project_root_under_a_plan() {
    sandboxed_tool_writes_the_project_root(GEMINI);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_runs_sandboxed() {
    sandboxed_exchange(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_runs_sandboxed() {
    sandboxed_exchange(GEMINI);
}

/// A permission prompt of the CLI's shell tool, as IdeA launches it.
fn permission_prompt(cli: Cli, asking: Asking) {
    let mut rig = Rig::start(cli);
    permission::prompt_answer_and_idle(&mut rig, asking);
}

/// A user who chose Claude Code's classic permission mode: `permissions.defaultMode` in
/// `~/.claude/settings.json`, and its offer to switch to auto mode ("Make auto mode your
/// default permission mode?", asked at start to such a user) declined once
/// (`hasSeenAutoDefaultNudge` in `~/.claude.json`).
fn claude_default_mode(home: &std::path::Path) {
    let dir = home.join(".claude");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = json!({"permissions": {"defaultMode": "default"}});
    std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
    let state = home.join(".claude.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    config["hasSeenAutoDefaultNudge"] = json!(true);
    std::fs::write(&state, config.to_string()).unwrap();
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_permission_prompt_needs_you() {
    permission_prompt(
        CLAUDE,
        Asking {
            package: "@anthropic-ai/claude-code",
            fixture: "claude",
            ask: "please run: touch proof.txt",
            allow: "\r",
            quote: "Do you want to proceed?\n1. Yes\n2. No",
            // Claude Code 2.1.332 starts in auto mode, which runs `touch proof.txt` in its cwd
            // without asking (and without calling its classifier): a user who keeps the
            // classic mode sets `permissions.defaultMode` to "default" in their settings.
            user_setting: Some(UserSetting {
                apply: claude_default_mode,
                ready: "? for shortcuts",
            }),
            quiet_turn: None,
        },
    );
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_permission_prompt_needs_you() {
    permission_prompt(
        CODEX,
        Asking {
            package: "@openai/codex",
            fixture: "codex",
            // Codex 0.171.0 in a trusted project (as IdeA launches it) runs with approval
            // policy `on-request` and its `workspace-write` sandbox: `touch` in its cwd runs
            // in the sandbox without asking. It asks when the model wants the command run
            // outside the sandbox (`exec_command`'s `sandbox_permissions: "require_escalated"`).
            ask: "please run unsandboxed: touch proof.txt",
            allow: "\r",
            quote: "Would you like to run the following command?\n1. Yes, proceed (y)\n2. No",
            user_setting: None,
            // In its sandbox, without a prompt: 6 s without output from the command.
            quiet_turn: Some("please run: sleep 6"),
        },
    );
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_permission_prompt_needs_you() {
    permission_prompt(
        GEMINI,
        Asking {
            package: "@google/gemini-cli",
            fixture: "gemini",
            ask: "please run: touch proof.txt",
            allow: "\r",
            quote: "Allow execution of: 'touch'?\n1. Allow once\n2. No",
            user_setting: None,
            quiet_turn: None,
        },
    );
}

/// Issue 20: real Codex in a cell hits its usage limit (the fake model answers as OpenAI does
/// for a plan past its limit, with the reset a few seconds ahead); the cell goes
/// `usageLimited` with that reset, and after it IdeA continues the agent exactly once: the
/// next model request carries the nudge and the earlier turn. (Claude Code with an API key
/// never reports a usage limit, only "API Error: Request rejected (429)", which is not one;
/// its limits are a subscription's, which an offline test cannot sign in to.)
#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_continues_once_after_its_usage_limit_resets() {
    let mut rig = Rig::start(CODEX);
    let cell = rig.agent_in_first_cell("Scout", "CODEWORD-CODEX");
    let launched = rig.launch(&cell);
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    rig.ask(
        &id,
        "task epsilon-five, then hit usage limit in 5s",
        &["epsilon-five"],
    );
    rig.wait_screen(&id, "usage limit");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let limited = loop {
        let sessions = rig.wire.call("listSessions", json!({}));
        let me = sessions
            .as_array()
            .and_then(|all| all.iter().find(|s| s["sessionId"] == id.as_str()))
            .cloned()
            .unwrap_or_default();
        if me["state"] == "usageLimited" {
            break me;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never usageLimited: {me}\n{}",
            rig.wire.screen(&id)
        );
        rig.wire.pump(std::time::Duration::from_millis(200));
    };
    assert!(
        limited["usageLimit"]["reset"]["epoch"].is_number(),
        "no reset time: {limited}"
    );
    // The reset is a minute-precise clock time plus IdeA's margin: at most about 2 minutes.
    let nudged = rig.find_request(
        &["Your usage limit has reset", "epsilon-five"],
        std::time::Duration::from_secs(150),
    );
    assert!(
        nudged.is_some(),
        "not continued after the reset:\n{}",
        rig.wire.screen(&id)
    );
    rig.wait_screen(&id, "FAKE-MODEL-REPLY to: Your usage limit has reset");
    // Once only.
    rig.wire.pump(std::time::Duration::from_secs(5));
    let log = std::fs::read_to_string(&rig.model_log).unwrap_or_default();
    // Requests whose last user message is the nudge (later ones carry it in their history).
    let nudges = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|request| {
            let input = request["body"]["input"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            input
                .iter()
                .rev()
                .find(|item| item["role"] == "user")
                .is_some_and(|item| item.to_string().contains("Your usage limit has reset"))
        })
        .count();
    assert_eq!(nudges, 1, "continued {nudges} times");
    rig.stop(&id);
}

/// An agent on its own branch (issue 21): the CLI launched in the agent's worktree (outside the
/// project) reaches its prompt with no trust dialog for that folder, is told the worktree is
/// its project root, works there, and resumes its conversation after a stop.
fn works_on_its_own_branch(cli: Cli) {
    let mut rig = Rig::start(cli);
    let git = |args: &[&str]| {
        let ran = std::process::Command::new("git")
            .arg("-C")
            .arg(&rig.project)
            .args(args)
            .output()
            .unwrap();
        assert!(ran.status.success(), "git {args:?}: {ran:?}");
    };
    std::fs::write(rig.project.join("README.md"), "# proj\n").unwrap();
    git(&["add", "README.md"]);
    git(&[
        "-c",
        "user.name=User",
        "-c",
        "user.email=user@example.com",
        "commit",
        "-qm",
        "first",
    ]);
    let marker = format!("BRANCHWORD-{}", cli.profile.to_uppercase());
    let cell = rig.agent_in_first_cell("Brancher", &marker);
    let made = rig
        .wire
        .call("createWorktree", json!({"agentId": cell.agent_id}));
    let worktree = made["path"].as_str().expect("path").to_owned();
    assert!(
        !worktree.starts_with(rig.project.to_str().unwrap()),
        "{made}"
    );
    assert!(
        worktree.starts_with(rig.home.to_str().unwrap()),
        "in the user's data folder: {made}"
    );

    let first = rig.launch(&cell);
    let first_id = first["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&first_id);
    // The convention file names the worktree as the project root.
    rig.ask(
        &first_id,
        "first question on-branch-one",
        &[&marker, &worktree],
    );
    rig.wait_screen(&first_id, "FAKE-MODEL-REPLY");
    rig.stop(&first_id);

    let second = rig.launch(&cell);
    let second_id = second["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&second_id);
    rig.ask(
        &second_id,
        "second question on-branch-two",
        &["on-branch-one", "on-branch-two"],
    );
    rig.stop(&second_id);
    // The user's checkout is untouched, and git knows the agent's worktree and branch.
    let list = std::process::Command::new("git")
        .arg("-C")
        .arg(&rig.project)
        .args(["worktree", "list", "--porcelain"])
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&list.stdout);
    assert!(list.contains("branch refs/heads/idea/brancher"), "{list}");
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_works_on_its_own_branch() {
    works_on_its_own_branch(CLAUDE);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_works_on_its_own_branch() {
    works_on_its_own_branch(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_works_on_its_own_branch() {
    works_on_its_own_branch(GEMINI);
}

/// Issue 22: a skill and a memory note written once reach the real CLI natively. The skill
/// IdeA placed in the run dir (`.claude/skills` or `.agents/skills`) is in the model request,
/// as the CLI's own skill listing; one the agent was not given is not; the note is recalled by
/// the convention file. (The project's own `.claude/skills` and `.agents/skills` would reach
/// Claude and Codex by themselves; this project has none.)
fn knows_the_projects_skills_and_memory(cli: Cli) {
    let mut rig = Rig::start(cli);
    let upper = cli.profile.to_uppercase();
    let skill_word = format!("SKILLWORD-{upper}");
    let memory_word = format!("MEMORYWORD-{upper}");
    // Only in the skill's body, which the convention file leaves out for these CLIs: it reaches
    // the model only when the CLI itself loads the skill.
    let body_word = format!("BODYWORD-{upper}");
    rig.wire.call(
        "createSkill",
        json!({"name": "review-checklist",
               "description": format!("Use when reviewing a change: {skill_word}"),
               "body": format!("Check the tests first. {body_word}")}),
    );
    rig.wire.call(
        "createSkill",
        json!({"name": "not-given", "description": "UNASSIGNEDWORD: nobody has this one"}),
    );
    rig.wire.call(
        "writeMemory",
        json!({"title": "We use tabs", "hook": format!("{memory_word}: when indenting"),
               "type": "project", "body": "Tabs, width 4."}),
    );
    let marker = format!("KEEPERWORD-{upper}");
    let cell = rig.agent_in_first_cell("Keeper", &marker);
    rig.wire.call(
        "assignSkill",
        json!({"agent": cell.agent_id, "skill": "review-checklist"}),
    );
    let launched = rig.launch(&cell);
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    let request = rig.ask(
        &id,
        "first question kappa-one",
        &[&marker, &skill_word, &memory_word, "kappa-one"],
    );
    assert!(
        !request.contains("UNASSIGNEDWORD"),
        "{}: a skill the agent was not given reached the model",
        cli.profile
    );
    assert!(
        !request.contains(&body_word),
        "the body is loaded on demand only"
    );
    // Invoked the CLI's own way, its body reaches the model: the CLI loaded it natively.
    // Gemini CLI loads skills in the background and counts them in its footer: typed before
    // that (seen under load), `/review-checklist` is sent as plain text, as to a user.
    if cli.profile == GEMINI.profile {
        rig.wait_screen(&id, "1 skill");
    }
    let invoke = if cli.profile == CODEX.profile {
        "$"
    } else {
        "/"
    };
    rig.ask(
        &id,
        &format!("{invoke}review-checklist lambda-two"),
        &[&body_word, "lambda-two"],
    );
    rig.stop(&id);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_knows_the_projects_skills_and_memory() {
    knows_the_projects_skills_and_memory(CLAUDE);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_knows_the_projects_skills_and_memory() {
    knows_the_projects_skills_and_memory(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_knows_the_projects_skills_and_memory() {
    knows_the_projects_skills_and_memory(GEMINI);
}

/// Issue 22, "done means": a project tool written once is called by the real CLI through
/// IdeA's MCP server (the user allows the call in IdeA: no rule names it, so IdeA asks), and a
/// memory note the agent keeps with `idea_memory_write` is recalled at its next launch.
fn calls_a_project_tool_and_keeps_a_note(cli: Cli) {
    let mut rig = Rig::start(cli);
    let upper = cli.profile.to_uppercase();
    let tool = rig.project.join(".ideai/tools/run_tests");
    std::fs::create_dir_all(&tool).unwrap();
    std::fs::write(
        tool.join("TOOL.json"),
        r#"{"description": "Runs the project's tests and prints the outcome",
            "command": {"parameters": [{"name": "filter", "type": "string", "default": "all"}],
                        "run": "sh ./run.sh {{filter}}"}}"#,
    )
    .unwrap();
    std::fs::write(tool.join("run.sh"), "echo \"TESTS-PASSED-$1\"\n").unwrap();
    let cell = rig.agent_in_first_cell("Keeper", &format!("TOOLWORD-{upper}"));

    // Asked through IdeA: the CLI's turn calls the tool, which waits for the user's answer.
    let mut asking = rig.second_wire();
    let target = cell.agent_id.clone();
    let ask = std::thread::spawn(move || {
        asking.call(
            "askAgent",
            json!({"target": target, "timeoutSecs": 180,
                   "message": "please call tool: run_tests {\"filter\": \"fast\"}"}),
        )
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(150);
    let approval = loop {
        let tools = rig.wire.call("listTools", json!(null));
        if let Some(first) = tools["pending"].get(0) {
            break first.clone();
        }
        assert!(
            std::time::Instant::now() < deadline && !ask.is_finished(),
            "{}: the tool call never reached IdeA",
            cli.profile
        );
        rig.wire.pump(std::time::Duration::from_millis(200));
    };
    assert_eq!(approval["tool"], "run_tests", "{approval}");
    assert_eq!(approval["arguments"]["filter"], "fast", "{approval}");
    rig.wire.call(
        "answerToolApproval",
        json!({"approvalId": approval["approvalId"], "allow": true}),
    );
    let answer = ask.join().expect("the ask");
    assert!(
        answer["text"]
            .as_str()
            .is_some_and(|t| t.contains("TESTS-PASSED-fast")),
        "{}: {answer}",
        cli.profile
    );

    // The agent keeps a note itself; its next launch recalls it.
    let note_word = format!("NOTEWORD-{upper}");
    let write = json!({"title": "Tests run fast", "hook": format!("{note_word}: before pushing"),
                       "type": "project", "body": "Run run_tests with filter fast."});
    let answer = rig.wire.call(
        "askAgent",
        json!({"target": cell.agent_id, "timeoutSecs": 180,
               "message": format!("please call tool: idea_memory_write {write}")}),
    );
    assert!(
        answer["text"]
            .as_str()
            .is_some_and(|t| t.contains("FAKE-MODEL-TOOL-DONE")),
        "{}: {answer}",
        cli.profile
    );
    let note = std::fs::read_to_string(rig.project.join(".ideai/memory/tests-run-fast.md"))
        .expect("the note was kept");
    assert!(note.contains("Keeper"), "the writer is recorded: {note}");
    let launched = rig.launch(&cell);
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    rig.ask(&id, "hello mu-one", &[&note_word, "mu-one"]);
    rig.stop(&id);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn claude_code_calls_a_project_tool_and_keeps_a_note() {
    calls_a_project_tool_and_keeps_a_note(CLAUDE);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn codex_calls_a_project_tool_and_keeps_a_note() {
    calls_a_project_tool_and_keeps_a_note(CODEX);
}

#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_calls_a_project_tool_and_keeps_a_note() {
    calls_a_project_tool_and_keeps_a_note(GEMINI);
}

/// Issue 22: Gemini CLI asks the user's consent each time the model activates a skill that is
/// not built in. That dialog is the CLI's own: the cell shows "needs you" and the user answers
/// in the terminal, after which the skill's body reaches the model.
#[test]
#[ignore = "needs the real CLIs: scripts/test.sh installs them and runs this suite"]
fn gemini_cli_skill_consent_needs_you() {
    let mut rig = Rig::start(GEMINI);
    rig.wire.call(
        "createSkill",
        json!({"name": "review-checklist", "description": "Use when reviewing a change",
               "body": "Check the tests first. CONSENTWORD"}),
    );
    let cell = rig.agent_in_first_cell("Consenter", "CONSENTMARKER");
    rig.wire.call(
        "assignSkill",
        json!({"agent": cell.agent_id, "skill": "review-checklist"}),
    );
    let launched = rig.launch(&cell);
    let id = launched["sessionId"].as_str().unwrap().to_owned();
    rig.wait_ready(&id);
    rig.say(
        &id,
        "please call tool: activate_skill {\"name\": \"review-checklist\"}",
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let sessions = rig.wire.call("listSessions", json!(null));
        let state = sessions
            .as_array()
            .and_then(|all| all.iter().find(|s| s["sessionId"] == id.as_str()))
            .map(|s| s["state"].clone());
        if state.as_ref().is_some_and(|s| s == "needsYou") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no \"needs you\" for the consent:\n{}",
            rig.wire.screen(&id)
        );
        rig.wire.pump(std::time::Duration::from_millis(200));
    }
    assert!(
        rig.wire.screen(&id).contains("review-checklist"),
        "{}",
        rig.wire.screen(&id)
    );
    // Allowed once, as its user would: the skill's body goes to the model.
    rig.wire
        .call("writeTerminal", json!({"sessionId": id, "data": "\r"}));
    rig.wait_request(&id, &["CONSENTWORD"]);
    rig.stop(&id);
}
