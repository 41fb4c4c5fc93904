//! The words a CLI gives for a reset time, read into parts: Claude's `3:53am`, `5pm
//! (Europe/Warsaw)`, `Dec 3, 3:52am (Asia/Shanghai)`, `Jan 2, 2027, 3am (UTC)`; Codex's `7:49
//! PM`, `Dec 2nd, 2026 7:50 PM`; a short zone name after the time (`3:45 PM PST`); Gemini's
//! relative `after 2h52m39s`. One grammar for the recognisers (to cut the words out of a
//! message, and to tell words still arriving from words of an unknown shape) and for
//! `resolve` (to put them on the clock).

/// A reset time in words, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResetWords {
    /// A wall-clock time, maybe dated, in a zone.
    Clock {
        date: Option<MonthDay>,
        hour: i8,
        minute: i8,
        zone: ZoneWords,
    },
    /// So many seconds from when the message was seen.
    After { secs: u64 },
}

/// `Dec 3` or `Dec 2nd, 2026`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MonthDay {
    pub(crate) month: i8,
    pub(crate) day: i8,
    pub(crate) year: Option<i16>,
}

/// The zone a time is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ZoneWords {
    /// None given: the machine's local time.
    Local,
    /// An IANA name in parentheses: `(Asia/Shanghai)`, `(UTC)`.
    Iana(String),
    /// A short name after the time: `PST`, `CEST`, `GMT+8`.
    Short(String),
}

/// What reading words came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The words, and how many bytes of the input they took.
    Read(ResetWords, usize),
    /// The input ended inside what could still become a reset time (a message cut between
    /// two output batches): wait for the rest.
    Truncated,
    /// Not a reset time this grammar knows.
    Unreadable,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Reads the reset words that open `text`.
pub(crate) fn read_reset_words(text: &str) -> Reading {
    let mut cursor = Cursor { text, at: 0 };
    let words = if cursor.eat_word("after ") {
        cursor.duration().map(|secs| ResetWords::After { secs })
    } else {
        cursor.clock()
    };
    match words {
        Some(words) => Reading::Read(words, cursor.at),
        None if cursor.at >= text.trim_end().len() => Reading::Truncated,
        None => Reading::Unreadable,
    }
}

/// A position in the input. On a failed read `at` is where it stopped, so a read that ran
/// out of input tells a message cut short from one of another shape.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or_default()
    }

    /// Consumes `word` (lower case) when the input starts with it, ignoring ASCII case.
    fn eat_word(&mut self, word: &str) -> bool {
        let rest = self.rest();
        let found = rest
            .get(..word.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(word));
        if found {
            self.at += word.len();
        } else {
            // Stop at the end when the input is a prefix of the word: it may still come.
            let prefix = word
                .get(..rest.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(rest));
            if prefix {
                self.at = self.text.len();
            }
        }
        found
    }

    fn eat_char(&mut self, c: char) -> bool {
        if self.rest().starts_with(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Up to `max` ASCII digits.
    fn number(&mut self, max: usize) -> Option<u64> {
        let digits = self
            .rest()
            .bytes()
            .take(max)
            .take_while(u8::is_ascii_digit)
            .count();
        let value = self.rest().get(..digits)?.parse().ok()?;
        self.at += digits;
        Some(value)
    }

    /// `2h52m39s`, `45m`, `9015.5s` (fractions dropped).
    fn duration(&mut self) -> Option<u64> {
        let mut secs: u64 = 0;
        let mut any = false;
        for (unit, scale) in [('h', 3600), ('m', 60), ('s', 1)] {
            let start = self.at;
            let Some(n) = self.number(9) else { continue };
            if self.eat_char('.') {
                self.number(9);
            }
            if self.eat_char(unit) {
                secs = secs.saturating_add(n.saturating_mul(scale));
                any = true;
            } else {
                self.at = start;
            }
        }
        any.then_some(secs)
    }

    fn clock(&mut self) -> Option<ResetWords> {
        let date = self.date()?;
        let (hour, minute) = self.time()?;
        let zone = self.zone()?;
        Some(ResetWords::Clock {
            date,
            hour,
            minute,
            zone,
        })
    }

    /// An optional `Mon D[st|nd|rd|th], [YYYY[,] ]`; `None` when one starts and breaks off.
    fn date(&mut self) -> Option<Option<MonthDay>> {
        let start = self.at;
        let Some(month) = MONTHS.iter().position(|m| self.eat_word(m)) else {
            return (self.at == start).then_some(None);
        };
        // "December" as well as "Dec".
        while self.rest().starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        self.eat_char('.');
        if !self.eat_char(' ') {
            return None;
        }
        let day = self.number(2).filter(|d| (1..=31).contains(d))?;
        for ordinal in ["st", "nd", "rd", "th"] {
            if self.eat_word(ordinal) {
                break;
            }
        }
        self.eat_char(',');
        if !self.eat_char(' ') {
            return None;
        }
        let year = self.year();
        Some(Some(MonthDay {
            month: i8::try_from(month + 1).ok()?,
            day: i8::try_from(day).ok()?,
            year,
        }))
    }

    /// `2026 ` or `2026, ` before the time.
    fn year(&mut self) -> Option<i16> {
        let start = self.at;
        let year = self
            .number(4)
            .filter(|_| self.at - start == 4)
            .and_then(|y| i16::try_from(y).ok());
        let year = year.filter(|_| {
            self.eat_char(',');
            self.eat_char(' ')
        });
        if year.is_none() {
            self.at = start;
        }
        year
    }

    /// `3:53am`, `5pm`, `7:49 PM`: 24-hour parts.
    fn time(&mut self) -> Option<(i8, i8)> {
        let hour = self.number(2).filter(|h| (1..=12).contains(h))?;
        let minute = if self.eat_char(':') {
            self.number(2).filter(|m| *m < 60)?
        } else {
            0
        };
        self.eat_char(' ');
        let pm = if self.eat_word("pm") {
            true
        } else if self.eat_word("am") {
            false
        } else {
            return None;
        };
        let hour = (hour % 12) + if pm { 12 } else { 0 };
        Some((i8::try_from(hour).ok()?, i8::try_from(minute).ok()?))
    }

    /// ` (Zone/Name)` or ` ABC` after the time; none is local time.
    fn zone(&mut self) -> Option<ZoneWords> {
        let start = self.at;
        if self.eat_word(" (") {
            let rest = self.rest();
            let Some(end) = rest.find(')') else {
                self.at = self.text.len();
                return None;
            };
            let name = rest.get(..end)?.trim();
            let iana = !name.is_empty()
                && name.len() <= 64
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/_-+".contains(c));
            if !iana {
                self.at = start;
                return Some(ZoneWords::Local);
            }
            self.at += end + 1;
            return Some(ZoneWords::Iana(name.to_owned()));
        }
        self.at = start;
        if self.eat_char(' ') {
            let letters = self
                .rest()
                .bytes()
                .take_while(u8::is_ascii_uppercase)
                .count();
            // `GMT+8`, `GMT-5:30`: how en-US names a zone it has no abbreviation for.
            let offset = self
                .rest()
                .get(letters..)
                .filter(|r| r.starts_with(['+', '-']))
                .map_or(0, |r| {
                    1 + r[1..]
                        .bytes()
                        .take_while(|b| b.is_ascii_digit() || *b == b':')
                        .count()
                });
            let len = letters + offset;
            let after = self.rest().as_bytes().get(len);
            if (2..=5).contains(&letters) && after.is_none_or(|b| !b.is_ascii_alphanumeric()) {
                let name = self.rest().get(..len)?.to_owned();
                self.at += len;
                return Some(ZoneWords::Short(name));
            }
        }
        self.at = start;
        Some(ZoneWords::Local)
    }
}
