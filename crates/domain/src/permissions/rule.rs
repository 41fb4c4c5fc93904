//! One rule: `Tool` (every call of the tool) or `Tool(pattern)`, where what the pattern reads
//! depends on the tool: a shell command for `Bash`, a path for the file tools, a domain for
//! `WebFetch`, a text value for any other tool.

use super::command::CommandPattern;
use super::path::PathPattern;
use super::wildcard::Wildcard;

/// The tools whose pattern is a path.
pub const PATH_TOOLS: [&str; 5] = ["Read", "Write", "Edit", "Glob", "Grep"];
/// Tools with a pattern of their own; a rule naming one of them in another case is a mistake.
const KNOWN_TOOLS: [&str; 7] = ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch"];
/// Longer than any real tool name (MCP tools are `mcp__<server>__<tool>`).
const MAX_TOOL_NAME: usize = 128;

/// A parsed rule, as written in a permissions file.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    text: String,
    tool: String,
    pattern: Option<Pattern>,
}

/// What a rule's pattern reads, by tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Pattern {
    /// `Bash(…)`: the command, part by part.
    Command(CommandPattern),
    /// `Read(…)`, `Write(…)`, `Edit(…)`, `Glob(…)`, `Grep(…)`: a glob over paths.
    Path(PathPattern),
    /// `WebFetch(domain:…)`: the host name, `*` for any run of characters, case-insensitive.
    Domain(Wildcard),
    /// Any other tool: one text value of its input, `*` for any run of characters.
    Text(Wildcard),
}

/// Why a rule was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the rule is empty")]
    Empty,
    #[error("\"{0}\" is not a tool name (letters, digits, `_` and `-`, at most 128)")]
    ToolName(String),
    #[error("tool names are case-sensitive: did you mean \"{0}\"?")]
    ToolCase(&'static str),
    #[error("a rule is `Tool` or `Tool(pattern)`: the `(` must be closed by a `)` at the end")]
    Unclosed,
    #[error("`{0}()` has an empty pattern (write `{0}` alone for every call)")]
    EmptyPattern(String),
    #[error(
        "a WebFetch pattern is `domain:<host>` (wildcards allowed), e.g. `domain:*.example.org`"
    )]
    NotADomain,
    #[error("\"{0}\" is not a host name (letters, digits, `-`, `.` and `*`)")]
    BadDomain(String),
    #[error("invalid path pattern: {0}")]
    BadPath(String),
}

impl Rule {
    /// Parses one rule (surrounding spaces ignored).
    ///
    /// # Errors
    /// A [`RuleError`] saying what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, RuleError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(RuleError::Empty);
        }
        let (tool, inner) = match trimmed.split_once('(') {
            None => (trimmed, None),
            Some((tool, rest)) => (
                tool.trim_end(),
                Some(rest.strip_suffix(')').ok_or(RuleError::Unclosed)?),
            ),
        };
        check_tool_name(tool)?;
        let pattern = match inner {
            None => None,
            Some(p) if p.trim().is_empty() => return Err(RuleError::EmptyPattern(tool.into())),
            Some(p) => Some(Pattern::parse(tool, p)?),
        };
        Ok(Self {
            text: trimmed.to_owned(),
            tool: tool.to_owned(),
            pattern,
        })
    }

    /// The rule as written (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// `None` for a bare `Tool` rule: every call of the tool.
    pub fn pattern(&self) -> Option<&Pattern> {
        self.pattern.as_ref()
    }
}

impl Pattern {
    fn parse(tool: &str, pattern: &str) -> Result<Self, RuleError> {
        Ok(match tool {
            "Bash" => Self::Command(CommandPattern::new(pattern)),
            t if PATH_TOOLS.contains(&t) => Self::Path(PathPattern::parse(pattern)?),
            "WebFetch" => Self::Domain(domain_pattern(pattern)?),
            _ => Self::Text(Wildcard::new(pattern)),
        })
    }
}

fn check_tool_name(tool: &str) -> Result<(), RuleError> {
    let valid = !tool.is_empty()
        && tool.len() <= MAX_TOOL_NAME
        && tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        return Err(RuleError::ToolName(tool.to_owned()));
    }
    match KNOWN_TOOLS
        .iter()
        .find(|known| known.eq_ignore_ascii_case(tool) && **known != tool)
    {
        Some(known) => Err(RuleError::ToolCase(known)),
        None => Ok(()),
    }
}

fn domain_pattern(pattern: &str) -> Result<Wildcard, RuleError> {
    let host = pattern
        .trim()
        .strip_prefix("domain:")
        .ok_or(RuleError::NotADomain)?
        .trim();
    let valid = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '*'));
    if !valid {
        return Err(RuleError::BadDomain(host.to_owned()));
    }
    Ok(Wildcard::new(&host.to_ascii_lowercase()))
}
