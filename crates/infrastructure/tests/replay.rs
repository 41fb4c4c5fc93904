//! The replay on attach against real programs in real PTYs: a client that attaches after the
//! terminal was narrowed (or widened) and feeds the replay into a terminal of its size must
//! show exactly what a client attached from the start shows, having followed the same resize.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Shown, assert_same_rows, collecting_sink, sh};
use idea_domain::ids::SessionId;
use idea_domain::terminal::{
    ExitInfo, OutputSink, SpawnSpec, TerminalHost, TerminalSession, TerminalSize,
};
use idea_infrastructure::pty::{PortablePtyHost, PtyConfig};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use uuid::Uuid;

const PATIENCE: Duration = Duration::from_secs(10);
const WIDE: TerminalSize = TerminalSize {
    rows: 30,
    cols: 120,
};
const SCROLLBACK: usize = PtyConfig::DEFAULT_SCROLLBACK_LINES;

/// Everything a client received, in order.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Log {
    fn sink(&self) -> OutputSink {
        collecting_sink(&self.0)
    }

    fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().clone()
    }

    fn wait_for(&self, needle: &str) {
        self.wait_until(&format!("{needle:?}"), |bytes| {
            String::from_utf8_lossy(bytes).contains(needle)
        });
    }

    fn wait_until(&self, what: &str, done: impl Fn(&[u8]) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(&self.bytes()) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until `less` has drawn a whole screen after byte `from` (a first one, or after
    /// clearing the screen again): it ends with its prompt, the one place it erases to the end
    /// of the line.
    fn wait_for_less_screen(&self, from: usize, cleared: bool) {
        self.wait_until("less to draw its screen", |bytes| {
            let drawn = &bytes[from.min(bytes.len())..];
            drawn.ends_with(b"\x1b[K") && (!cleared || drawn.windows(4).any(|w| w == b"\x1b[2J"))
        });
    }
}

struct Running {
    session: Arc<dyn TerminalSession>,
    exits: Receiver<ExitInfo>,
    /// A client attached before the program printed anything.
    live: Log,
    _gate: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.session.kill();
        let _ = self.exits.recv_timeout(PATIENCE);
    }
}

fn start(script: &str, cwd: &Path) -> Running {
    // The program waits for its first client: on a busy machine it could otherwise have
    // drawn its screen before, and the first client would get that as a replay.
    let gate = tempfile::tempdir().unwrap();
    let go = gate.path().join("go");
    let script = format!(
        "until [ -e '{}' ]; do sleep 0.01; done\n{script}",
        go.display()
    );
    let spec = SpawnSpec {
        env: BTreeMap::from([("TERM".to_owned(), "xterm-256color".to_owned())]),
        cwd: cwd.to_owned(),
        size: WIDE,
        ..sh(&script)
    };
    let (tx, exits) = mpsc::channel();
    let session = PortablePtyHost::new()
        .spawn(
            SessionId::from_uuid(Uuid::new_v4()),
            &spec,
            Box::new(move |info| {
                let _ = tx.send(info);
            }),
        )
        .unwrap();
    let live = Log::default();
    let replay = session.attach(live.sink(), None).replay;
    live.0.lock().unwrap().splice(0..0, replay);
    std::fs::write(&go, "").unwrap();
    Running {
        session,
        exits,
        live,
        _gate: gate,
    }
}

/// Resizes the terminal by attaching a second client at `size`; returns what that client shows,
/// its log and how much of the first client's log came before the resize. The program must be
/// waiting, all its output shown, so that nothing comes in between.
fn attach_at(run: &Running, size: TerminalSize) -> (Shown, Log, usize) {
    let before_resize = run.live.bytes().len();
    let late = Log::default();
    let replay = run.session.attach(late.sink(), Some(size)).replay;
    late.0.lock().unwrap().splice(0..0, replay);
    let mut shown = Shown::new(size, SCROLLBACK);
    shown.feed(&late.bytes());
    (shown, late, before_resize)
}

/// The first client's terminal: its bytes up to the resize at its old size, then resized as
/// its user did, then the rest.
fn live_view(live: &Log, before_resize: usize, size: TerminalSize) -> Shown {
    let bytes = live.bytes();
    let mut shown = Shown::new(WIDE, SCROLLBACK);
    shown.feed(&bytes[..before_resize]);
    shown.resize(size);
    shown.feed(&bytes[before_resize..]);
    shown
}

/// Waits until the second client shows what the first one shows (both get the same batches,
/// the first one a moment earlier); fails with their first difference after the patience.
fn wait_for_same_view(late: &Log, live: &Log, before_resize: usize, size: TerminalSize) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let mut late_view = Shown::new(size, SCROLLBACK);
        late_view.feed(&late.bytes());
        let live_view = live_view(live, before_resize, size);
        let same = late_view.rows() == live_view.rows() && late_view.cursor() == live_view.cursor();
        if same || Instant::now() >= deadline {
            assert_same_view(&late_view, &live_view);
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

fn assert_same_view(late: &Shown, live: &Shown) {
    assert_same_rows(&late.rows(), &live.rows());
    assert_eq!(late.cursor(), live.cursor(), "cursor");
}

/// Shell output: coloured `printf`, long lines that wrap, `ls --color=always` of a folder.
fn shell_script(folder: &Path) -> String {
    for name in ["alpha.txt", "beta.rs", "gamma with spaces.md"] {
        std::fs::write(folder.join(name), "x").unwrap();
    }
    std::fs::create_dir_all(folder.join("subdir")).unwrap();
    std::fs::create_dir_all(folder.join("another directory")).unwrap();
    format!(
        r#"printf '\033[1;31mred bold\033[0m \033[42mgreen bg\033[0m \033[38;5;208morange\033[0m \033[38;2;10;20;30mrgb\033[0m\n'
i=0; while [ $i -lt 12 ]; do
  printf 'long line %s:' $i; j=0; while [ $j -lt $((i * 3)) ]; do printf ' lorem ipsum dolor'; j=$((j+1)); done; echo ' END'
  i=$((i+1)); done
ls --color=always '{dir}'; ls -1 --color=always '{dir}'
printf '\033[7mreverse line that is long enough to wrap at sixty columns for sure, yes\033[0m\n'
printf 'READY> '; read x; echo "got $x"; read y"#,
        dir = folder.display()
    )
}

fn narrowed_shell_replay(cols: u16) {
    let folder = tempfile::tempdir().unwrap();
    let run = start(&shell_script(folder.path()), folder.path());
    run.live.wait_for("READY> ");
    let size = TerminalSize { rows: 20, cols };
    let (mut late_view, late, before_resize) = attach_at(&run, size);
    let live = live_view(&run.live, before_resize, size);
    assert!(
        live.lines()
            .iter()
            .any(|l| l.ends_with("lorem ipsum dolor END")),
        "the long lines are there"
    );
    assert_same_view(&late_view, &live);
    // Both keep going the same way.
    run.session.write(b"typed\n").unwrap();
    // The program's last output before it waits again.
    run.live.wait_for("got typed\r\n");
    late.wait_for("got typed\r\n");
    late_view = Shown::new(size, SCROLLBACK);
    late_view.feed(&late.bytes());
    assert_same_view(&late_view, &live_view(&run.live, before_resize, size));
}

#[test]
fn a_client_attaching_after_the_terminal_narrowed_sees_what_the_first_one_sees() {
    narrowed_shell_replay(60);
    narrowed_shell_replay(37);
}

#[test]
fn a_client_attaching_after_the_terminal_widened_sees_what_the_first_one_sees() {
    narrowed_shell_replay(150);
}

#[test]
fn the_alternate_screen_and_the_main_screen_under_it_are_replayed() {
    let folder = tempfile::tempdir().unwrap();
    let script = r#"printf 'main screen line, long enough to wrap once the terminal is narrowed to forty\n'
printf '\033[?1049h\033[H\033[2J\033[44m title bar \033[0m\033[5;10Hin the alternate screen\033[?25l\033[?1h\033[?2004h\033[10;1HREADY'
read x
printf '\033[?1049l\033[?25h\033[?1l\033[?2004l'; echo after; echo DONE; read y"#;
    let run = start(script, folder.path());
    run.live.wait_for("READY");
    let size = TerminalSize { rows: 24, cols: 40 };
    let (late_view, late, before_resize) = attach_at(&run, size);
    let live = live_view(&run.live, before_resize, size);
    assert!(late_view.cursor().3, "the alternate screen is on");
    assert_same_view(&late_view, &live);
    // Leaving it shows the same main screen, reflowed, in both.
    run.session.write(b"\n").unwrap();
    late.wait_for("DONE\r\n");
    let mut late_view = Shown::new(size, SCROLLBACK);
    late_view.feed(&late.bytes());
    let live = live_view(&run.live, before_resize, size);
    assert!(!late_view.cursor().3);
    assert_same_view(&late_view, &live);
    assert!(late_view.lines()[0].starts_with("main screen line"));
}

#[test]
fn less_redraws_over_the_replay_as_over_the_live_terminal() {
    if std::process::Command::new("less")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("less is not installed: skipped");
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    let text: String = (0..60)
        .map(|i| format!("{i}: {}\n", "some text in less ".repeat(i % 9)))
        .collect();
    std::fs::write(folder.path().join("file.txt"), text).unwrap();
    let run = start(
        "printf 'before less\\n'; LESS= less -R file.txt; echo LEFT; read x",
        folder.path(),
    );
    run.live.wait_for_less_screen(0, false);
    let size = TerminalSize { rows: 20, cols: 50 };
    let (_, late, before_resize) = attach_at(&run, size);
    // The resize makes less draw its screen again; the first client gets all of it live (the
    // second may get its start in the replay, and its end a moment after the first).
    run.live.wait_for_less_screen(before_resize, true);
    wait_for_same_view(&late, &run.live, before_resize, size);
    run.session.write(b"q").unwrap();
    late.wait_for("LEFT\r\n");
    let mut late_view = Shown::new(size, SCROLLBACK);
    late_view.feed(&late.bytes());
    assert_same_view(&late_view, &live_view(&run.live, before_resize, size));
}

#[test]
fn a_flood_keeps_only_the_bounded_scrollback_and_replays_from_a_clean_start() {
    let config = PtyConfig {
        scrollback_lines: 100,
        ..PtyConfig::default()
    };
    let (tx, exits) = mpsc::channel();
    let script = r#"i=0; while [ $i -lt 3000 ]; do printf '\033[3%sm%s colour\033[0m ' $((i % 8)) $i; [ $((i % 3)) = 0 ] && echo; i=$((i+1)); done; echo END"#;
    let session = PortablePtyHost::with_config(config)
        .spawn_session(
            SessionId::from_uuid(Uuid::new_v4()),
            &sh(script),
            Box::new(move |info| {
                let _ = tx.send(info);
            }),
        )
        .unwrap();
    exits.recv_timeout(PATIENCE).unwrap();
    let replay = session.attach(Box::new(|_: &[u8]| {}), None).replay;
    assert!(replay.len() < 64 * 1024, "{} bytes", replay.len());
    let mut shown = Shown::new(TerminalSize::default(), 100);
    shown.feed(&replay);
    let lines = shown.lines();
    assert_eq!(shown.rows().len(), 100 + 24);
    assert!(lines.iter().any(|l| l.ends_with("colour END")), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("[process exited"));
    // The oldest line kept starts where a line started, in its own colour.
    assert!(
        lines[0].chars().next().unwrap().is_ascii_digit(),
        "{:?}",
        lines[0]
    );
}
