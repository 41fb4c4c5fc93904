//! A fake terminal host for use-case tests: records what would be spawned, and lets a test
//! end a session. (End-to-end tests use real PTYs.)

use idea_domain::SessionId;
use idea_domain::agent_state::TerminalSignal;
use idea_domain::terminal::{
    Attachment, ExitHandler, ExitInfo, OutputSink, PtyError, SpawnSpec, TerminalHost,
    TerminalSession, TerminalSize, TerminalWatch,
};
use std::sync::{Arc, Mutex, mpsc};

#[derive(Default)]
pub struct FakeTerminals {
    pub spawned: Mutex<Vec<SpawnSpec>>,
    pub sessions: Mutex<Vec<Arc<FakeSession>>>,
    /// Commands that "do not exist".
    pub missing: Mutex<Vec<String>>,
    /// When set, `spawn` says it started (first channel) and waits for the go (second), so a
    /// test can act in the middle of a launch.
    pub pause: Mutex<Option<(mpsc::Sender<()>, mpsc::Receiver<()>)>>,
}

pub struct FakeSession {
    id: SessionId,
    on_exit: Mutex<Option<ExitHandler>>,
    exit: Mutex<Option<ExitInfo>>,
    pub written: Mutex<Vec<u8>>,
    /// Every size it was resized to (by `resize` or an attach that carried one).
    pub resized: Mutex<Vec<TerminalSize>>,
    /// Attachments handed out so far (ids count from 1).
    attachments: Mutex<u64>,
    /// What the application asked to be told about its output.
    watch: Mutex<Option<TerminalWatch>>,
}

impl FakeSession {
    /// Reports `signal` as the PTY adapter's watcher would (nothing if it is not watched).
    pub fn signal(&self, signal: TerminalSignal) {
        if let Some(watch) = self.watch.lock().unwrap().as_ref() {
            (watch.on_signal)(signal);
        }
    }

    /// The text typed into it so far.
    pub fn typed(&self) -> String {
        String::from_utf8_lossy(&self.written.lock().unwrap()).into_owned()
    }

    /// The size it was last given (by a resize or an attach).
    pub fn size(&self) -> Option<TerminalSize> {
        self.resized.lock().unwrap().last().copied()
    }
}

impl FakeSession {
    /// The process ends with `code`.
    pub fn finish(&self, code: u32) {
        let info = ExitInfo {
            code,
            ..ExitInfo::default()
        };
        *self.exit.lock().unwrap() = Some(info.clone());
        if let Some(handler) = self.on_exit.lock().unwrap().take() {
            handler(info);
        }
    }
}

impl TerminalHost for FakeTerminals {
    fn spawn(
        &self,
        id: SessionId,
        spec: &SpawnSpec,
        on_exit: ExitHandler,
    ) -> Result<Arc<dyn TerminalSession>, PtyError> {
        if self.missing.lock().unwrap().contains(&spec.command) {
            return Err(PtyError::CommandNotFound(spec.command.clone()));
        }
        if let Some((started, go)) = self.pause.lock().unwrap().take() {
            started.send(()).unwrap();
            go.recv_timeout(std::time::Duration::from_secs(5)).unwrap();
        }
        self.spawned.lock().unwrap().push(spec.clone());
        let session = Arc::new(FakeSession {
            id,
            on_exit: Mutex::new(Some(on_exit)),
            exit: Mutex::new(None),
            written: Mutex::default(),
            resized: Mutex::default(),
            attachments: Mutex::default(),
            watch: Mutex::default(),
        });
        self.sessions.lock().unwrap().push(session.clone());
        Ok(session)
    }
}

impl TerminalSession for FakeSession {
    fn id(&self) -> SessionId {
        self.id
    }
    fn pid(&self) -> Option<u32> {
        Some(4242)
    }
    fn write(&self, bytes: &[u8]) -> Result<(), PtyError> {
        if self.exit.lock().unwrap().is_some() {
            return Err(PtyError::Closed);
        }
        self.written.lock().unwrap().extend_from_slice(bytes);
        Ok(())
    }
    fn resize(&self, size: TerminalSize) -> Result<(), PtyError> {
        self.resized.lock().unwrap().push(size);
        Ok(())
    }
    fn attach(&self, _sink: OutputSink, size: Option<TerminalSize>) -> Attachment {
        self.resized.lock().unwrap().extend(size);
        let mut attachments = self.attachments.lock().unwrap();
        *attachments += 1;
        Attachment {
            id: *attachments,
            replay: Vec::new(),
        }
    }
    fn attach_screen(&self, sink: OutputSink, size: Option<TerminalSize>) -> Attachment {
        self.attach(sink, size)
    }
    fn detach(&self, _attachment: u64) {}
    fn ack(&self, _attachment: u64, _bytes: usize) {}
    fn kill(&self) {
        self.finish(137);
    }
    fn exit_status(&self) -> Option<ExitInfo> {
        self.exit.lock().unwrap().clone()
    }
    fn watch(&self, watch: TerminalWatch) {
        *self.watch.lock().unwrap() = Some(watch);
    }
}
