//! Port traits: the seams where the application meets I/O. Each has a real adapter in
//! `idea-infrastructure` and an in-memory fake in the application's tests.

use crate::conversation::ConversationProviders;
use crate::event::DomainEvent;
use crate::ids::{AgentId, ConversationId};
use crate::invocation::SavedConversation;
use crate::layout::Layouts;
use crate::manifest::AgentManifest;
use crate::permissions::PermissionScope;
use crate::profile::{AgentProfile, CliHome, ProfileId};
use crate::project::Project;
use crate::terminal::{ExitInfo, PtyError};
use crate::turn::{TurnEvent, TurnInvocation, TurnOutcome};
use crate::worktree::{ChangedFile, PullRequest, WorktreeError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use uuid::Uuid;

/// Why a store could not read or write a state file. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The folder has no `.ideai/project.json`.
    #[error("{0} is not an IdeA project (run `idea init` there first)")]
    NotAProject(PathBuf),
    /// The file exists but cannot be understood; it is left untouched.
    #[error("{path} is corrupt: {reason} (the file was left untouched)")]
    Corrupt { path: PathBuf, reason: String },
    /// The file was written by a newer IdeA; it is left untouched.
    #[error(
        "{path} has schema version {found}, newer than the {supported} this IdeA understands (the file was left untouched)"
    )]
    NewerSchema {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    /// A path in the project's state is a symbolic link (or not a regular file): a cloned
    /// repository can commit one pointing anywhere, so IdeA neither reads nor writes through it.
    #[error(
        "{path} is {reason}; IdeA does not follow it out of the project (nothing was read or written through it)"
    )]
    UnsafePath { path: PathBuf, reason: &'static str },
    /// A file-system operation failed (permissions, full disk…).
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Reads and writes one project's `.ideai/` state. Writes are atomic: a crash or a full disk
/// leaves the previous file whole.
pub trait ProjectStore: Send + Sync {
    /// The project's root folder.
    fn root(&self) -> PathBuf;
    /// # Errors
    /// [`StoreError::NotAProject`] when `project.json` is absent; corrupt/newer files.
    fn load_project(&self) -> Result<Project, StoreError>;
    /// # Errors
    /// On I/O failure.
    fn save_project(&self, project: &Project) -> Result<(), StoreError>;
    /// An absent manifest is an empty one.
    ///
    /// # Errors
    /// Corrupt or newer files, I/O failure.
    fn load_manifest(&self) -> Result<AgentManifest, StoreError>;
    /// # Errors
    /// On I/O failure.
    fn save_manifest(&self, manifest: &AgentManifest) -> Result<(), StoreError>;
    /// The persona at `md_path` (relative to `.ideai/`); `None` when the file is absent.
    ///
    /// # Errors
    /// An invalid path or an I/O failure.
    fn read_persona(&self, md_path: &str) -> Result<Option<String>, StoreError>;
    /// # Errors
    /// An invalid path or an I/O failure.
    fn write_persona(&self, md_path: &str, content: &str) -> Result<(), StoreError>;
    /// Whether a persona file exists (kept from a deleted agent, or hand-written).
    fn persona_exists(&self, md_path: &str) -> bool;
    /// `None` when `layouts.json` is absent.
    ///
    /// # Errors
    /// Corrupt or newer files, I/O failure.
    fn load_layouts(&self) -> Result<Option<Layouts>, StoreError>;
    /// # Errors
    /// On I/O failure.
    fn save_layouts(&self, layouts: &Layouts) -> Result<(), StoreError>;
    /// `.ideai/resumes.json`; `None` when absent.
    fn load_resumes(&self) -> Result<Option<crate::resume::Resumes>, StoreError>;
    /// Writes `.ideai/resumes.json` atomically.
    fn save_resumes(&self, resumes: &crate::resume::Resumes) -> Result<(), StoreError>;
    /// `.ideai/CONTEXT.md`, `None` when absent.
    ///
    /// # Errors
    /// On I/O failure.
    fn read_project_context(&self) -> Result<Option<String>, StoreError>;
    /// Makes sure the project's `.gitignore` ignores `.ideai/run/` (appends the line when absent).
    ///
    /// # Errors
    /// On I/O failure.
    fn ensure_run_dir_ignored(&self) -> Result<(), StoreError>;
    /// Creates (if needed) and returns the agent's isolated run dir `.ideai/run/<agentId>/`.
    ///
    /// # Errors
    /// On I/O failure.
    fn prepare_run_dir(&self, agent: AgentId) -> Result<PathBuf, StoreError>;
    /// Writes a generated file (convention file, per-CLI config) atomically. `path` must lie
    /// inside the project root.
    ///
    /// # Errors
    /// A path outside the project, or an I/O failure.
    fn write_generated(&self, path: &std::path::Path, content: &str) -> Result<(), StoreError>;
    /// Seeds a per-CLI config file in `agent`'s run dir: written when absent or still as IdeA
    /// last wrote it; a file the user created or edited is kept as it is.
    ///
    /// # Errors
    /// A path outside the run dir, or an I/O failure.
    fn seed_file(
        &self,
        agent: AgentId,
        path: &std::path::Path,
        content: &str,
    ) -> Result<SeedOutcome, StoreError>;
    /// `.ideai/conversations/<id>/providers.json`; absent is empty.
    ///
    /// # Errors
    /// Corrupt or newer files (an id that is not plain is corrupt), a link, I/O failure.
    fn load_providers(&self, id: ConversationId) -> Result<ConversationProviders, StoreError>;
    /// # Errors
    /// A link in the way, I/O failure.
    fn save_providers(
        &self,
        id: ConversationId,
        providers: &ConversationProviders,
    ) -> Result<(), StoreError>;
    /// `.ideai/conversations/<id>/handoff.json`; absent is `None`.
    ///
    /// # Errors
    /// Corrupt or newer files, a link, I/O failure.
    fn load_handoff(
        &self,
        id: ConversationId,
    ) -> Result<Option<crate::handoff::StoredHandoff>, StoreError>;
    /// # Errors
    /// A link in the way, I/O failure.
    fn save_handoff(
        &self,
        id: ConversationId,
        handoff: &crate::handoff::StoredHandoff,
    ) -> Result<(), StoreError>;
    /// What changed in the project's working tree since its last commit (`git diff --stat
    /// HEAD`), bounded; `None` outside a git repository or when git fails.
    fn work_in_progress(&self) -> Option<String>;
}

/// What [`ProjectStore::seed_file`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedOutcome {
    Written,
    Unchanged,
    /// The user changed the file (or made it); IdeA left it alone.
    KeptUserEdit,
}

/// What [`CliHomes::trust_folder`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustOutcome {
    Recorded,
    AlreadyTrusted,
    /// The CLI's config could not be understood; it was left untouched (the CLI will ask).
    LeftUnreadableConfig,
}

/// The agent CLIs' own user-level state (in the user's home).
pub trait CliHomes: Send + Sync {
    /// Records `folder` as trusted in the CLI's config, keeping everything else in it.
    ///
    /// # Errors
    /// An I/O failure.
    fn trust_folder(&self, home: CliHome, folder: &Path) -> Result<TrustOutcome, StoreError>;
    /// What the CLI saved under conversation `id`, as seen from `cwd` (some CLIs resume only
    /// from the folder a conversation started in).
    fn conversation(&self, home: CliHome, cwd: &Path, id: &str) -> SavedConversation;
    /// The id of the CLI's most recent saved conversation started in `cwd`.
    fn latest_conversation(&self, home: CliHome, cwd: &Path) -> Option<String>;
    /// What the CLI still needs before it can start for this user (onboarding, a login, an
    /// API key), in a sentence that says how to fix it; `None` when it looks ready. `env` is
    /// what the launch adds to the inherited environment.
    fn setup_problem(&self, home: CliHome, env: &BTreeMap<String, String>) -> Option<String>;
    /// The messages of conversation `id` as the CLI saved them (text only, oldest first, from
    /// the end of a huge file); empty when it saved none IdeA can read.
    fn exchanges(&self, home: CliHome, cwd: &Path, id: &str) -> Vec<crate::handoff::Exchange>;
    /// The title, last activity and number of asks of conversation `id`, when the CLI saved
    /// it where IdeA can read it.
    fn glance(
        &self,
        home: CliHome,
        cwd: &Path,
        id: &str,
    ) -> Option<crate::conversation::ConversationGlance>;
    /// The usage limit conversation `id`'s file ends in (Claude Code's transcript, a Codex
    /// rollout), with the structured reset the CLI recorded there; `None` when it ends in none.
    fn limit_at_end(
        &self,
        home: CliHome,
        cwd: &Path,
        id: &str,
    ) -> Option<crate::limits::LimitSighting>;
    /// The usage limit conversation `id`'s file ends in, read only when the file changed since
    /// the last call for `id` (the first call reads it): how a limit the screen did not show
    /// is still seen. Cheap when nothing changed (a `stat`).
    fn limit_in_changed_file(
        &self,
        home: CliHome,
        cwd: &Path,
        id: &str,
    ) -> Option<crate::limits::LimitSighting>;
}

/// A user profile entry that could not be loaded (reported, then skipped).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ProfileProblem {
    /// The file the entry came from.
    pub source: PathBuf,
    /// What is wrong, naming the entry.
    pub message: String,
}

/// The merged catalogue of runtime profiles: built-ins overridden or extended by the user's.
pub trait ProfileCatalog: Send + Sync {
    /// Every profile, built-ins first in catalogue order, then user additions.
    fn profiles(&self) -> Vec<AgentProfile>;
    /// Entries that were skipped, with why.
    fn problems(&self) -> Vec<ProfileProblem>;
    /// One profile by id.
    fn get(&self, id: &ProfileId) -> Option<AgentProfile> {
        self.profiles().into_iter().find(|p| &p.id == id)
    }
    /// Whether `profile`'s program can be found (on the `PATH` an agent would get). True when
    /// the catalogue cannot tell.
    fn is_installed(&self, _profile: &AgentProfile) -> bool {
        true
    }
}

/// One permissions file as read now.
#[derive(Debug)]
pub struct PermissionText {
    pub scope: PermissionScope,
    pub path: PathBuf,
    /// The file's text; `Ok(None)` when it does not exist.
    pub text: Result<Option<String>, StoreError>,
}

/// The permission files: `~/.ideai/permissions.json` and the project's
/// `.ideai/permissions.json`. Read on every call, as people edit them by hand.
pub trait PermissionFiles: Send + Sync {
    /// The user's file, then the project's (a file that cannot be read says why).
    fn read(&self) -> Vec<PermissionText>;
    /// Replaces the project's file atomically.
    ///
    /// # Errors
    /// A link in the way, I/O failure.
    fn write_project(&self, text: &str) -> Result<(), StoreError>;
    /// The user's home folder, for `~/` in rules; `None` when unknown.
    fn home(&self) -> Option<PathBuf>;
}

/// What an agent's sandbox needs from the machine before a plan can be compiled and enforced:
/// where things are, the files a glob names now, the folders the CLI must find already made.
pub trait SandboxHost: Send + Sync {
    /// Where the CLIs keep their state, the temp dir, IdeA's own secrets.
    fn environment(&self) -> SandboxEnvironment;
    /// The paths under `base` (absolute) that `glob` (relative to it, `*` within one folder,
    /// `**` across folders) matches now; links are not followed, a matched folder is not
    /// entered.
    ///
    /// # Errors
    /// An invalid glob, or too many entries to look through (the agent must not start with
    /// a denial silently dropped).
    fn expand(&self, base: &Path, glob: &str) -> Result<Vec<PathBuf>, SandboxSetupError>;
    /// The entry names of `dir` (empty when it cannot be read or does not exist).
    fn list(&self, dir: &Path) -> Vec<String>;
    /// Makes the folders that do not exist yet, private to the user; those inside
    /// `project_root` without following a link.
    ///
    /// # Errors
    /// A folder that cannot be made.
    fn make_dirs(&self, project_root: &Path, dirs: &[PathBuf]) -> Result<(), SandboxSetupError>;
    /// What `path` is, without following a final link; `None` when it does not exist.
    fn entry_kind(&self, path: &Path) -> Option<EntryKind>;
    /// Whether the sandbox helper can set up a user and mount namespace on this machine
    /// (tried once, not guessed from settings). Without, plans are Landlock-only (limited).
    fn namespaces(&self) -> bool;
}

/// See [`SandboxHost::entry_kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Dir,
    File,
    Link,
}

/// See [`SandboxHost::environment`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxEnvironment {
    pub cli: crate::sandbox::CliStateEnv,
    /// `$TMPDIR`, when set.
    pub tmpdir: Option<PathBuf>,
    /// Never readable by an agent: the user's IdeA folder (tokens, profiles, logs), a token
    /// file.
    pub secrets: Vec<PathBuf>,
}

/// Why an agent's sandbox could not be prepared: it does not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SandboxSetupError(pub String);

/// Receives every domain event (the UI's event stream, logs, tests).
pub trait EventPublisher: Send + Sync {
    fn publish(&self, event: DomainEvent);
}

/// The time, as the application sees it: a usage limit's reset and the resumes after it are
/// reckoned against it, and tests advance a fake one.
pub trait Clock: Send + Sync {
    /// Unix seconds now.
    fn now(&self) -> u64;
    /// The machine's time zone: Codex and Claude print some reset times in local time.
    fn zone(&self) -> jiff::tz::TimeZone {
        jiff::tz::TimeZone::UTC
    }
}

/// Mints fresh uuids; deterministic in tests.
pub trait IdGenerator: Send + Sync {
    fn new_uuid(&self) -> Uuid;
}

/// Receives a turn's events as the CLI reports them.
pub type TurnEventSink = Box<dyn Fn(TurnEvent) + Send + Sync>;

/// How a turn's process ended, and what its output came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnExit {
    pub outcome: TurnOutcome,
    /// `stopped` when IdeA killed it (timeout, cancel).
    pub exit: ExitInfo,
}

/// Runs one JSON-mode turn as a child process with no terminal: stdin at `/dev/null`, in a
/// process group of its own, its stdout read line by line by the reader of `invocation.cli`
/// (the adapter parses, so the application sees only events and the outcome).
pub trait TurnRunner: Send + Sync {
    /// Starts the turn; `on_event` receives its events in order, on another thread.
    ///
    /// # Errors
    /// [`PtyError::CommandNotFound`], [`PtyError::SpawnFailed`].
    fn start(
        &self,
        invocation: &TurnInvocation,
        on_event: TurnEventSink,
    ) -> Result<Arc<dyn RunningTurn>, PtyError>;
}

/// A turn in progress.
pub trait RunningTurn: Send + Sync {
    /// Waits up to `timeout` for the process to end and its output to be read; `None` while
    /// it still runs.
    fn wait(&self, timeout: Duration) -> Option<TurnExit>;
    /// Ends it: SIGTERM to its process group, then SIGKILL if it is still there.
    fn kill(&self);
}

/// git for agents' worktrees (`docs/worktrees.md`): the git command line in the real adapter.
/// `repo` is the project's root (the user's checkout), `dir` an agent's worktree folder.
pub trait WorktreeHost: Send + Sync {
    /// The commit `reference` names.
    ///
    /// # Errors
    /// `UnknownRef`, `NotARepository`, git's own failure.
    fn resolve_commit(&self, repo: &Path, reference: &str) -> Result<String, WorktreeError>;
    /// The branch checked out in `repo`; `None` when its HEAD is detached.
    ///
    /// # Errors
    /// `NotARepository`, git's own failure.
    fn current_branch(&self, repo: &Path) -> Result<Option<String>, WorktreeError>;
    /// Whether `refs/heads/<branch>` exists.
    ///
    /// # Errors
    /// git's own failure.
    fn branch_exists(&self, repo: &Path, branch: &str) -> Result<bool, WorktreeError>;
    /// Adds the worktree `dir` on a new `branch` from `base_commit`, then sets it up: the
    /// ignored files `.worktreeinclude` names copied in, `links` (folders of the project)
    /// linked. Nothing is left behind when adding fails.
    ///
    /// # Errors
    /// `BranchTaken`, `NotARepository`, git's own failure.
    fn add(
        &self,
        repo: &Path,
        dir: &Path,
        branch: &str,
        base_commit: &str,
        links: &[String],
    ) -> Result<(), WorktreeError>;
    /// Whether `dir` is a worktree of `repo` (git's own list says so).
    fn is_worktree_of(&self, repo: &Path, dir: &Path) -> bool;
    /// What the worktree changed since it left `base_commit` (committed, staged, unstaged,
    /// untracked), read with a temporary index.
    ///
    /// # Errors
    /// `UnknownRef`, git's own failure.
    fn changed_files(
        &self,
        dir: &Path,
        base_commit: &str,
    ) -> Result<Vec<ChangedFile>, WorktreeError>;
    /// The unified diff of one changed file, as [`Self::changed_files`] sees it.
    ///
    /// # Errors
    /// `UnknownRef`, git's own failure.
    fn file_diff(&self, dir: &Path, base_commit: &str, path: &str)
    -> Result<String, WorktreeError>;
    /// Commits `base_ref` has that the worktree's HEAD lacks.
    ///
    /// # Errors
    /// `UnknownRef`, git's own failure.
    fn behind_base(&self, dir: &Path, base_ref: &str) -> Result<u64, WorktreeError>;
    /// The worktree of `repo` that has `branch` checked out, if any.
    ///
    /// # Errors
    /// git's own failure.
    fn checkout_of(&self, repo: &Path, branch: &str) -> Result<Option<PathBuf>, WorktreeError>;
    /// The files that would conflict if everything in `dir` (uncommitted work included) were
    /// merged into `base_branch`.
    ///
    /// # Errors
    /// `UnknownRef`, git's own failure.
    fn conflicts(
        &self,
        repo: &Path,
        dir: &Path,
        base_branch: &str,
    ) -> Result<Vec<String>, WorktreeError>;
    /// Squashes everything in `dir` into `base_branch` as one commit with `message`. With
    /// `checkout` (a clean worktree that has the branch checked out) git's own fast-forward
    /// updates it; otherwise the branch moves only if nobody moved it meanwhile. No
    /// checkout of another branch anywhere. Returns the commit.
    ///
    /// # Errors
    /// `Conflicts`, `Moved`, `CheckoutDirty`, `InProgress`, git's own failure.
    fn squash(
        &self,
        repo: &Path,
        dir: &Path,
        base_branch: &str,
        message: &str,
        checkout: Option<&Path>,
    ) -> Result<String, WorktreeError>;
    /// Saves the worktree's uncommitted work under `refs/idea/wip/<slug>` and removes its
    /// folder; the branch stays. Returns the saved commit.
    ///
    /// # Errors
    /// `InProgress`, git's own failure (nothing removed unless the work was saved).
    fn archive(&self, repo: &Path, dir: &Path, slug: &str) -> Result<String, WorktreeError>;
    /// Adds the worktree again on `branch`, puts its saved work back and sets it up again as
    /// [`Self::add`] does (ignored files are not in the saved work).
    ///
    /// # Errors
    /// `UnknownRef` (nothing saved), git's own failure.
    fn restore(
        &self,
        repo: &Path,
        dir: &Path,
        branch: &str,
        slug: &str,
        links: &[String],
    ) -> Result<(), WorktreeError>;
    /// Rebases the worktree's branch onto `base_ref`, its uncommitted work set aside and put
    /// back. Returns the files that conflict (the rebase then stays in progress); empty when
    /// done.
    ///
    /// # Errors
    /// `InProgress`, `UnknownRef`, git's own failure.
    fn rebase(&self, dir: &Path, base_ref: &str) -> Result<Vec<String>, WorktreeError>;
    /// Abandons the rebase in progress in `dir`.
    ///
    /// # Errors
    /// git's own failure (none in progress).
    fn abort_rebase(&self, dir: &Path) -> Result<(), WorktreeError>;
    /// Pushes `branch` and opens a pull request onto `base` with `gh`, when `gh` is installed
    /// and logged in; otherwise the commands that would.
    ///
    /// # Errors
    /// git's own failure before anything was pushed.
    fn pull_request(
        &self,
        dir: &Path,
        branch: &str,
        base: &str,
        title: &str,
    ) -> Result<PullRequest, WorktreeError>;
    /// Deletes `branch` (never forced: git refuses one whose work is not merged).
    ///
    /// # Errors
    /// git's refusal.
    fn delete_branch(
        &self,
        repo: &Path,
        branch: &str,
        merged_into: &str,
    ) -> Result<bool, WorktreeError>;
    /// Drops the work saved under `refs/idea/wip/<slug>` when it holds nothing beyond
    /// `branch`'s tip (nothing was uncommitted); whether it was dropped.
    ///
    /// # Errors
    /// git's own failure.
    fn drop_empty_saved_work(
        &self,
        repo: &Path,
        branch: &str,
        slug: &str,
    ) -> Result<bool, WorktreeError>;
    /// Whether the `count` ports from `first` can all be bound on the loopback now (a
    /// worktree's block for its dev servers).
    fn ports_free(&self, first: u16, count: u16) -> bool;
    /// The folders of the main repository a commit in `dir` writes: its objects, refs and
    /// logs, and the worktree's own admin folder (`.git/worktrees/<name>`).
    ///
    /// # Errors
    /// `NotARepository`, git's own failure.
    fn git_write_dirs(&self, dir: &Path) -> Result<Vec<PathBuf>, WorktreeError>;
}
