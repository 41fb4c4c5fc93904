//! `PortablePtyHost` against real pseudo-terminals and real programs (`sh`, `cat`, `yes`).
//!
//! No assertion is about speed: every wait polls with a generous deadline.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{collecting_sink, sh, spec};

use idea_domain::ids::SessionId;
use idea_domain::terminal::{
    ExitHandler, ExitInfo, OutputSink, PtyError, TerminalHost, TerminalSession, TerminalSize,
};
use idea_infrastructure::pty::{PortablePtyHost, PtyConfig};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use uuid::Uuid;

const PATIENCE: Duration = Duration::from_secs(10);

fn new_id() -> SessionId {
    SessionId::from_uuid(Uuid::new_v4())
}

fn exit_channel() -> (ExitHandler, Receiver<ExitInfo>) {
    let (tx, rx) = mpsc::channel();
    (
        Box::new(move |info| {
            let _ = tx.send(info);
        }),
        rx,
    )
}

fn wait_exit(exits: &Receiver<ExitInfo>) -> ExitInfo {
    exits
        .recv_timeout(PATIENCE)
        .expect("the exit handler ran in time")
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

/// What a client would show: the replay, then the live output, in order.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Screen {
    fn sink(&self) -> OutputSink {
        collecting_sink(&self.0)
    }

    /// Attaches, putting the replay first: live batches wait on our lock meanwhile.
    fn attach(&self, session: &dyn TerminalSession) -> u64 {
        let mut bytes = self.0.lock().unwrap();
        let attachment = session.attach(self.sink(), None);
        bytes.extend_from_slice(&attachment.replay);
        attachment.id
    }

    /// Everything shown, the terminal's closing line (`[process …]`) included.
    fn all_text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// What the program printed: everything but the closing line IdeA adds after its exit.
    fn text(&self) -> String {
        let mut text = self.all_text();
        if let Some(at) = text.rfind("\r\n\x1b[0;2m[process ") {
            text.truncate(at);
        }
        text
    }

    fn wait_for(&self, needle: &str) {
        wait_until(&format!("{needle:?} in {:?}", self.text()), || {
            self.text().contains(needle)
        });
    }
}

/// Compares long texts, reporting where they first differ instead of dumping both.
fn assert_same_text(actual: &str, expected: &str) {
    if actual == expected {
        return;
    }
    let at = actual
        .bytes()
        .zip(expected.bytes())
        .position(|(a, e)| a != e)
        .unwrap_or(actual.len().min(expected.len()));
    let around = |s: &str| {
        s.get(at.saturating_sub(40)..(at + 40).min(s.len()))
            .unwrap_or("")
            .to_owned()
    };
    panic!(
        "texts differ at byte {at} (lengths {} and {}): got {:?}, expected {:?}",
        actual.len(),
        expected.len(),
        around(actual),
        around(expected)
    );
}

fn host() -> PortablePtyHost {
    PortablePtyHost::new()
}

#[test]
fn echo_output_then_exit_code_zero() {
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &sh("echo hello"), on_exit).unwrap();
    assert!(session.pid().is_some());
    let screen = Screen::default();
    screen.attach(session.as_ref());
    assert_eq!(
        wait_exit(&exits),
        ExitInfo {
            code: 0,
            signal: None,
            stopped: false,
            hint: None,
        }
    );
    screen.wait_for("hello\r\n");
    assert_eq!(session.exit_status().map(|e| e.code), Some(0));
}

#[test]
fn the_exit_is_reported_after_the_last_output() {
    let screen = Screen::default();
    let seen_at_exit = Arc::new(Mutex::new(String::new()));
    let on_exit: ExitHandler = {
        let screen = screen.clone();
        let seen_at_exit = Arc::clone(&seen_at_exit);
        Box::new(move |_| *seen_at_exit.lock().unwrap() = screen.all_text())
    };
    let (done, exits) = exit_channel();
    let on_exit: ExitHandler = Box::new(move |info| {
        on_exit(info.clone());
        done(info);
    });
    let session = host()
        .spawn(
            new_id(),
            &sh("read x; printf 'the last words'; exit 0"),
            on_exit,
        )
        .unwrap();
    screen.attach(session.as_ref());
    session.write(b"\n").unwrap();
    wait_exit(&exits);
    let seen = seen_at_exit.lock().unwrap().clone();
    // The closing line comes after the last output, before the exit is reported.
    let closing = ExitInfo::default().terminal_line();
    assert!(closing.contains("[process exited with code 0]"));
    assert!(
        seen.ends_with(&format!("the last words{closing}")),
        "{seen:?}"
    );
}

#[test]
fn an_error_exit_code_is_propagated() {
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &sh("exit 3"), on_exit).unwrap();
    assert_eq!(
        wait_exit(&exits),
        ExitInfo {
            code: 3,
            signal: None,
            stopped: false,
            hint: None,
        }
    );
    assert_eq!(session.exit_status().map(|e| e.code), Some(3));
}

#[test]
fn a_child_that_dies_at_once_is_reported_not_a_crash() {
    for (program, code) in [("true", 0), ("false", 1)] {
        let (on_exit, exits) = exit_channel();
        let _session = host()
            .spawn(new_id(), &spec(program, &[]), on_exit)
            .unwrap();
        assert_eq!(wait_exit(&exits).code, code, "{program}");
    }
}

#[test]
fn a_missing_program_is_command_not_found() {
    let (on_exit, _) = exit_channel();
    let err = host()
        .spawn(new_id(), &spec("idea-no-such-program-9d2e", &[]), on_exit)
        .err();
    assert_eq!(
        err,
        Some(PtyError::CommandNotFound(
            "idea-no-such-program-9d2e".into()
        ))
    );

    let (on_exit, _) = exit_channel();
    let err = host()
        .spawn(new_id(), &spec("/nonexistent-dir/agent", &[]), on_exit)
        .err();
    assert_eq!(
        err,
        Some(PtyError::CommandNotFound("/nonexistent-dir/agent".into()))
    );
}

#[test]
fn a_missing_working_directory_is_a_spawn_failure() {
    let (on_exit, _) = exit_channel();
    let mut spec = sh("true");
    spec.cwd = "/nonexistent-dir/project".into();
    let err = host().spawn(new_id(), &spec, on_exit).err();
    assert!(matches!(err, Some(PtyError::SpawnFailed { .. })), "{err:?}");
}

#[test]
fn runs_in_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec("pwd", &[]);
    spec.cwd = dir.path().canonicalize().unwrap();
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &spec, on_exit).unwrap();
    wait_exit(&exits);
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for(&format!("{}\r\n", spec.cwd.display()));
}

#[test]
fn environment_is_inherited_edited_and_given_terminal_variables() {
    // Two variables this process really has: the child loses the first, inherits the second.
    // (`TERM`, `COLORTERM` are overridden and portable-pty sets `SHELL` itself: skip those.)
    // (The multiplexer variables are always stripped.)
    const SKIP: [&str; 9] = [
        "TERM",
        "COLORTERM",
        "SHELL",
        "FOO",
        "TMUX",
        "TMUX_PANE",
        "STY",
        "ZELLIJ",
        "ZELLIJ_SESSION_NAME",
    ];
    let mut ours = std::env::vars_os()
        .filter_map(|(key, value)| Some((key.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(key, value)| !SKIP.contains(&key.as_str()) && !value.contains(['\n', '\r']));
    let (removed, _) = ours
        .next()
        .expect("the test process has environment variables");
    let (kept, kept_value) = ours.next().expect("the test process has two");

    // `env` prints exactly what it was given: no shell in between to add variables.
    let mut spec = spec("env", &[]);
    spec.env_remove = vec![removed.clone()];
    spec.env.insert("FOO".into(), "bar".into());
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &spec, on_exit).unwrap();
    assert_eq!(wait_exit(&exits).code, 0);
    let screen = Screen::default();
    screen.attach(session.as_ref());
    let text = screen.text();
    let env: BTreeMap<&str, &str> = text
        .split("\r\n")
        .filter_map(|line| line.split_once('='))
        .collect();
    assert_eq!(env.get(removed.as_str()), None, "{removed} was not removed");
    assert_eq!(
        env.get(kept.as_str()),
        Some(&kept_value.as_str()),
        "{kept} not inherited"
    );
    assert_eq!(env.get("FOO"), Some(&"bar"));
    assert_eq!(env.get("TERM"), Some(&"xterm-256color"));
    assert_eq!(env.get("COLORTERM"), Some(&"truecolor"));
    assert_eq!(env.get("TMUX"), None);
}

#[test]
fn stdin_injection_is_typed_once_the_pty_is_live() {
    let mut spec = sh("read line; echo \"got:$line\"");
    spec.stdin_injection = Some("hello\n".into());
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &spec, on_exit).unwrap();
    assert_eq!(wait_exit(&exits).code, 0);
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for("got:hello");
}

#[test]
fn writes_from_many_threads_keep_their_order_and_never_interleave() {
    const THREADS: usize = 8;
    const WRITES: u32 = 200;
    let (on_exit, exits) = exit_channel();
    let session = host()
        .spawn(new_id(), &sh("stty -echo; echo READY; exec cat"), on_exit)
        .unwrap();
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for("READY\r\n");

    let writers: Vec<_> = (0..THREADS)
        .map(|t| {
            let session = Arc::clone(&session);
            thread::spawn(move || {
                for seq in 0..WRITES {
                    session
                        .write(format!("t{t} s{seq:04} end\n").as_bytes())
                        .unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    let lines_after_ready = |text: &str| -> Vec<String> {
        let after = text.split_once("READY\r\n").map_or("", |(_, rest)| rest);
        after
            .split("\r\n")
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let total = THREADS * WRITES as usize;
    wait_until("every line echoed back by cat", || {
        lines_after_ready(&screen.text()).len() >= total
    });
    let mut last: Vec<Option<u32>> = vec![None; THREADS];
    let lines = lines_after_ready(&screen.text());
    assert_eq!(lines.len(), total);
    for line in &lines {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 3, "interleaved write: {line:?}");
        assert_eq!(parts[2], "end", "interleaved write: {line:?}");
        let t: usize = parts[0].trim_start_matches('t').parse().unwrap();
        let seq: u32 = parts[1].trim_start_matches('s').parse().unwrap();
        assert!(
            last[t].is_none_or(|prev| prev < seq),
            "thread {t}: {seq} after {:?}",
            last[t]
        );
        last[t] = Some(seq);
    }
    assert!(last.iter().all(|l| *l == Some(WRITES - 1)));

    // Ctrl-D at the start of a line: end of file for cat.
    session.write(b"\x04").unwrap();
    assert_eq!(wait_exit(&exits).code, 0);
    assert_eq!(session.write(b"late"), Err(PtyError::Closed));
}

/// The echo of a keystroke after a quiet spell goes out at once, not after a batch interval.
#[test]
fn the_first_output_after_a_quiet_spell_is_not_held_back_by_batching() {
    // Far longer than the test's patience: an echo held back for the interval never shows.
    let config = PtyConfig {
        batch_interval: Duration::from_secs(3_600),
        ..PtyConfig::default()
    };
    let (on_exit, exits) = exit_channel();
    // Silent until it is typed to: the terminal's echo of "hi" is its first output.
    let session = PortablePtyHost::with_config(config)
        .spawn(new_id(), &sh("read x; echo got-$x"), on_exit)
        .unwrap();
    let screen = Screen::default();
    screen.attach(session.as_ref());
    session.write(b"hi").unwrap();
    screen.wait_for("hi");
    session.write(b"\n").unwrap();
    assert_eq!(wait_exit(&exits).code, 0);
    // What followed the echo within the interval came with the exit, in order.
    assert_same_text(&screen.text(), "hi\r\ngot-hi\r\n");
}

/// Input is written on the caller's thread when it can be: a program that does not read its
/// input yet must still not block the caller (the rest waits in the queue, in order).
///
/// Regression (a test race, not a product one): the program printed its `READY` before the
/// client attached, so it came as the replay, drawn from the model (`READY\r\n` and a cursor
/// move), and the test waiting for the raw `READY\n` timed out on a busy machine. The test
/// also measured the writes against the program's `sleep 2`; now the program reads nothing
/// until the test says so, after both writes returned.
#[test]
fn a_large_write_to_a_program_that_does_not_read_yet_returns_at_once() {
    const MIB: usize = 1 << 20;
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    // Raw input (no line length limit, no echo), output as usual; reads nothing until `go`
    // exists, then prints the first and last byte of each megabyte it reads.
    let script = format!(
        "stty raw -echo opost; echo READY; until [ -e '{go}' ]; do sleep 0.01; done; \
         head -c {} | fold -w {MIB} | cut -c1,{MIB}",
        2 * MIB,
        go = go.display()
    );
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &sh(&script), on_exit).unwrap();
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for("READY");
    // Off the test's thread, so that a write waiting for the program fails the test instead
    // of hanging it: the program cannot read a byte before `go` exists.
    let (written, writes_returned) = mpsc::channel();
    let writer = thread::spawn({
        let session = Arc::clone(&session);
        move || {
            session.write(&vec![b'a'; MIB]).unwrap();
            session.write(&vec![b'b'; MIB]).unwrap();
            let _ = written.send(());
        }
    });
    let returned = writes_returned.recv_timeout(PATIENCE);
    std::fs::write(&go, "").unwrap();
    returned.expect("the writes returned while the program read nothing");
    writer.join().unwrap();
    assert_eq!(wait_exit(&exits).code, 0);
    // Compared as a terminal shows it: `READY` may have come as the replay.
    let mut shown = common::Shown::new(TerminalSize::default(), 100);
    shown.feed(screen.all_text().as_bytes());
    let closing = "[process exited with code 0]";
    assert_eq!(shown.lines(), ["READY", "aa", "bb", "", closing]);
}

#[test]
fn initial_size_and_resize_are_seen_by_the_child() {
    let mut spec = sh("stty size; read x; stty size; read y");
    spec.size = TerminalSize { rows: 30, cols: 90 };
    let (on_exit, exits) = exit_channel();
    let session = host().spawn(new_id(), &spec, on_exit).unwrap();
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for("30 90\r\n");
    session
        .resize(TerminalSize {
            rows: 40,
            cols: 100,
        })
        .unwrap();
    session.write(b"\n").unwrap();
    screen.wait_for("40 100\r\n");
    session.write(b"\n").unwrap();
    wait_exit(&exits);
    assert_eq!(
        session.resize(TerminalSize::default()),
        Err(PtyError::Closed)
    );
}

#[test]
fn attach_replays_past_output_then_continues_live_without_duplicates() {
    let (on_exit, exits) = exit_channel();
    let session = host()
        .spawn(
            new_id(),
            &sh("stty -echo; echo first; read x; echo second; read y"),
            on_exit,
        )
        .unwrap();
    let early = Screen::default();
    early.attach(session.as_ref());
    early.wait_for("first\r\n");

    let late = Screen::default();
    let attachment = session.attach(late.sink(), None);
    assert!(String::from_utf8_lossy(&attachment.replay).contains("first\r\n"));
    session.write(b"go\n").unwrap();
    late.wait_for("second\r\n");
    assert!(
        !late.text().contains("first"),
        "the live stream repeated the replay"
    );
    session.detach(attachment.id);
    session.write(b"\n").unwrap();
    wait_exit(&exits);
    assert_eq!(early.text().matches("second").count(), 1);
}

#[test]
fn attach_during_a_stream_sees_every_line_exactly_once() {
    const LINES: u32 = 20_000;
    let (on_exit, exits) = exit_channel();
    // Scrollback for all of it: what the replay draws plus what follows is every line.
    let session = PortablePtyHost::with_config(PtyConfig {
        scrollback_lines: 30_000,
        ..PtyConfig::default()
    })
    .spawn_session(
        new_id(),
        &sh(&format!(
            "i=0; while [ $i -lt {LINES} ]; do echo $i; i=$((i+1)); done"
        )),
        on_exit,
    )
    .unwrap();
    wait_until("the first output", || session.output_bytes() > 0);
    let screen = Screen::default();
    screen.attach(session.as_ref());
    wait_exit(&exits);
    let mut shown = common::Shown::new(TerminalSize::default(), 30_000);
    shown.feed(screen.all_text().as_bytes());
    let mut lines = shown.lines();
    assert!(lines.pop().unwrap().starts_with("[process exited"));
    assert_eq!(
        lines.pop().as_deref(),
        Some(""),
        "the blank line before the closing one"
    );
    let expected: Vec<String> = (0..LINES).map(|i| i.to_string()).collect();
    assert_same_text(&lines.join("\n"), &expected.join("\n"));
}

/// Long enough for a producer that flow control failed to hold back to overrun any bound many
/// times over. Not a synchronisation: what the tests assert holds however long this lasts.
const CHANCE_TO_OVERRUN: Duration = Duration::from_millis(500);

/// A client that counts what it receives and acknowledges nothing until `acked` is set: what it
/// received before is counted apart.
struct SlowClient {
    delivered: Arc<AtomicUsize>,
    before_ack: Arc<AtomicUsize>,
    acked: Arc<AtomicBool>,
}

impl SlowClient {
    fn attach(session: &dyn TerminalSession) -> (Self, u64, usize) {
        let client = Self {
            delivered: Arc::default(),
            before_ack: Arc::default(),
            acked: Arc::default(),
        };
        let sink: OutputSink = {
            let (delivered, before_ack) = (client.delivered.clone(), client.before_ack.clone());
            let acked = client.acked.clone();
            Box::new(move |batch: &[u8]| {
                delivered.fetch_add(batch.len(), Ordering::SeqCst);
                if !acked.load(Ordering::SeqCst) {
                    before_ack.fetch_add(batch.len(), Ordering::SeqCst);
                }
            })
        };
        let attachment = session.attach(sink, None);
        (client, attachment.id, attachment.replay.len())
    }

    fn delivered(&self) -> usize {
        self.delivered.load(Ordering::SeqCst)
    }
}

/// A client that keeps up: it acknowledges each batch from inside its sink, and its replay.
/// Its sink waits for `attach` to return its id, so no acknowledgement is lost.
fn attach_acking_client(session: &Arc<dyn TerminalSession>) -> Arc<AtomicUsize> {
    let delivered = Arc::new(AtomicUsize::new(0));
    let id = Arc::new(Mutex::new(None::<u64>));
    let sink: OutputSink = {
        let session = Arc::downgrade(session);
        let (delivered, id) = (Arc::clone(&delivered), Arc::clone(&id));
        Box::new(move |batch: &[u8]| {
            delivered.fetch_add(batch.len(), Ordering::SeqCst);
            let id = *id.lock().unwrap();
            if let (Some(id), Some(session)) = (id, session.upgrade()) {
                session.ack(id, batch.len());
            }
        })
    };
    let mut known = id.lock().unwrap();
    let attachment = session.attach(sink, None);
    *known = Some(attachment.id);
    drop(known);
    session.ack(attachment.id, attachment.replay.len());
    delivered
}

#[test]
fn a_client_that_never_acks_holds_the_producer_back_until_it_acks() {
    let config = PtyConfig::default();
    // The most that can get past the high watermark: the batch that crossed it.
    let bound = config.high_watermark + config.batch_bytes + config.read_buffer_bytes;
    let (on_exit, exits) = exit_channel();
    let session = PortablePtyHost::with_config(config.clone())
        .spawn(new_id(), &spec("yes", &[]), on_exit)
        .unwrap();
    let (client, id, replayed) = SlowClient::attach(session.as_ref());

    // The replay counts as unacknowledged too.
    wait_until("the high watermark", || {
        client.delivered() + replayed > config.high_watermark
    });
    thread::sleep(CHANCE_TO_OVERRUN);
    client.acked.store(true, Ordering::SeqCst);
    let before_ack = client.before_ack.load(Ordering::SeqCst);
    assert!(
        before_ack <= bound,
        "{before_ack} bytes delivered before the ack, bound {bound}"
    );

    session.ack(id, before_ack + replayed);
    wait_until("output to resume after the ack", || {
        client.delivered() > before_ack
    });

    session.kill();
    assert_eq!(wait_exit(&exits).signal.as_deref(), Some("SIGHUP"));
}

/// Regression (a test race, not a product one): the fast client learnt its id only once
/// `attach` had returned, so the acknowledgements of the batches it got before were lost (and
/// its replay was never acknowledged). On a busy machine that left it past the high watermark
/// itself: the terminal was rightly paused for it, and the slow client never reached the mark.
#[test]
fn detaching_a_slow_client_releases_its_backpressure() {
    let config = PtyConfig::default();
    let (on_exit, exits) = exit_channel();
    let session = PortablePtyHost::with_config(config.clone())
        .spawn(new_id(), &spec("yes", &[]), on_exit)
        .unwrap();
    let fast_delivered = attach_acking_client(&session);
    let (slow, slow_id, replayed) = SlowClient::attach(session.as_ref());

    wait_until("the slow client to reach the high watermark", || {
        slow.delivered() + replayed > config.high_watermark
    });
    // Each batch reaches the fast client first (it attached first), so this is all it got
    // before the pause.
    let stalled = fast_delivered.load(Ordering::SeqCst);
    thread::sleep(CHANCE_TO_OVERRUN);
    assert_eq!(
        fast_delivered.load(Ordering::SeqCst),
        stalled,
        "the slow client should hold everyone back"
    );

    session.detach(slow_id);
    wait_until("output to resume after the detach", || {
        fast_delivered.load(Ordering::SeqCst) > stalled + config.high_watermark
    });
    session.kill();
    wait_exit(&exits);
}

#[test]
fn kill_ends_the_process_and_runs_the_exit_handler() {
    let (on_exit, exits) = exit_channel();
    let session = host()
        .spawn(new_id(), &spec("sleep", &["1000"]), on_exit)
        .unwrap();
    session.kill();
    let info = wait_exit(&exits);
    assert_eq!(
        info,
        ExitInfo {
            code: 129,
            signal: Some("SIGHUP".into()),
            stopped: true,
            hint: None,
        }
    );
    assert_eq!(session.exit_status(), Some(info));
    assert_eq!(session.write(b"x"), Err(PtyError::Closed));
    session.kill(); // a second kill after the exit is harmless
}

/// Stops a shell script that prints `ready` first, with a short grace per step.
fn stop_script(script: &str) -> ExitInfo {
    let config = PtyConfig {
        kill_grace: Duration::from_millis(200),
        ..PtyConfig::default()
    };
    let (on_exit, exits) = exit_channel();
    let session = PortablePtyHost::with_config(config)
        .spawn(new_id(), &sh(script), on_exit)
        .unwrap();
    let screen = Screen::default();
    screen.attach(session.as_ref());
    screen.wait_for("ready");
    session.kill();
    wait_exit(&exits)
}

#[test]
fn kill_escalates_to_sigterm_when_sighup_is_ignored() {
    // Gemini CLI ignores SIGHUP and exits on SIGTERM.
    let exit = stop_script("trap '' HUP; echo ready; while :; do sleep 1; done");
    assert_eq!(exit.signal.as_deref(), Some("SIGTERM"));
    assert!(exit.stopped);
}

#[test]
fn kill_escalates_to_sigkill_when_sighup_and_sigterm_are_ignored() {
    let exit = stop_script("trap '' HUP TERM; echo ready; while :; do sleep 1; done");
    assert_eq!(exit.signal.as_deref(), Some("SIGKILL"));
    assert_eq!(exit.code, 137);
}

#[test]
fn a_cli_exiting_128_plus_the_signal_it_got_is_reported_as_that_signal() {
    // Claude Code handles SIGHUP by exiting with status 129: the same shape as a signal death.
    let exit = stop_script("trap 'exit 129' HUP; echo ready; while :; do sleep 0.05; done");
    assert_eq!(
        exit,
        ExitInfo {
            code: 129,
            signal: Some("SIGHUP".into()),
            stopped: true,
            hint: None,
        }
    );
}

#[test]
fn an_exit_on_its_own_is_not_a_stop() {
    let (on_exit, exits) = exit_channel();
    let _session = host().spawn(new_id(), &sh("exit 129"), on_exit).unwrap();
    let exit = wait_exit(&exits);
    assert_eq!((exit.code, exit.signal, exit.stopped), (129, None, false));
}

#[test]
fn dropping_the_last_handle_kills_the_process() {
    let (on_exit, exits) = exit_channel();
    let session = host()
        .spawn(new_id(), &spec("sleep", &["1000"]), on_exit)
        .unwrap();
    drop(session);
    assert_eq!(wait_exit(&exits).signal.as_deref(), Some("SIGHUP"));
}

#[cfg(target_os = "linux")]
#[test]
fn every_session_thread_ends_after_the_exit() {
    let uuid = Uuid::new_v4();
    let suffix = format!("-{}", &uuid.simple().to_string()[..8]);
    let threads_of_session = || -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
            .filter(|name| name.trim_end().starts_with("pty") && name.trim_end().ends_with(&suffix))
            .count()
    };
    let (on_exit, exits) = exit_channel();
    let session = host()
        .spawn(SessionId::from_uuid(uuid), &sh("read x; echo bye"), on_exit)
        .unwrap();
    // Reader and pump only: the writer starts when input has to wait, the waiter once the
    // child has exited (a thread names itself once it runs, hence the wait).
    wait_until("two named threads", || threads_of_session() == 2);
    session.write(b"\n").unwrap();
    wait_exit(&exits);
    wait_until("the session threads to end", || threads_of_session() == 0);
    // The handle outlives its threads and still answers.
    assert_eq!(session.exit_status().map(|e| e.code), Some(0));
}

/// Our processes whose command line is exactly `sleep <seconds>`.
#[cfg(target_os = "linux")]
fn sleeping(seconds: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| *cmdline == format!("sleep\0{seconds}\0").into_bytes())
        .count()
}

/// Regression: jobs started with `setsid`, `nohup` or behind `trap '' HUP` outlived Stop (the
/// escalation only reached the shell's own process group, and only while the shell lived).
#[cfg(target_os = "linux")]
#[test]
fn stop_ends_the_jobs_that_left_the_terminal_or_ignore_sighup() {
    let tag = std::process::id() % 1000 + 7000; // unique enough among concurrent test runs
    let secs = [tag, tag + 1000, tag + 2000].map(|s| s.to_string());
    let script = format!(
        "setsid sleep {} & nohup sleep {} >/dev/null 2>&1 & (trap '' HUP; exec sleep {}) & \
         echo ready; wait",
        secs[0], secs[1], secs[2]
    );
    wait_until("the three jobs to start", || {
        secs.iter().all(|s| sleeping(s) == 0)
    });
    let exit = {
        let (on_exit, exits) = exit_channel();
        let session = host().spawn(new_id(), &sh(&script), on_exit).unwrap();
        let screen = Screen::default();
        screen.attach(session.as_ref());
        screen.wait_for("ready");
        wait_until("the jobs to run", || secs.iter().all(|s| sleeping(s) == 1));
        session.kill();
        wait_exit(&exits)
    };
    assert!(exit.stopped);
    for s in &secs {
        assert_eq!(sleeping(s), 0, "`sleep {s}` outlived Stop");
    }
}
