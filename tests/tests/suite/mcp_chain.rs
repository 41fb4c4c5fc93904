//! Two agents of different vendors ask each other through IdeA's MCP server, end to end:
//! `idea serve` owns the project; an ask of the Claude agent runs `fake-claude`, which starts
//! the `idea mcp-server` bridge from the `--mcp-config` file IdeA wrote and calls
//! `idea_ask_agent`; the owner runs the Codex agent's turn (`fake-codex`), whose answer comes
//! back as the tool result. And the other way: `fake-codex` starts the bridge from the
//! `-c mcp_servers.idea.*` overrides, with only Codex's default environment plus the `env`
//! IdeA gave it, as the real Codex does.
use crate::process::{Owned, announced_port, idea_bin, start_announcing};
use crate::support::{call_args, fake_cli_profiles};
use crate::wire::Wire;
use serde_json::{Value, json};
use std::process::Command;

const TOKEN: &str = "ffeeddccbbaa99887766554433221100";

struct Project {
    wire: Wire,
    root: std::path::PathBuf,
    state: std::path::PathBuf,
    _serve: Owned,
    _dir: tempfile::TempDir,
}

fn serve_project() -> Project {
    let dir = tempfile::Builder::new()
        .prefix("mcp-chain-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (root, user, home, state, runtime) = (
        base.join("project"),
        base.join("user"),
        base.join("home"),
        base.join("fake-cli"),
        base.join("runtime"),
    );
    for d in [&root, &user, &home, &runtime] {
        std::fs::create_dir_all(d).unwrap();
    }
    // The owner's socket goes there: a bridge started with Codex's bare environment finds it
    // only through the `env` IdeA wrote into the server's configuration.
    std::fs::set_permissions(
        &runtime,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    let profiles = json!({ "profiles": fake_cli_profiles(&base) });
    let profiles = serde_json::to_vec_pretty(&profiles).unwrap();
    std::fs::write(user.join("profiles.json"), profiles).unwrap();
    let init = Command::new(idea_bin())
        .arg("init")
        .arg(&root)
        .env("IDEA_USER_DIR", &user)
        .status()
        .unwrap();
    assert!(init.success());
    let mut serve = Command::new(idea_bin());
    serve
        .arg("serve")
        .arg(&root)
        .args(["--port", "0", "--token", TOKEN])
        .env("IDEA_USER_DIR", &user)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("HOME", &home);
    let (serve, line) = start_announcing(serve, "IdeA serving ");
    let port = announced_port(&line);
    Project {
        wire: Wire::connect(port, TOKEN),
        root,
        state,
        _serve: serve,
        _dir: dir,
    }
}

impl Project {
    fn agent(&mut self, name: &str, profile: &str) -> String {
        let agent = self
            .wire
            .call("createAgent", json!({"name": name, "profileId": profile}));
        agent["agentId"].as_str().unwrap().to_owned()
    }

    fn ask(&mut self, target: &str, message: &str) -> String {
        let answer = self.wire.call(
            "askAgent",
            json!({"target": target, "message": message, "timeoutSecs": 60}),
        );
        answer["text"].as_str().unwrap_or_default().to_owned()
    }

    /// Every start of a fake CLI: `{cli, args, cwd}`.
    fn calls(&self, cli: &str) -> Vec<Value> {
        std::fs::read_to_string(self.state.join("calls.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|c| c["cli"] == cli)
            .collect()
    }
}

#[test]
fn a_claude_agent_and_a_codex_agent_ask_each_other_through_mcp() {
    let mut project = serve_project();
    let lead = project.agent("Lead", "fake-claude");
    let reviewer = project.agent("Reviewer", "fake-codex");

    let answer = project.ask("Lead", "ask Reviewer: check the parser");
    assert_eq!(answer, "Reviewer answered: echo: check the parser");
    let answer = project.ask("Reviewer", "ask Lead: summarise the plan");
    assert_eq!(answer, "Lead answered: echo: summarise the plan");

    // The requests as the owner saw them: the user asked each agent, and each agent asked the
    // other through MCP.
    let requests = project.wire.call("listRequests", json!(null));
    let by_mcp: Vec<(String, String)> = requests
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["source"] == "mcp")
        .map(|r| {
            assert_eq!(r["state"], "done", "{r}");
            (
                r["requester"].as_str().unwrap().to_owned(),
                r["target"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        by_mcp,
        [
            (lead.clone(), reviewer.clone()),
            (reviewer.clone(), lead.clone())
        ]
    );

    // Claude got a config file and IdeA's tools allowed; Codex got its overrides first.
    let claude = call_args(&project.calls("claude")[0]);
    let at = claude.iter().position(|a| a == "--mcp-config").unwrap();
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(&claude[at + 1]).unwrap()).unwrap();
    let server = &config["mcpServers"]["idea"];
    assert_eq!(server["args"][2], project.root.to_str().unwrap());
    assert_eq!(server["args"][4], lead.as_str());
    assert_eq!(claude[at + 2..at + 4], ["--allowedTools", "mcp__idea"]);
    let codex = call_args(&project.calls("codex")[0]);
    assert_eq!(codex[0], "-c");
    assert!(
        codex[1].starts_with("mcp_servers.idea.command="),
        "{codex:?}"
    );
    assert!(codex.contains(&"mcp_servers.idea.default_tools_approval_mode=\"approve\"".to_owned()));
}
