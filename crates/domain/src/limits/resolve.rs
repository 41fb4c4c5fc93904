//! A sighting put on the clock: the reset as Unix seconds plus a margin, or why there is none.
//! Epochs are taken as given; words are read in their zone (an IANA name, a short name, else
//! the machine's local zone) with the rules of `docs/usage-limits.md`. Pure: the caller
//! passes the time and the local zone (tests pass explicit ones).

use super::reset_words::{MonthDay, Reading, ResetWords, ZoneWords, read_reset_words};
use super::{LimitReset, LimitSighting, RESET_MARGIN_SECS, SightedReset, UsageLimit};
use jiff::Timestamp;
use jiff::civil::{Date, Time};
use jiff::tz::{Offset, TimeZone, TimeZoneDatabase};

/// The furthest ahead a reset is believed: Claude's and Codex's longest window is a week; a
/// reset further away is read wrong (or the CLI is), and waiting for it would look stuck.
pub const MAX_RESET_AHEAD_SECS: u64 = 8 * 86_400;

/// A clock time is shown to the minute: until that minute is over it is still today's.
const SAME_MINUTE_SECS: i64 = 60;

/// A dated reset without a year more than this far in the past is next year's (`Jan 2` seen
/// on Dec 30).
const LAST_YEAR_SECS: i64 = 180 * 86_400;

/// `sighting` with its reset on the clock, `now_epoch_secs` being when it was seen and
/// `local` the machine's zone (for times the CLI gave without one).
///
/// A reset in the past, more than [`MAX_RESET_AHEAD_SECS`] ahead, in words not understood
/// or in a zone not known is [`LimitReset::Unknown`]: the caller probes with a back-off. The
/// CLI's message is kept as it was.
pub fn resolve(sighting: LimitSighting, now_epoch_secs: u64, local: &TimeZone) -> UsageLimit {
    let now = i64::try_from(now_epoch_secs).unwrap_or(i64::MAX);
    let reset = match &sighting.reset {
        SightedReset::Epoch(epoch) => on_clock(i64::try_from(*epoch).ok(), now),
        SightedReset::Text(words) => on_clock(reset_second(words, now, local), now),
        SightedReset::Unknown => LimitReset::Unknown,
        SightedReset::NeedsUser => LimitReset::NeedsUser,
    };
    UsageLimit {
        reset,
        window: sighting.window,
        source: sighting.source,
        message: sighting.message,
    }
}

/// `reset` plus the margin, when it is ahead of `now` and not absurdly far.
fn on_clock(reset: Option<i64>, now: i64) -> LimitReset {
    let margin = i64::try_from(RESET_MARGIN_SECS).unwrap_or(0);
    let ahead = i64::try_from(MAX_RESET_AHEAD_SECS).unwrap_or(i64::MAX);
    match reset.map(|r| r.saturating_add(margin)) {
        Some(at) if at > now && at - now <= ahead + margin => {
            u64::try_from(at).map_or(LimitReset::Unknown, |epoch| LimitReset::At { epoch })
        }
        _ => LimitReset::Unknown,
    }
}

/// The Unix second the words name, seen at `now`.
fn reset_second(words: &str, now: i64, local: &TimeZone) -> Option<i64> {
    let Reading::Read(words, _) = read_reset_words(words.trim()) else {
        return None;
    };
    match words {
        ResetWords::After { secs } => now.checked_add(i64::try_from(secs).ok()?),
        ResetWords::Clock {
            date,
            hour,
            minute,
            zone,
        } => {
            let tz = zone_of(&zone, local)?;
            let time = Time::new(hour, minute, 0, 0).ok()?;
            clock_second(date, time, &tz, now)
        }
    }
}

/// A wall-clock time in `tz`: undated, the next one (today's until its minute is over, else
/// tomorrow's); dated, that day (this year's, or next year's if this year's is long past).
fn clock_second(date: Option<MonthDay>, time: Time, tz: &TimeZone, now: i64) -> Option<i64> {
    let today = Timestamp::from_second(now)
        .ok()?
        .to_zoned_datetime(tz.clone());
    let at = |day: Date| -> Option<i64> {
        let zoned = day.to_datetime(time).to_zoned_datetime(tz.clone()).ok()?;
        Some(zoned.timestamp().as_second())
    };
    match date {
        None => {
            let first = at(today.date())?;
            if first + SAME_MINUTE_SECS > now {
                Some(first)
            } else {
                at(today.date().tomorrow().ok()?)
            }
        }
        Some(MonthDay { month, day, year }) => {
            let given = Date::new(year.unwrap_or(today.year()), month, day).ok()?;
            let second = at(given)?;
            if year.is_none() && second < now - LAST_YEAR_SECS {
                at(Date::new(given.year().checked_add(1)?, month, day).ok()?)
            } else {
                Some(second)
            }
        }
    }
}

/// The zone words name: the bundled IANA database (never the machine's files), a short name
/// en-US prints, or the local zone.
fn zone_of(zone: &ZoneWords, local: &TimeZone) -> Option<TimeZone> {
    match zone {
        ZoneWords::Local => Some(local.clone()),
        ZoneWords::Iana(name) => TimeZoneDatabase::bundled().get(name).ok(),
        ZoneWords::Short(name) => short_zone(name),
    }
}

/// en-US short zone names (US ones, and a few others it prints), and `GMT+8` / `UTC-5:30`.
/// A name that means several zones (IST) is not guessed.
fn short_zone(name: &str) -> Option<TimeZone> {
    const HOURS: [(&str, i8); 22] = [
        ("UTC", 0),
        ("GMT", 0),
        ("PST", -8),
        ("PDT", -7),
        ("MST", -7),
        ("MDT", -6),
        ("CST", -6),
        ("CDT", -5),
        ("EST", -5),
        ("EDT", -4),
        ("AKST", -9),
        ("AKDT", -8),
        ("HST", -10),
        ("BST", 1),
        ("CET", 1),
        ("CEST", 2),
        ("EET", 2),
        ("EEST", 3),
        ("JST", 9),
        ("KST", 9),
        ("AEST", 10),
        ("AEDT", 11),
    ];
    if let Some((_, hours)) = HOURS.iter().find(|(n, _)| *n == name) {
        return Some(TimeZone::fixed(Offset::from_hours(*hours).ok()?));
    }
    let (base, offset) = name.split_at(name.find(['+', '-'])?);
    if base != "GMT" && base != "UTC" {
        return None;
    }
    let sign = if offset.starts_with('-') { -1 } else { 1 };
    let (hours, minutes) = offset[1..].split_once(':').unwrap_or((&offset[1..], "0"));
    let hours: i32 = hours.parse().ok().filter(|h| *h <= 14)?;
    let minutes: i32 = minutes.parse().ok().filter(|m| *m < 60)?;
    let seconds = sign * (hours * 3600 + minutes * 60);
    Some(TimeZone::fixed(Offset::from_seconds(seconds).ok()?))
}
