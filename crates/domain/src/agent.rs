//! Agents: their validated name, their manifest entry and the persona slug rules.

use crate::ids::AgentId;
use crate::profile::ProfileId;
use crate::skill::SkillRef;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Longest agent name accepted, in characters.
pub const MAX_AGENT_NAME_CHARS: usize = 64;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidAgentName {
    #[error("an agent name cannot be empty")]
    Empty,
    #[error("an agent name is at most {MAX_AGENT_NAME_CHARS} characters (got {0})")]
    TooLong(usize),
    #[error("an agent name cannot contain control characters")]
    ControlCharacter,
    #[error(
        "an agent name cannot contain invisible or text-direction characters (U+{:04X})",
        u32::from(*.0)
    )]
    InvisibleCharacter(char),
    #[error("an agent name cannot contain '/' or '\\'")]
    PathSeparator,
    #[error("an agent name needs at least one letter or digit")]
    NoAlphanumeric,
}

/// Characters that draw nothing or reorder the text around them: two names that differ only by
/// them look the same (and an override can make "Ada" show as another name). Every Unicode
/// format character (`Cf`: bidi controls, zero-width joiners and spaces, word joiner, BOM,
/// invisible operators, tag characters…), the line and paragraph separators, and the fillers
/// that render as blanks. None of them belongs in a name.
pub fn is_invisible_or_bidi(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x034F
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180E
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0x3164
            | 0xFEFF
            | 0xFFA0
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// A human-facing agent name: trimmed, 1–64 characters, printable, nothing invisible or
/// reordering (see [`is_invisible_or_bidi`]), no path separators, with at least one letter or
/// digit (so its slug is never empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(try_from = "String", into = "String")]
pub struct AgentName(String);

impl AgentName {
    /// Validates and trims `raw`.
    ///
    /// # Errors
    /// [`InvalidAgentName`] says which rule the name breaks.
    pub fn new(raw: &str) -> Result<Self, InvalidAgentName> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(InvalidAgentName::Empty);
        }
        let chars = name.chars().count();
        if chars > MAX_AGENT_NAME_CHARS {
            return Err(InvalidAgentName::TooLong(chars));
        }
        if name.chars().any(char::is_control) {
            return Err(InvalidAgentName::ControlCharacter);
        }
        if let Some(c) = name.chars().find(|&c| is_invisible_or_bidi(c)) {
            return Err(InvalidAgentName::InvisibleCharacter(c));
        }
        if name.contains(['/', '\\']) {
            return Err(InvalidAgentName::PathSeparator);
        }
        if !name.chars().any(char::is_alphanumeric) {
            return Err(InvalidAgentName::NoAlphanumeric);
        }
        Ok(Self(name.to_owned()))
    }

    /// The name as typed (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The file-name slug of this name; see [`slugify`].
    pub fn slug(&self) -> String {
        slugify(&self.0)
    }
}

impl TryFrom<String> for AgentName {
    type Error = InvalidAgentName;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::new(&value)
    }
}

impl From<AgentName> for String {
    fn from(value: AgentName) -> Self {
        value.0
    }
}

impl fmt::Display for AgentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Lowercase `[a-z0-9-]` slug: accented Latin letters lose their accent, every other run of
/// characters becomes one `-`, no leading/trailing `-`. Never contains a path separator or `..`;
/// returns `"agent"` when nothing usable is left.
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = fold_accent(c);
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_matches('-');
    if slug.is_empty() {
        "agent".to_owned()
    } else {
        slug.to_owned()
    }
}

fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// How an agent came to be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum AgentOrigin {
    /// Created empty by the user.
    Scratch,
    /// Created from a built-in persona template.
    Template {
        /// The template's id (`architect`, `reviewer`, …).
        template: String,
    },
}

/// What IdeA does when the agent's provider stops it at a usage limit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum LimitPolicy {
    /// Continue it on the same engine once the limit resets.
    #[default]
    Wait,
    /// Move it to another profile at once, with a handoff; a limit there too falls back to
    /// waiting.
    #[serde(rename_all = "camelCase")]
    FailOver { profile_id: ProfileId },
    /// Leave it to the user.
    Nothing,
}

impl LimitPolicy {
    #[must_use]
    pub fn is_wait(&self) -> bool {
        *self == Self::Wait
    }
}

/// One agent as the manifest records it. The persona lives in the `.md` at `md_path`
/// (relative to `.ideai/`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    pub agent_id: AgentId,
    pub name: AgentName,
    /// Path of the persona file relative to `.ideai/`, always `agents/<slug>.md`.
    pub md_path: String,
    pub profile_id: ProfileId,
    pub origin: AgentOrigin,
    #[serde(default)]
    pub skills: Vec<SkillRef>,
    /// At a usage limit: wait (the default, not written), fail over, or nothing.
    #[serde(default, skip_serializing_if = "LimitPolicy::is_wait")]
    #[cfg_attr(feature = "ts", ts(as = "Option<LimitPolicy>", optional))]
    pub on_limit: LimitPolicy,
    /// Its own git worktree and branch; absent: it works in the project's own tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub worktree: Option<crate::worktree::AgentWorktree>,
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_are_trimmed_and_validated() {
        assert_eq!(AgentName::new("  Ada ").map(|n| n.0), Ok("Ada".into()));
        assert_eq!(AgentName::new("   "), Err(InvalidAgentName::Empty));
        assert_eq!(AgentName::new("a/b"), Err(InvalidAgentName::PathSeparator));
        assert_eq!(
            AgentName::new("a\u{7}b"),
            Err(InvalidAgentName::ControlCharacter)
        );
        assert_eq!(AgentName::new("--"), Err(InvalidAgentName::NoAlphanumeric));
        assert_eq!(
            AgentName::new(&"x".repeat(65)),
            Err(InvalidAgentName::TooLong(65))
        );
        assert!(AgentName::new(&"é".repeat(64)).is_ok());
    }

    #[test]
    fn invisible_and_direction_characters_are_refused() {
        let hidden = [
            '\u{202A}',
            '\u{202B}',
            '\u{202C}',
            '\u{202D}',
            '\u{202E}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{200E}',
            '\u{200F}',
            '\u{061C}',
            '\u{200B}',
            '\u{200C}',
            '\u{200D}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{180E}',
            '\u{2064}',
            '\u{E0041}',
            '\u{3164}',
            '\u{2028}',
        ];
        for c in hidden {
            let err = AgentName::new(&format!("Ad{c}a")).expect_err("refused");
            let code = format!("U+{:04X}", u32::from(c));
            assert!(err.to_string().contains(&code), "{code}: {err}");
            // A leading or trailing one is refused too, unless trimming (whitespace) drops it.
            let edges = [format!("{c}Ada"), format!("Ada{c}")];
            for name in edges.iter().filter(|_| !c.is_whitespace()) {
                assert!(AgentName::new(name).is_err(), "{code}");
            }
        }
        // Look-alike attack: "Ada" then a right-to-left override.
        assert!(AgentName::new("Ada\u{202E}nimda").is_err());
        // Visible non-ASCII names still pass.
        for ok in ["Rédacteur", "日本語", "Ωmega 2", "Zoë-Ünal", "🤖 Bot"] {
            assert!(AgentName::new(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slugify("Ada Lovelace"), "ada-lovelace");
        assert_eq!(slugify("Rédacteur  Technique!"), "redacteur-technique");
        assert_eq!(slugify("../../etc/passwd"), "etc-passwd");
        assert_eq!(slugify("日本"), "agent");
    }

    #[test]
    fn name_deserialization_validates() {
        assert!(serde_json::from_str::<AgentName>("\"ok\"").is_ok());
        assert!(serde_json::from_str::<AgentName>("\"a/b\"").is_err());
    }

    proptest! {
        #[test]
        fn slug_is_always_a_safe_file_stem(text in ".*") {
            let slug = slugify(&text);
            prop_assert!(!slug.is_empty());
            prop_assert!(slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            prop_assert!(!slug.contains(".."));
            prop_assert!(!slug.starts_with('-') && !slug.ends_with('-'));
        }
    }
}
