//! MCP benchmark: one tool call through `idea mcp-server` and the owner, beside a bare JSON-RPC
//! call on the same owner's socket, in one run.
//!
//! `cargo bench -p idea-app --bench mcp` starts the real `idea serve` on a temp project with a
//! few agents, then measures, interleaved so both see the same machine:
//!
//! 1. `idea_list_agents` called by an rmcp client whose server is `idea mcp-server` (a child
//!    process): client → stdio → bridge → socket → owner (rmcp) → `listAgents` +
//!    `listSessions` through `api::call` → back;
//! 2. the same call by an rmcp client right on an `mcp` connection to the owner (no bridge):
//!    the difference with 1 is what the bridge costs;
//! 3. the baseline: one `listAgents` JSON-RPC line on a `cli` connection to the same owner;
//! 4. `idea_ask_agent` of an instant fake agent (a `/bin/sh` one-liner printing one Claude
//!    `result` line, see the rig) through the same path, beside the same `askAgent` sent bare
//!    on the `cli` connection: the turn itself (a process spawned per ask) dominates both.
//!
//! It prints p50/p99 of each and their ratios; it asserts nothing about speed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/owner_rig.rs"]
mod rig;
#[path = "../tests/support/mod.rs"]
mod support;

use idea_infrastructure::owner::Hello;
use rig::Rig;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const COMMAND: &str = "cargo bench -p idea-app --bench mcp";
const AGENTS: usize = 5;
const WARMUP: usize = 50;
/// Samples of each kind, taken in rounds of one of each.
const SAMPLES: usize = 1000;
/// Asks of each kind (each spawns the fake agent's process).
const ASK_SAMPLES: usize = 100;

fn main() {
    println!("command: {COMMAND}");
    println!("idea binary: {}", env!("CARGO_BIN_EXE_idea"));
    println!();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let started = Instant::now();
    let report = runtime.block_on(run());
    report.print();
    println!();
    println!("total time: {:.1} s", started.elapsed().as_secs_f64());
}

#[derive(Default)]
struct Report {
    mcp: Vec<f64>,
    direct: Vec<f64>,
    bare: Vec<f64>,
    ask_mcp: Vec<f64>,
    ask_bare: Vec<f64>,
}

async fn run() -> Report {
    let rig = Rig::new().serve();
    for i in 0..AGENTS {
        rig.create_agent(&format!("Agent {i}"));
    }
    let echo = rig.create_agent_with("Echo", "instant");
    let client = rig.client("Agent 0").await;
    let me = rig.create_agent("Asker")["agentId"].clone();
    let mut cli = rig.raw(&Hello::Cli).await;
    // The same MCP session without the bridge: rmcp's client right on an `mcp` connection.
    let agent = "Agent 0".to_owned();
    let rig::Raw { reader, write } = rig.raw(&Hello::Mcp { agent }).await;
    let direct = ().serve((reader, write)).await.unwrap();
    let mut id = 0u64;
    let mut bare = async |method: &str, params: Value| {
        id += 1;
        let call = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let started = Instant::now();
        cli.send(&call.to_string()).await;
        let answer = cli.answer().await;
        let took = ms(started.elapsed());
        assert!(answer.get("result").is_some(), "{answer}");
        took
    };
    let list_direct = async || {
        let started = Instant::now();
        let params = CallToolRequestParams::new("idea_list_agents");
        let result = direct.call_tool(params).await.unwrap();
        let took = ms(started.elapsed());
        assert_ne!(result.is_error, Some(true), "{result:?}");
        took
    };
    let mcp = async |tool: &'static str, args: Value| {
        let params = match args {
            Value::Object(map) => CallToolRequestParams::new(tool).with_arguments(map),
            _ => CallToolRequestParams::new(tool),
        };
        let started = Instant::now();
        let result = client.call_tool(params).await.unwrap();
        let took = ms(started.elapsed());
        assert_ne!(result.is_error, Some(true), "{result:?}");
        took
    };

    let mut report = Report::default();
    for round in 0..WARMUP + SAMPLES {
        let (m, d, b) = (
            mcp("idea_list_agents", Value::Null).await,
            list_direct().await,
            bare("listAgents", Value::Null).await,
        );
        if round >= WARMUP {
            report.mcp.push(m);
            report.direct.push(d);
            report.bare.push(b);
        }
    }
    let ask = json!({"agent": "Echo", "message": "ping"});
    let bare_ask = json!({"requester": me, "target": echo["agentId"], "message": "ping"});
    for round in 0..WARMUP / 10 + ASK_SAMPLES {
        let (m, b) = (
            mcp("idea_ask_agent", ask.clone()).await,
            bare("askAgent", bare_ask.clone()).await,
        );
        if round >= WARMUP / 10 {
            report.ask_mcp.push(m);
            report.ask_bare.push(b);
        }
    }
    client.cancel().await.unwrap();
    direct.cancel().await.unwrap();
    for samples in [
        &mut report.mcp,
        &mut report.direct,
        &mut report.bare,
        &mut report.ask_mcp,
        &mut report.ask_bare,
    ] {
        samples.sort_by(f64::total_cmp);
    }
    report
}

impl Report {
    fn print(&self) {
        println!("{AGENTS} agents; each pair interleaved, one of each per round");
        let row = |name: &str, samples: &[f64]| {
            println!(
                "{name:<56} p50 {:>8.3} ms   p99 {:>8.3} ms   (n = {})",
                percentile(samples, 50.0),
                percentile(samples, 99.0),
                samples.len()
            );
        };
        let ratio = |mcp: &[f64], bare: &[f64]| {
            println!(
                "{:<56} p50 {:>8.2} x    p99 {:>8.2} x",
                "  ratio MCP / bare",
                percentile(mcp, 50.0) / percentile(bare, 50.0),
                percentile(mcp, 99.0) / percentile(bare, 99.0)
            );
        };
        row("idea_list_agents via idea mcp-server (MCP)", &self.mcp);
        row(
            "idea_list_agents on the owner socket (MCP, no bridge)",
            &self.direct,
        );
        println!(
            "{:<56} p50 {:>8.3} ms   p99 {:>8.3} ms",
            "  the bridge's share (via bridge - no bridge)",
            percentile(&self.mcp, 50.0) - percentile(&self.direct, 50.0),
            percentile(&self.mcp, 99.0) - percentile(&self.direct, 99.0)
        );
        row("listAgents on the owner socket (cli, bare)", &self.bare);
        ratio(&self.mcp, &self.bare);
        row(
            "idea_ask_agent of an instant fake agent (MCP)",
            &self.ask_mcp,
        );
        row("askAgent on the owner socket (cli, bare)", &self.ask_bare);
        ratio(&self.ask_mcp, &self.ask_bare);
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The `p`th percentile of sorted samples (nearest rank).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}
