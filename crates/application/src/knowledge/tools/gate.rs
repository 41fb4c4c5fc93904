//! Tool calls waiting for the user's answer, and the last runs: bounded, since agents fill
//! them.

use idea_domain::tool_run::{ToolApproval, ToolRunRecord};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Calls that may wait for the user at once; more are refused.
const MAX_PENDING: usize = 32;
/// Runs remembered for the UI.
const MAX_RECENT: usize = 50;

#[derive(Debug, Default)]
struct State {
    pending: Vec<(ToolApproval, Option<bool>)>,
    recent: VecDeque<ToolRunRecord>,
}

/// The calls waiting for the user, and the runs of this session of IdeA.
#[derive(Debug, Default)]
pub struct ToolGate {
    state: Mutex<State>,
    answered: Condvar,
}

impl ToolGate {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a call waiting for the user; `false` when too many wait already.
    pub(crate) fn open(&self, approval: ToolApproval) -> bool {
        let mut state = self.lock();
        if state.pending.len() >= MAX_PENDING {
            return false;
        }
        state.pending.push((approval, None));
        true
    }

    /// Waits for the answer to `id`, at most `timeout`; the call is then forgotten.
    pub(crate) fn wait(&self, id: &str, timeout: Duration) -> Option<bool> {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            let answer = state
                .pending
                .iter()
                .find(|(a, _)| a.approval_id == id)
                .and_then(|(_, answer)| *answer);
            let left = deadline.saturating_duration_since(Instant::now());
            if answer.is_some() || left.is_zero() {
                state.pending.retain(|(a, _)| a.approval_id != id);
                return answer;
            }
            state = self
                .answered
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Answers `id`; `false` when no call waits under it.
    pub(crate) fn answer(&self, id: &str, allow: bool) -> bool {
        let mut state = self.lock();
        let Some(entry) = state
            .pending
            .iter_mut()
            .find(|(a, answer)| a.approval_id == id && answer.is_none())
        else {
            return false;
        };
        entry.1 = Some(allow);
        self.answered.notify_all();
        true
    }

    /// The calls waiting, oldest first.
    pub fn pending(&self) -> Vec<ToolApproval> {
        self.lock()
            .pending
            .iter()
            .filter(|(_, answer)| answer.is_none())
            .map(|(a, _)| a.clone())
            .collect()
    }

    pub(crate) fn remember(&self, record: ToolRunRecord) {
        let mut state = self.lock();
        state.recent.push_front(record);
        state.recent.truncate(MAX_RECENT);
    }

    /// The last runs, newest first.
    pub fn recent(&self) -> Vec<ToolRunRecord> {
        self.lock().recent.iter().cloned().collect()
    }
}
