//! Hand-written fakes of the ports.

pub mod permissions;
pub mod sandbox;
pub mod terminal;
pub mod turns;

use idea_application::{Deps, Ports};
use idea_domain::conversation::ConversationProviders;
use idea_domain::layout::Layouts;
use idea_domain::manifest::AgentManifest;
use idea_domain::ports::{
    EventPublisher, IdGenerator, PermissionFiles, ProfileCatalog, ProfileProblem, ProjectStore,
    StoreError,
};
use idea_domain::profile::{AgentProfile, CliHome, ContextInjection, CwdTemplate};
use idea_domain::{DomainEvent, ProfileId, Project};
use permissions::MemoryPermissions;
use sandbox::FakeSandbox;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use terminal::FakeTerminals;
use turns::FakeTurns;
use uuid::Uuid;

/// A project kept in memory; `fail_writes` simulates a full disk.
#[derive(Default)]
pub struct MemoryStore {
    pub project: Mutex<Option<Project>>,
    pub manifest: Mutex<Option<AgentManifest>>,
    pub layouts: Mutex<Option<Layouts>>,
    pub personas: Mutex<HashMap<String, String>>,
    pub fail_writes: std::sync::atomic::AtomicBool,
    pub generated: Mutex<HashMap<PathBuf, String>>,
    pub providers: Mutex<HashMap<idea_domain::ConversationId, ConversationProviders>>,
    pub resumes: Mutex<Option<idea_domain::resume::Resumes>>,
    pub handoffs: Mutex<HashMap<idea_domain::ConversationId, idea_domain::handoff::StoredHandoff>>,
    /// What `git diff --stat` says of the project.
    pub work_in_progress: Mutex<Option<String>>,
}

impl MemoryStore {
    fn check_write(&self) -> Result<(), StoreError> {
        if self.fail_writes.load(Ordering::SeqCst) {
            let source =
                std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on device");
            return Err(StoreError::Io {
                action: "write",
                path: PathBuf::from("/memory"),
                source,
            });
        }
        Ok(())
    }
}

impl ProjectStore for MemoryStore {
    fn root(&self) -> PathBuf {
        PathBuf::from("/memory")
    }
    fn load_project(&self) -> Result<Project, StoreError> {
        self.project
            .lock()
            .unwrap()
            .clone()
            .ok_or_else(|| StoreError::NotAProject(self.root()))
    }
    fn save_project(&self, project: &Project) -> Result<(), StoreError> {
        self.check_write()?;
        *self.project.lock().unwrap() = Some(project.clone());
        Ok(())
    }
    fn load_manifest(&self) -> Result<AgentManifest, StoreError> {
        Ok(self.manifest.lock().unwrap().clone().unwrap_or_default())
    }
    fn save_manifest(&self, manifest: &AgentManifest) -> Result<(), StoreError> {
        self.check_write()?;
        *self.manifest.lock().unwrap() = Some(manifest.clone());
        Ok(())
    }
    fn read_persona(&self, md_path: &str) -> Result<Option<String>, StoreError> {
        Ok(self.personas.lock().unwrap().get(md_path).cloned())
    }
    fn write_persona(&self, md_path: &str, content: &str) -> Result<(), StoreError> {
        self.check_write()?;
        self.personas
            .lock()
            .unwrap()
            .insert(md_path.to_owned(), content.to_owned());
        Ok(())
    }
    fn persona_exists(&self, md_path: &str) -> bool {
        self.personas.lock().unwrap().contains_key(md_path)
    }
    fn load_layouts(&self) -> Result<Option<Layouts>, StoreError> {
        Ok(self.layouts.lock().unwrap().clone())
    }
    fn save_layouts(&self, layouts: &Layouts) -> Result<(), StoreError> {
        self.check_write()?;
        *self.layouts.lock().unwrap() = Some(layouts.clone());
        Ok(())
    }
    fn load_resumes(&self) -> Result<Option<idea_domain::resume::Resumes>, StoreError> {
        Ok(self.resumes.lock().unwrap().clone())
    }
    fn save_resumes(&self, resumes: &idea_domain::resume::Resumes) -> Result<(), StoreError> {
        self.check_write()?;
        *self.resumes.lock().unwrap() = Some(resumes.clone());
        Ok(())
    }
    fn read_project_context(&self) -> Result<Option<String>, StoreError> {
        Ok(None)
    }
    fn ensure_run_dir_ignored(&self) -> Result<(), StoreError> {
        self.check_write()
    }
    fn prepare_run_dir(&self, agent: idea_domain::AgentId) -> Result<PathBuf, StoreError> {
        Ok(self.root().join(".ideai/run").join(agent.to_string()))
    }
    fn seed_file(
        &self,
        _agent: idea_domain::AgentId,
        path: &std::path::Path,
        content: &str,
    ) -> Result<idea_domain::ports::SeedOutcome, StoreError> {
        self.write_generated(path, content)?;
        Ok(idea_domain::ports::SeedOutcome::Written)
    }
    fn write_generated(&self, path: &std::path::Path, content: &str) -> Result<(), StoreError> {
        self.check_write()?;
        self.generated
            .lock()
            .unwrap()
            .insert(path.to_path_buf(), content.to_owned());
        Ok(())
    }
    fn load_providers(
        &self,
        id: idea_domain::ConversationId,
    ) -> Result<ConversationProviders, StoreError> {
        Ok(self
            .providers
            .lock()
            .unwrap()
            .get(&id)
            .cloned()
            .unwrap_or_default())
    }
    fn save_providers(
        &self,
        id: idea_domain::ConversationId,
        providers: &ConversationProviders,
    ) -> Result<(), StoreError> {
        self.check_write()?;
        self.providers.lock().unwrap().insert(id, providers.clone());
        Ok(())
    }
    fn load_handoff(
        &self,
        id: idea_domain::ConversationId,
    ) -> Result<Option<idea_domain::handoff::StoredHandoff>, StoreError> {
        Ok(self.handoffs.lock().unwrap().get(&id).cloned())
    }
    fn save_handoff(
        &self,
        id: idea_domain::ConversationId,
        handoff: &idea_domain::handoff::StoredHandoff,
    ) -> Result<(), StoreError> {
        self.check_write()?;
        self.handoffs.lock().unwrap().insert(id, handoff.clone());
        Ok(())
    }
    fn work_in_progress(&self) -> Option<String> {
        self.work_in_progress.lock().unwrap().clone()
    }
}

/// Plain profiles: `shell`; `fake` (takes and resumes ids; IdeA cannot see its saved
/// conversations); `tracked` (the same, whose saved conversations [`FakeCliHomes`] reports);
/// `minting` (mints its own ids, resumable, found by folder like Codex); `askable` (like
/// `fake`, with a JSON mode shaped like Claude's) and `askable-minting` (a JSON mode that
/// mints its ids, like Codex's); `codex` (`minting` with `askable-minting`'s JSON mode: a
/// cell and turns of the same CLI).
pub struct StaticCatalog;

impl ProfileCatalog for StaticCatalog {
    fn profiles(&self) -> Vec<AgentProfile> {
        [
            "shell",
            "fake",
            "tracked",
            "minting",
            "askable",
            "askable-minting",
            "codex",
            "uninstalled",
        ]
        .into_iter()
        .map(|id| AgentProfile {
            id: ProfileId::new(id),
            name: id.to_owned(),
            command: "sh".into(),
            args: vec![],
            cwd_template: CwdTemplate::AgentRunDir,
            env: Default::default(),
            context_injection: if id == "shell" {
                ContextInjection::None
            } else {
                ContextInjection::ConventionFile {
                    target: "AGENTS.md".into(),
                }
            },
            session: match id {
                "fake" | "tracked" | "askable" => Some(idea_domain::SessionStrategy {
                    assign_args: Some(vec!["--session-id".into(), "{id}".into()]),
                    resume_args: vec!["--resume".into(), "{id}".into()],
                }),
                "minting" | "codex" => Some(idea_domain::SessionStrategy {
                    assign_args: None,
                    resume_args: vec!["resume".into(), "{id}".into()],
                }),
                _ => None,
            },
            mcp: None,
            structured: turns::structured(id),
            via_shell: false,
            home: match id {
                "tracked" => Some(CliHome::ClaudeCode),
                "minting" | "codex" => Some(CliHome::Codex),
                _ => None,
            },
            seed_files: vec![],
            version_args: vec!["--version".into()],
            install_hint: None,
        })
        .collect()
    }
    fn problems(&self) -> Vec<ProfileProblem> {
        vec![]
    }
    /// Every profile's program is found but `uninstalled`'s.
    fn is_installed(&self, profile: &AgentProfile) -> bool {
        profile.id.as_str() != "uninstalled"
    }
}

/// The CLIs' user state, in memory: records trusted folders; reports the conversations and
/// the setup problem a test put there.
#[derive(Default)]
pub struct FakeCliHomes {
    pub trusted: Mutex<Vec<(CliHome, PathBuf)>>,
    /// Saved conversations: (cwd, id).
    pub saved: Mutex<Vec<(PathBuf, String)>>,
    pub setup_problem: Mutex<Option<String>>,
    /// The messages of each saved conversation, by id.
    pub exchanges: Mutex<HashMap<String, Vec<idea_domain::handoff::Exchange>>>,
    /// The limit each saved conversation's file ends in, by id.
    pub limits: Mutex<HashMap<String, idea_domain::limits::LimitSighting>>,
    /// A limit a conversation's file just recorded (given once, as a file read after it
    /// changed), by id.
    pub file_limits: Mutex<HashMap<String, idea_domain::limits::LimitSighting>>,
}

impl FakeCliHomes {
    /// What the CLI saved of conversation `id`: these messages, oldest first.
    pub fn said(&self, id: &str, messages: &[(idea_domain::handoff::Speaker, &str)]) {
        let exchanges = messages
            .iter()
            .map(|(speaker, text)| idea_domain::handoff::Exchange {
                speaker: *speaker,
                text: (*text).to_owned(),
            })
            .collect();
        self.exchanges
            .lock()
            .unwrap()
            .insert(id.to_owned(), exchanges);
    }

    pub fn save_conversation(&self, cwd: &std::path::Path, id: &str) {
        self.saved
            .lock()
            .unwrap()
            .push((cwd.to_path_buf(), id.to_owned()));
    }
}

impl idea_domain::ports::CliHomes for FakeCliHomes {
    fn trust_folder(
        &self,
        home: CliHome,
        folder: &std::path::Path,
    ) -> Result<idea_domain::ports::TrustOutcome, StoreError> {
        self.trusted
            .lock()
            .unwrap()
            .push((home, folder.to_path_buf()));
        Ok(idea_domain::ports::TrustOutcome::Recorded)
    }
    fn conversation(
        &self,
        _home: CliHome,
        cwd: &std::path::Path,
        id: &str,
    ) -> idea_domain::invocation::SavedConversation {
        let saved = self
            .saved
            .lock()
            .unwrap()
            .iter()
            .any(|(c, i)| c == cwd && i == id);
        if saved {
            idea_domain::invocation::SavedConversation::Resumable
        } else {
            idea_domain::invocation::SavedConversation::Missing
        }
    }
    fn latest_conversation(&self, _home: CliHome, cwd: &std::path::Path) -> Option<String> {
        self.saved
            .lock()
            .unwrap()
            .iter()
            .rev()
            .find(|(c, _)| c == cwd)
            .map(|(_, id)| id.clone())
    }
    fn setup_problem(
        &self,
        _home: CliHome,
        _env: &std::collections::BTreeMap<String, String>,
    ) -> Option<String> {
        self.setup_problem.lock().unwrap().clone()
    }
    fn exchanges(
        &self,
        _home: CliHome,
        _cwd: &std::path::Path,
        id: &str,
    ) -> Vec<idea_domain::handoff::Exchange> {
        self.exchanges
            .lock()
            .unwrap()
            .get(id)
            .cloned()
            .unwrap_or_default()
    }
    fn glance(
        &self,
        _home: CliHome,
        _cwd: &std::path::Path,
        id: &str,
    ) -> Option<idea_domain::conversation::ConversationGlance> {
        let exchanges = self.exchanges.lock().unwrap();
        let said = exchanges.get(id)?;
        let asks = said
            .iter()
            .filter(|e| e.speaker == idea_domain::handoff::Speaker::User)
            .count();
        Some(idea_domain::conversation::ConversationGlance {
            title: said.first().map(|e| e.text.clone()),
            last_activity: None,
            asks: u32::try_from(asks).ok(),
        })
    }
    fn limit_at_end(
        &self,
        _home: CliHome,
        _cwd: &std::path::Path,
        id: &str,
    ) -> Option<idea_domain::limits::LimitSighting> {
        self.limits.lock().unwrap().get(id).cloned()
    }

    fn limit_in_changed_file(
        &self,
        _home: CliHome,
        _cwd: &std::path::Path,
        id: &str,
    ) -> Option<idea_domain::limits::LimitSighting> {
        self.file_limits.lock().unwrap().remove(id)
    }
}

/// Records every event.
#[derive(Default)]
pub struct RecordedEvents(pub Mutex<Vec<DomainEvent>>);

impl EventPublisher for RecordedEvents {
    fn publish(&self, event: DomainEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl RecordedEvents {
    pub fn take(&self) -> Vec<DomainEvent> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// 1, 2, 3… as uuids.
#[derive(Default)]
pub struct SequentialIds(AtomicU64);

impl IdGenerator for SequentialIds {
    fn new_uuid(&self) -> Uuid {
        Uuid::from_u128(u128::from(self.0.fetch_add(1, Ordering::SeqCst) + 1))
    }
}

/// A clock tests move by hand (starts at 2026-12-01 00:00 UTC).
pub struct FakeClock(AtomicU64);

impl Default for FakeClock {
    fn default() -> Self {
        Self(AtomicU64::new(1_796_083_200))
    }
}

impl FakeClock {
    pub fn advance(&self, secs: u64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl idea_domain::ports::Clock for FakeClock {
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A test world: deps over fakes, with handles on the fakes.
pub struct World {
    pub deps: Deps,
    pub cli: Arc<FakeCliHomes>,
    pub terminals: Arc<FakeTerminals>,
    pub store: Arc<MemoryStore>,
    pub events: Arc<RecordedEvents>,
    pub turns: Arc<FakeTurns>,
    pub permissions: Arc<MemoryPermissions>,
    pub sandbox: Arc<FakeSandbox>,
    pub clock: Arc<FakeClock>,
}

/// The fakes behind the ports a test drives directly.
#[derive(Default, Clone)]
struct Fakes {
    terminals: Arc<FakeTerminals>,
    cli: Arc<FakeCliHomes>,
    turns: Arc<FakeTurns>,
    sandbox: Arc<FakeSandbox>,
    clock: Arc<FakeClock>,
}

fn deps_over(
    store: Arc<dyn ProjectStore>,
    permissions: Arc<dyn PermissionFiles>,
    events: Arc<RecordedEvents>,
    fakes: Fakes,
) -> Deps {
    Deps::new(Ports {
        profiles: Arc::new(StaticCatalog),
        events,
        ids: Arc::new(SequentialIds::default()),
        terminals: fakes.terminals,
        cli_homes: fakes.cli,
        turns: fakes.turns,
        permissions,
        sandbox: fakes.sandbox,
        login_shell: "/bin/sh".into(),
        clock: fakes.clock,
        mcp_bridge: None,
        worktrees: std::sync::Arc::new(idea_infrastructure::git::GitWorktrees),
        knowledge: Arc::new(idea_infrastructure::knowledge::FsKnowledgeStore::new(
            store.root(),
            Some(store.root().join("home/.ideai")),
        )),
        tool_processes: Arc::new(idea_infrastructure::tools::ProcessToolRunner::new(None)),
        store,
    })
}

pub fn world() -> World {
    let store = Arc::new(MemoryStore::default());
    let events = Arc::new(RecordedEvents::default());
    let permissions = Arc::new(MemoryPermissions::default());
    let fakes = Fakes::default();
    let deps = deps_over(
        store.clone(),
        permissions.clone(),
        events.clone(),
        fakes.clone(),
    );
    World {
        deps,
        cli: fakes.cli,
        terminals: fakes.terminals,
        store,
        events,
        turns: fakes.turns,
        permissions,
        sandbox: fakes.sandbox,
        clock: fakes.clock,
    }
}

/// Deps over the real file-system store of a fresh project in a temp dir.
pub fn fs_world() -> (tempfile::TempDir, Deps, Arc<RecordedEvents>) {
    let dir = tempfile::tempdir().unwrap();
    let root = idea_domain::ProjectPath::new(dir.path().to_path_buf()).unwrap();
    let store = Arc::new(idea_infrastructure::store::FsProjectStore::new(dir.path()));
    idea_application::project::init(store.as_ref(), &SequentialIds::default(), &root).unwrap();
    let events = Arc::new(RecordedEvents::default());
    let permissions = Arc::new(idea_infrastructure::permissions::FsPermissionFiles::new(
        idea_infrastructure::store::FsProjectStore::new(dir.path()),
        Some(dir.path().join("user-permissions.json")),
        Some(dir.path().join("home")),
    ));
    let deps = deps_over(store, permissions, events.clone(), Fakes::default());
    (dir, deps, events)
}

/// A real project in a git repository (one commit on `main`), over the real store and git,
/// agents' worktrees going to a data folder of its own.
pub struct GitWorld {
    pub dir: tempfile::TempDir,
    pub data: tempfile::TempDir,
    pub deps: Deps,
    pub terminals: Arc<FakeTerminals>,
}

/// `git -C dir args`, which must succeed; its output, trimmed.
pub fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let ran = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    String::from_utf8_lossy(&ran.stdout).trim().to_owned()
}

pub fn git_world() -> GitWorld {
    let (dir, data) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let git = |args: &[&str]| git(dir.path(), args);
    git(&["init", "-q", "-b", "main"]);
    git(&["config", "user.name", "User"]);
    git(&["config", "user.email", "user@example.com"]);
    std::fs::write(dir.path().join("lib.rs"), "fn one() {}\n").unwrap();
    // What `idea init` adds, committed, so the user's checkout starts clean.
    std::fs::write(dir.path().join(".gitignore"), ".ideai/\n.env\n").unwrap();
    let root = idea_domain::ProjectPath::new(dir.path().to_path_buf()).unwrap();
    let store = Arc::new(idea_infrastructure::store::FsProjectStore::new(dir.path()));
    idea_application::project::init(store.as_ref(), &SequentialIds::default(), &root).unwrap();
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "first"]);
    let permissions = Arc::new(MemoryPermissions::default());
    let fakes = Fakes::default();
    *fakes.sandbox.data_home.lock().unwrap() = Some(data.path().to_path_buf());
    let terminals = fakes.terminals.clone();
    let deps = deps_over(
        store,
        permissions,
        Arc::new(RecordedEvents::default()),
        fakes,
    );
    GitWorld {
        dir,
        data,
        deps,
        terminals,
    }
}
