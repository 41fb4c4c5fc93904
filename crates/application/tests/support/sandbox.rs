//! The sandbox's view of the machine, in memory: a fixed environment, globs that match what
//! the test says, folders recorded instead of made.

use idea_domain::ports::{EntryKind, SandboxEnvironment, SandboxHost, SandboxSetupError};
use idea_domain::sandbox::CliStateEnv;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

#[derive(Default)]
pub struct FakeSandbox {
    /// What every glob expands to; `Err` makes the expansion fail.
    pub globs: Mutex<Option<Result<Vec<PathBuf>, String>>>,
    /// Every folder asked for.
    pub made: Mutex<Vec<PathBuf>>,
    /// What `namespaces` answers.
    pub namespaces: Mutex<bool>,
    /// `$XDG_DATA_HOME` (where agents' worktrees go), when a test sets it.
    pub data_home: Mutex<Option<PathBuf>>,
}

impl SandboxHost for FakeSandbox {
    fn environment(&self) -> SandboxEnvironment {
        SandboxEnvironment {
            cli: CliStateEnv {
                home: PathBuf::from("/home/u"),
                xdg_data_home: self.data_home.lock().unwrap().clone(),
                ..CliStateEnv::default()
            },
            tmpdir: None,
            secrets: vec![PathBuf::from("/home/u/.ideai")],
        }
    }

    fn expand(&self, _base: &Path, _glob: &str) -> Result<Vec<PathBuf>, SandboxSetupError> {
        match self.globs.lock().unwrap().clone() {
            None => Ok(vec![]),
            Some(found) => found.map_err(SandboxSetupError),
        }
    }

    fn list(&self, _dir: &Path) -> Vec<String> {
        vec![]
    }

    fn make_dirs(&self, _root: &Path, dirs: &[PathBuf]) -> Result<(), SandboxSetupError> {
        self.made.lock().unwrap().extend(dirs.iter().cloned());
        Ok(())
    }

    fn entry_kind(&self, _path: &Path) -> Option<EntryKind> {
        None
    }

    /// The limited (Landlock-only) plans, unless a test says otherwise.
    fn namespaces(&self) -> bool {
        *self.namespaces.lock().unwrap()
    }
}
