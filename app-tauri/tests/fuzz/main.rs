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
//! [`ANSWER_DEADLINE`] (a write, of the answer to the write before it); a declared method is never `-32601`; no answer is `INTERNAL` (but a
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
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";
/// The seed when `IDEA_FUZZ_SEED` is not set.
const DEFAULT_SEED: u64 = 0x1DEA_F022;
/// How long calls are sent when `IDEA_FUZZ_SECS` is not set.
const DEFAULT_SECS: u64 = 30;
/// Every call with an id is answered within this (a restart may wait 10 s for its process), a
/// write within this of the answer to the write before it.
const ANSWER_DEADLINE: Duration = Duration::from_secs(15);
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

#[path = "../support/mod.rs"]
mod support;

// The run by responsibility: `rng` (seeded generator), `pool` (ids learnt), `stats` (what was
// seen), `params` + `mutate` + `frames` (building calls and raw frames), `checks` (expected
// answers), `wire` + `connection` (one WebSocket client), `server` (the `idea serve` process).
mod checks;
mod connection;
mod frames;
mod mutate;
mod params;
mod pool;
mod rng;
mod server;
mod stats;
mod wire;

use checks::*;
use connection::*;
use params::*;
use pool::*;
use rng::*;
use server::*;
use stats::*;
use wire::*;

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
