//! Continuing agents after a usage limit (docs/usage-limits.md). A session that goes
//! `usageLimited` is handed to the [`ResumeInbox`] by its state watcher; [`tick`] schedules it
//! (`.ideai/resumes.json`, so a restart keeps it) and, once due, continues the agent exactly
//! once: the nudge typed into its cell when it waits there, or a relaunch in its conversation
//! first when it exited. [`Scheduler`] runs `tick` on a thread; tests call it themselves after
//! advancing a fake clock.

mod files;
mod inbox;
mod schedule;
mod scheduler;

pub use inbox::{LimitSeen, ResumeInbox};
pub use schedule::{cancel, list, run_now, tick};
pub use scheduler::Scheduler;
