//! Every row of `fixtures/messages.tsv` (real messages of the pinned CLIs and of users'
//! reports, with what they must come to) through the recogniser of its kind.

use super::*;

const TABLE: &str = include_str!("../fixtures/messages.tsv");

struct Row<'a> {
    vendor: Vendor,
    kind: &'a str,
    text: String,
    blocks: bool,
    reset: &'a str,
}

fn table() -> Vec<Row<'static>> {
    TABLE
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 5, "a row has 5 columns: {line}");
            let vendor = match cols[0] {
                "claude" => Vendor::ClaudeCode,
                "codex" => Vendor::Codex,
                "gemini" => Vendor::Gemini,
                other => panic!("unknown cli {other}"),
            };
            Row {
                vendor,
                kind: cols[1],
                // A JSON line keeps its own `\n` escapes.
                text: if cols[2].starts_with('{') {
                    cols[2].to_owned()
                } else {
                    cols[2].replace("\\n", "\n")
                },
                blocks: cols[3] == "yes",
                reset: cols[4],
            }
        })
        .collect()
}

/// A screen of `vendor`'s TUI with `block` as the last thing above its input box.
fn on_screen(vendor: Vendor, block: &str) -> Vec<String> {
    let (head, foot) = match vendor {
        Vendor::ClaudeCode => (
            " ▐▛███▛█   Claude Code v2.1.332\n\n❯ keep going\n\n",
            "\n\n────────────────────────────────────────\n❯ \n────────────────────────────────────────\n  ⏸ manual mode on · ? for shortcuts",
        ),
        Vendor::Codex => (
            "  >_ OpenAI Codex (v0.171.0)\n\n› keep going\n\n",
            "\n\n› Ask Codex to do anything\n\n  GPT-5.5 default · /rig/project\n  ← for agents · ? for shortcuts",
        ),
        Vendor::Gemini => (
            " ▝▜▄     Gemini CLI v0.61.0\n\n",
            "\n\n                                        ? for shortcuts\n────────────────────────────────────────\n Shift+Tab to accept edits        1 GEMINI.md file\n▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄\n >   Type your message or @path/to/file\n▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\n workspace (/directory)       sandbox        /model",
        ),
    };
    rows(&format!("{head}{block}{foot}"))
}

fn recognise(row: &Row<'_>) -> Vec<(&'static str, Option<LimitSighting>)> {
    let text = row.text.as_str();
    let json = text.starts_with('{');
    match row.kind {
        "json" if json => vec![("event", recognise_event(row.vendor, text))],
        "json" => vec![(
            "message",
            recognise_message(row.vendor, text, LimitSource::Event),
        )],
        "transcript" if json => vec![("transcript", recognise_transcript_line(row.vendor, text))],
        "transcript" => vec![(
            "message",
            recognise_message(row.vendor, text, LimitSource::Transcript),
        )],
        "tui" => vec![
            ("screen rows", recognise_screen(row.vendor, &rows(text))),
            (
                "full screen",
                recognise_screen(row.vendor, &on_screen(row.vendor, text)),
            ),
        ],
        other => panic!("unknown kind {other}"),
    }
}

/// Why `seen` is not what the row expects, if it is not.
fn mismatch(row: &Row<'_>, seen: &Option<LimitSighting>) -> Option<String> {
    let Some(seen) = seen else {
        return row.blocks.then(|| "no limit seen".to_owned());
    };
    if !row.blocks {
        return Some(format!("a limit seen: {seen:?}"));
    }
    let ok = match (&seen.reset, row.reset) {
        (SightedReset::Epoch(e), expected) => expected == format!("epoch {e}"),
        (SightedReset::Unknown | SightedReset::NeedsUser, expected) => expected == "none",
        (SightedReset::Text(words), expected) => plain(words) == expected,
    };
    (!ok).then(|| format!("reset {:?}, expected {}", seen.reset, row.reset))
}

#[test]
fn every_row_of_the_table_comes_to_what_it_says() {
    let rows = table();
    let mut failures = Vec::new();
    for row in &rows {
        for (how, seen) in recognise(row) {
            if let Some(why) = mismatch(row, &seen) {
                failures.push(format!(
                    "{:?} {} ({how}) {:?}: {why}",
                    row.vendor, row.kind, row.text
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let positives = rows.iter().filter(|r| r.blocks).count();
    assert!(positives >= 12, "{positives} positives");
    assert!(
        rows.len() - positives >= 15,
        "the near misses are in the table"
    );
}

#[test]
fn every_limit_sentence_of_the_table_is_also_read_as_a_bare_message() {
    for row in table().iter().filter(|r| !r.text.starts_with('{')) {
        let seen = recognise_message(row.vendor, &row.text, LimitSource::Event);
        assert_eq!(seen.is_some(), row.blocks, "{:?}: {seen:?}", row.text);
        if let Some(seen) = seen {
            assert!(
                mismatch(row, &Some(seen.clone())).is_none(),
                "{:?}: {seen:?}",
                row.text
            );
        }
    }
}

#[test]
fn limits_without_a_reset_say_whether_the_user_must_act() {
    let needs_user = [
        (
            Vendor::Codex,
            "Your workspace is out of credits. Ask your workspace owner to refill in order to continue.",
        ),
        (
            Vendor::ClaudeCode,
            "Your org is out of usage · ask your admin",
        ),
        (
            Vendor::ClaudeCode,
            "You've hit your monthly spend limit · raise it in settings",
        ),
    ];
    for (vendor, text) in needs_user {
        let seen = recognise_message(vendor, text, LimitSource::Event).unwrap();
        assert_eq!(seen.reset, SightedReset::NeedsUser, "{text}");
    }
    let later = [
        (Vendor::ClaudeCode, "You've hit your 5-hour limit"),
        (
            Vendor::Codex,
            "You’ve hit your usage limit. Try again later.",
        ),
        (
            Vendor::Gemini,
            "[API Error: You have exhausted your daily quota on this model.]",
        ),
    ];
    for (vendor, text) in later {
        let seen = recognise_message(vendor, text, LimitSource::Event).unwrap();
        assert_eq!(seen.reset, SightedReset::Unknown, "{text}");
    }
}

#[test]
fn the_window_is_named_as_the_cli_names_it() {
    let cases = [
        (
            "You've hit your 5-hour limit · resets 7:52pm (UTC)",
            Some("5-hour"),
        ),
        (
            "You've hit your weekly limit · resets Dec 3, 3:52am (Asia/Shanghai)",
            Some("weekly"),
        ),
        (
            "You've hit your Sonnet limit · resets 4:52am (Asia/Shanghai)",
            Some("Sonnet"),
        ),
        (
            "You've hit your limit · resets 2:52pm (America/New_York)",
            None,
        ),
        ("5-hour limit reached ∙ resets 12pm", Some("5-hour")),
    ];
    for (text, window) in cases {
        let seen = recognise_message(Vendor::ClaudeCode, text, LimitSource::Event).unwrap();
        assert_eq!(seen.window.as_deref(), window, "{text}");
    }
    let gemini = recognise_message(
        Vendor::Gemini,
        "⚡ You have reached your daily gemini-2.5-pro quota limit.",
        LimitSource::Screen,
    )
    .unwrap();
    assert_eq!(gemini.window.as_deref(), Some("daily gemini-2.5-pro"));
}
