//! Terminal sessions: LaunchAgent, plain shell cells, stop/restart, terminal I/O, and the
//! snapshot of running agents taken when a project closes.

mod control;
pub(crate) mod launch;
mod plan;
mod registry;
mod resumable;
pub(crate) mod state;
mod viewing;

pub use control::{
    ack, compact, list, restart, snapshot_running_agents, stop, stop_all, stop_orphaned, type_line,
    write,
};
pub use launch::{LaunchAgent, launch_agent, open_shell};
pub use registry::SessionRegistry;
pub use resumable::{ResumableAgent, list_resumable};
pub use state::{MAX_HOOK_PAYLOAD, QUIET_AFTER, report_hook};
pub use viewing::{Attached, attach, detach, fit, lead, resize, shared_size};
