//! A bounded fuzz run of every API method against the real `idea serve`.
//!
//! For about [`DEFAULT_SECS`] seconds two WebSocket clients send calls for every method that
//! `idea_api::all_methods()` declares (a new method is fuzzed without touching this file; one
//! this file has no params skeleton for gets params built from every known field name). Params
//! start from a valid skeleton filled with ids collected as the run goes (layouts, cells and
//! splits from `getLayouts`, agents from `createAgent`, sessions from `openShell` and the
//! events) and are then mutated: random uuids, ids in other uuid spellings or of another kind,
//! wrong types, edge numbers, huge strings (up to 1 MiB), deep nesting, unicode (bidi,
//! zero-width, NUL), missing and extra fields, params that are not an object. Raw frames go
//! too: invalid JSON, wrong `jsonrpc`, non-objects, batches, huge and ill-typed ids, lone
//! surrogates, duplicate keys, notifications, random binary frames and pings.
//!
//! Checked: every call with an id gets exactly one well-formed answer (a `result`, or an
//! `error` with a JSON-RPC code, and for `-32000` a string `data.code`) within
//! [`ANSWER_DEADLINE`]; a declared method is never `-32601`; no answer is `INTERNAL` (but a
//! restart whose process would not die) nor a state-file error ([`STATE_CODES`]); the server
//! closes a connection only for the documented reason (1013, the client missed events); at
//! the end the process is alive and answers `getProject`, `getLayouts`, `listAgents` and
//! `listSessions`, its stderr has no "panicked", SIGTERM ends it with status 0 within
//! [`EXIT_DEADLINE`], and no process it started is left running in the project.
//!
//! Agents use the `shell` profile (`SHELL=/bin/sh`, `HOME` a temporary folder) and at most
//! [`MAX_SHELLS`] sessions run at once. Text typed into a terminal is always made harmless
//! first: a killed line, `# `, printable characters only, then Enter (see [`harmless`]); now
//! and then one of a few fixed harmless [`COMMANDS`] is typed instead (lots of output, a shell
//! that ignores SIGHUP and SIGTERM, one that exits). One connection acknowledges terminal
//! output promptly, the other rarely, so the server's flow control pauses sessions too.
//!
//! The seed is printed; `IDEA_FUZZ_SEED=<n>` replays its calls (the ids they carry depend on
//! what the server answered, so a replay is close, not exact), `IDEA_FUZZ_SECS=<n>` changes
//! the duration. `cargo test -p idea-app --test fuzz -- --nocapture` shows the summary line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
/// The seed when `IDEA_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 0x1DEA_F022;
/// How long calls are sent when `IDEA_FUZZ_SECS` is not set.
const DEFAULT_SECS: u64 = 30;
/// Every call with an id is answered within this (a restart may take ~3 s).
const ANSWER_DEADLINE: Duration = Duration::from_secs(10);
/// Answers slower than this are listed (not a failure).
const SLOW: Duration = Duration::from_secs(2);
/// SIGTERM ends `idea serve` within this.
const EXIT_DEADLINE: Duration = Duration::from_secs(10);
/// Connections fuzzing side by side.
const CONNECTIONS: u64 = 2;
/// Unanswered calls one connection may have (the server runs 16 at a time per connection).
const MAX_PENDING: usize = 24;
/// Sessions running at once before the fuzzer stops the oldest instead of starting more.
const MAX_SHELLS: usize = 8;
/// The documented close: the client fell too far behind on events and should reconnect.
const LAGGED: u16 = 1013;
/// The JSON-RPC error codes the server may answer with.
const RPC_CODES: &[i64] = &[-32700, -32600, -32601, -32602, -32000];
/// Errors about the project's state files: the fuzzer never touches them, so any of these
/// means the server broke (or refused) its own files.
const STATE_CODES: &[&str] = &["CORRUPT_FILE", "NEWER_SCHEMA", "IO_ERROR"];
/// The answer key of calls answered with `id: null`.
const NULL_KEY: &str = "null";

// ---------------------------------------------------------------------------------------------
// A small seeded generator (splitmix64): no dependency, same sequence everywhere.

struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    fn percent(&mut self, p: u64) -> bool {
        self.next_u64() % 100 < p
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())].clone())
        }
    }

    fn uuid(&mut self) -> String {
        let bits = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
        uuid::Uuid::from_u128(bits).to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// What the run has learnt: ids to aim at.

#[derive(Default)]
struct Pool {
    layouts: Vec<String>,
    /// `(layoutId, nodeId)` of every leaf.
    leaves: Vec<(String, String)>,
    /// `(layoutId, splitId, children)`.
    splits: Vec<(String, String, usize)>,
    agents: Vec<String>,
    templates: Vec<String>,
    running: Vec<String>,
    exited: Vec<String>,
    requests: Vec<String>,
    /// Layouts changed since the last `getLayouts`.
    stale: bool,
}

fn push_unique(items: &mut Vec<String>, item: &str, cap: usize) {
    if !items.iter().any(|i| i == item) {
        items.push(item.to_owned());
    }
    if items.len() > cap {
        items.remove(0);
    }
}

impl Pool {
    fn walk(&mut self, layout: &str, node: &Value) {
        let Some(id) = node["id"].as_str() else {
            return;
        };
        match node["children"].as_array() {
            Some(children) => {
                self.splits
                    .push((layout.to_owned(), id.to_owned(), children.len()));
                for child in children {
                    self.walk(layout, child);
                }
            }
            None => self.leaves.push((layout.to_owned(), id.to_owned())),
        }
    }

    fn add_layout(&mut self, layout: &Value) {
        if let Some(id) = layout["id"].as_str() {
            push_unique(&mut self.layouts, id, 64);
            self.walk(id, &layout["tree"]);
        }
    }

    fn session(&mut self, info: &Value) {
        let Some(id) = info["sessionId"].as_str() else {
            return;
        };
        if info["status"] == "running" {
            push_unique(&mut self.running, id, 256);
        } else {
            self.running.retain(|s| s != id);
            push_unique(&mut self.exited, id, 32);
        }
    }

    fn exited(&mut self, id: &str) {
        self.running.retain(|s| s != id);
        push_unique(&mut self.exited, id, 32);
    }

    fn event(&mut self, event: &Value) {
        match event["type"].as_str() {
            Some("sessionStarted") => self.session(&event["session"]),
            Some("sessionExited") => {
                if let Some(id) = event["sessionId"].as_str() {
                    self.exited(id);
                }
            }
            Some("agentCreated") => {
                if let Some(id) = event["agentId"].as_str() {
                    push_unique(&mut self.agents, id, 64);
                }
            }
            Some("agentDeleted") => self
                .agents
                .retain(|a| Some(a.as_str()) != event["agentId"].as_str()),
            Some("layoutsChanged" | "cellAgentAssigned" | "sessionMoved") => self.stale = true,
            _ => {}
        }
    }

    /// Learns from a successful answer to `method(params)`.
    fn result(&mut self, method: &str, params: &Value, result: &Value) {
        match method {
            "getLayouts" => {
                if let Some(layouts) = result["layouts"].as_array() {
                    self.layouts.clear();
                    self.leaves.clear();
                    self.splits.clear();
                    for layout in layouts {
                        self.add_layout(layout);
                    }
                    self.stale = false;
                }
            }
            "createLayout" => self.add_layout(result),
            "splitCell" => {
                if let (Some(layout), Some(node)) = (params["layoutId"].as_str(), result.as_str()) {
                    self.leaves.push((layout.to_owned(), node.to_owned()));
                }
            }
            "closeCell" => {
                let node = params["nodeId"].as_str();
                self.leaves.retain(|(_, n)| Some(n.as_str()) != node);
            }
            "deleteLayout" => {
                let layout = params["layoutId"].as_str();
                self.layouts.retain(|l| Some(l.as_str()) != layout);
                self.leaves.retain(|(l, _)| Some(l.as_str()) != layout);
                self.splits.retain(|(l, _, _)| Some(l.as_str()) != layout);
            }
            "listAgents" => {
                if let Some(agents) = result.as_array() {
                    self.agents = agents
                        .iter()
                        .filter_map(|a| a["agentId"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "createAgent" => {
                if let Some(id) = result["agentId"].as_str() {
                    push_unique(&mut self.agents, id, 64);
                }
            }
            "deleteAgent" => {
                let id = result["agentId"].as_str();
                self.agents.retain(|a| Some(a.as_str()) != id);
            }
            "listTemplates" => {
                if let Some(templates) = result.as_array() {
                    self.templates = templates
                        .iter()
                        .filter_map(|t| t["id"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "openShell" | "launchAgent" | "restartSession" => self.session(result),
            "listRequests" => {
                if let Some(requests) = result.as_array() {
                    self.requests = requests
                        .iter()
                        .filter_map(|r| r["requestId"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            "listSessions" => {
                if let Some(sessions) = result.as_array() {
                    self.running.clear();
                    for session in sessions {
                        self.session(session);
                    }
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What the run saw.

#[derive(Default)]
struct Stats {
    /// Frames sent, by method (or `raw`, `binary`, `ping`).
    sent: BTreeMap<String, u64>,
    /// Answers by outcome: `ok`, the IdeA code, or the bare JSON-RPC code.
    outcomes: BTreeMap<String, u64>,
    /// Successful answers, by method.
    ok: BTreeMap<String, u64>,
    /// The longest wait for an answer, and the call it was for.
    slowest: (Duration, String),
    /// Calls answered after more than [`SLOW`] (the first few).
    slow: Vec<String>,
    calls_with_id: u64,
    answered: u64,
    notifications: u64,
    /// Connections the server closed with 1013.
    lagged: u64,
    /// Connections the fuzzer dropped mid-call, and the calls they left unanswered (those
    /// and a lagged connection's are not checked).
    hangups: u64,
    abandoned: u64,
    /// `INTERNAL` answers: method and message.
    internal: Vec<String>,
    failures: Vec<String>,
}

impl Stats {
    fn fail(&mut self, failure: String) {
        eprintln!("fuzz failure: {failure}");
        if self.failures.len() < 50 {
            self.failures.push(failure);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A frame for a report: short, with its length when cut.
fn excerpt(text: &str) -> String {
    const MAX: usize = 300;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

// ---------------------------------------------------------------------------------------------
// Building calls.

/// Every field name some method takes: the params of a method this file does not know yet
/// are drawn from these.
#[rustfmt::skip]
const ALL_FIELDS: &[&str] = &[
    "layoutId", "nodeId", "targetId", "a", "b", "splitId", "ratios", "agentId", "sessionId",
    "direction", "side", "rows", "cols", "name", "profileId", "template", "content", "data",
    "bytes", "target", "message", "requester", "timeoutSecs", "requestId",
];

/// The required and optional fields of each method's params (`None`: a method this file does
/// not know yet).
fn fields(method: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match method {
        "getProject" | "listProfiles" | "listTemplates" | "listAgents" | "getLayouts"
        | "listSessions" | "listRequests" => (&[], &[]),
        "createAgent" => (&["name", "profileId"], &["template"]),
        "readAgentContext" | "deleteAgent" => (&["agentId"], &[]),
        "updateAgentContext" => (&["agentId", "content"], &[]),
        "createLayout" => (&["name"], &[]),
        "renameLayout" => (&["layoutId", "name"], &[]),
        "deleteLayout" | "setActiveLayout" => (&["layoutId"], &[]),
        "splitCell" => (&["layoutId", "nodeId", "direction"], &[]),
        "closeCell" => (&["layoutId", "nodeId"], &[]),
        "moveCell" => (&["layoutId", "nodeId", "targetId", "direction"], &["side"]),
        "swapCells" => (&["layoutId", "a", "b"], &[]),
        "resizeSplit" => (&["layoutId", "splitId", "ratios"], &[]),
        "assignAgent" => (&["layoutId", "nodeId", "agentId"], &[]),
        "launchAgent" => (&["layoutId", "nodeId", "agentId", "rows", "cols"], &[]),
        "openShell" => (&["layoutId", "nodeId", "rows", "cols"], &[]),
        "stopSession" | "attachTerminal" | "detachTerminal" => (&["sessionId"], &[]),
        "restartSession" | "resizeTerminal" => (&["sessionId", "rows", "cols"], &[]),
        "writeTerminal" => (&["sessionId", "data"], &[]),
        "ackTerminal" => (&["sessionId", "bytes"], &[]),
        "askAgent" => (&["target", "message"], &["requester", "timeoutSecs"]),
        "cancelRequest" => (&["requestId"], &[]),
        _ => return None,
    })
}

/// Methods that start a process.
const SPAWNING: &[&str] = &["openShell", "launchAgent", "restartSession"];

/// Pieces of awkward text.
#[rustfmt::skip]
const PIECES: &[&str] = &[
    "", "a", "Ada", " ", "  lead", "trail  ", "\u{202E}", "\u{202D}", "\u{2066}", "\u{2069}",
    "\u{200B}", "\u{200D}", "\u{FEFF}", "\0", "\u{1}", "\u{1b}[2J", "\u{7f}", "\u{85}",
    "\u{2028}", "\n", "\r\n", "\t", "é", "e\u{301}", "日本語", "\u{1F600}",
    "\u{1F469}\u{200D}\u{1F4BB}", "\u{10FFFF}", "\u{FFFD}", "..", "../", "../../etc/passwd",
    "/", "\\", "C:\\", "NUL", "con", "%s%n", "${HOME}", "$(id)", "`id`", "'", "\"", "<b>", "{}",
    "[]", "null", "-1", "0", "ﷺ", ".ideai", "agents.json", ";", "|", "*", "?", "~",
];

/// Text typed into a terminal, made harmless: `^U` kills whatever the line held, `# ` makes
/// the rest a comment, every control character is dropped (no Enter, `^D` or escape inside),
/// then Enter. A shell never runs any of it.
fn harmless(text: &str) -> String {
    let mut line = String::from("\u{15}# ");
    line.extend(text.chars().filter(|c| !c.is_control()));
    line.push('\r');
    line
}

/// Commands now and then typed into a session instead of a comment, all harmless: output
/// enough for the server's flow control to pause a session, binary output, a shell that
/// ignores SIGHUP and SIGTERM (stopping it takes the whole escalation), one that exits by
/// itself, escape sequences.
const COMMANDS: &[&str] = &[
    "head -c 3000000 /dev/zero | tr '\\0' x",
    "head -c 300000 /dev/urandom",
    "trap '' HUP TERM",
    "exit 3",
    "printf '\\033[?1049h\\033[2J\\033[31m'",
];

/// One of [`COMMANDS`] as typed: the line killed first, then Enter.
fn command(rng: &mut Rng) -> String {
    format!("\u{15}{}\r", rng.pick(COMMANDS).unwrap_or("exit 3"))
}

/// The same id spelt another way the server may accept (or not).
fn respell(rng: &mut Rng, id: &str) -> Value {
    let Ok(parsed) = uuid::Uuid::parse_str(id) else {
        return Value::from(format!("{id}x"));
    };
    Value::from(match rng.below(7) {
        0 => parsed.simple().to_string(),
        1 => parsed.braced().to_string(),
        2 => parsed.urn().to_string(),
        3 => parsed.hyphenated().to_string().to_uppercase(),
        4 => format!(" {id}"),
        5 => id[..id.len() - 1].to_owned(),
        _ => uuid::Uuid::nil().to_string(),
    })
}

/// Ids of one call that belong together (a cell of that layout, a split of it, …).
struct Aim {
    layout: String,
    node: String,
    other: String,
    split: String,
    children: usize,
    agent: String,
    session: String,
}

/// Output bytes received per session and not acknowledged yet (one connection's).
type Acks = BTreeMap<String, u64>;

struct Gen {
    rng: Rng,
    methods: Vec<&'static str>,
    connection: u64,
    next_id: u64,
    /// How often a frame is an `ackTerminal` when output is owed: a prompt client, or a
    /// slow one that lets the server's flow control pause its sessions.
    ack_percent: u64,
    /// Whether this connection hangs up now and then (a client that goes away mid-call).
    hangups: bool,
}

/// One frame to send and what to expect of it.
enum Out {
    Text {
        text: String,
        /// The method, or `raw`.
        label: String,
        /// The method and params to learn from when it succeeds.
        learn: Option<(String, Value)>,
    },
    Binary(Vec<u8>),
    Ping,
    /// Drop the connection without a close frame, mid-call, and connect again.
    Hangup,
}

impl Gen {
    fn aim(&mut self, pool: &Pool) -> Aim {
        let rng = &mut self.rng;
        let (layout, node) = match rng.pick(&pool.leaves) {
            Some(leaf) if rng.percent(92) => leaf,
            _ => (
                rng.pick(&pool.layouts).unwrap_or_else(|| rng.uuid()),
                rng.uuid(),
            ),
        };
        let siblings: Vec<String> = pool
            .leaves
            .iter()
            .filter(|(l, n)| *l == layout && *n != node)
            .map(|(_, n)| n.clone())
            .collect();
        let other = rng.pick(&siblings).unwrap_or_else(|| rng.uuid());
        let splits: Vec<(String, usize)> = pool
            .splits
            .iter()
            .filter(|(l, _, _)| *l == layout)
            .map(|(_, s, n)| (s.clone(), *n))
            .collect();
        let (split, children) = rng
            .pick(&splits)
            .unwrap_or_else(|| (node.clone(), 2 + rng.below(2)));
        let agent = match rng.pick(&pool.agents) {
            Some(agent) if rng.percent(90) => agent,
            _ => rng.uuid(),
        };
        let session = match rng.below(20) {
            0..=12 => rng.pick(&pool.running),
            13..=17 => rng.pick(&pool.exited),
            _ => None,
        }
        .unwrap_or_else(|| rng.uuid());
        Aim {
            layout,
            node,
            other,
            split,
            children,
            agent,
            session,
        }
    }

    fn name(&mut self) -> String {
        self.next_id += 1;
        if self.rng.percent(80) {
            format!("Fuzz {}-{}", self.connection, self.next_id)
        } else {
            self.weird()
        }
    }

    /// A valid value for `field`.
    fn good(&mut self, field: &str, method: &str, aim: &Aim, pool: &Pool) -> Option<Value> {
        let rng = &mut self.rng;
        Some(match field {
            "layoutId" => Value::from(aim.layout.as_str()),
            "nodeId" | "a" => Value::from(aim.node.as_str()),
            "targetId" | "b" => Value::from(aim.other.as_str()),
            "splitId" => Value::from(aim.split.as_str()),
            "ratios" => {
                let weights: Vec<f64> = (0..aim.children)
                    .map(|_| 1.0 + rng.below(9) as f64)
                    .collect();
                let total: f64 = weights.iter().sum();
                Value::from(weights.iter().map(|w| w / total).collect::<Vec<_>>())
            }
            "agentId" if method == "assignAgent" && rng.percent(15) => Value::Null,
            "agentId" => Value::from(aim.agent.as_str()),
            "sessionId" => Value::from(aim.session.as_str()),
            "direction" => Value::from(["horizontal", "vertical"][rng.below(2)]),
            "side" => Value::from(["before", "after"][rng.below(2)]),
            "rows" => Value::from(1 + rng.below(80)),
            "cols" => Value::from(1 + rng.below(250)),
            "profileId" => Value::from("shell"),
            "template" => Value::from(rng.pick(&pool.templates)?),
            "bytes" => Value::from(rng.below(100_000)),
            // Only shell agents exist: asking one is refused at once, never a real CLI turn.
            "target" if rng.percent(80) => Value::from(aim.agent.as_str()),
            "requester" if rng.percent(50) => Value::from("user"),
            "requester" => Value::from(aim.agent.as_str()),
            "timeoutSecs" => Value::from(1 + rng.below(5)),
            "requestId" => Value::from(rng.pick(&pool.requests).unwrap_or_else(|| rng.uuid())),
            "target" => Value::from(self.name()),
            "name" => Value::from(self.name()),
            "content" | "data" | "message" => Value::from(self.weird()),
            _ => self.junk(0),
        })
    }

    /// Valid params for `method` (`None`: no params at all).
    fn skeleton(&mut self, method: &str, pool: &Pool) -> Option<Value> {
        let aim = self.aim(pool);
        let (required, optional) = match fields(method) {
            Some(known) => known,
            None => {
                // A method this file does not know yet: some of every field there is.
                let mut params = Map::new();
                for field in ALL_FIELDS {
                    if self.rng.percent(40)
                        && let Some(value) = self.good(field, method, &aim, pool)
                    {
                        params.insert((*field).to_owned(), value);
                    }
                }
                return Some(Value::Object(params));
            }
        };
        if required.is_empty() && optional.is_empty() {
            return match self.rng.below(3) {
                0 => None,
                1 => Some(Value::Null),
                _ => Some(json!({})),
            };
        }
        let mut params = Map::new();
        for field in required {
            if let Some(value) = self.good(field, method, &aim, pool) {
                params.insert((*field).to_owned(), value);
            }
        }
        for field in optional {
            if self.rng.percent(50)
                && let Some(value) = self.good(field, method, &aim, pool)
            {
                params.insert((*field).to_owned(), value);
            }
        }
        Some(Value::Object(params))
    }

    /// Awkward text: pieces of [`PIECES`], random letters, or now and then a huge string.
    fn weird(&mut self) -> String {
        let rng = &mut self.rng;
        match rng.below(100) {
            0..=1 => {
                let size = [4 << 10, 64 << 10, 1 << 20][rng.below(3)];
                let piece = rng.pick(PIECES).unwrap_or("x");
                let unit = if piece.is_empty() { "x" } else { piece };
                unit.repeat(size / unit.len().max(1) + 1)
            }
            2..=20 => (0..1 + rng.below(40))
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect(),
            _ => (0..1 + rng.below(6))
                .map(|_| rng.pick(PIECES).unwrap_or(""))
                .collect(),
        }
    }

    fn edge_number(&mut self) -> Value {
        match self.rng.below(12) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(65535),
            3 => json!(65536),
            4 => json!(u64::MAX),
            5 => json!(i64::MIN),
            6 => json!(1e308),
            7 => json!(-0.0),
            8 => json!(1.5),
            9 => json!("24"),
            10 => json!(4_294_967_296_u64),
            _ => json!(1),
        }
    }

    /// `depth` levels of arrays or objects around a number.
    fn deep(&mut self, depth: usize) -> Value {
        let object = self.rng.percent(50);
        (0..depth).fold(json!(0), |inner, _| {
            if object {
                json!({ "x": inner })
            } else {
                json!([inner])
            }
        })
    }

    /// A value of any type.
    fn junk(&mut self, depth: u32) -> Value {
        let choices = if depth > 2 { 9 } else { 12 };
        match self.rng.below(choices) {
            0 => Value::Null,
            1 => Value::from(self.rng.percent(50)),
            2 => Value::from(self.rng.below(100) as i64 - 5),
            3 => self.edge_number(),
            4 => Value::from(self.rng.next_u64() as f64 / 7.0),
            5..=6 => Value::from(self.weird()),
            7 => Value::from(self.rng.uuid()),
            8 => Value::from(""),
            9 => Value::from(
                (0..self.rng.below(4))
                    .map(|_| self.junk(depth + 1))
                    .collect::<Vec<_>>(),
            ),
            10 => {
                let mut object = Map::new();
                for _ in 0..self.rng.below(4) {
                    let key = self.weird();
                    object.insert(key, self.junk(depth + 1));
                }
                Value::Object(object)
            }
            _ => {
                let levels = 1 + self.rng.below(300);
                self.deep(levels)
            }
        }
    }

    /// Changes one thing about `params`.
    fn mutate(&mut self, params: &mut Option<Value>, pool: &Pool) {
        let keys: Vec<String> = match params {
            Some(Value::Object(object)) => object.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let key = self.rng.pick(&keys);
        let roll = self.rng.below(10);
        let Some(Value::Object(object)) = params else {
            // Not an object: make it one of anything.
            *params = if self.rng.percent(20) {
                None
            } else {
                Some(self.junk(0))
            };
            return;
        };
        match (roll, key) {
            (0, Some(key)) => {
                object.remove(&key);
            }
            (1, _) => {
                let key = match self.rng.percent(50) {
                    true => self.rng.pick(ALL_FIELDS).unwrap_or("x").to_owned(),
                    false => self.weird(),
                };
                let value = self.junk(0);
                object.insert(key, value);
            }
            (2, Some(key)) => {
                let value = self.junk(0);
                object.insert(key, value);
            }
            (3, Some(key)) => {
                // Another id: random, respelt, or of another kind.
                let value = match (object.get(&key).and_then(Value::as_str), self.rng.below(3)) {
                    (Some(id), 0) => {
                        let id = id.to_owned();
                        respell(&mut self.rng, &id)
                    }
                    (_, 1) => {
                        let known: Vec<String> = pool
                            .layouts
                            .iter()
                            .chain(&pool.agents)
                            .chain(&pool.running)
                            .chain(pool.leaves.iter().map(|(_, n)| n))
                            .cloned()
                            .collect();
                        Value::from(self.rng.pick(&known).unwrap_or_else(|| self.rng.uuid()))
                    }
                    _ => Value::from(self.rng.uuid()),
                };
                object.insert(key, value);
            }
            (4, Some(key)) => {
                let value = Value::from(self.weird());
                object.insert(key, value);
            }
            (5, Some(key)) => {
                let value = self.edge_number();
                object.insert(key, value);
            }
            (6, _) => {
                *params = match self.rng.below(5) {
                    0 => None,
                    1 => Some(Value::Null),
                    2 => Some(json!([params.take()])),
                    _ => Some(self.junk(0)),
                };
            }
            (7, Some(key)) => {
                let levels = 1 + self.rng.below(300);
                let value = self.deep(levels);
                object.insert(key, value);
            }
            (8, Some(key)) if key == "ratios" => {
                let ratios: Vec<Value> = (0..self.rng.below(6))
                    .map(|_| match self.rng.below(4) {
                        0 => json!(0.0),
                        1 => json!(-0.5),
                        2 => json!(1e300),
                        _ => json!(self.rng.below(100) as f64 / 100.0),
                    })
                    .collect();
                object.insert(key, Value::from(ratios));
            }
            _ => {
                // Everything there twice: the same fields with `null` over all of them.
                for value in object.values_mut() {
                    if self.rng.percent(30) {
                        *value = Value::Null;
                    }
                }
            }
        }
    }

    /// The `id` of the next call: mostly a number, sometimes a string, a float, a huge number,
    /// `null`, or absent (a notification).
    fn id(&mut self) -> Option<Value> {
        self.next_id += 1;
        let n = self.next_id * CONNECTIONS + self.connection;
        Some(match self.rng.below(40) {
            0 => return None,
            1 => Value::Null,
            2..=5 => Value::from(format!("c{n}-{}", self.weird())),
            6 => Value::from(n as f64 + 0.5),
            7 => Value::from(-(n as i64)),
            8 => Value::from(u64::MAX - n),
            _ => Value::from(n),
        })
    }

    fn call_text(id: Option<Value>, method: &str, params: Option<Value>) -> String {
        let mut call = Map::new();
        call.insert("jsonrpc".into(), Value::from("2.0"));
        if let Some(id) = id {
            call.insert("id".into(), id);
        }
        call.insert("method".into(), Value::from(method));
        if let Some(params) = params {
            call.insert("params".into(), params);
        }
        Value::Object(call).to_string()
    }

    /// A call to `method`: its valid skeleton, mutated now and then.
    fn call(&mut self, method: &str, pool: &Pool, mutations: usize) -> Out {
        let mut params = self.skeleton(method, pool);
        for _ in 0..mutations {
            self.mutate(&mut params, pool);
        }
        // Whatever is typed into a terminal is made harmless (see `harmless`).
        if let Some(Value::Object(object)) = &mut params
            && let Some(Value::String(data)) = object.get_mut("data")
        {
            *data = if method == "writeTerminal" && self.rng.percent(8) {
                command(&mut self.rng)
            } else {
                harmless(data)
            };
        }
        let learn = params.clone().map(|p| (method.to_owned(), p));
        let id = self.id();
        Out::Text {
            text: Self::call_text(id, method, params),
            label: if self.methods.contains(&method) {
                method.to_owned()
            } else {
                "unknownMethod".to_owned()
            },
            learn: learn.or_else(|| Some((method.to_owned(), Value::Null))),
        }
    }

    /// A frame that is not a well-formed call.
    fn raw(&mut self, pool: &Pool) -> String {
        self.next_id += 1;
        let n = self.next_id * CONNECTIONS + self.connection;
        let method = self.rng.pick(&self.methods).unwrap_or("getProject");
        let valid = format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"{method}","params":{{}}}}"#);
        match self.rng.below(17) {
            0 => {
                let mut cut = self.rng.below(valid.len());
                while !valid.is_char_boundary(cut) {
                    cut -= 1;
                }
                valid[..cut].to_owned()
            }
            1 => self.weird(),
            2 => {
                let version =
                    ["\"1.0\"", "2", "2.0", "null", "\"2.0 \"", "\"\""][self.rng.below(6)];
                format!(r#"{{"jsonrpc":{version},"id":{n},"method":"{method}"}}"#)
            }
            3 => format!(r#"{{"id":{n},"method":"{method}"}}"#),
            4 => ["42", "\"call\"", "null", "true", "-0", "1e999"][self.rng.below(6)].to_owned(),
            5 => {
                let other = format!(r#"{{"jsonrpc":"2.0","id":"b{n}","method":"listAgents"}}"#);
                match self.rng.below(3) {
                    0 => "[]".to_owned(),
                    1 => format!("[{valid}]"),
                    _ => format!("[{valid},{other}]"),
                }
            }
            6 => {
                let id = match self.rng.below(6) {
                    0 => "1e308".to_owned(),
                    1 => "-1e308".to_owned(),
                    2 => format!("1234567890123456789012345678901234567890{n}"),
                    3 => u64::MAX.to_string(),
                    4 => format!("\"{}{n}\"", "i".repeat(200_000)),
                    _ => format!("{n}.000000000000000000001"),
                };
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
            }
            7 => {
                let id = ["{}", "[]", "true", "[1]", "{\"id\":1}"][self.rng.below(5)];
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
            }
            8 => {
                let what = ["7", "null", "[]", "{}", "\"\""][self.rng.below(5)];
                format!(r#"{{"jsonrpc":"2.0","id":{n},"method":{what}}}"#)
            }
            9 => format!(r#"{{"jsonrpc":"2.0","id":{n}}}"#),
            10 => format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"createLayout","params":{{"name":"a\ud800b"}}}}"#
            ),
            11 => format!(r#"{{"jsonrpc":"2.0","id":{n},"id":"dup{n}","method":"{method}"}}"#),
            12 => String::new(),
            13 => format!("{valid} trailing"),
            14 => format!("\u{FEFF}{valid}"),
            15 => " \n\t ".to_owned(),
            _ => {
                // A near-miss method name.
                let near = match self.rng.below(4) {
                    0 => method.to_uppercase(),
                    1 => format!("{method} "),
                    2 => format!("{method}\u{0}"),
                    _ => format!("_{method}"),
                };
                let layout = pool.layouts.first().cloned().unwrap_or_default();
                let call = json!({"jsonrpc": "2.0", "id": n, "method": near,
                    "params": {"layoutId": layout}});
                call.to_string()
            }
        }
    }

    /// A binary frame: keystrokes for a known session (made harmless), or random bytes.
    fn binary(&mut self, pool: &Pool) -> Vec<u8> {
        let session = self
            .rng
            .pick(&pool.running)
            .and_then(|s| uuid::Uuid::parse_str(&s).ok());
        match session {
            Some(session) if self.rng.percent(60) => {
                let mut bytes = session.as_bytes().to_vec();
                let typed = if self.rng.percent(8) {
                    command(&mut self.rng)
                } else {
                    harmless(&self.weird())
                };
                bytes.extend_from_slice(typed.as_bytes());
                bytes
            }
            _ => (0..self.rng.below(64))
                .map(|_| self.rng.next_u64() as u8)
                .collect(),
        }
    }

    /// The next frame to send.
    fn frame(&mut self, pool: &mut Pool, acks: &mut Acks) -> Out {
        // Too many shells: stop the oldest first.
        if pool.running.len() > MAX_SHELLS {
            let session = pool.running.remove(0);
            let params = json!({ "sessionId": session });
            let id = self.id().or(Some(Value::from(0)));
            return Out::Text {
                text: Self::call_text(id, "stopSession", Some(params.clone())),
                label: "stopSession".into(),
                learn: Some(("stopSession".into(), params)),
            };
        }
        // Acknowledge output, as a client does.
        if self.rng.percent(self.ack_percent)
            && let Some((session, bytes)) = acks.pop_first()
        {
            let params = json!({"sessionId": session, "bytes": bytes});
            return Out::Text {
                text: Self::call_text(None, "ackTerminal", Some(params)),
                label: "ackTerminal".into(),
                learn: None,
            };
        }
        // Keep something to aim at, whatever the fuzzer deleted.
        if (pool.stale && self.rng.percent(25)) || pool.leaves.is_empty() {
            pool.stale = false;
            return self.call("getLayouts", pool, 0);
        }
        if pool.agents.len() < 2 && self.rng.percent(20) {
            return self.call("createAgent", pool, 0);
        }
        if self.hangups && self.rng.below(1000) == 0 {
            return Out::Hangup;
        }
        match self.rng.below(100) {
            0..=3 => Out::Binary(self.binary(pool)),
            4 => Out::Ping,
            5..=12 => Out::Text {
                text: self.raw(pool),
                label: "raw".into(),
                learn: None,
            },
            13..=14 => {
                let method = format!("fuzz{}", self.weird());
                self.call(&method, pool, 0)
            }
            _ => {
                let mut method = self.rng.pick(&self.methods).unwrap_or("getProject");
                if pool.running.len() >= MAX_SHELLS && SPAWNING.contains(&method) {
                    method = "listSessions";
                }
                let mutations = match self.rng.below(10) {
                    0..=4 => 0,
                    5..=7 => 1,
                    8 => 2,
                    _ => 3,
                };
                self.call(method, pool, mutations)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Which answer a frame should get.

/// The key of the answer `text` must get (`None`: no answer), following JSON-RPC 2.0 as
/// `docs/api.md` describes it: a frame that is not JSON, not an object, or whose id is not a
/// string, a number or null is answered with `id: null`; a call without an id is a
/// notification. The key is [`id_key`] of the id, so it matches the echoed id.
fn expected_key(text: &str) -> Option<String> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Some(NULL_KEY.into());
    };
    let Value::Object(mut object) = value else {
        return Some(NULL_KEY.into());
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::Null | Value::Number(_) | Value::String(_))) => Some(id),
        Some(_) => return Some(NULL_KEY.into()),
    };
    let answer = id_key(&id.clone().unwrap_or(Value::Null));
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(answer);
    }
    if !matches!(object.get("method"), Some(Value::String(_))) {
        return Some(answer);
    }
    id.map(|id| id_key(&id))
}

/// The key an id is matched by: as `serde_json` prints it, except that a number too large for
/// an integer is compared to 10 significant digits (`serde_json` reads such a number to the
/// nearest `f64` or a neighbour of it, so the echo of a huge id may differ in its last digit).
fn id_key(id: &Value) -> String {
    match id {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            format!("{:.10e}", n.as_f64().unwrap_or_default())
        }
        _ => id.to_string(),
    }
}

/// What is wrong with an answer, or its outcome (`ok`, the IdeA code, the JSON-RPC code).
fn check_answer(answer: &Value, declared: bool) -> Result<String, String> {
    if answer["jsonrpc"] != "2.0" {
        return Err("no \"jsonrpc\":\"2.0\"".into());
    }
    let (result, error) = (answer.get("result"), answer.get("error"));
    match (result, error) {
        (Some(_), None) => Ok("ok".into()),
        (None, Some(error)) => {
            let Some(code) = error["code"].as_i64().filter(|c| RPC_CODES.contains(c)) else {
                return Err("error without a JSON-RPC code".into());
            };
            if !error["message"].is_string() {
                return Err("error without a message".into());
            }
            let data = error.get("data");
            let idea = data.map(|d| d["code"].as_str());
            match (code, idea) {
                (-32000, None | Some(None)) => Err("-32000 without a string data.code".into()),
                (_, Some(None)) => Err("data without a string code".into()),
                (-32601, _) if declared => Err("a declared method is unknown".into()),
                (_, Some(Some(idea))) => Ok(idea.to_owned()),
                (code, None) => Ok(code.to_string()),
            }
        }
        _ => Err("not exactly one of result and error".into()),
    }
}

// ---------------------------------------------------------------------------------------------
// One connection.

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

enum Incoming {
    Answer(Value),
    /// The server closed the connection: its close code, and why.
    Closed(Option<u16>, String),
    Stray(String),
}

async fn connect(port: u16) -> Ws {
    let url = format!("ws://127.0.0.1:{port}/ws?token={TOKEN}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

type Dialled = (
    SplitSink<Ws, Message>,
    mpsc::UnboundedReceiver<Incoming>,
    Arc<Mutex<Acks>>,
    tokio::task::JoinHandle<()>,
);

/// A connection: where to send, what the reader passes on, output owed, the reader.
async fn dial(port: u16, pool: &Arc<Mutex<Pool>>) -> Dialled {
    let (sink, stream) = connect(port).await.split();
    let (tx, answers) = mpsc::unbounded_channel();
    let acks = Arc::new(Mutex::new(Acks::new()));
    let reader = tokio::spawn(read_frames(stream, tx, Arc::clone(pool), Arc::clone(&acks)));
    (sink, answers, acks, reader)
}

/// Reads every frame: answers go to the connection's loop, events feed the pool, output is
/// counted to be acknowledged.
async fn read_frames(
    mut stream: SplitStream<Ws>,
    answers: mpsc::UnboundedSender<Incoming>,
    pool: Arc<Mutex<Pool>>,
    acks: Arc<Mutex<Acks>>,
) {
    let why = loop {
        let Some(message) = stream.next().await else {
            break Incoming::Closed(None, "the stream ended".into());
        };
        match message {
            Ok(Message::Text(text)) => match serde_json::from_str::<Value>(text.as_str()) {
                Ok(value) if value.get("id").is_some() => {
                    let _ = answers.send(Incoming::Answer(value));
                }
                Ok(value) if value["method"] == "event" => lock(&pool).event(&value["params"]),
                _ => {
                    let _ = answers.send(Incoming::Stray(excerpt(text.as_str())));
                }
            },
            Ok(Message::Binary(bytes)) => {
                let Some((head, payload)) = bytes.split_first_chunk::<16>() else {
                    let _ = answers.send(Incoming::Stray("a binary frame under 16 bytes".into()));
                    continue;
                };
                let session = uuid::Uuid::from_bytes(*head).to_string();
                *lock(&acks).entry(session).or_default() += payload.len() as u64;
            }
            Ok(Message::Close(frame)) => {
                break match frame {
                    Some(frame) => {
                        Incoming::Closed(Some(frame.code.into()), frame.reason.to_string())
                    }
                    None => Incoming::Closed(None, "a close frame without a code".into()),
                };
            }
            Ok(_) => {}
            Err(e) => break Incoming::Closed(None, e.to_string()),
        }
    };
    let _ = answers.send(why);
}

/// A call waiting for its answer.
struct Pending {
    label: String,
    sent: Instant,
    frame: String,
    learn: Option<(String, Value)>,
}

struct Connection {
    index: u64,
    port: u16,
    sink: SplitSink<Ws, Message>,
    answers: mpsc::UnboundedReceiver<Incoming>,
    reader: tokio::task::JoinHandle<()>,
    pending: HashMap<String, VecDeque<Pending>>,
    pool: Arc<Mutex<Pool>>,
    acks: Arc<Mutex<Acks>>,
    stats: Arc<Mutex<Stats>>,
    declared: Vec<&'static str>,
    /// Set once the server closed this connection for an undocumented reason.
    broken: bool,
}

impl Connection {
    async fn open(
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
            broken: false,
        }
    }

    /// A new connection in place of this one, whose unanswered calls are forgotten.
    async fn redial(&mut self) {
        self.reader.abort();
        let (sink, answers, acks, reader) = dial(self.port, &self.pool).await;
        // The old halves are dropped here: the old socket closes without a close frame.
        self.sink = sink;
        self.answers = answers;
        self.acks = acks;
        self.reader = reader;
        let abandoned = self.waiting() as u64;
        lock(&self.stats).abandoned += abandoned;
        self.pending.clear();
    }

    fn waiting(&self) -> usize {
        self.pending.values().map(VecDeque::len).sum()
    }

    /// Counts a frame and, when it must be answered, notes the answer it waits for.
    fn register(&mut self, out: Out) -> Message {
        let mut stats = lock(&self.stats);
        match out {
            Out::Hangup => unreachable!("a hang-up is not a frame"),
            Out::Text { text, label, learn } => {
                *stats.sent.entry(label.clone()).or_default() += 1;
                match expected_key(&text) {
                    Some(key) => {
                        stats.calls_with_id += 1;
                        let pending = Pending {
                            label,
                            sent: Instant::now(),
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

    async fn send(&mut self, out: Out) {
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
    async fn take(&mut self, incoming: Incoming) {
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

    fn answer(&mut self, answer: &Value) {
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
                // Only a restart whose process would not die may be `INTERNAL`; and nothing
                // but the server touches the state files, so none may be broken or refused.
                if (outcome == "INTERNAL" && label != "restartSession")
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
    async fn receive(&mut self, wait: Duration) {
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

    /// Fails every call unanswered for longer than the deadline (once each).
    fn overdue(&mut self) {
        let now = Instant::now();
        let mut stats = lock(&self.stats);
        for (key, queue) in &mut self.pending {
            while queue
                .front()
                .is_some_and(|p| now.duration_since(p.sent) > ANSWER_DEADLINE)
            {
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
async fn fuzz_connection(
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

// ---------------------------------------------------------------------------------------------
// The server.

struct Served {
    child: Child,
    port: u16,
    stderr: Arc<Mutex<String>>,
    dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Served {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_idea"))
        .args(["serve", project.to_str().unwrap(), "--port", "0"])
        .args(["--token", TOKEN])
        .env("IDEA_USER_DIR", dir.path().join("user"))
        .env("SHELL", "/bin/sh")
        .env("HOME", &home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let mut pipe = child.stderr.take().unwrap();
    let collected = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut buffer = [0_u8; 4096];
        while let Ok(n @ 1..) = pipe.read(&mut buffer) {
            lock(&collected).push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected announcement: {line:?}"));
    Served {
        child,
        port,
        stderr,
        dir,
    }
}

impl Served {
    /// Sends SIGTERM and waits for the exit (`None`: still running after the deadline).
    fn terminate(&mut self) -> Option<ExitStatus> {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + EXIT_DEADLINE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// Processes whose working folder is under `dir` (the sessions' cwd is the project or a run
/// folder in it), as `pid: command line`; each is killed: the test started them.
fn strays(dir: &std::path::Path) -> Vec<String> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cwd) = std::fs::read_link(entry.path().join("cwd")) else {
            continue;
        };
        if cwd.starts_with(&dir) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            found.push(format!("{pid}: {}", cmdline.trim_end()));
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
    }
    found
}

/// The `ERROR` lines of the server's log files (informative: not a failure).
fn logged_errors(logs: &std::path::Path) -> Vec<String> {
    let Ok(files) = std::fs::read_dir(logs) else {
        return Vec::new();
    };
    files
        .flatten()
        .filter_map(|f| std::fs::read(f.path()).ok())
        .flat_map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .lines()
                .filter(|l| l.contains(" ERROR "))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One call on a fresh connection, its answer.
async fn call_once(port: u16, method: &str) -> Result<Value, String> {
    let mut ws = connect(port).await;
    let call = json!({"jsonrpc": "2.0", "id": "last", "method": method});
    ws.send(Message::text(call.to_string()))
        .await
        .map_err(|e| e.to_string())?;
    loop {
        let message = tokio::time::timeout(ANSWER_DEADLINE, ws.next())
            .await
            .map_err(|_| format!("{method}: no answer in time"))?
            .ok_or("the connection ended")?
            .map_err(|e| e.to_string())?;
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
            if value["id"] == "last" {
                return Ok(value);
            }
        }
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
        Err(_) => default,
    }
}

fn summary(seed: u64, elapsed: Duration, stats: &Stats) -> String {
    let join = |map: &BTreeMap<String, u64>| {
        map.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let frames: u64 = stats.sent.values().sum();
    format!(
        "fuzz summary: seed={seed} secs={:.1} frames={frames} calls_with_id={} answered={} \
         notifications={} lagged={} hangups={} abandoned={} failures={} slowest={}ms({}) | sent: {} | outcomes: {} | ok: {}",
        elapsed.as_secs_f64(),
        stats.calls_with_id,
        stats.answered,
        stats.notifications,
        stats.lagged,
        stats.hangups,
        stats.abandoned,
        stats.failures.len(),
        stats.slowest.0.as_millis(),
        stats.slowest.1,
        join(&stats.sent),
        join(&stats.outcomes),
        join(&stats.ok),
    )
}

#[test]
fn every_method_survives_a_bounded_fuzz_run() {
    let seed = env_number("IDEA_FUZZ_SEED", DEFAULT_SEED);
    let secs = env_number("IDEA_FUZZ_SECS", DEFAULT_SECS);
    println!("fuzz: seed {seed}, {secs} s (replay: IDEA_FUZZ_SEED={seed} IDEA_FUZZ_SECS={secs})");
    let unknown: Vec<&str> = idea_api::all_methods()
        .map(|m| m.name)
        .filter(|m| fields(m).is_none())
        .collect();
    if !unknown.is_empty() {
        println!("fuzz: no params skeleton for {unknown:?}: their params come from every field");
    }
    let started = Instant::now();
    let mut served = serve();
    let port = served.port;
    let pool = Arc::new(Mutex::new(Pool::default()));
    let stats = Arc::new(Mutex::new(Stats::default()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    let last = runtime.block_on(async {
        let until = Instant::now() + Duration::from_secs(secs);
        let runs: Vec<_> = (0..CONNECTIONS)
            .map(|index| {
                let pool = Arc::clone(&pool);
                let stats = Arc::clone(&stats);
                tokio::spawn(fuzz_connection(index, port, seed, until, pool, stats))
            })
            .collect();
        for run in runs {
            if let Err(e) = run.await {
                lock(&stats).fail(format!("a connection's run panicked: {e}"));
            }
        }
        let mut last = Vec::new();
        for method in ["getProject", "getLayouts", "listAgents", "listSessions"] {
            last.push((method, call_once(port, method).await));
        }
        last
    });
    drop(runtime);
    let mut stats = std::mem::take(&mut *lock(&stats));
    for (method, answer) in last {
        match answer {
            Ok(answer) if answer.get("result").is_some() => {}
            Ok(answer) => stats.fail(format!("{method} at the end: {answer}")),
            Err(e) => stats.fail(format!("{method} at the end: {e}")),
        }
    }
    if let Ok(Some(status)) = served.child.try_wait() {
        stats.fail(format!("idea serve died during the run: {status}"));
    }
    match served.terminate() {
        Some(status) if status.success() => {}
        Some(status) => stats.fail(format!("idea serve exited with {status} after SIGTERM")),
        None => stats.fail(format!(
            "idea serve still ran {EXIT_DEADLINE:?} after SIGTERM"
        )),
    }
    // Give the stderr reader the last bytes, and the killed sessions a moment to be gone.
    std::thread::sleep(Duration::from_millis(200));
    let strays = strays(served.dir.path());
    if !strays.is_empty() {
        stats.fail(format!(
            "processes still running in the project after idea serve exited: {strays:?}"
        ));
    }
    let stderr = lock(&served.stderr).clone();
    let told: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("idea: log:") && !l.starts_with("idea: initialised"))
        .collect();
    if !told.is_empty() {
        println!("fuzz: idea serve's stderr:\n{}", excerpt(&told.join("\n")));
    }
    if stderr.contains("panicked") {
        stats.fail(format!("stderr tells of a panic:\n{}", excerpt(&stderr)));
    }
    let errors = logged_errors(&served.dir.path().join("user").join("logs"));
    if !errors.is_empty() {
        println!(
            "fuzz: {} ERROR line(s) in the server's log, first:",
            errors.len()
        );
        for line in errors.iter().take(5) {
            println!("  {}", excerpt(line));
        }
    }
    for line in &stats.slow {
        println!("fuzz: slow answer after {}", excerpt(line));
    }
    for line in &stats.internal {
        println!("fuzz: INTERNAL from {}", excerpt(line));
    }
    println!("{}", summary(seed, started.elapsed(), &stats));
    assert!(
        stats.failures.is_empty(),
        "the fuzz run (seed {seed}, replay with IDEA_FUZZ_SEED={seed}) found {} problem(s):\n{}",
        stats.failures.len(),
        stats.failures.join("\n")
    );
}
