//! Running git: one repository, a deadline, bounded output, nothing interactive.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The oldest git IdeA works with: `merge-tree --write-tree` came in 2.38.
pub const MIN_VERSION: (u32, u32) = (2, 38);

/// How long one git command may take.
const PATIENCE: Duration = Duration::from_secs(30);
/// The most of a command's output read (a listing of many thousand files fits).
const OUTPUT_MAX: u64 = 16 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("git is not installed (or not on PATH)")]
    Missing,
    #[error("git {found} is too old: IdeA needs {}.{} or later", MIN_VERSION.0, MIN_VERSION.1)]
    TooOld { found: String },
    #[error("{} is not a git repository", .0.display())]
    NotARepository(PathBuf),
    #[error("git {command} failed: {message}")]
    Failed { command: String, message: String },
    #[error("git {command} did not finish in time")]
    TimedOut { command: String },
    #[error("the branch {0} already exists")]
    BranchTaken(String),
    #[error("{0} names no commit")]
    UnknownRef(String),
    #[error("{branch} moved while IdeA was merging into it: nothing was changed")]
    Moved { branch: String },
    #[error("merging would conflict in {}", .0.join(", "))]
    Conflicts(Vec<String>),
    #[error("a {what} is already in progress in {}", dir.display())]
    InProgress { what: &'static str, dir: PathBuf },
}

/// git in one repository or worktree.
#[derive(Debug, Clone)]
pub struct Git {
    dir: PathBuf,
    env: Vec<(String, PathBuf)>,
    patience: Duration,
}

/// What a command printed, and whether it exited 0.
pub(crate) struct Ran {
    pub ok: bool,
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Git {
    pub fn at(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            env: Vec::new(),
            patience: PATIENCE,
        }
    }

    /// The same, each command given `patience` instead of the default 30 s.
    #[must_use]
    pub fn patient(mut self, patience: Duration) -> Self {
        self.patience = patience;
        self
    }

    /// The same, with `GIT_INDEX_FILE` set: a temporary index instead of the worktree's.
    pub(super) fn with_index(&self, index: &Path) -> Self {
        let mut git = self.clone();
        git.env.push(("GIT_INDEX_FILE".into(), index.to_path_buf()));
        git
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `git -C <dir> <args>`; an exit status other than 0 is returned, not an error.
    pub(crate) fn run(&self, args: &[&str]) -> Result<Ran, GitError> {
        let command = args.first().copied().unwrap_or_default().to_owned();
        let mut cmd = Command::new("git");
        cmd.arg("-C")
            .arg(&self.dir)
            .args([
                "-c",
                "core.fsmonitor=false",
                "-c",
                "core.pager=cat",
                "--no-pager",
            ])
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            // Never an editor waiting for a user (a rebase's or a merge's message).
            .env("GIT_EDITOR", "true")
            .env("GIT_SEQUENCE_EDITOR", "true")
            .env("LC_ALL", "C")
            .env_remove("GIT_EXTERNAL_DIFF")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, value) in &self.env {
            cmd.env(name, value);
        }
        let mut child = cmd.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => GitError::Missing,
            _ => GitError::Failed {
                command: command.clone(),
                message: e.to_string(),
            },
        })?;
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let out = thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(stdout) = stdout {
                let _ = stdout.take(OUTPUT_MAX).read_to_end(&mut bytes);
            }
            bytes
        });
        let err = thread::spawn(move || {
            let mut text = String::new();
            if let Some(stderr) = stderr {
                let _ = stderr.take(64 * 1024).read_to_string(&mut text);
            }
            text
        });
        let deadline = Instant::now() + self.patience;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(GitError::TimedOut { command });
                }
            }
        };
        Ok(Ran {
            ok: status.success(),
            code: status.code(),
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
        })
    }

    /// Runs a command that must succeed; its standard output, trimmed of the final newline.
    pub(super) fn output(&self, args: &[&str]) -> Result<String, GitError> {
        let ran = self.run(args)?;
        if !ran.ok {
            return Err(self.failed(args, &ran));
        }
        let mut text = String::from_utf8_lossy(&ran.stdout).into_owned();
        if text.ends_with('\n') {
            text.pop();
        }
        Ok(text)
    }

    pub(super) fn failed(&self, args: &[&str], ran: &Ran) -> GitError {
        let message = ran.stderr.trim();
        if message.contains("not a git repository") {
            return GitError::NotARepository(self.dir.clone());
        }
        GitError::Failed {
            command: args.join(" "),
            message: message.lines().last().unwrap_or("no message").to_owned(),
        }
    }
}

/// git's version, refused below [`MIN_VERSION`].
///
/// # Errors
/// `Missing`, `TooOld`, or a version git printed that cannot be read.
pub fn version() -> Result<(u32, u32, u32), GitError> {
    let text = Git::at(Path::new(".")).output(&["version"])?;
    let found = text.trim_start_matches("git version ").trim().to_owned();
    let parts: Vec<u32> = found
        .split(|c: char| !c.is_ascii_digit())
        .take(3)
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    let [major, minor, patch] = [0, 1, 2].map(|i| parts.get(i).copied().unwrap_or(0));
    if (major, minor) < MIN_VERSION {
        return Err(GitError::TooOld { found });
    }
    Ok((major, minor, patch))
}
