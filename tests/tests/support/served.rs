//! A project owned by a real `idea serve` (the `idea` next to this crate's binaries), with the
//! fake agent and fake CLI profiles of [`super::write_profiles`], driven over its WebSocket.

use crate::process::{Owned, announced_port, idea_bin, start_announcing};
use crate::wire::Wire;
use serde_json::{Value, json};
use std::process::Command;

const TOKEN: &str = "ffeeddccbbaa99887766554433221100";

pub struct Project {
    pub wire: Wire,
    pub root: std::path::PathBuf,
    /// The fake CLIs' state folder (`calls.jsonl`).
    pub state: std::path::PathBuf,
    _serve: Owned,
    _dir: tempfile::TempDir,
}

/// A fresh project served by `idea serve` (its own user dir, HOME and runtime dir).
pub fn serve_project() -> Project {
    let dir = tempfile::Builder::new()
        .prefix("served-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (root, user, home, state, runtime) = (
        base.join("project"),
        base.join("user"),
        base.join("home"),
        base.join("user/fake-cli"),
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
    super::write_profiles(&user);
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
    pub fn agent(&mut self, name: &str, profile: &str) -> String {
        let agent = self
            .wire
            .call("createAgent", json!({"name": name, "profileId": profile}));
        agent["agentId"].as_str().unwrap().to_owned()
    }

    pub fn ask(&mut self, target: &str, message: &str) -> String {
        let answer = self.wire.call(
            "askAgent",
            json!({"target": target, "message": message, "timeoutSecs": 60}),
        );
        answer["text"].as_str().unwrap_or_default().to_owned()
    }

    /// Launches `agent` in the first cell of the active layout at 24 rows × `cols`; its
    /// session id.
    pub fn launch_in_first_cell(&mut self, agent: &str, cols: u16) -> String {
        let layouts = self.wire.call("getLayouts", json!({}));
        let layout_id = layouts["active"].as_str().unwrap().to_owned();
        let node_id = first_leaf(&layouts["layouts"][0]["tree"]);
        let session = self.wire.call(
            "launchAgent",
            json!({"agentId": agent, "layoutId": layout_id, "nodeId": node_id, "rows": 24, "cols": cols}),
        );
        session["sessionId"].as_str().unwrap().to_owned()
    }

    /// Every start of a fake CLI: `{cli, args, cwd}`.
    pub fn calls(&self, cli: &str) -> Vec<Value> {
        std::fs::read_to_string(self.state.join("calls.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|c| c["cli"] == cli)
            .collect()
    }
}

fn first_leaf(tree: &Value) -> String {
    match tree["type"].as_str() {
        Some("leaf") => tree["id"].as_str().unwrap().to_owned(),
        _ => first_leaf(&tree["children"][0]),
    }
}
