//! Project use cases: make a folder an IdeA project, open one.

use crate::error::AppResult;
use idea_domain::ports::{IdGenerator, ProjectStore, StoreError};
use idea_domain::project::{PROJECT_VERSION, ProjectPath};
use idea_domain::{Project, ProjectId};

/// What `init` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Initialised {
    pub project: Project,
    /// False when the folder already was a project (init is idempotent).
    pub created: bool,
}

/// InitProject: creates `.ideai/project.json` unless present and git-ignores `.ideai/run/`.
/// Runs before a project's `Deps` exist, so it takes the two ports it needs.
///
/// # Errors
/// A corrupt existing `project.json` (left untouched), I/O errors.
pub fn init(
    store: &dyn ProjectStore,
    ids: &dyn IdGenerator,
    root: &ProjectPath,
) -> AppResult<Initialised> {
    let (project, created) = match store.load_project() {
        Ok(project) => (project, false),
        Err(StoreError::NotAProject(_)) => {
            let project = Project {
                version: PROJECT_VERSION,
                id: ProjectId(ids.new_uuid()),
                name: root.folder_name(),
                resume_nudge: None,
                worktrees: Default::default(),
            };
            store.save_project(&project)?;
            (project, true)
        }
        Err(other) => return Err(other.into()),
    };
    store.ensure_run_dir_ignored()?;
    Ok(Initialised { project, created })
}

/// OpenProject: checks that the folder is a readable project.
///
/// # Errors
/// `NOT_A_PROJECT`, `CORRUPT_FILE`, `NEWER_SCHEMA`, I/O errors.
pub fn open(store: &dyn ProjectStore) -> AppResult<Project> {
    Ok(store.load_project()?)
}

/// SetResumeNudge: what IdeA types to an agent whose usage limit has reset (`None`: the
/// built-in nudge).
///
/// # Errors
/// `INVALID_PARAMS` (not a one-line nudge, see [`idea_domain::project::nudge_text`]), store
/// errors.
pub fn set_resume_nudge(deps: &crate::Deps, text: Option<&str>) -> AppResult<Project> {
    let nudge = text
        .map(idea_domain::project::nudge_text)
        .transpose()
        .map_err(crate::AppError::InvalidParams)?;
    let _guard = deps.lock_state();
    let mut project = deps.store.load_project()?;
    project.resume_nudge = nudge;
    deps.store.save_project(&project)?;
    Ok(project)
}

/// The nudge typed at a reset: the project's, else the built-in one.
pub(crate) fn resume_nudge(deps: &crate::Deps) -> String {
    match deps.store.load_project() {
        Ok(Project {
            resume_nudge: Some(text),
            ..
        }) => text,
        _ => idea_domain::resume::DEFAULT_NUDGE.to_owned(),
    }
}
