//! One output stream of a tool, kept up to a number of characters.

/// What is kept of one stream: at most `cap` characters once decoded (lossily) as UTF-8.
///
/// A character takes at most four bytes, and lossy decoding turns every invalid sequence of
/// up to three bytes into one replacement character, so `4 × cap` bytes always hold the first
/// `cap` characters: the bytes past them are dropped as they arrive (the reader keeps
/// reading, the child never blocks on a full pipe).
#[derive(Debug)]
pub(super) struct Capture {
    cap: usize,
    limit: usize,
    bytes: Vec<u8>,
    dropped: bool,
}

impl Capture {
    pub(super) fn new(cap: usize) -> Self {
        Self {
            cap,
            limit: cap.saturating_mul(4),
            bytes: Vec::new(),
            dropped: false,
        }
    }

    /// Keeps what fits of `chunk`.
    pub(super) fn push(&mut self, chunk: &[u8]) {
        let room = self.limit.saturating_sub(self.bytes.len());
        let kept = room.min(chunk.len());
        self.bytes.extend_from_slice(&chunk[..kept]);
        if kept < chunk.len() {
            self.dropped = true;
        }
    }

    /// The text kept (at most `cap` characters, cut at a character boundary) and whether
    /// anything was left out.
    pub(super) fn text(&self) -> (String, bool) {
        let text = String::from_utf8_lossy(&self.bytes);
        match text.char_indices().nth(self.cap) {
            Some((end, _)) => (text[..end].to_owned(), true),
            None => (text.into_owned(), self.dropped),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Capture;

    fn captured(cap: usize, chunks: &[&[u8]]) -> (String, bool) {
        let mut capture = Capture::new(cap);
        for chunk in chunks {
            capture.push(chunk);
        }
        capture.text()
    }

    #[test]
    fn short_output_is_kept_whole() {
        assert_eq!(captured(10, &[b"ab", b"c"]), ("abc".into(), false));
        assert_eq!(captured(3, &[b"abc"]), ("abc".into(), false));
        assert_eq!(captured(3, &[]), (String::new(), false));
    }

    #[test]
    fn counts_characters_not_bytes() {
        let text = "héllo wörld €𝄞";
        let (kept, truncated) = captured(13, &[text.as_bytes()]);
        assert_eq!((kept.as_str(), truncated), ("héllo wörld €", true));
        assert_eq!(captured(14, &[text.as_bytes()]), (text.into(), false));
        // Four-byte characters only: the byte limit still holds `cap` of them.
        let clefs = "𝄞".repeat(5);
        assert_eq!(captured(3, &[clefs.as_bytes()]), ("𝄞𝄞𝄞".into(), true));
    }

    #[test]
    fn a_character_split_between_chunks_is_whole() {
        let bytes = "é".as_bytes();
        assert_eq!(
            captured(1, &[&bytes[..1], &bytes[1..]]),
            ("é".into(), false)
        );
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(captured(10, &[b"\xffok"]), ("\u{fffd}ok".into(), false));
        assert_eq!(
            captured(2, &[b"\xff\xfeok"]),
            ("\u{fffd}\u{fffd}".into(), true)
        );
    }

    #[test]
    fn the_rest_is_dropped_and_flagged() {
        let mut capture = Capture::new(2);
        for _ in 0..1000 {
            capture.push(&[b'x'; 4096]);
        }
        assert!(capture.bytes.len() <= 8);
        assert_eq!(capture.text(), ("xx".into(), true));
        assert_eq!(captured(0, &[b"x"]), (String::new(), true));
        assert_eq!(captured(0, &[]), (String::new(), false));
    }
}
