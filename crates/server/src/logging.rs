//! Logs: every `idea` process appends structured lines to a daily file,
//! `<user dir>/logs/idea.log.YYYY-MM-DD` (UTC dates), filtered by `IDEA_LOG` (`EnvFilter`
//! syntax, default `info`).
//!
//! Several processes share the day's file: it is opened in append mode and each event is one
//! write, so their lines interleave but never tear. Each line carries the writer's pid.
//! No secret may reach a log: nothing logs environment values or the serve URL, and as a
//! backstop every secret passed to [`redact`] is masked in whatever is written.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock};
use std::time::Duration;
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};

/// The variable holding the filter (`info`, `debug`, `idea=debug,axum=warn`…).
pub const LOG_ENV: &str = "IDEA_LOG";
/// The daily files are `idea.log.<date>`.
const FILE_PREFIX: &str = "idea.log";
/// Daily files kept; older ones are deleted when a new day's file is opened.
const KEPT_FILES: usize = 30;
/// Shorter secrets are not masked: masking a word that short would garble every line.
const MIN_SECRET_LEN: usize = 8;
/// What a secret reads as in the file.
const MASK: &str = "<redacted>";

/// Strings never written to the log as they are (see [`redact`]).
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Keeps the background writer alive: dropping it flushes the lines still queued.
#[derive(Debug)]
#[must_use = "logs are flushed when the guard is dropped: hold it until the process ends"]
pub struct LogGuard {
    _flush: Option<WorkerGuard>,
}

/// The folder of the log files.
pub fn log_dir(user_dir: &Path) -> PathBuf {
    user_dir.join("logs")
}

/// Today's log file (the date is UTC's, as the file rotates at UTC midnight).
pub fn current_log_file(user_dir: &Path) -> PathBuf {
    let today = time::OffsetDateTime::now_utc().date();
    log_dir(user_dir).join(format!(
        "{FILE_PREFIX}.{:04}-{:02}-{:02}",
        today.year(),
        u8::from(today.month()),
        today.day()
    ))
}

/// Starts logging to [`log_dir`]. Never fails: without a usable folder the process runs
/// unlogged, after one warning on stderr.
pub fn init(user_dir: &Path) -> LogGuard {
    let dir = log_dir(user_dir);
    let appender = create_private_dir(&dir)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            RollingFileAppender::builder()
                .rotation(Rotation::DAILY)
                .filename_prefix(FILE_PREFIX)
                .max_log_files(KEPT_FILES)
                .build(&dir)
                .map_err(|e| e.to_string())
        });
    let appender = match appender {
        Ok(appender) => appender,
        Err(e) => {
            eprintln!("idea: warning: no log file in {}: {e}", dir.display());
            return LogGuard { _flush: None };
        }
    };
    // Lossy: a full queue drops lines rather than slowing IdeA down.
    let (writer, guard) = NonBlockingBuilder::default()
        .thread_name("idea-log")
        .finish(Redacting(appender));
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter())
        .with_writer(writer)
        .with_ansi(false)
        .with_timer(WithPid(std::process::id()))
        .try_init();
    // Only fails when a subscriber is already installed (a second `init`): that one stays.
    if installed.is_err() {
        return LogGuard { _flush: None };
    }
    log_panics();
    LogGuard {
        _flush: Some(guard),
    }
}

/// The logs show the user's paths and commands: a new folder is the user's alone.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// `IDEA_LOG`, or `info` when it is unset, empty or unreadable (with a warning).
fn filter() -> EnvFilter {
    let fallback = || EnvFilter::new("info");
    let Some(value) = std::env::var_os(LOG_ENV).filter(|v| !v.is_empty()) else {
        return fallback();
    };
    match value.to_str().map(|v| EnvFilter::builder().parse(v)) {
        Some(Ok(filter)) => filter,
        Some(Err(e)) => {
            eprintln!("idea: warning: {LOG_ENV} ignored ({e}); logging at info");
            fallback()
        }
        None => {
            eprintln!("idea: warning: {LOG_ENV} is not UTF-8; logging at info");
            fallback()
        }
    }
}

/// A panic is an error too: log it (the default hook still prints it on stderr).
fn log_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(target: "idea::panic", "{info}");
        previous(info);
    }));
}

/// Requests made per keystroke or per resize step (the desktop shell types through
/// `writeTerminal`): logged at `debug` when they succeed, so that `info` stays readable.
const CHATTY: [&str; 3] = ["writeTerminal", "resizeTerminal", "ackTerminal"];

/// One answered request: `outcome` is `"ok"` or the error's code.
pub fn request(method: &str, elapsed: Duration, outcome: &str) {
    let duration_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    if outcome != "ok" {
        tracing::warn!(target: "idea::request", method, duration_us, outcome, "request");
    } else if CHATTY.contains(&method) {
        tracing::debug!(target: "idea::request", method, duration_us, outcome, "request");
    } else {
        tracing::info!(target: "idea::request", method, duration_us, outcome, "request");
    }
}

/// Masks `secret` in every line written from now on (the `idea serve` token). A backstop:
/// code must still never log a secret.
pub fn redact(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    let mut secrets = SECRETS.write().unwrap_or_else(PoisonError::into_inner);
    if !secrets.iter().any(|s| s == secret) {
        secrets.push(secret.to_owned());
    }
}

/// `line` with every secret masked, or `None` when it holds none.
fn scrub(line: &[u8], secrets: &[String]) -> Option<Vec<u8>> {
    // The formatter only writes UTF-8; anything else is not a line of ours to rewrite.
    let text = std::str::from_utf8(line).ok()?;
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        return None;
    }
    let masked = secrets.iter().fold(text.to_owned(), |text, secret| {
        text.replace(secret.as_str(), MASK)
    });
    Some(masked.into_bytes())
}

/// The file writer, masking secrets. It runs on the log thread, off IdeA's own threads.
struct Redacting<W>(W);

impl<W: Write> Write for Redacting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let secrets = SECRETS.read().unwrap_or_else(PoisonError::into_inner);
        match scrub(buf, &secrets) {
            // All of `buf` is consumed even though a different length is written.
            Some(masked) => self.0.write_all(&masked).map(|()| buf.len()),
            None => self.0.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The usual UTC timestamp, then the pid: several processes share one file.
struct WithPid(u32);

impl FormatTime for WithPid {
    fn format_time(&self, w: &mut Writer<'_>) -> std::fmt::Result {
        SystemTime.format_time(w)?;
        write!(w, " [{}]", self.0)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn the_daily_file_is_under_logs_with_todays_date() {
        let file = current_log_file(Path::new("/u"));
        assert_eq!(file.parent(), Some(Path::new("/u/logs")));
        let name = file.file_name().unwrap().to_str().unwrap();
        let date = name.strip_prefix("idea.log.").unwrap();
        assert_eq!(date.len(), "2026-11-30".len(), "{name}");
        assert!(
            date.chars().all(|c| c.is_ascii_digit() || c == '-'),
            "{name}"
        );
    }

    #[test]
    fn secrets_are_masked_wherever_they_appear() {
        let secrets = vec!["0123456789abcdef".to_owned()];
        let line = b"GET /?token=0123456789abcdef and 0123456789abcdef\n";
        let masked = scrub(line, &secrets).unwrap();
        assert_eq!(
            String::from_utf8(masked).unwrap(),
            "GET /?token=<redacted> and <redacted>\n"
        );
        assert_eq!(scrub(b"nothing here\n", &secrets), None);
    }

    #[test]
    fn the_writer_reports_the_whole_line_written() {
        let mut out = Redacting(Vec::new());
        redact("a-secret-token-for-the-test");
        let line = b"url ?token=a-secret-token-for-the-test\n";
        assert_eq!(out.write(line).unwrap(), line.len());
        assert_eq!(String::from_utf8(out.0).unwrap(), "url ?token=<redacted>\n");
    }

    #[test]
    fn short_secrets_are_not_masked() {
        redact("abc");
        let secrets = SECRETS.read().unwrap();
        assert!(!secrets.iter().any(|s| s == "abc"));
    }
}
