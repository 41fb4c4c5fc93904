//! The live-session registry: which terminal runs in which cell, for which agent.

use idea_domain::agent_state::{Signal, StateTracker};
use idea_domain::terminal::{
    ExitInfo, SessionInfo, SessionStatus, TerminalSession, TerminalSize, Viewers,
};
use idea_domain::{AgentId, CellRef, LayoutId, NodeId, SessionId};
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One session: what the UI sees, and the terminal itself.
#[derive(Clone)]
pub(crate) struct Entry {
    pub info: SessionInfo,
    pub terminal: Arc<dyn TerminalSession>,
    /// Its cell is gone: forget the session as soon as it has exited.
    pub discard_on_exit: bool,
    /// It reopened an earlier conversation (a Resume plan).
    pub resumed: bool,
    pub started: Instant,
    pub ended: Option<Instant>,
    /// Combines the signals into `info.state`.
    pub tracker: StateTracker,
    /// The clients showing it and the size they share.
    pub viewers: Arc<Mutex<Viewers>>,
    /// Typed once it is idle: the nudge of a relaunch after a usage limit.
    pub nudge: Option<String>,
}

impl Entry {
    pub(crate) fn new(
        info: SessionInfo,
        terminal: Arc<dyn TerminalSession>,
        size: TerminalSize,
        resumed: bool,
    ) -> Self {
        Self {
            info,
            terminal,
            discard_on_exit: false,
            resumed,
            started: Instant::now(),
            ended: None,
            tracker: StateTracker::new(),
            viewers: Arc::new(Mutex::new(Viewers::new(size))),
            nudge: None,
        }
    }

    /// How long the process ran, once it has exited.
    pub(crate) fn ran_for(&self) -> Option<Duration> {
        self.ended.map(|end| end.duration_since(self.started))
    }
}

/// Every session of the open project, live or exited (an exited one stays until its cell
/// gets a new session, so the UI can show its exit code).
#[derive(Default, Clone)]
pub struct SessionRegistry {
    entries: Arc<Mutex<HashMap<SessionId, Entry>>>,
    /// Notified on every exit, for [`Self::wait_exited`].
    exited: Arc<Condvar>,
    /// Held across a whole launch so two launches of one agent cannot both spawn.
    launch: Arc<Mutex<()>>,
}

impl std::fmt::Debug for SessionRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionRegistry").finish_non_exhaustive()
    }
}

impl SessionRegistry {
    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn lock_launch(&self) -> MutexGuard<'_, ()> {
        self.launch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn insert(&self, entry: Entry) {
        self.lock().insert(entry.info.session_id, entry);
    }

    pub(crate) fn get(&self, id: SessionId) -> Option<Entry> {
        self.lock().get(&id).cloned()
    }

    /// The running session of `agent`, wherever it is.
    pub(crate) fn live_of_agent(&self, agent: AgentId) -> Option<Entry> {
        self.lock()
            .values()
            .find(|e| e.info.agent_id == Some(agent) && e.info.status == SessionStatus::Running)
            .cloned()
    }

    /// The session (live or exited) of a cell.
    pub(crate) fn of_cell(&self, cell: CellRef) -> Option<Entry> {
        self.lock()
            .values()
            .find(|e| e.info.cell == Some(cell))
            .cloned()
    }

    /// Forgets a cell's exited session (a new one takes the cell).
    pub(crate) fn remove_exited_of_cell(&self, cell: CellRef) {
        self.lock()
            .retain(|_, e| !(e.info.cell == Some(cell) && e.info.status == SessionStatus::Exited));
    }

    /// Records an exit; returns the session's info the first time only (so each exit is
    /// published once), `None` for an unknown or already exited session.
    pub(crate) fn mark_exited(&self, id: SessionId, exit: ExitInfo) -> Option<SessionInfo> {
        let mut entries = self.lock();
        let entry = entries
            .get_mut(&id)
            .filter(|e| e.info.status == SessionStatus::Running)?;
        entry.info.status = SessionStatus::Exited;
        if let Some(report) = entry.tracker.exit(&exit) {
            entry.info.set_state(&report);
        }
        entry.info.exit = Some(exit);
        entry.ended = Some(Instant::now());
        let info = entry.info.clone();
        if entry.discard_on_exit {
            entries.remove(&id);
        }
        self.exited.notify_all();
        Some(info)
    }

    /// Types `nudge` into the session once it is idle (see [`Self::take_nudge`]).
    pub(crate) fn nudge_when_idle(&self, id: SessionId, nudge: String) {
        if let Some(entry) = self.lock().get_mut(&id) {
            entry.nudge = Some(nudge);
        }
    }

    /// The session's pending nudge and its terminal, once (it is then forgotten).
    pub(crate) fn take_nudge(&self, id: SessionId) -> Option<(Arc<dyn TerminalSession>, String)> {
        let mut entries = self.lock();
        let entry = entries
            .get_mut(&id)
            .filter(|e| e.info.status == SessionStatus::Running)?;
        let nudge = entry.nudge.take()?;
        Some((Arc::clone(&entry.terminal), nudge))
    }

    /// Applies a signal to a running session's state; its info when the state changed.
    pub(crate) fn apply_signal(&self, id: SessionId, signal: Signal) -> Option<SessionInfo> {
        let mut entries = self.lock();
        let entry = entries.get_mut(&id)?;
        let report = entry.tracker.apply(signal)?;
        entry.info.set_state(&report);
        Some(entry.info.clone())
    }

    /// The sessions of cells that no longer exist: forgotten once exited (at once when they
    /// already have). Returns the running ones, now shown in no cell, for the caller to stop.
    pub(crate) fn discard_cells(&self, gone: impl Fn(CellRef) -> bool) -> Vec<Entry> {
        let gone = |info: &SessionInfo| info.cell.is_some_and(&gone);
        let mut entries = self.lock();
        entries.retain(|_, e| !(gone(&e.info) && e.info.status == SessionStatus::Exited));
        let mut running = Vec::new();
        for entry in entries.values_mut().filter(|e| gone(&e.info)) {
            entry.discard_on_exit = true;
            entry.info.cell = None;
            running.push(entry.clone());
        }
        running
    }

    /// Moves the sessions of cells `a` and `b` to each other's cell; returns their new infos.
    pub(crate) fn swap_cells(&self, layout: LayoutId, a: NodeId, b: NodeId) -> Vec<SessionInfo> {
        let mut entries = self.lock();
        let mut moved = Vec::new();
        for entry in entries.values_mut() {
            let Some(cell) = entry.info.cell.filter(|c| c.layout_id == layout) else {
                continue;
            };
            let to = match cell.node_id {
                n if n == a => b,
                n if n == b => a,
                _ => continue,
            };
            entry.info.cell = Some(CellRef::new(layout, to));
            moved.push(entry.info.clone());
        }
        moved
    }

    /// Waits until session `id` has exited (or is gone); `false` if it still runs after
    /// `timeout`.
    pub(crate) fn wait_exited(&self, id: SessionId, timeout: Duration) -> bool {
        let running = |entries: &mut HashMap<SessionId, Entry>| {
            entries
                .get(&id)
                .is_some_and(|e| e.info.status == SessionStatus::Running)
        };
        let (_entries, wait) = self
            .exited
            .wait_timeout_while(self.lock(), timeout, running)
            .unwrap_or_else(PoisonError::into_inner);
        !wait.timed_out()
    }

    /// Every session, ordered by cell for stable output.
    pub fn list(&self) -> Vec<SessionInfo> {
        let mut all: Vec<SessionInfo> = self.lock().values().map(|e| e.info.clone()).collect();
        all.sort_by_key(|i| (i.cell, i.session_id));
        all
    }

    pub(crate) fn running(&self) -> Vec<Entry> {
        self.lock()
            .values()
            .filter(|e| e.info.status == SessionStatus::Running)
            .cloned()
            .collect()
    }
}
