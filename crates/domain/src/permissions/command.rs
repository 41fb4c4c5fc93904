//! `Bash` rules over a shell command already split into its parts.
//!
//! The domain does not read shell syntax itself: the application parses the command with a
//! real shell grammar and hands over a [`ShellCommand`], every simple command it found
//! (those of `&&`, `||`, `;`, `|`, subshells, `$(…)` and backticks alike) plus what an allow
//! rule must never cover. The rules of a compound command live here:
//! - a `deny` or `ask` rule applies as soon as **one** part matches;
//! - an `allow` rule applies only when **every** part is matched by an allow rule, and never
//!   to a command with a redirection or a substitution, nor to one that could not be read.

use super::wildcard::Wildcard;

/// A shell command as the parser understood it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellCommand {
    /// Every simple command the shell itself runs, wherever it sits (pipelines, lists,
    /// subshells, loops, substitutions…), in source order.
    pub parts: Vec<CommandPart>,
    /// Commands a part's program runs in turn: the string of `sh -c`, `eval`'s words, the
    /// command of a wrapper (`sudo rm …`, `xargs rm`, `find -exec rm`). `deny` and `ask` rules
    /// see them; an allow of the outer part covers them.
    pub nested: Vec<CommandPart>,
    /// A redirection to or from a file (`>`, `>>`, `<`, here-documents…); duplicating a
    /// descriptor (`2>&1`) and `/dev/null` do not count.
    pub redirects: bool,
    /// A command or process substitution: `$(…)`, backticks, `<(…)`, `>(…)`.
    pub substitutes: bool,
    /// Whether the parser read all of it (no syntax error, nothing it could not place).
    pub complete: bool,
}

/// One simple command: `FOO=1 git push origin` has the assignment `FOO=1` and three words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommandPart {
    /// Variable assignments before the command (`FOO=1`), as written.
    pub assignments: Vec<String>,
    pub words: Vec<Word>,
}

/// One word of a command: its value once quotes are removed when it is plain text, else its
/// source text (`$HOME`, `"$(date)"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// No expansion in it: `text` is exactly what the program receives.
    pub literal: bool,
}

impl Word {
    /// A plain word (the program receives `text`).
    pub fn literal(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            literal: true,
        }
    }

    /// A word with an expansion; `source` is how it was written.
    pub fn expanded(source: impl Into<String>) -> Self {
        Self {
            text: source.into(),
            literal: false,
        }
    }
}

impl CommandPart {
    /// A part of plain words, split on spaces (for tests and callers without a parser).
    pub fn plain(command: &str) -> Self {
        Self {
            assignments: Vec::new(),
            words: command.split_whitespace().map(Word::literal).collect(),
        }
    }

    /// The words joined by single spaces.
    pub fn command_text(&self) -> String {
        join(self.words.iter().map(|w| w.text.as_str()))
    }

    /// The assignments and the words, as one line.
    pub fn full_text(&self) -> String {
        join(
            self.assignments
                .iter()
                .map(String::as_str)
                .chain(self.words.iter().map(|w| w.text.as_str())),
        )
    }

    /// The words with the program's path cut to its name (`/bin/rm x` → `rm x`); `None` when
    /// the program is not named by a path.
    fn by_program_name(&self) -> Option<String> {
        let (program, args) = self.words.split_first()?;
        let (_, name) = program.text.rsplit_once('/')?;
        Some(join(
            std::iter::once(name).chain(args.iter().map(|w| w.text.as_str())),
        ))
    }

    /// Whether the program it runs is known before running it (its name is plain text).
    fn program_known(&self) -> bool {
        self.words.first().is_none_or(|w| w.literal)
    }
}

fn join<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    texts.collect::<Vec<_>>().join(" ")
}

/// The pattern of a `Bash(…)` rule: `*` matches any run of characters; a pattern ending in
/// ` *` also matches the command without arguments (`git *` covers `git` and `git push`, not
/// `gitx`); without `*` the command must be exactly the pattern. Runs of spaces count as one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    whole: Wildcard,
    /// For a pattern ending in ` *`: the same pattern without it.
    bare: Option<Wildcard>,
}

impl CommandPattern {
    pub fn new(pattern: &str) -> Self {
        let normal = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
        Self {
            whole: Wildcard::new(&normal),
            bare: normal.strip_suffix(" *").map(Wildcard::new),
        }
    }

    /// Whether the pattern matches `text` (a command on one line, single-spaced).
    pub fn matches_text(&self, text: &str) -> bool {
        self.whole.matches(text) || self.bare.as_ref().is_some_and(|b| b.matches(text))
    }

    /// For `deny` and `ask`: the part with or without its leading assignments, and with its
    /// program named by path or by name, so `FOO=1 /bin/rm -rf x` is caught by `rm *`.
    pub fn catches(&self, part: &CommandPart) -> bool {
        self.matches_text(&part.full_text())
            || (!part.assignments.is_empty() && self.matches_text(&part.command_text()))
            || part
                .by_program_name()
                .is_some_and(|text| self.matches_text(&text))
    }

    /// For `allow`: the whole part as written, assignments included (`LD_PRELOAD=… git` is
    /// not `git`), and only when the program it runs is plain text.
    pub fn covers(&self, part: &CommandPart) -> bool {
        part.program_known() && self.matches_text(&part.full_text())
    }
}

impl ShellCommand {
    /// Whether an allow rule may cover it at all: read in full, at least one part, no
    /// redirection and no substitution.
    pub fn allowable(&self) -> bool {
        self.complete && !self.redirects && !self.substitutes && !self.parts.is_empty()
    }
}

/// A `Bash` rule's pattern, `None` for a bare `Bash`.
pub(super) type BashPattern<'r> = Option<&'r CommandPattern>;

/// For `deny` and `ask`: whether the rule catches one of the parts, nested ones included (a
/// bare `Bash`, any call).
pub(super) fn catches(pattern: BashPattern<'_>, command: &ShellCommand) -> bool {
    match pattern {
        None => true,
        Some(p) => command
            .parts
            .iter()
            .chain(&command.nested)
            .any(|part| p.catches(part)),
    }
}

/// For `allow`: whether the rule covers this part (a bare `Bash`, any part whose program is
/// known).
pub(super) fn covers(pattern: BashPattern<'_>, part: &CommandPart) -> bool {
    match pattern {
        None => part.program_known(),
        Some(p) => p.covers(part),
    }
}
