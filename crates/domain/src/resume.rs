//! Resumes scheduled after a usage limit (docs/usage-limits.md): when an agent hits its
//! provider's limit, IdeA alone continues it once the limit lifts — typing a nudge into its
//! cell, or relaunching it in its conversation first if it exited. Kept in
//! `.ideai/resumes.json` so a restart of IdeA keeps them.

use crate::ids::{AgentId, CellRef};
use crate::limits::{LimitReset, UsageLimit};
use serde::{Deserialize, Serialize};

/// What is typed into an agent's terminal when its limit has lifted (then Enter).
pub const DEFAULT_NUDGE: &str = "Your usage limit has reset. Continue the task you were \
working on when the limit was reached; do not repeat work that is already complete.";

/// Typed to an agent that failed over to another engine at a usage limit, once it is idle there.
pub const FAILOVER_NUDGE: &str = "Your previous engine hit its usage limit, so you continue \
on this one. Read the conversation resume in your instructions and continue the task from \
there; do not repeat work that is already complete.";

/// The version of `resumes.json` this build writes.
pub const RESUMES_VERSION: u32 = 1;

/// At most this many resumes are kept (one per agent; a project has far fewer agents).
pub const MAX_RESUMES: usize = 256;

/// One agent's continuation, due at `due_at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct ScheduledResume {
    pub agent_id: AgentId,
    /// The cell it runs in (where it is relaunched if it exited).
    pub cell: CellRef,
    pub limit: UsageLimit,
    /// When IdeA continues it (Unix seconds): the reset, or the next probe of a reset the CLI
    /// did not give.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub due_at: u64,
    /// Probes already made of an unknown reset (each waits twice as long as the last).
    #[serde(default)]
    pub probes: u32,
}

/// The file `.ideai/resumes.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resumes {
    pub version: u32,
    pub resumes: Vec<ScheduledResume>,
}

impl Resumes {
    /// One resume per agent, and not too many: a hand-edited file that breaks this is corrupt.
    ///
    /// # Errors
    /// Why the file is not valid.
    pub fn validate(&self) -> Result<(), String> {
        if self.resumes.len() > MAX_RESUMES {
            return Err(format!("more than {MAX_RESUMES} resumes"));
        }
        let mut agents: Vec<_> = self.resumes.iter().map(|r| r.agent_id).collect();
        agents.sort_unstable_by_key(|a| a.as_uuid());
        agents.dedup();
        if agents.len() != self.resumes.len() {
            return Err("two resumes of one agent".into());
        }
        Ok(())
    }
}

/// The first probe of a reset nobody gave waits this long; each next one twice as long, up to
/// [`PROBE_MAX_SECS`]. Each probe costs a request to the provider.
pub const PROBE_FIRST_SECS: u64 = 5 * 60;
pub const PROBE_MAX_SECS: u64 = 60 * 60;

/// When to continue after `limit`, seen at `now` after `probes` probes; `None` when no reset
/// will lift it (the user must act).
pub fn due_at(limit: &UsageLimit, now: u64, probes: u32) -> Option<u64> {
    match limit.reset {
        LimitReset::At { epoch } => Some(epoch.max(now)),
        LimitReset::Unknown => {
            let wait = PROBE_FIRST_SECS
                .saturating_mul(1u64 << probes.min(16))
                .min(PROBE_MAX_SECS);
            Some(now.saturating_add(wait))
        }
        LimitReset::NeedsUser => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::LimitSource;

    fn limit(reset: LimitReset) -> UsageLimit {
        UsageLimit {
            reset,
            window: None,
            source: LimitSource::Screen,
            message: "You've hit your 5-hour limit".into(),
        }
    }

    #[test]
    fn a_known_reset_is_due_then_and_a_past_one_at_once() {
        assert_eq!(
            due_at(&limit(LimitReset::At { epoch: 500 }), 100, 0),
            Some(500)
        );
        assert_eq!(
            due_at(&limit(LimitReset::At { epoch: 50 }), 100, 0),
            Some(100)
        );
    }

    #[test]
    fn an_unknown_reset_is_probed_ever_later_up_to_an_hour() {
        let unknown = limit(LimitReset::Unknown);
        assert_eq!(due_at(&unknown, 0, 0), Some(300));
        assert_eq!(due_at(&unknown, 0, 1), Some(600));
        assert_eq!(due_at(&unknown, 0, 3), Some(2400));
        assert_eq!(due_at(&unknown, 0, 9), Some(3600));
        assert_eq!(due_at(&unknown, u64::MAX - 1, 99), Some(u64::MAX));
    }

    #[test]
    fn no_reset_waits_for_the_user() {
        assert_eq!(due_at(&limit(LimitReset::NeedsUser), 0, 0), None);
    }
}
