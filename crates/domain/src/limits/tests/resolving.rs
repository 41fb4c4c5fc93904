//! Putting sightings on the clock, with explicit `now` and zones.

use super::*;
use jiff::Timestamp;
use jiff::tz::{TimeZone, TimeZoneDatabase};

const MARGIN: u64 = RESET_MARGIN_SECS;

/// Unix seconds of an RFC 3339 time.
fn at(time: &str) -> u64 {
    u64::try_from(time.parse::<Timestamp>().unwrap().as_second()).unwrap()
}

fn zone(name: &str) -> TimeZone {
    TimeZoneDatabase::bundled().get(name).unwrap()
}

fn words(text: &str) -> LimitSighting {
    LimitSighting {
        reset: SightedReset::Text(text.into()),
        window: Some("5-hour".into()),
        source: LimitSource::Screen,
        message: format!("You've hit your 5-hour limit · resets {text}"),
    }
}

/// The reset `text` comes to, seen at `now` on a machine in `local`.
fn reset_of(text: &str, now: &str, local: &str) -> LimitReset {
    resolve(words(text), at(now), &zone(local)).reset
}

fn reset_at(time: &str) -> LimitReset {
    LimitReset::At {
        epoch: at(time) + MARGIN,
    }
}

#[test]
fn an_epoch_is_taken_as_given_plus_the_margin() {
    let sighting = |epoch| LimitSighting {
        reset: SightedReset::Epoch(epoch),
        window: None,
        source: LimitSource::Event,
        message: "m".into(),
    };
    let now = 1_796_150_000;
    let limit = resolve(sighting(1_796_154_740), now, &TimeZone::UTC);
    assert_eq!(
        limit.reset,
        LimitReset::At {
            epoch: 1_796_154_740 + MARGIN
        }
    );
    assert_eq!(
        (limit.message.as_str(), limit.source),
        ("m", LimitSource::Event)
    );
    assert_eq!(
        resolve(sighting(now - 3600), now, &TimeZone::UTC).reset,
        LimitReset::Unknown,
        "past"
    );
    assert_eq!(
        resolve(sighting(now + 9 * 86_400), now, &TimeZone::UTC).reset,
        LimitReset::Unknown,
        "absurdly far"
    );
    assert_eq!(
        resolve(sighting(u64::MAX), now, &TimeZone::UTC).reset,
        LimitReset::Unknown
    );
}

#[test]
fn claude_s_time_in_its_named_zone() {
    assert_eq!(
        reset_of("7:52pm (UTC)", "2026-12-01T18:00:00Z", "Europe/Berlin"),
        reset_at("2026-12-01T19:52:00Z")
    );
    assert_eq!(
        reset_of("5pm (Europe/Warsaw)", "2026-12-01T10:00:00Z", "UTC"),
        reset_at("2026-12-01T16:00:00Z")
    );
    assert_eq!(
        reset_of(
            "12:50am (America/Los_Angeles)",
            "2026-12-01T20:00:00-08:00",
            "UTC"
        ),
        reset_at("2026-12-02T00:50:00-08:00")
    );
    assert_eq!(
        reset_of("3:53am (Asia/Shanghai)", "2026-12-02T02:53:00+08:00", "UTC"),
        reset_at("2026-12-02T03:53:00+08:00")
    );
}

#[test]
fn a_time_already_past_is_tomorrow_s_unless_its_minute_is_still_running() {
    assert_eq!(
        reset_of("3:53am (Asia/Shanghai)", "2026-12-02T04:10:00+08:00", "UTC"),
        reset_at("2026-12-03T03:53:00+08:00")
    );
    assert_eq!(
        reset_of("3:53am (Asia/Shanghai)", "2026-12-02T03:53:30+08:00", "UTC"),
        reset_at("2026-12-02T03:53:00+08:00"),
        "shown to the minute"
    );
}

#[test]
fn a_time_without_a_zone_is_the_machine_s() {
    // Codex, and Claude's notice.
    assert_eq!(
        reset_of("7:49 PM", "2026-12-01T13:49:00-05:00", "America/New_York"),
        reset_at("2026-12-01T19:49:00-05:00")
    );
    assert_eq!(
        reset_of("3:53am", "2026-12-01T20:00:00+08:00", "Asia/Shanghai"),
        reset_at("2026-12-02T03:53:00+08:00")
    );
    assert_eq!(
        reset_of("12pm", "2026-12-01T09:00:00+01:00", "Europe/Paris"),
        reset_at("2026-12-01T12:00:00+01:00")
    );
}

#[test]
fn dated_times() {
    assert_eq!(
        reset_of(
            "Dec 3, 3:52am (Asia/Shanghai)",
            "2026-12-01T12:00:00Z",
            "UTC"
        ),
        reset_at("2026-12-03T03:52:00+08:00")
    );
    assert_eq!(
        reset_of(
            "Dec 2nd, 2026 7:50 PM",
            "2026-12-01T12:00:00-05:00",
            "America/New_York"
        ),
        reset_at("2026-12-02T19:50:00-05:00")
    );
    assert_eq!(
        reset_of("Jan 2, 3am (UTC)", "2026-12-30T12:00:00Z", "UTC"),
        reset_at("2027-01-02T03:00:00Z"),
        "no year, this year's long past: next year's"
    );
    assert_eq!(
        reset_of("Jan 2, 2027, 3am (UTC)", "2026-12-30T12:00:00Z", "UTC"),
        reset_at("2027-01-02T03:00:00Z")
    );
    // In the past, or absurdly far.
    assert_eq!(
        reset_of(
            "Dec 3, 3:52am (Asia/Shanghai)",
            "2026-12-04T00:00:00Z",
            "UTC"
        ),
        LimitReset::Unknown
    );
    assert_eq!(
        reset_of("Dec 2nd, 2025 7:50 PM", "2026-12-01T12:00:00Z", "UTC"),
        LimitReset::Unknown
    );
    assert_eq!(
        reset_of("Dec 25, 2026 7:50 PM", "2026-12-01T12:00:00Z", "UTC"),
        LimitReset::Unknown
    );
    assert_eq!(
        reset_of("Feb 30, 3am (UTC)", "2026-02-01T12:00:00Z", "UTC"),
        LimitReset::Unknown
    );
}

#[test]
fn short_zone_names_and_relative_resets() {
    assert_eq!(
        reset_of("3:45 PM PST", "2026-12-01T12:00:00-08:00", "UTC"),
        reset_at("2026-12-01T15:45:00-08:00")
    );
    assert_eq!(
        reset_of("3:45 PM GMT+8", "2026-12-01T12:00:00+08:00", "UTC"),
        reset_at("2026-12-01T15:45:00+08:00")
    );
    assert_eq!(
        reset_of("3:45 PM GMT-5:30", "2026-12-01T12:00:00-05:30", "UTC"),
        reset_at("2026-12-01T15:45:00-05:30")
    );
    assert_eq!(
        reset_of("after 2h52m39s", "2026-12-01T12:00:00Z", "UTC"),
        reset_at("2026-12-01T14:52:39Z")
    );
}

#[test]
fn what_cannot_be_put_on_the_clock_is_unknown() {
    let now = "2026-12-01T12:00:00Z";
    assert_eq!(
        reset_of("3pm (Mars/Olympus_Mons)", now, "UTC"),
        LimitReset::Unknown
    );
    assert_eq!(
        reset_of("3:45 PM IST", now, "UTC"),
        LimitReset::Unknown,
        "several zones"
    );
    assert_eq!(reset_of("soon", now, "UTC"), LimitReset::Unknown);
    assert_eq!(reset_of("", now, "UTC"), LimitReset::Unknown);
    let kept = resolve(words("soon"), at(now), &TimeZone::UTC);
    assert_eq!(kept.message, "You've hit your 5-hour limit · resets soon");
    assert_eq!(kept.window.as_deref(), Some("5-hour"));
    for reset in [SightedReset::Unknown, SightedReset::NeedsUser] {
        let sighting = LimitSighting {
            reset: reset.clone(),
            ..words("x")
        };
        let expected = if reset == SightedReset::Unknown {
            LimitReset::Unknown
        } else {
            LimitReset::NeedsUser
        };
        assert_eq!(resolve(sighting, at(now), &TimeZone::UTC).reset, expected);
    }
}

#[test]
fn a_wall_time_skipped_by_daylight_saving_still_resolves() {
    // 2:30am does not exist in New York on 8 March 2026: the later reading is taken.
    let reset = reset_of(
        "2:30am (America/New_York)",
        "2026-03-08T01:00:00-05:00",
        "UTC",
    );
    assert_eq!(reset, reset_at("2026-03-08T03:30:00-04:00"));
}

#[test]
fn every_reset_in_words_of_the_table_goes_on_the_clock() {
    let now = at("2026-12-01T12:00:00Z");
    let table = include_str!("../fixtures/messages.tsv");
    let mut read = 0;
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (text, blocks) = (cols[2], cols[3] == "yes");
        let vendor = match cols[0] {
            "claude" => Vendor::ClaudeCode,
            "codex" => Vendor::Codex,
            _ => Vendor::Gemini,
        };
        let Some(sighting) =
            recognise_message(vendor, &text.replace("\\n", "\n"), LimitSource::Event)
        else {
            continue;
        };
        if blocks && matches!(sighting.reset, SightedReset::Text(_)) {
            let limit = resolve(sighting.clone(), now, &zone("Europe/Berlin"));
            assert!(
                matches!(limit.reset, LimitReset::At { .. }),
                "{text}: {limit:?}"
            );
            read += 1;
        }
    }
    assert!(read >= 10, "{read}");
}
