//! A real project in a temp dir, real adapters, and a profile that runs `fake-agent`.

pub mod served;

use idea_application::agents::{self, NewAgent};
use idea_application::{Deps, Ports, layouts};
use idea_domain::CellRef;
use idea_domain::layout::Direction;
use idea_domain::ports::EventPublisher;
use idea_domain::terminal::{SessionInfo, TerminalSize};
use idea_domain::{Agent, DomainEvent, LayoutId, NodeId, ProfileId, SessionId};
use idea_infrastructure::cli_homes::FsCliHomes;
use idea_infrastructure::permissions::FsPermissionFiles;
use idea_infrastructure::profiles::FsProfileCatalog;
use idea_infrastructure::profiles::builtin::{CLAUDE_CODE, CODEX, builtin_profiles};
use idea_infrastructure::pty::PortablePtyHost;
use idea_infrastructure::store::FsProjectStore;
use idea_infrastructure::system::RandomIds;
use idea_infrastructure::turns::ProcessTurnRunner;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const SIZE: TerminalSize = TerminalSize {
    rows: 30,
    cols: 100,
};

#[derive(Default)]
pub struct Events(pub Mutex<Vec<DomainEvent>>);

impl EventPublisher for Events {
    fn publish(&self, event: DomainEvent) {
        self.0.lock().unwrap().push(event);
    }
}

pub struct World {
    pub dir: tempfile::TempDir,
    /// Shared with the threads a door runs requests on.
    pub deps: Arc<Deps>,
    pub events: Arc<Events>,
}

impl World {
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// The fake agent's log: one JSON object per start.
    pub fn starts(&self) -> Vec<serde_json::Value> {
        let text =
            std::fs::read_to_string(self.dir.path().join("fake-agent.log")).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    pub fn agent(&self, name: &str) -> Agent {
        self.agent_of(name, "fake")
    }

    /// An agent of profile `profile` (`fake-claude`, `fake-codex-429`…).
    pub fn agent_of(&self, name: &str, profile: &str) -> Agent {
        let new = NewAgent {
            name: name.into(),
            profile_id: ProfileId::new(profile),
        };
        agents::create_from_scratch(&self.deps, new).unwrap()
    }

    /// Every start of `fake-claude` / `fake-codex`: `{cli, args, cwd}`.
    pub fn fake_cli_calls(&self) -> Vec<serde_json::Value> {
        let log = self.dir.path().join("fake-cli/calls.jsonl");
        let text = std::fs::read_to_string(log).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// The active layout split into two cells.
    pub fn two_cells(&self) -> (LayoutId, NodeId, NodeId) {
        let l = layouts::get(&self.deps).unwrap();
        let first = l.layouts[0].tree.leaves()[0].id;
        let second = layouts::split(
            &self.deps,
            CellRef::new(l.active, first),
            Direction::Horizontal,
        )
        .unwrap();
        (l.active, first, second)
    }

    pub fn exited(&self, session: SessionId) -> Option<SessionInfo> {
        idea_application::sessions::list(&self.deps)
            .into_iter()
            .find(|s| s.session_id == session && s.exit.is_some())
    }
}

/// A fresh project whose `fake` profile runs the fake agent CLI like Claude Code.
pub fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).unwrap();
    let store = Arc::new(FsProjectStore::new(&root));
    let path = idea_domain::ProjectPath::new(root.clone()).unwrap();
    idea_application::project::init(store.as_ref(), &RandomIds, &path).unwrap();
    std::fs::write(
        root.join(".ideai/CONTEXT.md"),
        "Shared context for every agent.\n",
    )
    .unwrap();
    let profiles = write_profiles(dir.path());
    let events = Arc::new(Events::default());
    let permissions = FsPermissionFiles::new(
        FsProjectStore::new(&root),
        None,
        Some(dir.path().join("home")),
    );
    let deps = Arc::new(Deps::new(Ports {
        store,
        profiles: Arc::new(FsProfileCatalog::load(Some(&profiles))),
        events: events.clone(),
        ids: Arc::new(RandomIds),
        terminals: Arc::new(PortablePtyHost::new()),
        cli_homes: Arc::new(FsCliHomes::for_home(&dir.path().join("home"), None, None)),
        turns: Arc::new(ProcessTurnRunner::default()),
        permissions: Arc::new(permissions),
        sandbox: Arc::new(idea_infrastructure::sandbox::FsSandboxHost::new(
            idea_domain::ports::SandboxEnvironment::default(),
        )),
        login_shell: "/bin/sh".into(),
        clock: std::sync::Arc::new(idea_infrastructure::system::SystemClock),
        mcp_bridge: None,
        worktrees: std::sync::Arc::new(idea_infrastructure::git::GitWorktrees),
        knowledge: Arc::new(idea_infrastructure::knowledge::FsKnowledgeStore::new(
            &root,
            Some(dir.path().join("home/.ideai")),
        )),
        tool_processes: Arc::new(idea_infrastructure::tools::ProcessToolRunner::new(None)),
    }));
    World { dir, deps, events }
}

pub fn write_profiles(dir: &Path) -> PathBuf {
    let file = dir.join("profiles.json");
    let profiles = serde_json::json!({"version": 1, "profiles": [{
        "id": "fake",
        "name": "Fake agent",
        "command": env!("CARGO_BIN_EXE_fake-agent"),
        "args": ["--add-dir", "{projectRoot}"],
        "trust": {"kind": "claudeJson"},
        "seedFiles": [{"path": ".fake/settings.json", "content": "{\"workspace\": \"{projectRoot}\"}"}],
        "contextInjection": {"kind": "conventionFile", "target": "CLAUDE.md"},
        "session": {"assignArgs": ["--session-id", "{id}"], "resumeArgs": ["--resume", "{id}"]},
        "env": {
            "FAKE_AGENT_LOG": dir.join("fake-agent.log"),
            // Where Claude Code keeps transcripts (`~/.claude/projects/<folder>/<id>.jsonl`),
            // so IdeA sees which conversations the fake saved, as it does for Claude.
            "FAKE_AGENT_SESSIONS": dir.join("home/.claude/projects/-fake-agent"),
        },
    }, {
        "id": "missing",
        "name": "Not installed",
        "command": "/nonexistent/agent-cli",
        "contextInjection": {"kind": "none"},
    }]});
    let mut profiles = profiles;
    if let Some(list) = profiles["profiles"].as_array_mut() {
        list.extend(fake_cli_profiles(dir));
    }
    std::fs::write(&file, serde_json::to_vec_pretty(&profiles).unwrap()).unwrap();
    file
}

/// The built-in Claude Code and Codex profiles with `fake-claude` / `fake-codex` as their
/// program (so the built-in JSON modes are what runs), conversations kept in
/// `<tmp>/fake-cli` (every start logged in its `calls.jsonl`): `fake-claude`, `fake-codex`,
/// and `-429` (the API refuses) and `-slow` (answers after a minute) variants.
pub fn fake_cli_profiles(dir: &Path) -> Vec<serde_json::Value> {
    let state = dir.join("fake-cli");
    let variants = [
        ("", serde_json::json!({})),
        ("-429", serde_json::json!({"FAKE_CLI_FAIL": "429"})),
        ("-limit", serde_json::json!({"FAKE_CLI_FAIL": "limit"})),
        ("-slow", serde_json::json!({"FAKE_CLI_DELAY_MS": "60000"})),
    ];
    let mut list = Vec::new();
    for (builtin, fake, program) in [
        (
            CLAUDE_CODE,
            "fake-claude",
            env!("CARGO_BIN_EXE_fake-claude"),
        ),
        (CODEX, "fake-codex", env!("CARGO_BIN_EXE_fake-codex")),
    ] {
        let mut profile = builtin_profiles()
            .into_iter()
            .find(|p| p.id.as_str() == builtin)
            .unwrap();
        profile.command = program.into();
        // The fakes' conversations are not where the real CLIs keep theirs.
        profile.home = None;
        for (suffix, knobs) in &variants {
            let mut value = serde_json::to_value(&profile).unwrap();
            value["id"] = format!("{fake}{suffix}").into();
            value["env"]["FAKE_CLI_STATE"] = state.to_str().unwrap().into();
            for (key, knob) in knobs.as_object().unwrap() {
                value["env"][key] = knob.clone();
            }
            list.push(value);
        }
    }
    list
}

/// Collects a session's output as it arrives.
#[derive(Clone, Default)]
pub struct Screen(Arc<Mutex<Vec<u8>>>);

impl Screen {
    pub fn attach(deps: &Deps, session: SessionId) -> Self {
        let screen = Self::default();
        let sink = screen.0.clone();
        idea_application::sessions::attach(
            deps,
            session,
            Box::new(move |b| sink.lock().unwrap().extend_from_slice(b)),
            None,
            idea_domain::terminal::ReplayScope::Whole,
        )
        .unwrap();
        screen
    }

    /// Attaches and waits for the fake agent's prompt.
    pub fn ready(deps: &Deps, session: SessionId) -> Self {
        let screen = Self::attach(deps, session);
        screen.wait_for("fake> ");
        screen
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// Waits (up to 10 s) until the output contains `needle`.
    pub fn wait_for(&self, needle: &str) {
        wait_until(
            &format!("output containing {needle:?}"),
            || self.text().contains(needle),
            || self.text(),
        );
    }
}

/// Polls `done` until it holds; panics with `state()` after 10 s.
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool, state: impl Fn() -> String) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; state:\n{}",
            state()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The arguments of one fake CLI start (`{cli, args, cwd}` from `calls.jsonl`).
pub fn call_args(call: &serde_json::Value) -> Vec<String> {
    call["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect()
}
