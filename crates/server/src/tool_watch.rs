//! The project's tools as they change on disk: a `TOOL.json` added, edited or removed by hand
//! tells every client (`knowledgeChanged {part: "tools"}`), whose Tools view then reads them
//! again. (Each MCP connection compares the list on its own, for `tools/list_changed`.)

use crate::OpenProject;
use idea_domain::DomainEvent;
use idea_domain::event::KnowledgePart;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the tools on disk are compared with the last listing (a few small files).
const INTERVAL: Duration = Duration::from_secs(2);

/// The running watch; stopped when dropped.
#[derive(Debug)]
pub struct ToolWatch {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for ToolWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// Starts the watch; without a thread (none left) the Tools view is read when shown.
pub fn open(project: &OpenProject) -> Option<ToolWatch> {
    let deps = Arc::clone(&project.deps);
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    let thread = std::thread::Builder::new()
        .name("tool-watch".into())
        .spawn(move || {
            let listing = || serde_json::to_string(&deps.knowledge.tools()).unwrap_or_default();
            let mut seen = listing();
            while !stopping.load(Ordering::SeqCst) {
                std::thread::park_timeout(INTERVAL);
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let now = listing();
                if now != seen {
                    seen = now;
                    tracing::info!("the project's tools changed on disk");
                    deps.events.publish(DomainEvent::KnowledgeChanged {
                        part: KnowledgePart::Tools,
                    });
                }
            }
        })
        .inspect_err(|e| tracing::warn!(error = %e, "tool watch: not started"))
        .ok()?;
    Some(ToolWatch {
        stop,
        thread: Some(thread),
    })
}
