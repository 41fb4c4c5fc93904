//! Path rules (`Read(…)`, `Write(…)`, `Edit(…)`, `Glob(…)`, `Grep(…)`): globs relative to the
//! project root, `~/…` relative to the home folder, `/…` absolute. `*` stays within one
//! folder, `**` crosses folders. A pattern that matches a folder covers everything in it, so
//! `Read(secrets)` denies `secrets/key.pem` too.
//!
//! Matching is lexical: `..` and `.` are resolved on the text, links are not followed (this
//! is pure; the kernel sandbox sees real paths).

use super::rule::RuleError;
use globset::{GlobBuilder, GlobMatcher};
use std::path::{Component, Path, PathBuf};

/// Where relative patterns and paths start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathContext {
    /// The project root (absolute).
    pub root: PathBuf,
    /// The user's home folder, for `~/`; `None` when unknown (then `~/` rules match nothing).
    pub home: Option<PathBuf>,
}

/// What a path pattern is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    ProjectRoot,
    Home,
    FileSystemRoot,
}

#[derive(Debug, Clone)]
pub struct PathPattern {
    anchor: Anchor,
    /// Leading `..` of the pattern: how many folders above the anchor it starts.
    up: usize,
    /// The glob below that folder; `None` for the folder itself (and so all it holds).
    glob: Option<GlobMatcher>,
}

impl PartialEq for PathPattern {
    fn eq(&self, other: &Self) -> bool {
        self.anchor == other.anchor && self.up == other.up && self.glob_text() == other.glob_text()
    }
}

impl PathPattern {
    /// # Errors
    /// [`RuleError::BadPath`] for an invalid glob or a `..` after the start.
    pub fn parse(pattern: &str) -> Result<Self, RuleError> {
        let pattern = pattern.trim();
        let (anchor, mut rest) = if pattern == "~" {
            (Anchor::Home, "")
        } else if let Some(rest) = pattern.strip_prefix("~/") {
            (Anchor::Home, rest)
        } else if pattern.starts_with('/') {
            (Anchor::FileSystemRoot, pattern)
        } else {
            (Anchor::ProjectRoot, pattern)
        };
        let mut up = 0;
        loop {
            rest = rest.trim_start_matches('/');
            if let Some(r) = rest.strip_prefix("./").or((rest == ".").then_some("")) {
                rest = r;
            } else if let Some(r) = rest.strip_prefix("../").or((rest == "..").then_some("")) {
                up += 1;
                rest = r;
            } else {
                break;
            }
        }
        let rest = rest.trim_end_matches('/');
        if rest.split('/').any(|c| c == "..") {
            return Err(RuleError::BadPath(
                "`..` may only start a pattern (write the folder it means instead)".into(),
            ));
        }
        let glob = if rest.is_empty() {
            None
        } else {
            let glob = GlobBuilder::new(rest)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map_err(|e| RuleError::BadPath(e.kind().to_string()))?;
            Some(glob.compile_matcher())
        };
        Ok(Self { anchor, up, glob })
    }

    /// The folder the glob is relative to; `None` for a home pattern with no known home.
    pub fn base(&self, context: &PathContext) -> Option<PathBuf> {
        let mut base = match self.anchor {
            Anchor::ProjectRoot => context.root.clone(),
            Anchor::Home => context.home.clone()?,
            Anchor::FileSystemRoot => PathBuf::from("/"),
        };
        for _ in 0..self.up {
            base.pop();
        }
        Some(base)
    }

    /// The glob below [`Self::base`], `None` for the base itself.
    pub fn glob_text(&self) -> Option<&str> {
        self.glob.as_ref().map(|g| g.glob().glob())
    }

    /// Whether `path` (absolute, normalised by [`resolve`]) is matched: it, or a folder it is
    /// in, below the base.
    pub fn matches(&self, path: &Path, context: &PathContext) -> bool {
        let Some(base) = self.base(context) else {
            return false;
        };
        let Ok(relative) = path.strip_prefix(&base) else {
            return false;
        };
        let Some(glob) = &self.glob else {
            return true;
        };
        relative
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty())
            .any(|a| glob.is_match(a))
    }
}

/// The absolute, normalised form of a tool's path argument: `~/…` from the home folder,
/// relative paths from the project root, `.` and `..` resolved on the text. `None` for `~`
/// with no known home.
pub fn resolve(path: &str, context: &PathContext) -> Option<PathBuf> {
    let joined = if path == "~" {
        context.home.clone()?
    } else if let Some(rest) = path.strip_prefix("~/") {
        context.home.as_ref()?.join(rest)
    } else {
        context.root.join(path)
    };
    let mut normal = PathBuf::from("/");
    for component in joined.components() {
        match component {
            Component::Normal(part) => normal.push(part),
            Component::ParentDir => {
                normal.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    Some(normal)
}
