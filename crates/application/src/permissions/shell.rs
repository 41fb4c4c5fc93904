//! Reading a shell command for `Bash` rules, with tree-sitter's Bash grammar.
//!
//! The parser lives here rather than in the domain because it is a C library behind FFI: the
//! domain stays plain Rust and gets plain data ([`ShellCommand`]). Tree-sitter is
//! error-tolerant: a command with a syntax error still yields the commands it could place
//! (so a `deny` still catches them) and is marked incomplete (so no `allow` covers it).
//!
//! Every node of the tree is visited, so a command hidden anywhere — a list, a pipeline, a
//! subshell, a loop, a function body, `$(…)`, backticks, `<(…)`, a here-document, an
//! assignment's value, a `${x:-…}` default — is a part. On top of what the shell runs itself,
//! the commands its programs run in turn are read as nested parts: the string of `sh -c`,
//! `eval`'s words, a wrapper's command (`sudo`, `env`, `xargs`, `timeout`…), `find -exec`.

use idea_domain::permissions::{CommandPart, ShellCommand, Word};
use std::borrow::Cow;
use std::collections::HashMap;
use tree_sitter::{Node, Parser};

/// How deep `sh -c "sh -c '…'"` and wrappers of wrappers are read.
const MAX_DEPTH: usize = 8;
/// Parts beyond this many make the command unreadable (a pathological input, not a command).
const MAX_PARTS: usize = 4096;
/// How many words of a wrapper's arguments may start its command.
const MAX_WRAPPED_STARTS: usize = 4;
/// Shells whose `-c` string is read as a command.
const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ksh", "busybox"];
/// Programs that run the command given in their arguments.
const WRAPPERS: [&str; 15] = [
    "sudo", "doas", "env", "nohup", "nice", "ionice", "time", "timeout", "exec", "command",
    "builtin", "xargs", "stdbuf", "setsid", "watch",
];
/// `find` options whose following words, up to `;` or `+`, are a command.
const FIND_EXEC: [&str; 4] = ["-exec", "-execdir", "-ok", "-okdir"];

/// Reads `command` as Bash. Never fails: what cannot be read makes it incomplete.
pub fn parse(command: &str) -> ShellCommand {
    let mut reader = Reader {
        out: ShellCommand {
            complete: true,
            ..ShellCommand::default()
        },
        stand_ins: StandIns::default(),
    };
    if StandIns::held_by(command) {
        // The source already holds the characters used as stand-ins: their words could
        // not be told apart, so they are never allowed.
        reader.out.complete = false;
    }
    reader.read(command, 0, Place::Shell);
    reader.stand_ins.restore(&mut reader.out);
    reader.out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Run by the shell: `parts`.
    Shell,
    /// Run by a part's program: `nested`.
    Nested,
}

struct Reader {
    out: ShellCommand,
    stand_ins: StandIns,
}

impl Reader {
    fn read(&mut self, source: &str, depth: usize, place: Place) {
        let Some(source) = self.stand_ins.replace(source) else {
            self.out.complete = false;
            return;
        };
        let source = source.as_ref();
        let mut parser = Parser::new();
        let tree = parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .ok()
            .and_then(|()| parser.parse(source, None));
        let Some(tree) = tree else {
            self.out.complete = false;
            return;
        };
        // An explicit stack: a deeply nested command must not overflow the thread's stack.
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            self.visit(node, source, depth, place);
            let mut cursor = node.walk();
            let children: Vec<Node> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
        // Error recovery can swallow commands before the error, which the shell, running one
        // line at a time, would have run: read each line alone as well, so a denied command
        // on a good line is still caught (the whole stays incomplete, so nothing is allowed).
        if tree.root_node().has_error() && source.contains('\n') {
            for line in source.lines().filter(|l| !l.trim().is_empty()) {
                self.read(line, depth, place);
            }
        }
    }

    fn visit(&mut self, node: Node, source: &str, depth: usize, place: Place) {
        if node.is_error() || node.is_missing() {
            self.out.complete = false;
        }
        match node.kind() {
            "command" => {
                let part = command_part(node, source);
                self.nested_commands(&part, depth);
                self.push(part, place);
            }
            "declaration_command" | "unset_command" => {
                let mut cursor = node.walk();
                let words = node
                    .children(&mut cursor)
                    .filter(|c| c.kind() != "comment")
                    .map(|c| word(c, source))
                    .collect();
                self.push(
                    CommandPart {
                        assignments: Vec::new(),
                        words,
                    },
                    place,
                );
            }
            // Assignments alone on a line (inside a command they belong to it).
            "variable_assignment" | "variable_assignments" if !inside_statement(node) => {
                let assignments = if node.kind() == "variable_assignment" {
                    vec![text(node, source).to_owned()]
                } else {
                    let mut cursor = node.walk();
                    node.named_children(&mut cursor)
                        .map(|c| text(c, source).to_owned())
                        .collect()
                };
                self.push(
                    CommandPart {
                        assignments,
                        words: Vec::new(),
                    },
                    place,
                );
            }
            "file_redirect" if !harmless_redirect(node, source) => self.out.redirects = true,
            "heredoc_redirect" | "herestring_redirect" => self.out.redirects = true,
            "command_substitution" | "process_substitution" => self.out.substitutes = true,
            _ => {}
        }
    }

    fn push(&mut self, part: CommandPart, place: Place) {
        if self.out.parts.len() + self.out.nested.len() >= MAX_PARTS {
            self.out.complete = false;
            return;
        }
        match place {
            Place::Shell => self.out.parts.push(part),
            Place::Nested => self.out.nested.push(part),
        }
    }

    /// The commands `part`'s program runs in turn, read as nested parts.
    fn nested_commands(&mut self, part: &CommandPart, depth: usize) {
        // Each call ends in at most one push per word, so the cap bounds the work too.
        if depth >= MAX_DEPTH || self.out.parts.len() + self.out.nested.len() >= MAX_PARTS {
            return;
        }
        let Some((program, args)) = part.words.split_first() else {
            return;
        };
        if !program.literal {
            return;
        }
        let name = program.text.rsplit('/').next().unwrap_or_default();
        if SHELLS.contains(&name) {
            let script = args
                .iter()
                .position(|w| is_c_flag(&w.text))
                .and_then(|i| args.get(i + 1));
            if let Some(script) = script.filter(|w| w.literal) {
                self.read(&script.text, depth + 1, Place::Nested);
            }
        } else if name == "eval" {
            if args.iter().all(|w| w.literal) {
                let script = args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>();
                self.read(&script.join(" "), depth + 1, Place::Nested);
            }
        } else if WRAPPERS.contains(&name) {
            // Options and their values are not told apart: each of the first few words that
            // could be the command starts one (`sudo -u bob rm x` gives `bob rm x`, `rm x`
            // and `x`). A wrapper of a wrapper is skipped: its own command is a later start.
            let starts = (0..args.len())
                .filter(|&i| {
                    let text = &args[i].text;
                    !text.starts_with('-')
                        && !text.contains('=')
                        && !WRAPPERS.contains(&text.rsplit('/').next().unwrap_or_default())
                })
                .take(MAX_WRAPPED_STARTS);
            for start in starts {
                let inner = plain_part(&args[start..]);
                self.nested_commands(&inner, depth + 1);
                self.push(inner, Place::Nested);
            }
        } else if name == "find" {
            for (at, _) in args
                .iter()
                .enumerate()
                .filter(|(_, w)| FIND_EXEC.contains(&w.text.as_str()))
            {
                let rest = &args[at + 1..];
                let end = rest
                    .iter()
                    .position(|w| w.text == ";" || w.text == "+")
                    .unwrap_or(rest.len());
                if end > 0 {
                    let inner = plain_part(&rest[..end]);
                    self.nested_commands(&inner, depth + 1);
                    self.push(inner, Place::Nested);
                }
            }
        }
    }
}

/// Characters outside the Basic Multilingual Plane, swapped for private-use ones while
/// tree-sitter reads the command: tree-sitter-bash 0.25.1 reads out of bounds on `{`
/// followed by a 4-byte UTF-8 character (a crash of the whole process, upstream issue 337).
/// Both are word characters to the grammar, so the tree is the same; the words get their
/// characters back afterwards.
#[derive(Default)]
struct StandIns {
    /// The original character of `FIRST_STAND_IN + i`.
    originals: Vec<char>,
    index: HashMap<char, u32>,
}

const FIRST_STAND_IN: u32 = 0xE000;
const STAND_INS: u32 = 0x1900; // U+E000..U+F8FF, the BMP's private use area

impl StandIns {
    fn is_stand_in(c: char) -> bool {
        (FIRST_STAND_IN..FIRST_STAND_IN + STAND_INS).contains(&u32::from(c))
    }

    /// Whether `source` already holds characters that could be mistaken for stand-ins.
    fn held_by(source: &str) -> bool {
        source.chars().any(Self::is_stand_in)
    }

    /// `source` with its 4-byte characters swapped; `None` past the stand-ins available.
    fn replace<'s>(&mut self, source: &'s str) -> Option<Cow<'s, str>> {
        if source.chars().all(|c| u32::from(c) < 0x1_0000) {
            return Some(Cow::Borrowed(source));
        }
        let mut out = String::with_capacity(source.len());
        for c in source.chars() {
            if u32::from(c) < 0x1_0000 {
                out.push(c);
                continue;
            }
            let next = u32::try_from(self.originals.len()).ok()?;
            let at = *self.index.entry(c).or_insert(next);
            if at == next {
                if next >= STAND_INS {
                    return None;
                }
                self.originals.push(c);
            }
            out.push(char::from_u32(FIRST_STAND_IN + at)?);
        }
        Some(Cow::Owned(out))
    }

    /// Puts the original characters back into every word and assignment.
    fn restore(&self, command: &mut ShellCommand) {
        if self.originals.is_empty() {
            return;
        }
        let restore = |text: &mut String| {
            if text.chars().any(Self::is_stand_in) {
                *text = text
                    .chars()
                    .map(|c| {
                        u32::from(c)
                            .checked_sub(FIRST_STAND_IN)
                            .and_then(|i| self.originals.get(usize::try_from(i).ok()?))
                            .copied()
                            .unwrap_or(c)
                    })
                    .collect();
            }
        };
        for part in command.parts.iter_mut().chain(command.nested.iter_mut()) {
            part.assignments.iter_mut().for_each(restore);
            part.words.iter_mut().for_each(|w| restore(&mut w.text));
        }
    }
}

fn plain_part(words: &[Word]) -> CommandPart {
    CommandPart {
        assignments: Vec::new(),
        words: words.to_vec(),
    }
}

/// `-c`, or a cluster of short options holding `c` (`-lc`, `-ec`).
fn is_c_flag(arg: &str) -> bool {
    arg.strip_prefix('-').is_some_and(|flags| {
        !flags.starts_with('-')
            && flags.contains('c')
            && flags.chars().all(|c| c.is_ascii_alphabetic())
    })
}

fn text<'s>(node: Node, source: &'s str) -> &'s str {
    node.utf8_text(source.as_bytes()).unwrap_or_default()
}

/// Whether an assignment node is part of a command or declaration (not a line of its own).
fn inside_statement(node: Node) -> bool {
    node.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "command" | "declaration_command" | "variable_assignments"
        )
    })
}

/// One simple command: its assignments and words. Tree-sitter hangs the words that follow a
/// redirection's target on the redirection (`git >/dev/null push` gives `git` and a redirect
/// to `/dev/null push`); the shell passes them to the command, so they are put back.
fn command_part(node: Node, source: &str) -> CommandPart {
    let mut part = CommandPart::default();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "variable_assignment" => part.assignments.push(text(child, source).to_owned()),
            "file_redirect" | "herestring_redirect" | "heredoc_redirect" | "comment" => {}
            _ => part.words.push(word(child, source)),
        }
    }
    if let Some(parent) = node.parent().filter(|p| p.kind() == "redirected_statement") {
        let mut cursor = parent.walk();
        for redirect in parent.children_by_field_name("redirect", &mut cursor) {
            if redirect.kind() == "file_redirect" {
                let mut inner = redirect.walk();
                let extra = redirect
                    .children_by_field_name("destination", &mut inner)
                    .skip(1)
                    .map(|d| word(d, source))
                    .collect::<Vec<_>>();
                part.words.extend(extra);
            }
        }
    }
    part
}

/// A word's value: the text the program receives when it holds no expansion, else the
/// source text and `literal: false`.
fn word(node: Node, source: &str) -> Word {
    let raw = text(node, source);
    match node.kind() {
        "command_name" => match node.named_child(0) {
            Some(inner) => word(inner, source),
            None => Word::expanded(raw),
        },
        "word" | "number" => {
            // Globs and braces are expanded by the shell: the program is not known.
            if raw.contains(['*', '?', '[', '{', '}']) {
                Word::expanded(unescape(raw, |_| true))
            } else {
                Word::literal(unescape(raw, |_| true))
            }
        }
        "raw_string" => Word::literal(raw.trim_start_matches('\'').trim_end_matches('\'')),
        "string" => {
            let mut cursor = node.walk();
            let plain = node
                .named_children(&mut cursor)
                .all(|c| c.kind() == "string_content");
            let inner = raw
                .strip_prefix('"')
                .and_then(|r| r.strip_suffix('"'))
                .unwrap_or(raw);
            if plain {
                Word::literal(unescape(inner, |c| {
                    matches!(c, '$' | '`' | '"' | '\\' | '\n')
                }))
            } else {
                Word::expanded(raw)
            }
        }
        "concatenation" => {
            let mut cursor = node.walk();
            let pieces: Vec<Word> = node
                .children(&mut cursor)
                .map(|c| word(c, source))
                .collect();
            let joined: String = pieces.iter().map(|p| p.text.as_str()).collect();
            if pieces.iter().all(|p| p.literal) {
                Word::literal(joined)
            } else {
                Word::expanded(raw)
            }
        }
        "variable_assignment" => {
            let mut cursor = node.walk();
            let plain = node
                .named_children(&mut cursor)
                .all(|c| matches!(c.kind(), "variable_name" | "word" | "number"));
            if plain {
                Word::literal(raw)
            } else {
                Word::expanded(raw)
            }
        }
        _ if !node.is_named() => Word::literal(raw),
        _ => Word::expanded(raw),
    }
}

/// Removes the backslashes that quote the next character, where `quotes` says they do
/// (any character unquoted; only `$`, `` ` ``, `"`, `\` and newline inside double quotes).
/// A backslash before a newline joins the lines.
fn unescape(text: &str, quotes: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {}
            Some(next) if quotes(next) => out.push(next),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// A redirection that reads or writes no file: duplicating or closing a descriptor (`2>&1`,
/// `>&-`), or `/dev/null`.
fn harmless_redirect(node: Node, source: &str) -> bool {
    let mut cursor = node.walk();
    let operator = node
        .children(&mut cursor)
        .find(|c| !c.is_named())
        .map(|c| c.kind());
    let mut cursor = node.walk();
    let target = node
        .children_by_field_name("destination", &mut cursor)
        .next();
    match (operator, target) {
        (Some(">&-" | "<&-"), _) => true,
        (Some(">&" | "<&"), Some(t)) => t.kind() == "number" || text(t, source) == "-",
        (Some(_), Some(t)) => text(t, source) == "/dev/null",
        _ => false,
    }
}
