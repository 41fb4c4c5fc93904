//! Limits seen by the state watchers, waiting to be scheduled. The watchers run on terminal
//! threads that hold no `Deps` (a session must not keep its project alive), so they hand each
//! limit over here; the scheduler's thread is woken at once.

use idea_domain::limits::LimitReset;
use idea_domain::limits::UsageLimit;
use idea_domain::resume::ScheduledResume;
use idea_domain::{AgentId, CellRef};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// A session went `usageLimited`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitSeen {
    pub agent_id: AgentId,
    pub cell: CellRef,
    pub limit: UsageLimit,
}

/// At most this many limits wait (a screen that flickers between two limits cannot fill
/// memory; the newest of an agent wins anyway).
const CAPACITY: usize = 64;

#[derive(Debug, Default, Clone)]
pub struct ResumeInbox(Arc<(Mutex<Inbox>, Condvar)>);

#[derive(Debug, Default)]
struct Inbox {
    seen: VecDeque<LimitSeen>,
    /// Agents continued after a reset nobody gave, and how many such probes they had: if the
    /// limit is hit again, the next probe waits longer.
    probes: HashMap<AgentId, u32>,
    /// Agents that went on after their limit (the user typed, the CLI continued by itself):
    /// their resumes are void, so nobody continues them a second time.
    went_on: Vec<AgentId>,
    /// Something else to do (a resume changed): wake the scheduler anyway.
    poked: bool,
}

impl ResumeInbox {
    fn lock(&self) -> MutexGuard<'_, Inbox> {
        self.0.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands over a limit (the oldest is dropped past the capacity).
    pub fn push(&self, seen: LimitSeen) {
        let mut inbox = self.lock();
        inbox.seen.retain(|s| s.agent_id != seen.agent_id);
        if inbox.seen.len() >= CAPACITY {
            inbox.seen.pop_front();
        }
        inbox.seen.push_back(seen);
        self.0.1.notify_all();
    }

    /// `agent` left `usageLimited` for a turn: its resume, if any, is void.
    pub fn went_on(&self, agent: AgentId) {
        let mut inbox = self.lock();
        inbox.seen.retain(|s| s.agent_id != agent);
        if !inbox.went_on.contains(&agent) && inbox.went_on.len() < CAPACITY {
            inbox.went_on.push(agent);
        }
        self.0.1.notify_all();
    }

    /// Wakes the scheduler (the schedule changed).
    pub fn poke(&self) {
        self.lock().poked = true;
        self.0.1.notify_all();
    }

    /// `resume` is being carried out: remembered when it probed an unknown reset.
    pub(super) fn probed(&self, resume: &ScheduledResume) {
        let mut inbox = self.lock();
        if resume.limit.reset == LimitReset::Unknown {
            inbox
                .probes
                .insert(resume.agent_id, resume.probes.saturating_add(1));
        } else {
            inbox.probes.remove(&resume.agent_id);
        }
    }

    /// The probes already made for `agent`, if `limit` again gives no reset (a known reset
    /// starts over).
    pub(super) fn probes_of(&self, agent: AgentId, limit: &UsageLimit) -> u32 {
        let mut inbox = self.lock();
        if limit.reset == LimitReset::Unknown {
            inbox.probes.get(&agent).copied().unwrap_or(0)
        } else {
            inbox.probes.remove(&agent);
            0
        }
    }

    /// The limits seen and the agents that went on since the last call.
    pub(super) fn take(&self) -> (Vec<LimitSeen>, Vec<AgentId>) {
        let mut inbox = self.lock();
        inbox.poked = false;
        (
            inbox.seen.drain(..).collect(),
            inbox.went_on.drain(..).collect(),
        )
    }

    /// Waits up to `timeout` for a limit or a poke.
    pub(super) fn wait(&self, timeout: Duration) {
        let inbox = self.lock();
        let _ = self
            .0
            .1
            .wait_timeout_while(inbox, timeout, |i| {
                i.seen.is_empty() && i.went_on.is_empty() && !i.poked
            })
            .unwrap_or_else(PoisonError::into_inner);
    }
}
