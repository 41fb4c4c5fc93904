//! The screen model of one terminal, for its agent's state: every published batch goes
//! through a `vt100` parser sized like the PTY (no scrollback, so the cost is bounded by the
//! screen), which reports BEL and OSC 9 / OSC 777 notifications; a ticker thread runs the
//! CLI's screen detector when the screen changed and reports quiet output.

use super::lock;
use idea_domain::agent_state::{ScreenFinding, TerminalSignal, detect_screen};
use idea_domain::terminal::{TerminalSize, TerminalWatch};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// How often the ticker looks at the screen and the clock.
const TICK: Duration = Duration::from_millis(150);

/// How long a quiet program's output after a resize may go on and still be its redraw for the
/// new size rather than work: past it, the output is activity after all.
const REDRAW_LIMIT: Duration = Duration::from_secs(2);

/// Collects what the parser reports while it processes one batch.
#[derive(Default)]
struct Alerts(Vec<TerminalSignal>);

impl vt100::Callbacks for Alerts {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.0.push(TerminalSignal::Bell);
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        if let Some(text) = notification(params) {
            self.0.push(TerminalSignal::Notification(text));
        }
    }
}

/// The text of an OSC 9 (`9;message`) or OSC 777 (`777;notify;title;body`) notification.
/// `9;4;…` and the other numeric forms are ConEmu's progress and friends, not notifications.
fn notification(params: &[&[u8]]) -> Option<String> {
    let text = |parts: &[&[u8]]| {
        let joined: Vec<String> = parts
            .iter()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        joined.join(";")
    };
    match params {
        [b"9", rest @ ..] if !rest.is_empty() => {
            let first = rest[0];
            let numeric = !first.is_empty() && first.iter().all(u8::is_ascii_digit);
            (!numeric).then(|| text(rest))
        }
        [b"777", b"notify", rest @ ..] => {
            let parts: Vec<String> = rest
                .iter()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .filter(|p| !p.is_empty())
                .collect();
            Some(parts.join(": "))
        }
        _ => None,
    }
}

struct Screen {
    parser: vt100::Parser<Alerts>,
    last_output: Instant,
    /// Output flowed since the last `Quiet`.
    active: bool,
    /// When a quiet terminal was resized: the output that follows is the program redrawing
    /// for the new size (a shell's prompt, a TUI's whole screen), not a turn starting. Ends
    /// when the output goes quiet again, on input, or after [`REDRAW_LIMIT`].
    redraw_since: Option<Instant>,
    /// The screen changed since the detector last ran.
    dirty: bool,
    finding: Option<ScreenFinding>,
    stopped: bool,
}

/// One terminal's watch: fed by the pump, ticked by its own thread.
pub(crate) struct ScreenWatch {
    screen: Mutex<Screen>,
    watch: TerminalWatch,
}

impl std::fmt::Debug for ScreenWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScreenWatch")
            .field("watch", &self.watch)
            .finish_non_exhaustive()
    }
}

/// The model's size for a terminal of `size`: at least 2×2, because `vt100` 0.16 underflows
/// on a wide character in one column and on a wrap that scrolls a one-row screen. The
/// detectors read the bottom rows, so a tiny terminal loses nothing they look for.
fn model_size(size: TerminalSize) -> (u16, u16) {
    (size.rows.max(2), size.cols.max(2))
}

impl ScreenWatch {
    /// Starts watching a terminal of `size`; the ticker thread ends when the watch is dropped
    /// or stopped.
    pub(crate) fn start(watch: TerminalWatch, size: TerminalSize) -> std::io::Result<Arc<Self>> {
        let (rows, cols) = model_size(size);
        let parser = vt100::Parser::new_with_callbacks(rows, cols, 0, Alerts::default());
        let this = Arc::new(Self {
            screen: Mutex::new(Screen {
                parser,
                last_output: Instant::now(),
                active: true,
                redraw_since: None,
                dirty: false,
                finding: None,
                stopped: false,
            }),
            watch,
        });
        let weak = Arc::downgrade(&this);
        std::thread::Builder::new()
            .name("pty-watch".into())
            .spawn(move || tick_loop(&weak))?;
        Ok(this)
    }

    /// One published batch of output.
    pub(crate) fn feed(&self, bytes: &[u8]) {
        let mut signals = {
            let mut screen = lock(&self.screen);
            if screen.stopped {
                return;
            }
            // The screen model is a reading aid: should the VT parser ever panic on some output,
            // this session loses its screen detectors, never its reader thread.
            let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                screen.parser.process(bytes);
            }));
            if parsed.is_err() {
                tracing::warn!("terminal screen model failed on this output: screen detectors off");
                screen.stopped = true;
                return;
            }
            screen.last_output = Instant::now();
            screen.dirty = true;
            let mut signals = std::mem::take(&mut screen.parser.callbacks_mut().0);
            let redrawing = screen
                .redraw_since
                .is_some_and(|since| since.elapsed() < REDRAW_LIMIT);
            if !screen.active && !redrawing {
                screen.active = true;
                screen.redraw_since = None;
                signals.insert(0, TerminalSignal::Active);
            }
            signals
        };
        for signal in signals.drain(..) {
            (self.watch.on_signal)(signal);
        }
    }

    pub(crate) fn resize(&self, size: TerminalSize) {
        let mut screen = lock(&self.screen);
        let (rows, cols) = model_size(size);
        if screen.parser.screen().size() == (rows, cols) {
            // The kernel sends no SIGWINCH for the same size: nothing will be redrawn.
            return;
        }
        screen.parser.screen_mut().set_size(rows, cols);
        screen.dirty = true;
        if !screen.active {
            screen.redraw_since = Some(Instant::now());
        }
    }

    /// The user typed: output from now on answers them, even right after a resize.
    pub(crate) fn input(&self) {
        lock(&self.screen).redraw_since = None;
    }

    /// The process has exited: no more signals.
    pub(crate) fn stop(&self) {
        lock(&self.screen).stopped = true;
    }

    /// Runs the detector on a changed screen and notices quiet output; `false` once stopped.
    fn tick(&self) -> bool {
        let mut signals = Vec::new();
        {
            let mut screen = lock(&self.screen);
            if screen.stopped {
                return false;
            }
            if let Some(detector) = self.watch.detector
                && std::mem::take(&mut screen.dirty)
            {
                let (_, cols) = screen.parser.screen().size();
                let rows: Vec<String> = screen.parser.screen().rows(0, cols).collect();
                let finding = detect_screen(detector, &rows);
                if finding != screen.finding {
                    screen.finding.clone_from(&finding);
                    signals.push(TerminalSignal::Screen(finding));
                }
            }
            let quiet = screen.last_output.elapsed() >= self.watch.quiet_after;
            if quiet
                && screen
                    .redraw_since
                    .is_some_and(|since| since.elapsed() >= self.watch.quiet_after)
            {
                // The redraw is over (or nothing was redrawn); the terminal was quiet all along.
                screen.redraw_since = None;
            }
            if screen.active && quiet {
                screen.active = false;
                signals.push(TerminalSignal::Quiet);
            }
        }
        for signal in signals {
            (self.watch.on_signal)(signal);
        }
        true
    }
}

fn tick_loop(watch: &Weak<ScreenWatch>) {
    loop {
        std::thread::sleep(TICK);
        let Some(watch) = watch.upgrade() else { return };
        if !watch.tick() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use idea_domain::agent_state::ScreenDetector;
    use std::sync::mpsc;

    /// Output never counts as quiet in these tests but in the one about quiet output, so the
    /// order of the signals never depends on how fast the test thread runs.
    const NEVER_QUIET: Duration = Duration::from_secs(24 * 3_600);

    fn watch(
        detector: Option<ScreenDetector>,
    ) -> (Arc<ScreenWatch>, mpsc::Receiver<TerminalSignal>) {
        watch_quiet_after(detector, NEVER_QUIET)
    }

    fn watch_quiet_after(
        detector: Option<ScreenDetector>,
        quiet_after: Duration,
    ) -> (Arc<ScreenWatch>, mpsc::Receiver<TerminalSignal>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let watch = TerminalWatch {
            detector,
            quiet_after,
            on_signal: Box::new(move |s| {
                let _ = lock(&tx).send(s);
            }),
        };
        (
            ScreenWatch::start(watch, TerminalSize { rows: 10, cols: 60 }).unwrap(),
            rx,
        )
    }

    /// The next signal (the deadline is a hang guard).
    fn next(rx: &mpsc::Receiver<TerminalSignal>) -> TerminalSignal {
        rx.recv_timeout(Duration::from_secs(30)).expect("a signal")
    }

    /// Found by the fuzz run (seed 501936162): vt100 0.16 subtracts a wide character's width
    /// from the screen's columns, which underflowed on a 1-column terminal and killed the PTY
    /// reader thread, so the session could no longer be stopped.
    #[test]
    fn a_wide_character_on_a_one_column_terminal_does_not_panic() {
        let (w, _rx) = watch(None);
        for cols in [0, 1, 2] {
            w.resize(TerminalSize { rows: 1, cols });
            w.feed("你好\u{1F600}ab\r\n".as_bytes());
        }
        let (w, _rx) = watch(None);
        w.resize(TerminalSize { rows: 0, cols: 0 });
        w.feed("\u{1F600}".as_bytes());
    }

    #[test]
    fn a_line_wrapping_on_a_one_row_terminal_keeps_the_screen_model() {
        // vt100 0.16 underflows when a wrap scrolls a one-row screen (found by the API fuzz):
        // the model then stopped, and the panic message reached stderr.
        let (w, rx) = watch(None);
        w.resize(TerminalSize { rows: 1, cols: 4 });
        w.feed(b"abcdefghij\r\n");
        w.feed(b"\x07");
        assert_eq!(next(&rx), TerminalSignal::Bell);
    }

    #[test]
    fn bells_and_notifications_are_reported_but_not_progress_or_titles() {
        let (w, rx) = watch(None);
        w.feed(b"hi\x07\x1b]0;title\x07\x1b]9;4;1;50\x07\x1b]9;Approve ls?\x07");
        w.feed(b"\x1b]777;notify;Codex;Needs you\x1b\\");
        // Reported while the batch is fed, on the feeding thread.
        assert_eq!(rx.try_recv(), Ok(TerminalSignal::Bell));
        assert_eq!(
            rx.try_recv(),
            Ok(TerminalSignal::Notification("Approve ls?".into()))
        );
        assert_eq!(
            rx.try_recv(),
            Ok(TerminalSignal::Notification("Codex: Needs you".into()))
        );
        assert!(rx.try_recv().is_err(), "nothing for the progress or title");
    }

    #[test]
    fn output_that_stops_is_quiet_until_more_comes() {
        let (w, rx) = watch_quiet_after(None, Duration::from_millis(300));
        // The watch starts as output: nothing more comes, so it turns quiet...
        assert_eq!(next(&rx), TerminalSignal::Quiet);
        // ...once only; the next output is activity again, reported as it is fed.
        w.feed(b"more");
        assert_eq!(rx.try_recv(), Ok(TerminalSignal::Active));
        assert_eq!(next(&rx), TerminalSignal::Quiet);
    }

    /// Nothing more is reported for a while.
    fn silent(rx: &mpsc::Receiver<TerminalSignal>) -> bool {
        rx.recv_timeout(Duration::from_millis(700)).is_err()
    }

    /// A quiet `watch` (its first `Quiet` received). Quiet after a second: longer than the
    /// test thread may be held up between a resize and the redraw it feeds.
    fn quiet_watch() -> (Arc<ScreenWatch>, mpsc::Receiver<TerminalSignal>) {
        let (w, rx) = watch_quiet_after(None, Duration::from_secs(1));
        assert_eq!(next(&rx), TerminalSignal::Quiet);
        (w, rx)
    }

    /// Waits for the ticker to end the redraw that followed a resize.
    fn redraw_over(w: &ScreenWatch) {
        let started = Instant::now();
        while lock(&w.screen).redraw_since.is_some() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the redraw never ended"
            );
            std::thread::sleep(TICK);
        }
    }

    #[test]
    fn a_quiet_programs_redraw_after_a_resize_is_not_activity() {
        // Loading the page, a second client or a panel resizes every terminal: a shell redraws
        // its prompt, a TUI its screen. That flipped idle agents to working, then "done".
        let (w, rx) = quiet_watch();
        w.resize(TerminalSize {
            rows: 20,
            cols: 100,
        });
        w.feed(b"\x1b[2J\x1b[H$ ");
        w.feed(b"\x1b[20;1Hstatus line");
        assert!(silent(&rx), "a redraw was taken for work");
        // Once the redraw is over (quiet again), output is activity again.
        redraw_over(&w);
        w.feed(b"building...");
        assert_eq!(next(&rx), TerminalSignal::Active);
    }

    #[test]
    fn output_after_a_resize_is_activity_when_the_user_typed_or_it_goes_on() {
        let (w, rx) = quiet_watch();
        w.resize(TerminalSize {
            rows: 20,
            cols: 100,
        });
        w.input();
        w.feed(b"ls\r\n");
        assert_eq!(next(&rx), TerminalSignal::Active);
        assert_eq!(next(&rx), TerminalSignal::Quiet);

        // A "redraw" still flowing past the limit is work after all.
        w.resize(TerminalSize {
            rows: 30,
            cols: 100,
        });
        let started = Instant::now();
        let active = loop {
            w.feed(b"tick\r\n");
            if let Ok(signal) = rx.recv_timeout(Duration::from_millis(100)) {
                break signal;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "never became active"
            );
        };
        assert_eq!(active, TerminalSignal::Active);
    }

    #[test]
    fn a_resize_to_the_same_size_starts_no_redraw() {
        let (w, rx) = quiet_watch();
        w.resize(TerminalSize { rows: 10, cols: 60 });
        w.feed(b"output");
        assert_eq!(next(&rx), TerminalSignal::Active);
    }

    #[test]
    fn the_detector_reads_the_rendered_screen_and_reports_changes() {
        let (w, rx) = watch(Some(ScreenDetector::ClaudeCode));
        // Drawn with cursor moves, as a TUI does: the text only exists on the screen.
        w.feed(
            b"\x1b[2J\x1b[5;3HDo you want to proceed?\x1b[6;3H\xe2\x9d\xaf 1. Yes\x1b[7;3H2. No",
        );
        assert_eq!(
            next(&rx),
            TerminalSignal::Screen(Some(ScreenFinding::NeedsYou(
                "Do you want to proceed?".into()
            )))
        );
        w.feed(b"\x1b[2J\x1b[1;1H\xe2\x97\x8f Bash(ls)");
        assert_eq!(next(&rx), TerminalSignal::Screen(None));
        w.stop();
        // A bell is reported as it is fed: none once stopped.
        w.feed(b"\x07");
        assert!(rx.try_recv().is_err());
    }
}
