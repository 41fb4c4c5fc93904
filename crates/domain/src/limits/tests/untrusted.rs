//! Bad input never panics, and prose without a limit phrase is never a limit.

use super::*;
use jiff::tz::TimeZone;
use proptest::prelude::*;

const VENDORS: [Vendor; 3] = [Vendor::ClaudeCode, Vendor::Codex, Vendor::Gemini];

fn everything(text: &str) {
    for vendor in VENDORS {
        for source in [LimitSource::Event, LimitSource::Screen] {
            if let Some(seen) = recognise_message(vendor, text, source) {
                assert!(seen.message.chars().count() <= MESSAGE_MAX);
                resolve(seen, 1_796_150_000, &TimeZone::UTC);
            }
        }
        recognise_event(vendor, text);
        recognise_transcript_line(vendor, text);
        recognise_screen(vendor, &rows(text));
        limit_at_transcript_end(vendor, text.lines());
    }
    recognise_stop_failure(text);
    resolve(
        LimitSighting {
            reset: SightedReset::Text(text.to_owned()),
            window: None,
            source: LimitSource::Screen,
            message: String::new(),
        },
        1_796_150_000,
        &TimeZone::UTC,
    );
}

/// Words of ordinary prose and of the CLIs' chrome, none a limit phrase on its own.
const WORDS: [&str; 24] = [
    "the", "limit", "reset", "resets", "usage", "hit", "your", "5-hour", "weekly", "at", "3:53am",
    "7:49 PM", "·", "(UTC)", "quota", "daily", "try", "again", "429", "●", "⎿", "■", "\n",
    "reached",
];

proptest! {
    #[test]
    fn random_text_never_panics(text in any::<String>()) {
        everything(&text);
    }

    #[test]
    fn random_near_json_never_panics(text in r#"\{("[a-z_]{1,12}":("[^"]{0,20}"|[0-9]{1,12}|true|null|\{\}),?){0,6}\}"#) {
        everything(&text);
    }

    #[test]
    fn random_reset_words_never_panic(text in "(after |Dec |Jan 2, |[0-9]{1,3}:?[0-9]{0,3} ?[aApP][mM]? ?)(\\(|[A-Z]{2,5}[+-]?[0-9:]{0,5})?[A-Za-z/_]{0,20}\\)?", now in any::<u64>()) {
        let sighting = LimitSighting {
            reset: SightedReset::Text(text),
            window: None,
            source: LimitSource::Screen,
            message: String::new(),
        };
        resolve(sighting, now, &TimeZone::UTC);
    }

    #[test]
    fn prose_without_a_limit_phrase_is_not_a_limit(words in proptest::collection::vec(proptest::sample::select(&WORDS[..]), 0..40)) {
        let text = words.join(" ");
        let phrases = ["hit your", "limit reached", "exhausted", "reached your daily", "out of usage", "out of credits", "spend limit"];
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        prop_assume!(!phrases.iter().any(|p| flat.contains(p)));
        for vendor in VENDORS {
            prop_assert_eq!(recognise_message(vendor, &text, LimitSource::Event), None);
            prop_assert_eq!(recognise_screen(vendor, &rows(&text)), None);
        }
    }
}

#[test]
fn huge_and_broken_input() {
    let huge = format!(
        "You've hit your 5-hour limit · resets 7:52pm (UTC) {}",
        "x".repeat(10_000_000)
    );
    let seen = recognise_message(Vendor::ClaudeCode, &huge, LimitSource::Event).unwrap();
    assert_eq!(seen.message.chars().count(), MESSAGE_MAX);
    let huge_line = format!(
        r#"{{"type":"error","message":"{}"}}"#,
        "y".repeat(LINE_SAMPLE)
    );
    assert_eq!(recognise_event(Vendor::Codex, &huge_line), None);
    let deep = format!("{}{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    everything(&deep);
    everything(
        "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":\"rejected\",\"resetsAt\":-5}}",
    );
    everything(
        "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":\"rejected\",\"resetsAt\":1e308}}",
    );
    everything("\u{0}\u{1b}[31m\u{fffd}\u{202e}You\u{2019}ve hit your usage limit.\r\n");
    let many_rows: Vec<String> = (0..100_000).map(|i| format!("row {i}")).collect();
    assert_eq!(recognise_screen(Vendor::Codex, &many_rows), None);
}

/// Longer than any line the recognisers parse.
const LINE_SAMPLE: usize = 300 * 1024;
