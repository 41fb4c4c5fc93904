//! A real project owner for the MCP tests and benchmark: `idea serve` on a temp project (its
//! user folder holds fake askable profiles), agents created with `idea agent create`, an rmcp
//! client spawning `idea mcp-server`, and a raw connection to the owner's socket. Its includer
//! also declares `mod support;` (the `idea serve` rig this builds on).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use crate::support::serve;
pub use crate::support::serve::idea;
use crate::support::world_dir::{WorldDir, world_dir};
use idea_infrastructure::owner::{Hello, connect, read_reply, write_hello};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// `~/.ideai/profiles.json` with agents that answer asks without any model: `instant` prints
/// one Claude `result` line at once (`echo: <message>`, then `again: <message>` when the
/// conversation continues), `slow` answers nothing for 5 s, `lingering` nothing for 30 s (its
/// shell stays, with the message among its arguments, so a test can find it).
const FAKE_PROFILES: &str = r#"{"version": 1, "profiles": [
  {"id": "instant", "name": "Instant", "command": "/bin/sh", "contextInjection": {"kind": "none"},
   "structured": {"provider": "claude",
     "args": ["-c", "printf '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"echo: %s\",\"session_id\":\"s-1\"}\\n' \"$1\"", "sh", "{prompt}"],
     "resumeArgs": ["-c", "printf '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"again: %s\",\"session_id\":\"s-1\"}\\n' \"$1\"", "sh", "{prompt}", "{id}"]}},
  {"id": "slow", "name": "Slow", "command": "/bin/sh", "contextInjection": {"kind": "none"},
   "structured": {"provider": "claude", "args": ["-c", "sleep 5", "sh", "{prompt}"],
     "resumeArgs": ["-c", "sleep 5", "sh", "{prompt}", "{id}"]}},
  {"id": "lingering", "name": "Lingering", "command": "/bin/sh", "contextInjection": {"kind": "none"},
   "structured": {"provider": "claude", "args": ["-c", "sleep 30; :", "sh", "{prompt}"],
     "resumeArgs": ["-c", "sleep 30; :", "sh", "{prompt}", "{id}"]}}
]}"#;

pub const DEADLINE: Duration = Duration::from_secs(20);

/// A temp project and user folder, and (once [`Rig::serve`]d) its owner; killed when dropped.
pub struct Rig {
    _dir: WorldDir,
    pub project: PathBuf,
    pub user: PathBuf,
    pub owner: Option<Child>,
    pub port: u16,
}

impl Drop for Rig {
    fn drop(&mut self) {
        if let Some(mut child) = self.owner.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Rig {
    /// An initialised project nobody owns, in a folder no sandbox plan grants (so that a
    /// sandboxed agent has an outside).
    pub fn new() -> Self {
        let dir = world_dir("rig-");
        let project = dir.path().join("proj");
        let user = dir.path().join("user");
        std::fs::create_dir_all(&project).unwrap();
        let project = project.canonicalize().unwrap();
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(user.join("profiles.json"), FAKE_PROFILES).unwrap();
        let init = idea(&user)
            .args(["init", project.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(init.status.success(), "{init:?}");
        Self {
            _dir: dir,
            project,
            user,
            owner: None,
            port: 0,
        }
    }

    /// Starts `idea serve` on the project and waits for its announcement.
    pub fn serve(mut self) -> Self {
        let mut command = serve::command(&self.project, &self.user);
        command.args(["--token", TOKEN]).stderr(Stdio::null());
        // Agents' worktrees go to the rig's own data folder, never the user's.
        command.env("XDG_DATA_HOME", self.user.join("data"));
        let mut child = command.spawn().unwrap();
        let line = serve::announcement(&mut child, DEADLINE);
        self.port =
            serve::port_of(&line).unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
        self.owner = Some(child);
        self
    }

    /// `idea agent create --name NAME --profile shell --json`: the created agent.
    pub fn create_agent(&self, name: &str) -> Value {
        self.create_agent_with(name, "shell")
    }

    /// `idea agent create --name NAME --profile PROFILE --json`: the created agent.
    pub fn create_agent_with(&self, name: &str, profile: &str) -> Value {
        let out = idea(&self.user)
            .args(["agent", "create", "--name", name, "--profile", profile])
            .arg("--json")
            .args(["--project", self.project.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// The `idea mcp-server` command line for `requester`.
    pub fn bridge(&self, requester: &str) -> Command {
        let mut command = idea(&self.user);
        command
            .args(["mcp-server", "--project", self.project.to_str().unwrap()])
            .args(["--requester", requester]);
        command
    }

    /// An rmcp client whose server is `idea mcp-server --requester REQUESTER`.
    pub async fn client(&self, requester: &str) -> RunningService<RoleClient, ()> {
        self.client_with(requester, ()).await
    }

    /// As [`Rig::client`], with `handler` receiving the server's notifications.
    #[allow(dead_code, reason = "not every test binary watches notifications")]
    pub async fn client_with<H: rmcp::ClientHandler>(
        &self,
        requester: &str,
        handler: H,
    ) -> RunningService<RoleClient, H> {
        let std = self.bridge(requester);
        let command = tokio::process::Command::new(std.get_program()).configure(|cmd| {
            cmd.args(std.get_args());
            for (key, value) in std.get_envs() {
                if let Some(value) = value {
                    cmd.env(key, value);
                }
            }
        });
        let (transport, _stderr) = TokioChildProcess::builder(command)
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        tokio::time::timeout(DEADLINE, handler.serve(transport))
            .await
            .expect("the MCP handshake timed out")
            .unwrap()
    }

    /// The owner's socket, from `.ideai/.owner.json`.
    pub fn socket(&self) -> PathBuf {
        let text = std::fs::read_to_string(self.project.join(".ideai/.owner.json")).unwrap();
        let owner: Value = serde_json::from_str(&text).unwrap();
        PathBuf::from(owner["socket"].as_str().unwrap())
    }

    /// A raw connection to the owner, after the hello `hello` was accepted.
    pub async fn raw(&self, hello: &Hello) -> Raw {
        let stream = connect(&self.socket()).await.unwrap();
        let (read, mut write) = tokio::io::split(stream);
        let mut reader = tokio::io::BufReader::new(read);
        write_hello(&mut write, hello).await.unwrap();
        let reply = read_reply(&mut reader).await.unwrap();
        assert!(reply.ok, "{reply:?}");
        Raw { reader, write }
    }
}

/// Both halves of a raw owner connection, past the handshake.
pub struct Raw {
    pub reader: tokio::io::BufReader<tokio::io::ReadHalf<idea_infrastructure::owner::OwnerStream>>,
    pub write: tokio::io::WriteHalf<idea_infrastructure::owner::OwnerStream>,
}

impl Raw {
    /// Writes `line` and a newline.
    pub async fn send(&mut self, line: &str) {
        use tokio::io::AsyncWriteExt;
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
        self.write.flush().await.unwrap();
    }

    /// The next line that is not an event notification, as JSON.
    pub async fn answer(&mut self) -> Value {
        serve::next_answer(&mut self.reader, DEADLINE).await
    }
}
