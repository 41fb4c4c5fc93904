//! One throwaway world per test: a project with a run dir, a fake HOME, a sibling folder of
//! the project, all in a folder no plan grants (never under `/tmp`, even from a checkout
//! there: `world_dir`).

use crate::world_dir::{WorldDir, world_dir};
use idea_domain::sandbox::SandboxPlan;
use idea_infrastructure::sandbox::{REQUIRED_ABI, kernel_abi};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const IDEA: &str = env!("CARGO_BIN_EXE_idea");

/// The sandbox helper as IdeA runs it: `idea-sandbox-exec` beside `idea` (the desktop build of
/// `idea` is threaded and cannot enter a user namespace), else `idea` itself.
pub fn helper() -> std::path::PathBuf {
    let beside = std::path::Path::new(IDEA).with_file_name("idea-sandbox-exec");
    if beside.is_file() {
        beside
    } else {
        IDEA.into()
    }
}

pub struct World {
    _dir: WorldDir,
    pub root: PathBuf,
    pub project: PathBuf,
    pub run_dir: PathBuf,
    pub home: PathBuf,
    pub sibling: PathBuf,
}

pub fn world() -> World {
    let dir = world_dir("sandbox-");
    let root = dir.path().canonicalize().unwrap();
    let project = root.join("proj");
    let run_dir = project.join(".ideai/run/agent-a");
    let home = root.join("home");
    let sibling = root.join("sibling");
    for d in [&run_dir, &home, &sibling] {
        fs::create_dir_all(d).unwrap();
    }
    World {
        _dir: dir,
        root,
        project,
        run_dir,
        home,
        sibling,
    }
}

impl World {
    /// Writes in the project and the run dir (and `/dev/null`), scopes on.
    pub fn plan(&self) -> SandboxPlan {
        SandboxPlan {
            write_roots: vec![
                self.project.clone(),
                self.run_dir.clone(),
                PathBuf::from("/dev/null"),
            ],
            scope_signals: true,
            scope_abstract_unix: true,
            ..SandboxPlan::default()
        }
    }

    pub fn plan_file(&self, plan: &SandboxPlan) -> PathBuf {
        let file = self
            .root
            .join(format!("plan-{}.json", uuid::Uuid::new_v4()));
        fs::write(&file, serde_json::to_vec(plan).unwrap()).unwrap();
        file
    }

    /// `sh -c script` through `idea sandbox-exec --plan`, with `HOME` the fake home and the
    /// project as working directory.
    pub fn run(&self, plan: &SandboxPlan, script: &str) -> Output {
        let file = self.plan_file(plan);
        self.command(&file, script).output().unwrap()
    }

    pub fn command(&self, plan_file: &Path, script: &str) -> Command {
        let mut command = Command::new(helper());
        command
            .args(["sandbox-exec", "--plan"])
            .arg(plan_file)
            .args(["--", "sh", "-c", script])
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("IDEA_SANDBOX_REQUIRE_ABI");
        command
    }
}

/// Whether this kernel can enforce plans; says so loudly when it cannot.
pub fn landlock() -> bool {
    let abi = kernel_abi();
    if abi.is_some_and(|a| a >= REQUIRED_ABI) {
        return true;
    }
    eprintln!(
        "SKIPPED: this kernel offers Landlock ABI {abi:?}, the sandbox needs ABI {REQUIRED_ABI}"
    );
    false
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A shell line that tries to create `path` and prints `DENIED <path>` when refused with
/// "Permission denied" (EACCES: Landlock) or "Read-only file system" (EROFS: a read-only mount
/// of the namespace sandbox), `WROTE <path>` when it could.
pub fn try_write(path: &Path) -> String {
    let p = path.display();
    format!(
        "if (echo x > '{p}') 2>/dev/null; then echo 'WROTE {p}'; \
         elif (echo x > '{p}') 2>&1 | grep -qE 'Permission denied|Read-only file system'; \
         then echo 'DENIED {p}'; else echo 'OTHER {p}'; fi; "
    )
}

/// Same for reading.
pub fn try_read(path: &Path) -> String {
    let p = path.display();
    format!(
        "if cat '{p}' >/dev/null 2>&1; then echo 'READ {p}'; \
         elif cat '{p}' 2>&1 | grep -q 'Permission denied'; then echo 'DENIED {p}'; \
         else echo 'OTHER {p}'; fi; "
    )
}

/// A path nobody else will create.
pub fn unique(dir: &Path) -> PathBuf {
    dir.join(format!("idea-sandbox-probe-{}", uuid::Uuid::new_v4()))
}
