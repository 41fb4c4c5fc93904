//! A project in a temp dir with the real store and catalogue, a fake HOME beside it (never the
//! real one) and a terminal host that records what would be spawned and starts nothing.

use idea_application::{Deps, Ports};
use idea_domain::ProjectPath;
use idea_domain::SessionId;
use idea_domain::terminal::{ExitHandler, PtyError, SpawnSpec, TerminalHost, TerminalSession};
use idea_infrastructure::cli_homes::FsCliHomes;
use idea_infrastructure::permissions::FsPermissionFiles;
use idea_infrastructure::profiles::FsProfileCatalog;
use idea_infrastructure::store::FsProjectStore;
use idea_infrastructure::system::{EventBus, RandomIds};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Records spawn requests and refuses them: these tests only check what happens before.
#[derive(Default)]
pub struct NoSpawn(pub Mutex<Vec<SpawnSpec>>);

impl TerminalHost for NoSpawn {
    fn spawn(
        &self,
        _id: SessionId,
        spec: &SpawnSpec,
        _on_exit: ExitHandler,
    ) -> Result<Arc<dyn TerminalSession>, PtyError> {
        self.0.lock().unwrap().push(spec.clone());
        Err(PtyError::SpawnFailed {
            command: spec.command.clone(),
            reason: "tests spawn nothing".into(),
        })
    }
}

pub struct World {
    pub dir: tempfile::TempDir,
    pub deps: Deps,
    pub spawned: Arc<NoSpawn>,
}

impl World {
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("project")
    }
    pub fn ideai(&self) -> PathBuf {
        self.root().join(".ideai")
    }
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    /// A folder outside the project, as an attacker's link target.
    pub fn outside(&self) -> PathBuf {
        let dir = self.dir.path().join("outside");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

/// An initialised project at `<tmp>/project`, HOME at `<tmp>/home`.
pub fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(dir.path().join("home/.claude")).unwrap();
    let store = Arc::new(FsProjectStore::new(&root));
    let path = ProjectPath::new(root).unwrap();
    idea_application::project::init(store.as_ref(), &RandomIds, &path).unwrap();
    let (deps, spawned) = deps_over(store, dir.path());
    World { dir, deps, spawned }
}

/// Deps over `store`, with the CLIs' homes under `<tmp>/home`.
pub fn deps_over(store: Arc<FsProjectStore>, tmp: &Path) -> (Deps, Arc<NoSpawn>) {
    let spawned = Arc::new(NoSpawn::default());
    let deps = Deps::new(Ports {
        profiles: Arc::new(FsProfileCatalog::load(None)),
        events: Arc::new(EventBus::default()),
        ids: Arc::new(RandomIds),
        terminals: spawned.clone(),
        cli_homes: Arc::new(FsCliHomes::for_home(&tmp.join("home"), None, None)),
        turns: Arc::new(idea_infrastructure::turns::ProcessTurnRunner::default()),
        permissions: Arc::new(FsPermissionFiles::new(
            FsProjectStore::clone(&store),
            None,
            Some(tmp.join("home")),
        )),
        sandbox: Arc::new(idea_infrastructure::sandbox::FsSandboxHost::new(
            idea_domain::ports::SandboxEnvironment::default(),
        )),
        login_shell: "/bin/sh".into(),
        clock: std::sync::Arc::new(idea_infrastructure::system::SystemClock),
        mcp_bridge: None,
        worktrees: std::sync::Arc::new(idea_infrastructure::git::GitWorktrees),
        knowledge: Arc::new(idea_infrastructure::knowledge::FsKnowledgeStore::new(
            idea_domain::ports::ProjectStore::root(store.as_ref()),
            Some(tmp.join("home/.ideai")),
        )),
        tool_processes: Arc::new(idea_infrastructure::tools::ProcessToolRunner::new(None)),
        store,
    });
    (deps, spawned)
}

/// A symlink at `link` pointing to `target`.
pub fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}
