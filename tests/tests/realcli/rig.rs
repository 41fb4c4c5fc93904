//! One real-CLI test world: the fake model server, a throwaway HOME prepared as a user who set
//! the CLI up, a git project, and `idea serve` on it driven over its WebSocket the way the UI
//! drives it. Everything is killed when the rig is dropped.

use super::process::{Owned, announced_port, idea_bin, start_announcing};
use super::wire::Wire;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub const ROWS: u16 = 40;
pub const COLS: u16 = 120;
const TOKEN: &str = "00112233445566778899aabbccddeeff";

/// How one CLI is recognised on screen.
#[derive(Debug, Clone, Copy)]
pub struct Cli {
    pub profile: &'static str,
    /// `user_setup::<cli>::prepare_home`.
    pub prepare_home: fn(&Path, &str) -> Vec<(String, String)>,
    /// Text on screen once the input prompt is ready.
    pub ready: &'static str,
    /// Text of dialogs that must never appear (trust, resume failures, first-run screens).
    pub dialogs: &'static [&'static str],
    /// Text the CLI prints when it cannot reopen a conversation.
    pub resume_failures: &'static [&'static str],
    /// Text only IdeA's MCP tools put in a model request (a tool's name or description; not
    /// in the convention file); `None` where the model sees no trace of them (see each CLI).
    pub idea_tool: Option<&'static str>,
    /// Whether a cell of this CLI gets IdeA's MCP server (its bridge then connects).
    pub mcp_in_cells: bool,
    /// A resumed conversation reaches the model only once the CLI has drawn its history:
    /// typed earlier, the next request goes without it (Gemini CLI, seen under load).
    pub history_before_typing: bool,
}

/// The text of every file in `dir`.
fn listing_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect()
}

/// The folder holding the real CLIs (`scripts/real-clis.sh` prints it).
pub fn real_cli_bin() -> PathBuf {
    let dir = std::env::var_os("IDEA_REAL_CLI_BIN")
        .map(PathBuf::from)
        .expect("IDEA_REAL_CLI_BIN: run this suite through scripts/test.sh (or set it to the folder printed by scripts/real-clis.sh)");
    assert!(
        dir.is_dir(),
        "IDEA_REAL_CLI_BIN={} is not a folder",
        dir.display()
    );
    dir
}

pub struct Rig {
    pub cli: Cli,
    /// The throwaway HOME the CLI runs with.
    pub home: PathBuf,
    /// The project `idea serve` serves.
    pub project: PathBuf,
    /// IdeA's user dir (its logs are in `logs/`).
    user: PathBuf,
    pub model_log: PathBuf,
    pub wire: Wire,
    /// `idea serve`'s port, for a second client.
    port: u16,
    // Dropped last: the server first (it stops the CLIs), then the model, then the files.
    _serve: Owned,
    _model: Owned,
    _dir: tempfile::TempDir,
}

impl Rig {
    pub fn start(cli: Cli) -> Self {
        Self::start_with(cli, None)
    }

    /// As [`Rig::start`], with `permissions` as the project's `.ideai/permissions.json` (its
    /// agents then run under the kernel sandbox).
    pub fn start_with(cli: Cli, permissions: Option<&str>) -> Self {
        let bin = real_cli_bin();
        let dir = tempfile::Builder::new()
            .prefix("realcli-")
            .tempdir_in(world_base())
            .expect("tempdir");
        // IDEA_REALCLI_KEEP=1 keeps the rig's folder (HOME, project, logs, model requests) to
        // look into after a failure.
        let mut dir = dir;
        if std::env::var_os("IDEA_REALCLI_KEEP").is_some() {
            dir.disable_cleanup(true);
            eprintln!("realcli: keeping {}", dir.path().display());
        }
        let root = dir.path().canonicalize().expect("canonical tempdir");
        let (home, project, user) = (
            root.join("home"),
            root.join("project"),
            root.join("ideai-user"),
        );
        for d in [&home, &project, &user] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let model_log = root.join("model-requests.jsonl");
        let mut model = Command::new(env!("CARGO_BIN_EXE_fake-model"));
        model.args(["--port", "0", "--log"]).arg(&model_log);
        let (model, line) = start_announcing(model, "fake-model listening on ");
        let base_url = line
            .trim_start_matches("fake-model listening on ")
            .trim()
            .to_owned();
        let env = (cli.prepare_home)(&home, &base_url);
        // A git repository, as most projects are (Codex asks about trust only inside one).
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .status()
            .expect("git");
        assert!(git.success());
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut init = Command::new(idea_bin());
        init.arg("init").arg(&project).env("IDEA_USER_DIR", &user);
        assert!(init.status().expect("idea init").success());
        if let Some(rules) = permissions {
            std::fs::write(project.join(".ideai/permissions.json"), rules).expect("rules");
        }
        let mut serve = Command::new(idea_bin());
        serve
            .arg("serve")
            .arg(&project)
            .args(["--port", "0", "--token", TOKEN])
            .env("IDEA_USER_DIR", &user)
            .env("PATH", path)
            .env("SHELL", "/bin/sh")
            // IdeA is often started from a shell that says CI (CI runners, dev containers);
            // Gemini CLI then turns headless unless IdeA keeps these from its cells.
            .env("CI", "true")
            .env("GITHUB_ACTIONS", "true")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .env_remove("GEMINI_API_KEY")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .envs(toolchain_env())
            .envs(env);
        let (serve, line) = start_announcing(serve, "IdeA serving ");
        let port = announced_port(&line);
        let wire = Wire::connect(port, TOKEN);
        Self {
            cli,
            home,
            project,
            user,
            model_log,
            wire,
            port,
            _serve: serve,
            _model: model,
            _dir: dir,
        }
    }

    /// A second client of `idea serve`, as another browser tab would be (to wait on a long
    /// call while this one answers what it asks for).
    pub fn second_wire(&self) -> Wire {
        Wire::connect(self.port, TOKEN)
    }

    /// Creates an agent whose persona carries `marker`, in the first cell of the active layout.
    pub fn agent_in_first_cell(&mut self, name: &str, marker: &str) -> Cell {
        let agent = self.wire.call(
            "createAgent",
            json!({"name": name, "profileId": self.cli.profile}),
        );
        let agent_id = agent["agentId"].as_str().expect("agentId").to_owned();
        self.wire.call(
            "updateAgentContext",
            json!({"agentId": agent_id, "content": format!("# {name}\n\nAlways remember the code word {marker}.\n")}),
        );
        let layouts = self.wire.call("getLayouts", json!({}));
        let layout_id = layouts["active"].as_str().expect("active").to_owned();
        let tree = &layouts["layouts"][0]["tree"];
        let node_id = first_leaf(tree).expect("a leaf");
        Cell {
            agent_id,
            layout_id,
            node_id,
        }
    }

    /// Launches the cell's agent and attaches to its terminal; returns the session.
    pub fn launch(&mut self, cell: &Cell) -> Value {
        let info = self.wire.call(
            "launchAgent",
            json!({"layoutId": cell.layout_id, "nodeId": cell.node_id, "agentId": cell.agent_id, "rows": ROWS, "cols": COLS}),
        );
        let session = info["sessionId"].as_str().expect("sessionId").to_owned();
        self.wire.attach(&session, ROWS, COLS);
        info
    }

    /// Waits for the input prompt; fails at once on any dialog or resume failure.
    pub fn wait_ready(&mut self, session: &str) {
        let cli = self.cli;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.wire.screen(session);
            for bad in cli.dialogs.iter().chain(cli.resume_failures) {
                assert!(
                    !screen.contains(bad),
                    "{}: \"{bad}\" on screen:\n{screen}",
                    cli.profile
                );
            }
            if screen.contains(cli.ready) {
                return;
            }
            if let Some(exit) = self.wire.exit_of(session) {
                panic!(
                    "{} exited ({exit}) before its prompt:\n{screen}",
                    cli.profile
                );
            }
            assert!(
                Instant::now() < deadline,
                "{}: no prompt (\"{}\") within 60 s:\n{screen}",
                cli.profile,
                cli.ready
            );
            self.wire.pump(Duration::from_millis(100));
        }
    }

    /// Types `text` and submits it.
    pub fn say(&mut self, session: &str, text: &str) {
        self.wire
            .call("writeTerminal", json!({"sessionId": session, "data": text}));
        // The TUIs take a paste-like burst and the Enter apart more reliably.
        self.wire.pump(Duration::from_millis(300));
        self.wire
            .call("writeTerminal", json!({"sessionId": session, "data": "\r"}));
    }

    /// Waits until IdeA's log shows the `idea mcp-server` bridge of agent `agent_id` connected
    /// to the owner (the CLI started it from the configuration IdeA wrote).
    pub fn wait_bridge_connected(&self, agent_id: &str) {
        let needle = format!("mcp-server: connected to the owner requester=\"{agent_id}\"");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let logs = listing_files(&self.user.join("logs"));
            if logs.iter().any(|text| text.contains(&needle)) {
                return;
            }
            if Instant::now() >= deadline {
                // What the bridges did say, to tell "never started" from "could not connect".
                let said: Vec<&str> = logs
                    .iter()
                    .flat_map(|text| text.lines())
                    .filter(|line| line.contains("mcp-server") || line.contains("mcp_server"))
                    .collect();
                panic!(
                    "{}: no `idea mcp-server` of agent {agent_id} connected within 30 s; the \
                     bridges' log lines:\n{}",
                    self.cli.profile,
                    said.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Types `text`, submits it, and waits for the model request that carries every one of
    /// `needles`. A TUI still settling after a resume may drop the first Enter, or the keys
    /// themselves: while the request has not come, the Enter is sent again if the text is on
    /// screen and the text typed again if it is not, at most three times.
    pub fn ask(&mut self, session: &str, text: &str, needles: &[&str]) -> String {
        self.say(session, text);
        for _ in 0..3 {
            if let Some(line) = self.find_request(needles, Duration::from_secs(5)) {
                return line;
            }
            if self.wire.screen(session).contains(text) {
                // Typed, and the Enter dropped: send it again.
                self.wire
                    .call("writeTerminal", json!({"sessionId": session, "data": "\r"}));
            } else {
                // Not on screen at all: a TUI that had drawn its prompt but did not read its
                // input yet (Gemini CLI under load, just after a resume) lost the keys. Type
                // them again, as a user who sees an empty prompt would.
                self.say(session, text);
            }
        }
        self.wait_request(session, needles)
    }

    /// Waits for a model request whose body contains every one of `needles`.
    pub fn wait_request(&mut self, session: &str, needles: &[&str]) -> String {
        if let Some(line) = self.find_request(needles, Duration::from_secs(60)) {
            return line;
        }
        // Requests carry whole system prompts: show each one's path and which needles it has.
        let log = std::fs::read_to_string(&self.model_log).unwrap_or_default();
        let summary: Vec<String> = log
            .lines()
            .map(|l| {
                let path = serde_json::from_str::<Value>(l).map(|v| v["path"].to_string());
                let has: Vec<&&str> = needles.iter().filter(|n| l.contains(**n)).collect();
                format!("{} (has {has:?})", path.unwrap_or_default())
            })
            .collect();
        panic!(
            "{}: no model request with {needles:?} within 60 s; requests:\n{}\nscreen:\n{}\nhome:\n{}",
            self.cli.profile,
            summary.join("\n"),
            self.wire.screen(session),
            listing(&self.home)
        );
    }

    pub fn find_request(&mut self, needles: &[&str], wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            let log = std::fs::read_to_string(&self.model_log).unwrap_or_default();
            if let Some(line) = log.lines().find(|l| needles.iter().all(|n| l.contains(n))) {
                return Some(line.to_owned());
            }
            if Instant::now() > deadline {
                return None;
            }
            self.wire.pump(Duration::from_millis(100));
        }
    }

    /// Waits until `text` is on the session's screen.
    pub fn wait_screen(&mut self, session: &str, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.wire.screen(session).contains(text) {
            assert!(
                Instant::now() < deadline,
                "{}: \"{text}\" not on screen within 60 s:\n{}",
                self.cli.profile,
                self.wire.screen(session)
            );
            self.wire.pump(Duration::from_millis(100));
        }
    }

    /// Stops the session as the Stop button does, and waits for its exit.
    pub fn stop(&mut self, session: &str) -> Value {
        self.wire.call("stopSession", json!({"sessionId": session}));
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(exit) = self.wire.exit_of(session) {
                return exit;
            }
            assert!(
                Instant::now() < deadline,
                "{}: no exit after Stop",
                self.cli.profile
            );
            self.wire.pump(Duration::from_millis(100));
        }
    }
}

/// Where an agent runs.
#[derive(Debug, Clone)]
pub struct Cell {
    pub agent_id: String,
    pub layout_id: String,
    pub node_id: String,
}

fn first_leaf(node: &Value) -> Option<String> {
    if node["type"] == "leaf" {
        return node["id"].as_str().map(str::to_owned);
    }
    node["children"].as_array()?.iter().find_map(first_leaf)
}

/// The machine's Rust toolchain, found through the real HOME, for tools an agent runs under the
/// throwaway one (`cargo build` in the sandbox tests).
fn toolchain_env() -> Vec<(&'static str, std::path::PathBuf)> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    [("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")]
        .into_iter()
        .filter_map(|(var, dir)| {
            let set = std::env::var_os(var).map(std::path::PathBuf::from);
            let found = set.or_else(|| home.as_ref().map(|h| h.join(dir)));
            found.filter(|d| d.is_dir()).map(|d| (var, d))
        })
        .collect()
}

/// The CLI's saved state under the throwaway HOME (session files and their first lines), for
/// failure messages.
fn listing(home: &Path) -> String {
    let mut out = String::new();
    let mut stack = vec![home.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let first: String = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(200)
                    .collect();
                out.push_str(&format!(
                    "{} ({} lines): {first}\n",
                    path.display(),
                    text.lines().count()
                ));
            }
        }
    }
    out
}

/// Where the rigs' folders go: Cargo's test temp folder, unless it lies in a temp dir (a clone
/// under `/tmp`), as the real CLIs treat a world there apart: Codex refuses to set up its
/// helpers when `CODEX_HOME` is in the temp dir, and Gemini CLI's JSON mode ran its turns
/// without the MCP server IdeA configured (every run from a clone under `/tmp` failed so).
/// Then `~/.cache/idea-test-worlds`.
fn world_base() -> std::path::PathBuf {
    let target = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let canonical =
        |path: &std::path::Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let temp_dirs = [
        std::env::temp_dir(),
        "/tmp".into(),
        "/var/tmp".into(),
        "/dev/shm".into(),
    ];
    let target_real = canonical(&target);
    if !temp_dirs
        .iter()
        .any(|temp| target_real.starts_with(canonical(temp)))
    {
        return target;
    }
    let home = std::env::var_os("HOME").map_or_else(|| "/root".into(), std::path::PathBuf::from);
    let base = home.join(".cache").join("idea-test-worlds");
    std::fs::create_dir_all(&base).expect("the test worlds' folder");
    base
}
