//! The dispatcher: one thread that hears the watch and the workers, scans the folders that
//! changed, and starts at most the allowed number of requests, each on its own worker thread.

use super::scan::{self, Pending};
use super::{DropHandler, DropLimits, Signal, files, watch};
use crate::store::confine;
use idea_domain::filedrop::{
    DropAnswer, DropRefusal, Dropped, FileError, FileRequest, REQUESTS_DIR, Seen, Step, claim_name,
    is_valid_request_id, next_step,
};
use notify::RecommendedWatcher;
use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant, SystemTime};

pub(super) struct Dispatcher {
    root: PathBuf,
    requests: PathBuf,
    handler: DropHandler,
    limits: DropLimits,
    /// For the workers' `Finished`.
    signals: Sender<Signal>,
    watcher: RecommendedWatcher,
    /// Folders to scan, and when.
    due: HashMap<String, Instant>,
    /// When to scan every folder.
    all_due: Option<Instant>,
    /// Requests running now, per folder.
    running: HashMap<String, HashSet<String>>,
    /// Folders with requests that found no free slot: scanned again when one frees.
    waiting: HashSet<String>,
}

impl Dispatcher {
    pub(super) fn new(
        root: PathBuf,
        handler: DropHandler,
        limits: DropLimits,
        signals: Sender<Signal>,
        watcher: RecommendedWatcher,
    ) -> Self {
        let requests = root.join(".ideai").join(REQUESTS_DIR);
        Self {
            root,
            requests,
            handler,
            limits,
            signals,
            watcher,
            due: HashMap::new(),
            // Requests dropped while no owner ran are answered at start.
            all_due: Some(Instant::now()),
            running: HashMap::new(),
            waiting: HashSet::new(),
        }
    }

    /// Runs until [`Signal::Stop`].
    pub(super) fn run(mut self, signals: &Receiver<Signal>) {
        loop {
            self.scan_due();
            let next = self.due.values().chain(&self.all_due).min().copied();
            let signal = match next {
                Some(at) => signals.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => signals.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let now = Instant::now();
            match signal {
                Ok(Signal::Changed(Some(folder))) => self.schedule(folder, now + self.limits.quiet),
                Ok(Signal::Changed(None)) => self.schedule_all(now + self.limits.quiet),
                Ok(Signal::Rewatch) => self.rewatch(),
                Ok(Signal::Finished { folder, stem }) => {
                    if let Some(running) = self.running.get_mut(&folder) {
                        running.remove(&stem);
                        if running.is_empty() {
                            self.running.remove(&folder);
                        }
                    }
                    self.schedule(folder, now);
                    for folder in std::mem::take(&mut self.waiting) {
                        self.schedule(folder, now);
                    }
                }
                Ok(Signal::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Scans `folder` at `at`, or earlier if it already was to be.
    fn schedule(&mut self, folder: String, at: Instant) {
        if self.due.len() >= self.limits.max_scan && !self.due.contains_key(&folder) {
            // A flood of folders: one scan of everything instead of a list of them.
            self.due.clear();
            self.schedule_all(at);
            return;
        }
        let due = self.due.entry(folder).or_insert(at);
        *due = (*due).min(at);
    }

    fn schedule_all(&mut self, at: Instant) {
        self.all_due = Some(self.all_due.map_or(at, |due| due.min(at)));
    }

    fn rewatch(&mut self) {
        match confine::real_dir(&self.root, &self.requests, false) {
            Ok(true) => {
                if let Err(error) = watch::watch_requests(&mut self.watcher, &self.requests) {
                    tracing::warn!(%error, "file drop: cannot watch the requests folder again");
                }
                self.schedule_all(Instant::now());
            }
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "file drop: the requests folder is unsafe"),
        }
    }

    fn scan_due(&mut self) {
        let now = Instant::now();
        if self.all_due.is_some_and(|at| at <= now) {
            self.all_due = None;
            match scan::folders(&self.requests, self.limits.max_scan) {
                Ok(folders) => {
                    for folder in folders {
                        self.schedule(folder, now);
                    }
                }
                Err(error) => tracing::warn!(%error, "file drop: cannot list the requests folder"),
            }
        }
        let ready: Vec<String> = self
            .due
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(folder, _)| folder.clone())
            .collect();
        for folder in ready {
            self.due.remove(&folder);
            self.scan(&folder);
        }
    }

    /// Answers or starts what `folder` holds.
    fn scan(&mut self, folder: &str) {
        let dir = self.requests.join(folder);
        match confine::real_dir(&self.root, &dir, false) {
            Ok(true) => {}
            Ok(false) => return,
            Err(error) => {
                tracing::warn!(folder, %error, "file drop: folder refused");
                return;
            }
        }
        let pending = match scan::unanswered(&dir, self.limits.max_scan) {
            Ok(pending) => pending,
            Err(error) => {
                tracing::warn!(folder, %error, "file drop: cannot read the folder");
                return;
            }
        };
        for request in pending {
            if !self.consider(folder, &dir, &request) {
                break;
            }
        }
    }

    /// One unanswered request; `false` when no slot is free for it (nor for later ones).
    fn consider(&mut self, folder: &str, dir: &Path, request: &Pending) -> bool {
        let stem = request.stem.as_str();
        let seen = Seen {
            answered: false,
            claimed: scan::exists(&dir.join(claim_name(stem))),
            in_flight: self.running.get(folder).is_some_and(|r| r.contains(stem)),
        };
        match next_step(seen) {
            Step::Leave => return true,
            Step::Interrupted => {
                tracing::warn!(
                    folder,
                    request = stem,
                    "file drop: claimed by an owner that stopped; answered INTERRUPTED"
                );
                self.refuse(dir, stem, DropRefusal::Interrupted);
                return true;
            }
            Step::Dispatch => {}
        }
        if !is_valid_request_id(stem) {
            self.refuse(dir, stem, DropRefusal::BadId(stem.to_owned()));
            return true;
        }
        // Still being written, maybe: looked at again once it has been quiet long enough.
        let age = SystemTime::now()
            .duration_since(request.modified)
            .unwrap_or(Duration::MAX);
        if age < self.limits.quiet {
            let at = Instant::now() + (self.limits.quiet - age);
            self.schedule(folder.to_owned(), at);
            return true;
        }
        let mine = self.running.get(folder).map_or(0, HashSet::len);
        let all: usize = self.running.values().map(HashSet::len).sum();
        if mine >= self.limits.per_requester || all >= self.limits.in_flight {
            self.waiting.insert(folder.to_owned());
            return false;
        }
        let bytes = match files::read_request(&dir.join(format!("{stem}.json"))) {
            files::Reading::Bytes(bytes) => bytes,
            files::Reading::Gone => return true,
            files::Reading::Refused(refusal) => {
                self.refuse(dir, stem, refusal);
                return true;
            }
            files::Reading::Failed(error) => {
                tracing::warn!(folder, request = stem, %error, "file drop: cannot read; tried again later");
                return true;
            }
        };
        let request = match FileRequest::parse(&bytes) {
            Ok(request) => request,
            Err(refusal) => {
                self.refuse(dir, stem, refusal);
                return true;
            }
        };
        if let Err(error) = files::claim(&self.root, dir, stem) {
            // Not claimed, so not run: tried again at the next scan.
            tracing::warn!(folder, request = stem, %error, "file drop: cannot claim; not run");
            return true;
        }
        self.start(folder, dir, stem, request);
        true
    }

    /// Answers with an error, the request unrun.
    fn refuse(&self, dir: &Path, stem: &str, refusal: DropRefusal) {
        tracing::info!(request = stem, code = refusal.code(), %refusal, "file drop: refused");
        if let Err(error) = files::answer(&self.root, dir, stem, &refusal.into()) {
            tracing::warn!(request = stem, %error, "file drop: cannot write the error file");
        }
    }

    /// Runs a claimed request on a worker thread, which writes its answer.
    fn start(&mut self, folder: &str, dir: &Path, stem: &str, request: FileRequest) {
        let dropped = Dropped {
            folder: folder.to_owned(),
            request,
        };
        let (root, dir) = (self.root.clone(), dir.to_path_buf());
        let (folder, stem) = (folder.to_owned(), stem.to_owned());
        let (handler, signals) = (self.handler.clone(), self.signals.clone());
        let finished = Signal::Finished {
            folder: folder.clone(),
            stem: stem.clone(),
        };
        let thread_stem = stem.clone();
        tracing::info!(folder, request = stem, to = %dropped.request.to, "file drop: running");
        let worker = std::thread::Builder::new()
            .name("idea-filedrop-request".into())
            .spawn(move || {
                // A panic in the use case is an answer too, not a request left claimed forever.
                let answer = std::panic::catch_unwind(AssertUnwindSafe(|| handler(&dropped)))
                    .unwrap_or_else(|_| internal("the request failed inside IdeA"));
                if let Err(error) = files::answer(&root, &dir, &thread_stem, &answer) {
                    tracing::warn!(request = thread_stem, %error, "file drop: cannot write the answer");
                }
                let _ = signals.send(finished);
            });
        match worker {
            Ok(_) => {
                self.running.entry(folder).or_default().insert(stem);
            }
            Err(error) => {
                let answer = internal(&format!("cannot start the request: {error}"));
                if let Err(error) =
                    files::answer(&self.root, &self.requests.join(&folder), &stem, &answer)
                {
                    tracing::warn!(request = stem, %error, "file drop: cannot write the error file");
                }
            }
        }
    }
}

fn internal(message: &str) -> DropAnswer {
    DropAnswer::Error(FileError {
        code: "INTERNAL".to_owned(),
        message: message.to_owned(),
    })
}
