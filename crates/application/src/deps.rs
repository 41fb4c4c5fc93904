//! The collaborators every use case of one open project needs.

use crate::orchestrator::RequestRegistry;
use crate::resumes::ResumeInbox;
use crate::sessions::SessionRegistry;
use idea_domain::DomainEvent;
use idea_domain::mcp_handoff::McpBridge;
use idea_domain::ports::{
    CliHomes, Clock, EventPublisher, IdGenerator, PermissionFiles, ProfileCatalog, ProjectStore,
    SandboxHost, TurnRunner, WorktreeHost,
};
use idea_domain::terminal::TerminalHost;
use std::sync::{Arc, Mutex, MutexGuard};

/// The ports of one open project, built once by the composition root.
#[allow(missing_debug_implementations, reason = "trait objects without Debug")]
pub struct Ports {
    pub store: Arc<dyn ProjectStore>,
    pub profiles: Arc<dyn ProfileCatalog>,
    pub events: Arc<dyn EventPublisher>,
    pub ids: Arc<dyn IdGenerator>,
    pub terminals: Arc<dyn TerminalHost>,
    pub cli_homes: Arc<dyn CliHomes>,
    /// Runs one JSON-mode turn of an agent's CLI (asks).
    pub turns: Arc<dyn TurnRunner>,
    /// The user's and the project's permissions files.
    pub permissions: Arc<dyn PermissionFiles>,
    /// What an agent's kernel sandbox is compiled from (folders, globs on disk, secrets).
    pub sandbox: Arc<dyn SandboxHost>,
    /// git for agents' own worktrees.
    pub worktrees: Arc<dyn WorktreeHost>,
    /// Skills, memory, project tools, templates and the shared context.
    pub knowledge: Arc<dyn idea_domain::knowledge::KnowledgeStore>,
    /// Runs project tools' processes.
    pub tool_processes: Arc<dyn idea_domain::tool_run::ToolProcesses>,
    /// The user's login shell (`$SHELL`), for shell cells and `{loginShell}` profiles.
    pub login_shell: String,
    /// The time (usage-limit resets, resumes).
    pub clock: Arc<dyn Clock>,
    /// How agents' CLIs start `idea mcp-server`; `None` where there is no `idea` executable
    /// to point them at (agents then get the file-drop route).
    pub mcp_bridge: Option<McpBridge>,
}

/// Ports plus the project's in-memory state (live sessions, requests, the state lock). The ports are
/// reached through `Deref` (`deps.store`, `deps.events`, …).
pub struct Deps {
    ports: Ports,
    pub sessions: SessionRegistry,
    pub requests: RequestRegistry,
    /// Usage limits the state watchers saw, for the resume scheduler.
    pub resume_inbox: ResumeInbox,
    /// Project tool calls waiting for the user, and the last runs.
    pub tool_gate: crate::knowledge::tools::ToolGate,
    /// Serialises read-modify-write cycles on the state files, so two requests in flight
    /// cannot lose each other's change.
    write_lock: Mutex<()>,
}

impl std::ops::Deref for Deps {
    type Target = Ports;
    fn deref(&self) -> &Ports {
        &self.ports
    }
}

impl std::fmt::Debug for Deps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deps")
            .field("root", &self.store.root())
            .finish_non_exhaustive()
    }
}

impl Deps {
    pub fn new(ports: Ports) -> Self {
        Self {
            ports,
            sessions: SessionRegistry::default(),
            requests: RequestRegistry::default(),
            resume_inbox: ResumeInbox::default(),
            tool_gate: Default::default(),
            write_lock: Mutex::new(()),
        }
    }

    /// Held for the duration of one read-modify-write of project state.
    pub(crate) fn lock_state(&self) -> MutexGuard<'_, ()> {
        // A panic while holding the lock left no half-written file (writes are atomic).
        self.write_lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn publish(&self, event: DomainEvent) {
        self.events.publish(event);
    }
}
