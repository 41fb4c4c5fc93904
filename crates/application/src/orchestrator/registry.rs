//! The requests of the open project: their records (the last [`KEEP`] finished ones, and
//! every one still in flight), one first-in-first-out line per target agent, the running
//! turns (to cancel them), and the "who waits for whom" that refuses a deadlock.

use idea_domain::orchestrator::{RequestRecord, RequestState, Requester};
use idea_domain::ports::RunningTurn;
use idea_domain::{AgentId, RequestId};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How many finished requests `listRequests` keeps.
pub const KEEP: usize = 200;

#[derive(Default)]
struct Requests {
    /// In creation order.
    records: VecDeque<RequestRecord>,
    /// Per target agent, its requests not yet over, in arrival order: the first one runs.
    lines: HashMap<AgentId, VecDeque<RequestId>>,
    turns: HashMap<RequestId, Arc<dyn RunningTurn>>,
    cancelled: HashSet<RequestId>,
}

impl Requests {
    fn record_mut(&mut self, id: RequestId) -> Option<&mut RequestRecord> {
        self.records.iter_mut().rev().find(|r| r.request_id == id)
    }

    /// Whether `from` already waits, directly or through others, for `to`.
    fn waits_for(&self, from: AgentId, to: AgentId) -> bool {
        let mut seen = HashSet::new();
        let mut next = vec![from];
        while let Some(agent) = next.pop() {
            if agent == to {
                return true;
            }
            if !seen.insert(agent) {
                continue;
            }
            next.extend(
                self.records
                    .iter()
                    .filter(|r| !r.state.is_final() && r.requester == Requester::Agent(agent))
                    .map(|r| r.target),
            );
        }
        false
    }

    fn forget_old(&mut self) {
        let mut finished = self.records.iter().filter(|r| r.state.is_final()).count();
        while finished > KEEP {
            let Some(at) = self.records.iter().position(|r| r.state.is_final()) else {
                break;
            };
            self.records.remove(at);
            finished -= 1;
        }
    }
}

/// How a wait in an agent's line ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Waited {
    /// The request is first: its turn may run.
    First,
    Cancelled,
    TimedOut,
}

/// What [`RequestRegistry::enqueue`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Enqueued {
    /// At the end of its target's line.
    Queued,
    /// Not added: the requester is the target or already waits on it.
    WaitsOnItself,
    /// Not added: a request with this id is known already.
    IdTaken,
}

/// Every request of the open project. Cloning shares it.
#[derive(Default, Clone)]
pub struct RequestRegistry {
    inner: Arc<(Mutex<Requests>, Condvar)>,
}

impl std::fmt::Debug for RequestRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestRegistry").finish_non_exhaustive()
    }
}

impl RequestRegistry {
    fn lock(&self) -> MutexGuard<'_, Requests> {
        self.inner.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn changed(&self) {
        self.inner.1.notify_all();
    }

    /// Adds a queued request at the end of its target's line, unless it would wait on
    /// itself or its id is taken (then nothing is added).
    pub(crate) fn enqueue(&self, record: RequestRecord) -> Enqueued {
        let mut requests = self.lock();
        if requests.record_mut(record.request_id).is_some() {
            return Enqueued::IdTaken;
        }
        if let Requester::Agent(requester) = record.requester
            && requests.waits_for(record.target, requester)
        {
            return Enqueued::WaitsOnItself;
        }
        requests
            .lines
            .entry(record.target)
            .or_default()
            .push_back(record.request_id);
        requests.records.push_back(record);
        Enqueued::Queued
    }

    /// Records a request that ended before it was queued.
    pub(crate) fn record(&self, record: RequestRecord) {
        let mut requests = self.lock();
        requests.records.push_back(record);
        requests.forget_old();
    }

    /// Waits until `id` is first in `target`'s line, is cancelled, or `limit` passed.
    pub(crate) fn wait_first(&self, id: RequestId, target: AgentId, limit: Duration) -> Waited {
        let (requests, _) = self
            .inner
            .1
            .wait_timeout_while(self.lock(), limit, |r| {
                !r.cancelled.contains(&id)
                    && r.lines.get(&target).and_then(VecDeque::front) != Some(&id)
            })
            .unwrap_or_else(PoisonError::into_inner);
        if requests.cancelled.contains(&id) {
            Waited::Cancelled
        } else if requests.lines.get(&target).and_then(VecDeque::front) == Some(&id) {
            Waited::First
        } else {
            Waited::TimedOut
        }
    }

    /// Changes a request's record; returns the new record.
    pub(crate) fn update(
        &self,
        id: RequestId,
        change: impl FnOnce(&mut RequestRecord),
    ) -> Option<RequestRecord> {
        let mut requests = self.lock();
        let record = requests.record_mut(id)?;
        change(record);
        let record = record.clone();
        requests.forget_old();
        Some(record)
    }

    /// The running turn of `id`, killed at once if the request was cancelled meanwhile.
    pub(crate) fn set_turn(&self, id: RequestId, turn: Arc<dyn RunningTurn>) {
        let mut requests = self.lock();
        if requests.cancelled.contains(&id) {
            turn.kill();
        }
        requests.turns.insert(id, turn);
    }

    /// The request is over: it leaves its line (the next one may run).
    pub(crate) fn leave(&self, id: RequestId, target: AgentId) {
        let mut requests = self.lock();
        if let Some(line) = requests.lines.get_mut(&target) {
            line.retain(|r| *r != id);
            if line.is_empty() {
                requests.lines.remove(&target);
            }
        }
        requests.turns.remove(&id);
        requests.cancelled.remove(&id);
        drop(requests);
        self.changed();
    }

    /// Marks `id` cancelled and kills its turn if it runs. `false` for an unknown request;
    /// a finished one is left as it is.
    pub(crate) fn cancel(&self, id: RequestId) -> bool {
        let mut requests = self.lock();
        let Some(record) = requests.record_mut(id) else {
            return false;
        };
        if !record.state.is_final() {
            requests.cancelled.insert(id);
            if let Some(turn) = requests.turns.get(&id) {
                turn.kill();
            }
        }
        drop(requests);
        self.changed();
        true
    }

    /// Waits up to `limit` for `id` to be cancelled; whether it was.
    pub(crate) fn wait_cancelled(&self, id: RequestId, limit: Duration) -> bool {
        let (requests, _) = self
            .inner
            .1
            .wait_timeout_while(self.lock(), limit, |r| !r.cancelled.contains(&id))
            .unwrap_or_else(PoisonError::into_inner);
        requests.cancelled.contains(&id)
    }

    /// Whether the request first in `target`'s line waits for a usage limit to reset (the
    /// requests behind it then wait as long, in order).
    pub(crate) fn front_waits_for_limit(&self, target: AgentId) -> bool {
        let requests = self.lock();
        let Some(front) = requests
            .lines
            .get(&target)
            .and_then(VecDeque::front)
            .copied()
        else {
            return false;
        };
        requests
            .records
            .iter()
            .rev()
            .find(|r| r.request_id == front)
            .is_some_and(|r| r.state == RequestState::WaitingForLimit)
    }

    pub(crate) fn is_cancelled(&self, id: RequestId) -> bool {
        self.lock().cancelled.contains(&id)
    }

    /// Every request not over yet.
    pub(crate) fn in_flight(&self) -> Vec<RequestId> {
        let requests = self.lock();
        requests.lines.values().flatten().copied().collect()
    }

    /// Whether a turn of `agent` runs (or is being prepared).
    pub fn is_answering(&self, agent: AgentId) -> bool {
        self.lock()
            .records
            .iter()
            .any(|r| r.target == agent && r.state == RequestState::Running)
    }

    /// The records, oldest first.
    pub fn list(&self) -> Vec<RequestRecord> {
        self.lock().records.iter().cloned().collect()
    }
}
