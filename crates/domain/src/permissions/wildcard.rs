//! `*` wildcards, the one pattern language of command, domain and text rules: `*` stands for
//! any run of characters (spaces and slashes included); every other character is literal.

/// A pattern whose `*` match any run of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wildcard {
    /// The literal pieces between the stars, in order (empty ones where a star leads, trails
    /// or repeats).
    pieces: Vec<String>,
}

impl Wildcard {
    pub fn new(pattern: &str) -> Self {
        Self {
            pieces: pattern.split('*').map(str::to_owned).collect(),
        }
    }

    /// Whether `text` matches as a whole. Each inner piece is taken at its first occurrence:
    /// when a star matches anything, that never misses a match, so no backtracking is needed.
    pub fn matches(&self, text: &str) -> bool {
        let (first, rest) = match self.pieces.split_first() {
            Some(split) => split,
            None => return text.is_empty(),
        };
        if rest.is_empty() {
            return text == first;
        }
        let Some(mut tail) = text.strip_prefix(first.as_str()) else {
            return false;
        };
        let (last, middle) = match rest.split_last() {
            Some(split) => split,
            None => return false,
        };
        for piece in middle {
            match tail.find(piece.as_str()) {
                Some(at) => tail = &tail[at + piece.len()..],
                None => return false,
            }
        }
        tail.ends_with(last.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Wildcard;

    #[test]
    fn stars_match_any_run() {
        let cases = [
            ("git status", "git status", true),
            ("git status", "git status -s", false),
            ("git *", "git push", true),
            ("git *", "gitx", false),
            ("*", "", true),
            ("*", "anything at all", true),
            ("npm run test:*", "npm run test:unit", true),
            ("npm run test:*", "npm run lint", false),
            ("*.example.org", "a.b.example.org", true),
            ("*.example.org", "example.org", false),
            ("a*b*c", "abc", true),
            ("a*b*c", "a-b-b-c", true),
            ("a*b*c", "acb", false),
            ("ab*ba", "aba", false),
            ("**", "x", true),
            ("", "", true),
            ("", "x", false),
        ];
        for (pattern, text, expected) in cases {
            assert_eq!(
                Wildcard::new(pattern).matches(text),
                expected,
                "{pattern:?} on {text:?}"
            );
        }
    }
}
