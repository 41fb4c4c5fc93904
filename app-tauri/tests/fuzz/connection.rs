//! One connection fuzzing: sending, matching answers, deadlines.

use super::*;

impl Connection {
    pub(crate) async fn open(
        index: u64,
        port: u16,
        pool: Arc<Mutex<Pool>>,
        stats: Arc<Mutex<Stats>>,
        declared: Vec<&'static str>,
    ) -> Self {
        let (sink, answers, acks, reader) = dial(port, &pool).await;
        Self {
            index,
            port,
            sink,
            answers,
            reader,
            pending: HashMap::new(),
            pool,
            acks,
            stats,
            declared,
            line_moved: Instant::now(),
            broken: false,
        }
    }

    /// A new connection in place of this one, whose unanswered calls are forgotten.
    pub(crate) async fn redial(&mut self) {
        self.reader.abort();
        let (sink, answers, acks, reader) = dial(self.port, &self.pool).await;
        // The old halves are dropped here: the old socket closes without a close frame.
        self.sink = sink;
        self.answers = answers;
        self.acks = acks;
        self.reader = reader;
        self.line_moved = Instant::now();
        let abandoned = self.waiting() as u64;
        lock(&self.stats).abandoned += abandoned;
        self.pending.clear();
    }

    pub(crate) fn waiting(&self) -> usize {
        self.pending.values().map(VecDeque::len).sum()
    }

    /// Counts a frame and, when it must be answered, notes the answer it waits for.
    pub(crate) fn register(&mut self, out: Out) -> Message {
        let mut stats = lock(&self.stats);
        match out {
            Out::Hangup => unreachable!("a hang-up is not a frame"),
            Out::Text { text, label, learn } => {
                *stats.sent.entry(label.clone()).or_default() += 1;
                match expected_key(&text) {
                    Some(key) => {
                        stats.calls_with_id += 1;
                        let write = writes(&label);
                        let pending = Pending {
                            label,
                            sent: Instant::now(),
                            write,
                            frame: excerpt(&text),
                            learn,
                        };
                        self.pending.entry(key).or_default().push_back(pending);
                    }
                    None => stats.notifications += 1,
                }
                Message::text(text)
            }
            Out::Binary(bytes) => {
                *stats.sent.entry("binary".into()).or_default() += 1;
                Message::binary(bytes)
            }
            Out::Ping => {
                *stats.sent.entry("ping".into()).or_default() += 1;
                Message::Ping(b"fuzz".to_vec().into())
            }
        }
    }

    pub(crate) async fn send(&mut self, out: Out) {
        if let Out::Hangup = out {
            lock(&self.stats).hangups += 1;
            return self.redial().await;
        }
        let message = self.register(out);
        if let Err(e) = self.sink.send(message).await {
            // The reader reports why the connection ended; wait for it.
            let why = tokio::time::timeout(Duration::from_secs(2), self.answers.recv()).await;
            match why {
                Ok(Some(incoming)) => self.take(incoming).await,
                _ => {
                    let failure = format!("connection {}: sending failed: {e}", self.index);
                    lock(&self.stats).fail(failure);
                    self.broken = true;
                }
            }
        }
    }

    /// Handles one thing the reader passed on.
    pub(crate) async fn take(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Answer(answer) => self.answer(&answer),
            Incoming::Stray(what) => {
                let failure = format!(
                    "connection {}: a frame that is neither an answer nor an event: {what}",
                    self.index
                );
                lock(&self.stats).fail(failure);
            }
            Incoming::Closed(Some(LAGGED), _) => {
                // Documented: the client missed events and reconnects. Its calls are lost.
                lock(&self.stats).lagged += 1;
                self.redial().await;
            }
            Incoming::Closed(code, why) => {
                let last = self
                    .pending
                    .values()
                    .flatten()
                    .max_by_key(|p| p.sent)
                    .map(|p| p.frame.clone())
                    .unwrap_or_default();
                let failure = format!(
                    "connection {}: the server closed it (code {code:?}: {why}); last pending frame: {last}",
                    self.index
                );
                lock(&self.stats).fail(failure);
                self.broken = true;
            }
        }
    }

    pub(crate) fn answer(&mut self, answer: &Value) {
        let key = id_key(&answer["id"]);
        let Some(pending) = self.pending.get_mut(&key).and_then(VecDeque::pop_front) else {
            let failure = format!(
                "connection {}: an answer to no call (or a second one): {}",
                self.index,
                excerpt(&answer.to_string())
            );
            return lock(&self.stats).fail(failure);
        };
        if self.pending.get(&key).is_some_and(VecDeque::is_empty) {
            self.pending.remove(&key);
        }
        if pending.write {
            self.line_moved = Instant::now();
        }
        // Answers with `id: null` are matched oldest first: which call each one answers is
        // unknown, so it is not checked against that call's method nor learnt from.
        let matched = key != NULL_KEY;
        let label = if matched {
            pending.label.as_str()
        } else {
            "nullId"
        };
        let declared = self.declared.contains(&label);
        let frame = if matched {
            pending.frame.clone()
        } else {
            format!("(id null; the oldest such call) {}", pending.frame)
        };
        let mut stats = lock(&self.stats);
        stats.answered += 1;
        let waited = pending.sent.elapsed();
        if waited > stats.slowest.0 {
            stats.slowest = (waited, label.to_owned());
        }
        if waited > SLOW && stats.slow.len() < 10 {
            let line = format!("{} ms: {frame}", waited.as_millis());
            stats.slow.push(line);
        }
        match check_answer(answer, declared) {
            Ok(outcome) => {
                let message = answer["error"]["message"].as_str().unwrap_or_default();
                if outcome == "INTERNAL" && stats.internal.len() < 20 {
                    let line = format!("{label}: {message} ← {frame}");
                    stats.internal.push(line);
                }
                // Only a restart whose process would not die may be `INTERNAL` (an answer with
                // `id: null` is known by its message only); and nothing but the server touches
                // the state files, so none may be broken or refused.
                let restart_refused = label == "restartSession"
                    || (!matched && message.contains("did not stop within"));
                if (outcome == "INTERNAL" && !restart_refused)
                    || STATE_CODES.contains(&outcome.as_str())
                {
                    stats.fail(format!("{label}: {outcome} ({message}) ← {frame}"));
                }
                if outcome == "ok" {
                    *stats.ok.entry(label.to_owned()).or_default() += 1;
                    if let Some((method, params)) = pending.learn.as_ref().filter(|_| matched) {
                        lock(&self.pool).result(method, params, &answer["result"]);
                    }
                }
                *stats.outcomes.entry(outcome).or_default() += 1;
            }
            Err(problem) => {
                let failure = format!(
                    "{label}: {problem}: {} ← {frame}",
                    excerpt(&answer.to_string()),
                );
                stats.fail(failure);
            }
        }
    }

    /// Takes what has arrived, waiting up to `wait` for the first of it.
    pub(crate) async fn receive(&mut self, wait: Duration) {
        if let Ok(Some(incoming)) = tokio::time::timeout(wait, self.answers.recv()).await {
            self.take(incoming).await;
        }
        while !self.broken {
            let Ok(incoming) = self.answers.try_recv() else {
                break;
            };
            self.take(incoming).await;
        }
    }

    /// Fails every call unanswered for longer than the deadline (once each). A client's writes
    /// take effect one after another, so a write's deadline runs from when the one before it
    /// was answered: behind a line of slow ones (restarts of a process that will not die wait
    /// 5 s each) it is late, not lost. A write stuck for good still fails the deadline.
    pub(crate) fn overdue(&mut self) {
        let now = Instant::now();
        let line_moved = self.line_moved;
        let mut stats = lock(&self.stats);
        for (key, queue) in &mut self.pending {
            while queue.front().is_some_and(|p| {
                let since = if p.write {
                    p.sent.max(line_moved)
                } else {
                    p.sent
                };
                now.duration_since(since) > ANSWER_DEADLINE
            }) {
                if let Some(late) = queue.pop_front() {
                    stats.fail(format!(
                        "{}: no answer within {ANSWER_DEADLINE:?} (id {key}): {}",
                        late.label, late.frame
                    ));
                }
            }
        }
        self.pending.retain(|_, queue| !queue.is_empty());
    }
}

/// One connection's run: send until `until`, then wait for the last answers.
pub(crate) async fn fuzz_connection(
    index: u64,
    port: u16,
    seed: u64,
    until: Instant,
    pool: Arc<Mutex<Pool>>,
    stats: Arc<Mutex<Stats>>,
) {
    let methods: Vec<&'static str> = idea_api::all_methods().map(|m| m.name).collect();
    let mut generator = Gen {
        rng: Rng(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F)),
        methods: methods.clone(),
        connection: index,
        next_id: 0,
        ack_percent: if index == 0 { 30 } else { 3 },
        hangups: index != 0,
    };
    let mut connection = Connection::open(index, port, pool, stats, methods).await;
    while Instant::now() < until && !connection.broken {
        connection.receive(Duration::ZERO).await;
        connection.overdue();
        if connection.waiting() >= MAX_PENDING {
            connection.receive(Duration::from_millis(20)).await;
            continue;
        }
        let out = {
            let mut acks = lock(&connection.acks);
            generator.frame(&mut lock(&connection.pool), &mut acks)
        };
        connection.send(out).await;
        tokio::task::yield_now().await;
    }
    let last = Instant::now() + ANSWER_DEADLINE + Duration::from_secs(1);
    while connection.waiting() > 0 && !connection.broken && Instant::now() < last {
        connection.receive(Duration::from_millis(50)).await;
        connection.overdue();
    }
    connection.overdue();
    let _ = connection.sink.send(Message::Close(None)).await;
}

/// Whether `method` changes state (so waits in its connection's line of writes); `false` for
/// what is no declared method.
fn writes(method: &str) -> bool {
    idea_api::all_methods()
        .find(|spec| spec.name == method)
        .is_some_and(|spec| spec.effect != idea_api::Effect::Reads)
}
