//! The report: every figure beside its baselines, their ratios, and the goals.

use crate::echo::{Echo, KEY_GAP, SAMPLES, WARMUP};
use crate::floor::{floor, independent_floor};
use crate::memory::{IDLE_CELLS, Memory};
use crate::stats::{median, percentile};
use crate::throughput::{THROUGHPUT_BYTES, THROUGHPUT_RUNS, Throughput};

/// Served echo p50 over the floor's, on a quiet machine.
const ECHO_GOAL: f64 = 1.3;
/// Served throughput over the bare PTY's.
const THROUGHPUT_GOAL: f64 = 0.9;

#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) throughput: Throughput,
    pub(crate) echo: Echo,
    pub(crate) memory: Memory,
}

fn p50(sorted: &[f64]) -> f64 {
    percentile(sorted, 50.0)
}

fn p99(sorted: &[f64]) -> f64 {
    percentile(sorted, 99.0)
}

impl Report {
    pub(crate) fn print(&self) {
        if self.throughput.tmux.is_empty() {
            println!("tmux: not installed, baseline skipped");
            println!();
        }
        self.print_table();
        println!();
        self.print_floor();
        println!();
        self.print_goals();
        println!();
        self.print_details();
    }

    /// Every figure beside the bare PTY and tmux.
    fn print_table(&self) {
        let t = &self.throughput;
        let e = &self.echo;
        let m = &self.memory;
        let per_cell = m.after_kib.saturating_sub(m.before_kib) as f64 / IDLE_CELLS as f64;
        println!(
            "{:<40} {:>11} {:>10} {:>10} {:>11} {:>10} {:>11}",
            "measurement",
            "idea serve",
            "bare PTY",
            "tmux",
            "serve/bare",
            "tmux/bare",
            "serve/tmux"
        );
        // `None`: not measured (tmux missing, or no such figure for that path).
        let row = |name: &str, serve: Option<f64>, bare: f64, tmux: Option<f64>, digits: usize| {
            let cell = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.digits$}"));
            let over = |a: Option<f64>, b: Option<f64>| match (a, b) {
                (Some(a), Some(b)) => ratio(a, b),
                _ => "-".to_owned(),
            };
            println!(
                "{name:<40} {:>11} {bare:>10.digits$} {:>10} {:>11} {:>10} {:>11}",
                cell(serve),
                cell(tmux),
                over(serve, Some(bare)),
                over(tmux, Some(bare)),
                over(serve, tmux),
            );
        };
        let some = |values: &[f64], f: fn(&[f64]) -> f64| (!values.is_empty()).then(|| f(values));
        row(
            &format!(
                "throughput MB/s (median of {THROUGHPUT_RUNS}, {} MiB)",
                THROUGHPUT_BYTES >> 20
            ),
            Some(median(&t.serve)),
            median(&t.bare),
            some(&t.tmux, median),
            1,
        );
        row(
            "keystroke echo p50 µs",
            Some(p50(&e.serve)),
            p50(&e.bare),
            some(&e.tmux, p50),
            0,
        );
        row(
            "keystroke echo p99 µs",
            Some(p99(&e.serve)),
            p99(&e.bare),
            some(&e.tmux, p99),
            0,
        );
        row(
            "  tmux send-keys echo p50 µs",
            None,
            p50(&e.bare),
            some(&e.tmux_send_keys, p50),
            0,
        );
        row(
            "  tmux send-keys echo p99 µs",
            None,
            p99(&e.bare),
            some(&e.tmux_send_keys, p99),
            0,
        );
        println!(
            "{:<40} {per_cell:>11.1} {:>10} (idle server {} KiB: {})",
            "RSS per idle shell cell KiB",
            "-",
            m.idle_server_kib,
            ratio(per_cell, m.idle_server_kib as f64)
        );
    }

    /// The served echo against the bare PTY echo plus a loopback WebSocket echo (`floor.rs`).
    fn print_floor(&self) {
        let e = &self.echo;
        println!("echo floor: bare PTY echo + loopback WebSocket echo, summed at each percentile");
        println!(
            "{:<40} {:>11} {:>10} {:>10} {:>11} {:>11} {:>11}",
            "measurement",
            "idea serve",
            "bare PTY",
            "WebSocket",
            "floor",
            "serve/floor",
            "tmux/floor"
        );
        for (name, p) in [
            ("keystroke echo p50 µs", 50.0),
            ("keystroke echo p99 µs", 99.0),
        ] {
            let at_p = floor(&e.bare, &e.websocket, p);
            let tmux = if e.tmux.is_empty() {
                "-".to_owned()
            } else {
                ratio(percentile(&e.tmux, p), at_p)
            };
            println!(
                "{name:<40} {:>11.0} {:>10.0} {:>10.0} {at_p:>11.0} {:>11} {tmux:>11}",
                percentile(&e.serve, p),
                percentile(&e.bare, p),
                percentile(&e.websocket, p),
                ratio(percentile(&e.serve, p), at_p),
            );
        }
        let independent50 = independent_floor(&e.bare, &e.websocket, 50.0);
        let independent99 = independent_floor(&e.bare, &e.websocket, 99.0);
        println!(
            "  summed as if independent (every pair): floor p50 {independent50:.0} µs, p99 {independent99:.0} µs; \
             serve/floor p50 {}, p99 {}",
            ratio(p50(&e.serve), independent50),
            ratio(p99(&e.serve), independent99),
        );
    }

    fn print_goals(&self) {
        let e = &self.echo;
        let t = &self.throughput;
        println!(
            "goal: echo p50 <= {ECHO_GOAL:.2}x the floor, on a quiet machine: now {}",
            ratio(p50(&e.serve), floor(&e.bare, &e.websocket, 50.0))
        );
        println!(
            "goal: throughput >= {THROUGHPUT_GOAL:.2}x the bare PTY (medians of {THROUGHPUT_RUNS} runs): now {}",
            ratio(median(&t.serve), median(&t.bare))
        );
    }

    /// Each run, each range, and the memory's parts.
    fn print_details(&self) {
        let t = &self.throughput;
        let e = &self.echo;
        let m = &self.memory;
        println!(
            "throughput runs MB/s: serve {:.1?}, bare PTY {:.1?}, tmux {:.1?} (tmux: bytes produced)",
            t.serve, t.bare, t.tmux
        );
        println!(
            "idea serve CPU per throughput run ({} MiB), ms: {:.0?}",
            THROUGHPUT_BYTES >> 20,
            t.serve_cpu_ms
        );
        let range = |v: &[f64]| {
            if v.is_empty() {
                "-".to_owned()
            } else {
                format!("{:.0}..{:.0}", percentile(v, 0.0), percentile(v, 100.0))
            }
        };
        println!(
            "keystroke echo ({SAMPLES} samples after {WARMUP} warm-up, {} ms between keys), \
             min..max µs: serve {}, bare PTY {}, WebSocket {}, tmux {}, tmux send-keys {}",
            KEY_GAP.as_millis(),
            range(&e.serve),
            range(&e.bare),
            range(&e.websocket),
            range(&e.tmux),
            range(&e.tmux_send_keys),
        );
        println!(
            "server RSS: idle {} KiB, {IDLE_CELLS} empty cells {} KiB, {IDLE_CELLS} idle shells {} KiB; \
             threads {} -> {}",
            m.idle_server_kib, m.before_kib, m.after_kib, m.threads_before, m.threads_after
        );
        match m.shell_kib {
            Some(kib) => println!("one cell's sh child (separate process): VmRSS {kib} KiB"),
            None => println!("one cell's sh child: VmRSS not available"),
        }
    }
}

/// `a / b` with enough digits to be read whether it is 0.001 or 400.
fn ratio(a: f64, b: f64) -> String {
    let r = a / b;
    if r >= 10.0 {
        format!("{r:.0}x")
    } else if r >= 0.1 {
        format!("{r:.2}x")
    } else {
        format!("{r:.4}x")
    }
}
