//! Screens: only the last block above the input box counts, a wrapped sentence is joined,
//! a message quoted in prose or typed by the user is not a limit, and a watched screen
//! reports a limit once however it is redrawn or split across output batches.

use super::*;

const CLAUDE_INPUT: &str = "\n────────────────────────────────────────\n❯ \n────────────────────────────────────────\n  ⏸ manual mode on · ? for shortcuts";

fn claude(body: &str) -> Vec<String> {
    rows(&format!(
        " ▐▛███▛█   Claude Code v2.1.332\n\n❯ keep going\n\n{body}\n{CLAUDE_INPUT}"
    ))
}

const HIT: &str = "  ⎿  You've hit your 5-hour limit · resets 3:53am (Asia/Shanghai)\n     /upgrade to increase your usage limit.";

fn hit_5_hour() -> LimitSighting {
    LimitSighting {
        reset: SightedReset::Text("3:53am (Asia/Shanghai)".into()),
        window: Some("5-hour".into()),
        source: LimitSource::Screen,
        message: "You've hit your 5-hour limit · resets 3:53am (Asia/Shanghai) /upgrade to increase your usage limit.".into(),
    }
}

#[test]
fn claude_s_limit_block_with_its_auto_continue_notice() {
    let screen = claude(&format!(
        "{HIT}\n● Usage limit reached · set to continue automatically at 3:53am"
    ));
    assert_eq!(
        recognise_screen(Vendor::ClaudeCode, &screen),
        Some(hit_5_hour())
    );
    // Before the notice is drawn, the sentence alone.
    assert_eq!(
        recognise_screen(Vendor::ClaudeCode, &claude(HIT)),
        Some(hit_5_hour())
    );
    // The notice alone (the sentence scrolled away): its time, in the machine's zone.
    let notice = claude("● Usage limit reached · set to continue automatically at 3:53am");
    let seen = recognise_screen(Vendor::ClaudeCode, &notice).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("3:53am".into()));
    // The status line while it waits to continue.
    let waiting = claude(
        "  ⚠ Usage limit reached · limit resets 3:53am\n    Continuing automatically at 3:53am · Esc to cancel",
    );
    let seen = recognise_screen(Vendor::ClaudeCode, &waiting).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("3:53am".into()));
}

const DIALOG: &str = "────────────────────────────────────────\n What do you want to do?\n\n ❯ 1. Stop and wait for limit to reset\n   2. Wait here, then continue automatically at 3:53am\n   3. Upgrade your plan\n\n Enter to confirm · Esc to cancel";

#[test]
fn claude_s_dialog_when_auto_continue_is_off() {
    let with_sentence = rows(&format!("❯ keep going\n\n{HIT}\n\n{DIALOG}"));
    assert_eq!(
        recognise_screen(Vendor::ClaudeCode, &with_sentence),
        Some(hit_5_hour())
    );
    let alone = rows(&format!("❯ keep going\n\n{DIALOG}"));
    let seen = recognise_screen(Vendor::ClaudeCode, &alone).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("3:53am".into()));
    // A reply quoting the dialog has no selected choice.
    let quoted = claude(
        "● The dialog reads:\n  What do you want to do?\n  1. Stop and wait for limit to reset\n  2. Wait here, then continue automatically at 3:53am",
    );
    assert_eq!(recognise_screen(Vendor::ClaudeCode, &quoted), None);
}

#[test]
fn a_limit_quoted_in_prose_or_typed_by_the_user_is_none() {
    let quoted = claude(
        "● When the plan window is used up the CLI prints \"You've hit your 5-hour limit · resets 7:52pm (UTC)\".",
    );
    assert_eq!(recognise_screen(Vendor::ClaudeCode, &quoted), None);
    let typed = claude(
        "❯ what does You've hit your 5-hour limit · resets 7:52pm (UTC) mean?\n\n✻ Thinking…",
    );
    assert_eq!(recognise_screen(Vendor::ClaudeCode, &typed), None);
    let codex_reply = rows(
        "› what does it say?\n\n• Codex then reports \"You’ve hit your usage limit. Try again later.\"\n\n› Ask Codex to do anything\n\n  GPT-5.5 default · /rig/project",
    );
    assert_eq!(recognise_screen(Vendor::Codex, &codex_reply), None);
    let codex_typed =
        rows("› You’ve hit your usage limit. Try again later.\n\n› Ask Codex to do anything");
    assert_eq!(recognise_screen(Vendor::Codex, &codex_typed), None);
    let gemini = rows(
        "✦ The quota error reads: You have exhausted your daily quota on this model.\n\n▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄\n >   Type your message\n▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
    );
    assert_eq!(recognise_screen(Vendor::Gemini, &gemini), None);
}

#[test]
fn only_the_last_block_counts() {
    // The agent went on after the limit (it lifted): the old message is history.
    let later = claude(&format!("{HIT}\n\n❯ continue\n\n● Done: the tests pass."));
    assert_eq!(recognise_screen(Vendor::ClaudeCode, &later), None);
    let codex = rows(
        "■ You’ve hit your usage limit. Try again later.\n\n› continue\n\n• Continuing with the refactor.\n\n› Ask Codex to do anything",
    );
    assert_eq!(recognise_screen(Vendor::Codex, &codex), None);
}

#[test]
fn codex_s_sentence_wrapped_at_the_terminal_width_is_joined() {
    let screen = rows(
        "› keep going\n\n■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit\n  https://chatgpt.com/settings/usage to purchase more credits or try again at 7:50\n  PM.\n\n› Ask Codex to do anything\n\n  GPT-5.5 default · /rig/project\n  ← for agents · ? for shortcuts",
    );
    let seen = recognise_screen(Vendor::Codex, &screen).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("7:50 PM".into()));
    assert!(
        seen.message
            .starts_with("You've hit your usage limit. Upgrade to Pro")
    );
}

#[test]
fn gemini_s_quota_error() {
    let screen = rows(
        "✕ [API Error: You have exhausted your daily quota on this model.]\n\n                    ? for shortcuts\n────────────────────\n Shift+Tab to accept edits\n▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄\n >   Type your message\n▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\n workspace (/directory)",
    );
    let seen = recognise_screen(Vendor::Gemini, &screen).unwrap();
    assert_eq!(seen.reset, SightedReset::Unknown);
    assert_eq!(seen.window.as_deref(), Some("daily"));
}

#[test]
fn a_redrawn_message_is_one_limit() {
    let once = claude(HIT);
    let twice = claude(&format!("{HIT}\n\n{HIT}"));
    assert_eq!(
        recognise_screen(Vendor::ClaudeCode, &twice),
        recognise_screen(Vendor::ClaudeCode, &once)
    );
    let mut watch = ScreenLimitWatch::new(Vendor::ClaudeCode);
    assert_eq!(watch.observe(&once), Some(hit_5_hour()));
    assert_eq!(watch.observe(&twice), None, "redrawn");
    assert_eq!(watch.observe(&once), None, "still shown");
    assert_eq!(watch.observe(&claude("● Done.")), None);
    assert!(
        watch.observe(&once).is_some(),
        "a new limit after it went away"
    );
}

#[test]
fn a_message_split_across_output_batches_is_read_once_whole() {
    let mut watch = ScreenLimitWatch::new(Vendor::Codex);
    let composer = "\n\n› Ask Codex to do anything";
    let first = rows(&format!(
        "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 7:4{composer}"
    ));
    let whole = rows(&format!(
        "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 7:49 PM.{composer}"
    ));
    assert_eq!(watch.observe(&first), None, "cut inside the time");
    let seen = watch.observe(&whole).unwrap();
    assert_eq!(seen.reset, SightedReset::Text("7:49 PM".into()));
    assert_eq!(watch.observe(&whole), None);

    for cut in [
        "  ⎿  You've hit your 5-hour limit · rese",
        "  ⎿  You've hit your 5-hour limit · resets 3:5",
        "  ⎿  You've hit your 5-hour limit · resets 3:53am (Asia/Sha",
        "  ⎿  You've hit your weekly limit · resets Dec",
        "● Usage limit reached · set to continue automatically at 3",
    ] {
        assert_eq!(
            recognise_screen(Vendor::ClaudeCode, &claude(cut)),
            None,
            "{cut}"
        );
    }
    let codex_cut = rows(&format!(
        "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit{composer}"
    ));
    assert_eq!(recognise_screen(Vendor::Codex, &codex_cut), None);
}

#[test]
fn the_pinned_clis_screens_without_a_limit_are_none() {
    let screens = [
        (
            Vendor::ClaudeCode,
            include_str!("../../agent_state/fixtures/claude-2.1.332-answered.txt"),
        ),
        (
            Vendor::ClaudeCode,
            include_str!("../../agent_state/fixtures/claude-2.1.332-quoted-prompt.txt"),
        ),
        (
            Vendor::ClaudeCode,
            include_str!("../../agent_state/fixtures/claude-2.1.332-shell-permission.txt"),
        ),
        (
            Vendor::Codex,
            include_str!("../../agent_state/fixtures/codex-0.171.0-answered.txt"),
        ),
        (
            Vendor::Codex,
            include_str!("../../agent_state/fixtures/codex-0.171.0-shell-permission.txt"),
        ),
        (
            Vendor::Gemini,
            include_str!("../../agent_state/fixtures/gemini-0.61.0-answered.txt"),
        ),
        (
            Vendor::Gemini,
            include_str!("../../agent_state/fixtures/gemini-0.61.0-shell-permission.txt"),
        ),
    ];
    for (vendor, screen) in screens {
        assert_eq!(recognise_screen(vendor, &rows(screen)), None, "{screen}");
    }
}

#[test]
fn the_pinned_clis_screens_with_a_limit_as_their_last_block() {
    // The limit drawn as the last block of a real session's screen.
    let swap = |screen: &str, after: &str, limit: &str| {
        assert!(screen.contains(after), "{after}");
        screen.replacen(after, &format!("{after}\n\n{limit}"), 1)
    };
    let claude_screen = swap(
        include_str!("../../agent_state/fixtures/claude-2.1.332-answered.txt"),
        "● FAKE-MODEL-TOOL-DONE: (Bash completed with no output)",
        HIT,
    );
    assert_eq!(
        recognise_screen(Vendor::ClaudeCode, &rows(&claude_screen)),
        Some(hit_5_hour()),
        "{claude_screen}"
    );
    let codex_screen = swap(
        include_str!("../../agent_state/fixtures/codex-0.171.0-answered.txt"),
        "  Worked for 10s • 00:23",
        "■ You’ve hit your usage limit. Try again later.",
    );
    let seen = recognise_screen(Vendor::Codex, &rows(&codex_screen));
    assert_eq!(
        seen.map(|s| s.reset),
        Some(SightedReset::Unknown),
        "{codex_screen}"
    );
}
