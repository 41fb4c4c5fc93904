//! The rules of every permissions file, added together, and the decision for one tool call.

use super::command::{self, BashPattern, ShellCommand};
use super::file::{RuleEntry, parse_file};
use super::path::{PathContext, resolve};
use super::rule::{Pattern, Rule};
use super::{Decision, PermissionScope, RuleKind};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One tool call to decide on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The tool's name, case-sensitive (`Bash`, `Read`, `mcp__db__query`…).
    pub tool: String,
    pub input: ToolInput,
}

/// The part of a call's input that rules read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolInput {
    /// Nothing a pattern reads: only bare `Tool` rules apply.
    None,
    /// `Bash`: the parsed command.
    Command(ShellCommand),
    /// A file tool's path, as the tool received it (relative to the project root, `~/…`, or
    /// absolute).
    Path(String),
    /// `WebFetch`: the host of the URL.
    Domain(String),
    /// Any other tool: one text value of its input.
    Text(String),
}

/// A file's entries once read.
#[derive(Debug, Clone)]
pub struct PermissionFile {
    pub scope: PermissionScope,
    pub path: PathBuf,
    /// Whether the file exists (an absent file is listed, empty, so the UI can say where
    /// rules would go).
    pub exists: bool,
    /// Every entry as written, valid or not.
    pub entries: Vec<RuleEntry>,
    rules: Vec<(RuleKind, Rule)>,
}

impl PermissionFile {
    /// The valid rules, with their family.
    pub fn rules(&self) -> &[(RuleKind, Rule)] {
        &self.rules
    }
}

/// A rule or a file that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct PermissionWarning {
    /// The file.
    pub path: PathBuf,
    /// The rule's text, when the warning is about one rule.
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub message: String,
}

/// Which rule decided, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    pub kind: RuleKind,
    pub rule: String,
    pub path: PathBuf,
}

/// A decision and the rule behind it (`None`: no rule applied, so `Ask`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub decision: Decision,
    pub rule: Option<RuleRef>,
}

/// What a denied path rule forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PathAccess {
    /// `Read(…)` denied: reading (and so any use of) the path.
    Read,
    /// `Edit(…)` or `Write(…)` denied: changing the path.
    Write,
}

/// A `deny` of `Read`, `Edit` or `Write` on paths, made absolute: what a sandbox plan keeps
/// out of reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeniedPath {
    pub access: PathAccess,
    /// The folder the glob starts from (absolute).
    pub base: PathBuf,
    /// The glob below `base`; `None` for `base` itself. A match covers what is inside it.
    pub glob: Option<String>,
    /// The rule, and its file.
    pub rule: String,
    pub source: PathBuf,
}

impl DeniedPath {
    /// One absolute glob (the base's own glob characters escaped).
    pub fn absolute_glob(&self) -> String {
        let base = globset::escape(&self.base.to_string_lossy());
        match &self.glob {
            None => base,
            Some(glob) if base.ends_with('/') => format!("{base}{glob}"),
            Some(glob) => format!("{base}/{glob}"),
        }
    }
}

/// The effective permissions: every file's rules added together.
#[derive(Debug, Clone)]
pub struct PermissionSet {
    context: PathContext,
    files: Vec<PermissionFile>,
    warnings: Vec<PermissionWarning>,
}

impl PermissionSet {
    /// No file yet: every call is asked.
    pub fn new(context: PathContext) -> Self {
        Self {
            context,
            files: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The set of files as a [`PermissionFiles`](crate::ports::PermissionFiles) read them: a
    /// file that could not be read is a warning, none of its rules apply.
    pub fn from_files(
        context: PathContext,
        files: impl IntoIterator<Item = crate::ports::PermissionText>,
    ) -> Self {
        let mut set = Self::new(context);
        for file in files {
            match file.text {
                Ok(text) => set.add_file(file.scope, &file.path, text.as_deref()),
                Err(e) => set.add_unreadable(file.scope, &file.path, e.to_string()),
            }
        }
        set
    }

    /// Adds a file's text (`None`: the file does not exist). Its bad rules become warnings.
    pub fn add_file(&mut self, scope: PermissionScope, path: &Path, text: Option<&str>) {
        let parsed = text.map(parse_file).unwrap_or_default();
        for problem in parsed.problems {
            self.warn(path, problem.rule, problem.message);
        }
        if self.context.home.is_none() {
            for (_, rule) in &parsed.rules {
                if matches!(rule.pattern(), Some(Pattern::Path(p)) if p.base(&self.context).is_none())
                {
                    self.warn(
                        path,
                        Some(rule.text().to_owned()),
                        "the home folder is unknown, so this `~/` rule matches nothing".into(),
                    );
                }
            }
        }
        self.files.push(PermissionFile {
            scope,
            path: path.to_path_buf(),
            exists: text.is_some(),
            entries: parsed.entries,
            rules: parsed.rules,
        });
    }

    /// Records a file that exists but could not be read: none of its rules apply.
    pub fn add_unreadable(&mut self, scope: PermissionScope, path: &Path, reason: String) {
        self.warn(path, None, format!("{reason}; no rule of it applies"));
        self.files.push(PermissionFile {
            scope,
            path: path.to_path_buf(),
            exists: true,
            entries: Vec::new(),
            rules: Vec::new(),
        });
    }

    fn warn(&mut self, path: &Path, rule: Option<String>, message: String) {
        self.warnings.push(PermissionWarning {
            path: path.to_path_buf(),
            rule,
            message,
        });
    }

    pub fn context(&self) -> &PathContext {
        &self.context
    }

    /// Every file, in the order added (user file first, by convention).
    pub fn files(&self) -> &[PermissionFile] {
        &self.files
    }

    pub fn warnings(&self) -> &[PermissionWarning] {
        &self.warnings
    }

    /// Whether any file holds a valid rule.
    pub fn has_rules(&self) -> bool {
        self.files.iter().any(|f| !f.rules.is_empty())
    }

    /// Allow, ask or deny `call`.
    pub fn evaluate(&self, call: &ToolCall) -> Decision {
        self.explain(call).decision
    }

    /// The decision and the rule behind it. `deny` rules are tried first, then `ask`, then
    /// `allow`; the first family with a match decides, however precise the rules.
    pub fn explain(&self, call: &ToolCall) -> Verdict {
        for kind in [RuleKind::Deny, RuleKind::Ask] {
            if let Some(rule) = self
                .family(kind, &call.tool)
                .find(|(rule, _)| self.catches(rule, &call.input))
            {
                return Verdict {
                    decision: if kind == RuleKind::Deny {
                        Decision::Deny
                    } else {
                        Decision::Ask
                    },
                    rule: Some(rule_ref(kind, rule)),
                };
            }
        }
        let allow = self.allow(call);
        Verdict {
            decision: if allow.is_some() {
                Decision::Allow
            } else {
                Decision::Ask
            },
            rule: allow.map(|r| rule_ref(RuleKind::Allow, r)),
        }
    }

    /// The rules of one family for one tool, with their file.
    fn family<'s, 't>(
        &'s self,
        kind: RuleKind,
        tool: &'t str,
    ) -> impl Iterator<Item = (&'s Rule, &'s Path)> + Clone + use<'s, 't> {
        self.files.iter().flat_map(move |file| {
            file.rules
                .iter()
                .filter(move |(k, rule)| *k == kind && rule.tool() == tool)
                .map(|(_, rule)| (rule, file.path.as_path()))
        })
    }

    /// Whether a deny or ask rule applies to this input.
    fn catches(&self, rule: &Rule, input: &ToolInput) -> bool {
        match input {
            ToolInput::Command(command) => {
                bash_pattern(rule).is_some_and(|p| command::catches(p, command))
            }
            other => self.matches(rule, other),
        }
    }

    /// The allow rule that covers the call (for a command: the one covering its first part),
    /// `None` when not allowed.
    fn allow<'s>(&'s self, call: &ToolCall) -> Option<(&'s Rule, &'s Path)> {
        let mut rules = self.family(RuleKind::Allow, &call.tool);
        let ToolInput::Command(command) = &call.input else {
            return rules.find(|(rule, _)| self.matches(rule, &call.input));
        };
        if !command.allowable() {
            return None;
        }
        let mut first = None;
        for part in &command.parts {
            let cover = rules
                .clone()
                .find(|(rule, _)| bash_pattern(rule).is_some_and(|p| command::covers(p, part)))?;
            first.get_or_insert(cover);
        }
        first
    }

    /// Whether a non-command rule matches this input; a bare rule matches any.
    fn matches(&self, rule: &Rule, input: &ToolInput) -> bool {
        match (rule.pattern(), input) {
            (None, _) => true,
            (Some(Pattern::Path(pattern)), ToolInput::Path(path)) => resolve(path, &self.context)
                .is_some_and(|path| pattern.matches(&path, &self.context)),
            (Some(Pattern::Domain(pattern)), ToolInput::Domain(host)) => {
                pattern.matches(&host.trim_end_matches('.').to_ascii_lowercase())
            }
            (Some(Pattern::Text(pattern)), ToolInput::Text(text)) => pattern.matches(text),
            _ => false,
        }
    }

    /// Whether an `allow` path rule of `access` (`Read`; `Edit` or `Write`) covers `path`
    /// whole: it names the path itself or everything inside it (`Edit(.git/hooks/**)`). What
    /// lifts a built-in default of the sandbox (the credential stores, git's hooks). A bare
    /// rule (`Read` alone) names no path and lifts nothing.
    pub fn allows_whole(&self, access: PathAccess, path: &Path) -> bool {
        let tools: &[&str] = match access {
            PathAccess::Read => &["Read"],
            PathAccess::Write => &["Edit", "Write"],
        };
        // A name no rule spells out: a rule matching it matches any entry of `path`.
        let inside = path.join("\u{1}idea-any-entry");
        tools.iter().any(|tool| {
            self.family(RuleKind::Allow, tool).any(|(rule, _)| {
                matches!(rule.pattern(), Some(Pattern::Path(p))
                    if p.matches(path, &self.context) || p.matches(&inside, &self.context))
            })
        })
    }

    /// Every denied `Read`, `Edit` or `Write` path rule, absolute. A bare `Read` denies `/`.
    pub fn denied_paths(&self) -> Vec<DeniedPath> {
        let mut denied = Vec::new();
        for file in &self.files {
            for (kind, rule) in &file.rules {
                let access = match rule.tool() {
                    "Read" => PathAccess::Read,
                    "Edit" | "Write" => PathAccess::Write,
                    _ => continue,
                };
                if *kind != RuleKind::Deny {
                    continue;
                }
                let (base, glob) = match rule.pattern() {
                    None => (PathBuf::from("/"), None),
                    Some(Pattern::Path(p)) => match p.base(&self.context) {
                        Some(base) => (base, p.glob_text().map(str::to_owned)),
                        None => continue,
                    },
                    Some(_) => continue,
                };
                denied.push(DeniedPath {
                    access,
                    base,
                    glob,
                    rule: rule.text().to_owned(),
                    source: file.path.clone(),
                });
            }
        }
        denied
    }
}

fn bash_pattern(rule: &Rule) -> Option<BashPattern<'_>> {
    match rule.pattern() {
        None => Some(None),
        Some(Pattern::Command(p)) => Some(Some(p)),
        Some(_) => None,
    }
}

fn rule_ref(kind: RuleKind, (rule, path): (&Rule, &Path)) -> RuleRef {
    RuleRef {
        kind,
        rule: rule.text().to_owned(),
        path: path.to_path_buf(),
    }
}
