#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::terminal::ExitInfo;
use std::collections::BTreeMap;
use std::path::Path;

fn rows(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

fn detect(detector: ScreenDetector, fixture: &str) -> Option<ScreenFinding> {
    detect_screen(detector, &rows(fixture))
}

/// The live screens of the pinned CLIs (`fixtures/README.md`): each CLI's shell-command
/// prompt, the same screen once answered, and a transcript quoting the prompt's text.
const LIVE: [(ScreenDetector, &str, &str, &str, &str); 3] = [
    (
        ScreenDetector::ClaudeCode,
        include_str!("fixtures/claude-2.1.332-shell-permission.txt"),
        include_str!("fixtures/claude-2.1.332-answered.txt"),
        include_str!("fixtures/claude-2.1.332-quoted-prompt.txt"),
        "Do you want to proceed?",
    ),
    (
        ScreenDetector::Codex,
        include_str!("fixtures/codex-0.171.0-shell-permission.txt"),
        include_str!("fixtures/codex-0.171.0-answered.txt"),
        include_str!("fixtures/codex-0.171.0-quoted-prompt.txt"),
        "Would you like to run the following command?",
    ),
    (
        ScreenDetector::Gemini,
        include_str!("fixtures/gemini-0.61.0-shell-permission.txt"),
        include_str!("fixtures/gemini-0.61.0-answered.txt"),
        include_str!("fixtures/gemini-0.61.0-quoted-prompt.txt"),
        "Allow execution of [Shell]?",
    ),
];

/// Found by the real-CLI suite (`gemini_cli_skill_consent_needs_you`): Gemini's consent before
/// a skill is activated was not read as a prompt, so the cell never showed "needs you".
#[test]
fn geminis_skill_consent_is_a_prompt() {
    assert_eq!(
        detect(
            ScreenDetector::Gemini,
            include_str!("fixtures/gemini-0.61.0-skill-consent.txt")
        ),
        Some(ScreenFinding::NeedsYou(
            "Do you want to proceed?".to_owned()
        ))
    );
}

#[test]
fn each_clis_live_permission_prompt_is_detected() {
    for (detector, prompt, _, _, question) in LIVE {
        assert_eq!(
            detect(detector, prompt),
            Some(ScreenFinding::NeedsYou(question.to_owned())),
            "{detector:?}:\n{prompt}"
        );
    }
}

#[test]
fn the_live_screens_around_a_prompt_are_not_prompts() {
    for (detector, _, answered, quoted, _) in LIVE {
        assert_eq!(
            detect(detector, answered),
            None,
            "{detector:?}:\n{answered}"
        );
        assert_eq!(detect(detector, quoted), None, "{detector:?}:\n{quoted}");
    }
}

#[test]
fn a_live_prompt_cut_or_scrolled_away_is_not_a_prompt() {
    for (detector, prompt, _, _, question) in LIVE {
        let screen = rows(prompt);
        let at = screen
            .iter()
            .position(|r| r.contains(question))
            .expect("the question");
        // Only the question is drawn yet (the options come in a later frame).
        assert_eq!(
            detect_screen(detector, &screen[..=at]),
            None,
            "{detector:?}"
        );
        // The prompt scrolled up, far above the bottom rows, under later output.
        let mut scrolled = screen.clone();
        scrolled.extend((0..20).map(|i| format!("  output line {i}")));
        assert_eq!(detect_screen(detector, &scrolled), None, "{detector:?}");
    }
}

#[test]
fn a_live_prompt_stays_detected_while_the_user_moves_through_its_options() {
    for (detector, prompt, _, _, question) in LIVE {
        // The selection marker moves from the first choice to the second.
        let marker = match detector {
            ScreenDetector::ClaudeCode => '❯',
            ScreenDetector::Codex => '›',
            ScreenDetector::Gemini => '●',
        };
        let mut screen = rows(prompt);
        // Inside the prompt's box border, if it has one.
        let inside = |r: &String| r.trim_start_matches(['│', ' ']).to_owned();
        let first = screen
            .iter()
            .position(|r| inside(r).starts_with(&format!("{marker} 1.")))
            .expect("the selected first choice");
        let second = first
            + screen[first..]
                .iter()
                .position(|r| inside(r).starts_with("2."))
                .expect("a second choice");
        screen[first] = screen[first].replacen(marker, " ", 1);
        screen[second] = screen[second].replacen("  2.", &format!("{marker} 2."), 1);
        assert_eq!(
            detect_screen(detector, &screen),
            Some(ScreenFinding::NeedsYou(question.to_owned())),
            "{detector:?}:\n{}",
            screen.join("\n")
        );
    }
}

#[test]
fn near_misses_are_not_prompts() {
    let cases = [
        // Hand-written: the model quotes the question, options and all.
        (
            ScreenDetector::ClaudeCode,
            include_str!("fixtures/claude-quoted-question.txt"),
        ),
        // Hand-written: the prompt was answered and scrolled up past the detector's depth.
        (
            ScreenDetector::ClaudeCode,
            include_str!("fixtures/claude-answered-scrolled.txt"),
        ),
        // Hand-written: the user's own message reads like the question; no options follow.
        (
            ScreenDetector::Codex,
            include_str!("fixtures/codex-idle.txt"),
        ),
        (
            ScreenDetector::Gemini,
            include_str!("fixtures/gemini-no-options.txt"),
        ),
        // Another CLI's prompt.
        (ScreenDetector::Gemini, LIVE[0].1),
        (ScreenDetector::ClaudeCode, LIVE[1].1),
        (ScreenDetector::Codex, LIVE[2].1),
    ];
    for (detector, screen) in cases {
        assert_eq!(detect(detector, screen), None, "{detector:?}:\n{screen}");
    }
}

#[test]
fn a_question_without_its_options_below_is_not_a_prompt() {
    let screen = rows("│ Do you want to proceed?\n│ (thinking…)");
    assert_eq!(detect_screen(ScreenDetector::ClaudeCode, &screen), None);
    let options_above = rows("❯ 1. Yes\n│ Do you want to proceed?");
    assert_eq!(
        detect_screen(ScreenDetector::ClaudeCode, &options_above),
        None
    );
    // Options, but none drawn as selected: a quote.
    let unselected = rows("  Do you want to proceed?\n  1. Yes\n  2. No");
    assert_eq!(detect_screen(ScreenDetector::ClaudeCode, &unselected), None);
}

fn states(tracker: &mut StateTracker, signals: Vec<Signal>) -> Vec<Option<AgentState>> {
    signals
        .into_iter()
        .map(|s| tracker.apply(s).map(|r| r.state))
        .collect()
}

#[test]
fn quiescence_alone_drives_a_cli_without_signals() {
    use TerminalSignal::{Active, Quiet};
    let mut t = StateTracker::new();
    assert_eq!(t.report().state, AgentState::Working);
    let seen = states(
        &mut t,
        vec![
            Signal::Terminal(Quiet),
            Signal::Terminal(Active),
            Signal::Terminal(Active),
            Signal::Terminal(Quiet),
        ],
    );
    use AgentState::{Idle, Working};
    assert_eq!(seen, [Some(Idle), Some(Working), None, Some(Idle)]);
}

#[test]
fn hooks_override_the_guesses_they_make_redundant() {
    use AgentState::{Idle, NeedsYou, Working};
    let mut t = StateTracker::new();
    let seen = states(
        &mut t,
        vec![
            Signal::Hook(HookEvent::PromptSubmitted),
            Signal::Hook(HookEvent::NeedsInput),
            // A BEL while hooks speak changes nothing.
            Signal::Terminal(TerminalSignal::Bell),
            Signal::Hook(HookEvent::ToolDone),
            // Quiet output during a long tool call: still working once a hook ends turns.
            Signal::Hook(HookEvent::TurnDone),
            Signal::Hook(HookEvent::PromptSubmitted),
            Signal::Terminal(TerminalSignal::Quiet),
            // Output after the turn is a redraw, not a new turn.
            Signal::Hook(HookEvent::TurnDone),
            Signal::Terminal(TerminalSignal::Active),
        ],
    );
    assert_eq!(
        seen,
        [
            None,
            Some(NeedsYou),
            None,
            Some(Working),
            Some(Idle),
            Some(Working),
            None,
            Some(Idle),
            None
        ]
    );
    assert_eq!(t.report().source, StateSource::Hook);
}

/// Codex's timeline as observed (docs/agent-states.md): only its turn's end is reported (the
/// notify program), its status line redraws after the turn, approvals come from the screen.
#[test]
fn a_cli_that_reports_only_turn_ends_starts_turns_with_a_submitted_line() {
    use AgentState::{Idle, NeedsYou, Working};
    use TerminalSignal::{Active, Quiet, Screen};
    let prompt = ScreenFinding::NeedsYou("Would you like to run the following command?".into());
    let mut t = StateTracker::new();
    let seen = states(
        &mut t,
        vec![
            Signal::Hook(HookEvent::TurnDone),
            // A redraw of the status line, the user typing a message: no turn yet.
            Signal::Terminal(Active),
            Signal::Input,
            Signal::Submit,
            Signal::Terminal(Screen(Some(prompt.clone()))),
            // Arrows move through the options; Enter chooses one.
            Signal::Input,
            Signal::Submit,
            Signal::Terminal(Screen(None)),
            Signal::Hook(HookEvent::TurnDone),
            // The prompt, answered so fast the turn ends before the screen is read again.
            Signal::Submit,
            Signal::Terminal(Screen(Some(prompt))),
            Signal::Submit,
            Signal::Hook(HookEvent::TurnDone),
            Signal::Terminal(Screen(None)),
            Signal::Terminal(Active),
            // A slash command: no turn, no notify; quiet output ends the guess.
            Signal::Submit,
            Signal::Terminal(Quiet),
        ],
    );
    assert_eq!(
        seen,
        [
            Some(Idle),
            None,
            None,
            Some(Working),
            Some(NeedsYou),
            None,
            Some(Working),
            None,
            Some(Idle),
            Some(Working),
            Some(NeedsYou),
            Some(Working),
            Some(Idle),
            None,
            None,
            Some(Working),
            Some(Idle),
        ]
    );
    // With both ends hooked (Claude Code), Enter changes nothing and quiet is a quiet tool.
    let mut hooked = StateTracker::new();
    hooked.apply(Signal::Hook(HookEvent::PromptSubmitted));
    hooked.apply(Signal::Hook(HookEvent::TurnDone));
    assert_eq!(hooked.apply(Signal::Submit), None);
    hooked.apply(Signal::Hook(HookEvent::PromptSubmitted));
    assert_eq!(hooked.apply(Signal::Terminal(Quiet)), None);
}

#[test]
fn a_bell_or_notification_asks_for_the_user_until_they_type() {
    let mut t = StateTracker::new();
    let report = t
        .apply(Signal::Terminal(TerminalSignal::Notification(
            "Approve?".into(),
        )))
        .unwrap();
    assert_eq!(report.state, AgentState::NeedsYou);
    assert_eq!(report.source, StateSource::Terminal);
    assert_eq!(report.reason.as_deref(), Some("Approve?"));
    assert_eq!(t.apply(Signal::Input).unwrap().state, AgentState::Working);
    assert_eq!(
        t.apply(Signal::Terminal(TerminalSignal::Bell))
            .unwrap()
            .state,
        AgentState::NeedsYou
    );
}

#[test]
fn a_prompt_on_screen_needs_the_user_until_it_is_gone() {
    let prompt = ScreenFinding::NeedsYou("Do you want to proceed?".into());
    let mut t = StateTracker::new();
    let report = t
        .apply(Signal::Terminal(TerminalSignal::Screen(Some(prompt))))
        .unwrap();
    assert_eq!(report.state, AgentState::NeedsYou);
    // Typing (moving through the options) does not clear it; the prompt going does.
    assert_eq!(t.apply(Signal::Input), None);
    assert_eq!(t.apply(Signal::Terminal(TerminalSignal::Quiet)), None);
    let cleared = t.apply(Signal::Terminal(TerminalSignal::Screen(None)));
    assert_eq!(cleared.unwrap().state, AgentState::Working);
    // A screen without a prompt does not touch a state another source set.
    t.apply(Signal::Hook(HookEvent::NeedsInput));
    assert_eq!(
        t.apply(Signal::Terminal(TerminalSignal::Screen(None))),
        None
    );
}

#[test]
fn an_exit_is_final_and_a_stop_is_not_a_failure() {
    let mut stopped = StateTracker::new();
    let exit = ExitInfo {
        code: 129,
        signal: Some("SIGHUP".into()),
        stopped: true,
        hint: None,
    };
    let report = stopped.exit(&exit).unwrap();
    assert_eq!(
        (report.state, report.reason.as_deref()),
        (AgentState::Exited, Some("stopped"))
    );
    assert_eq!(
        stopped.apply(Signal::Hook(HookEvent::PromptSubmitted)),
        None
    );
    assert_eq!(stopped.exit(&ExitInfo::default()), None);

    let mut crashed = StateTracker::new();
    let report = crashed
        .exit(&ExitInfo {
            code: 3,
            ..ExitInfo::default()
        })
        .unwrap();
    assert_eq!(
        (report.state, report.reason.as_deref()),
        (AgentState::Failed, Some("exit code 3"))
    );
}

fn bridge_env() -> BTreeMap<String, String> {
    BTreeMap::from([("HOME".to_owned(), "/home/u s".to_owned())])
}

/// Agent `a1` of project `/p`, reporting through `/opt/idea` with `env`.
fn bridge(env: &BTreeMap<String, String>) -> HookBridge<'_> {
    HookBridge {
        program: Path::new("/opt/idea"),
        env,
        project_root: Path::new("/p"),
        agent: "a1",
    }
}

#[test]
fn claude_gets_its_hooks_in_a_settings_file() {
    let env = bridge_env();
    let bridge = bridge(&env);
    let handoff = hook_handoff(
        crate::profile::CliHome::ClaudeCode,
        &bridge,
        Path::new("/p/run"),
    );
    assert_eq!(handoff.args, ["--settings", "/p/run/.idea-hooks.json"]);
    let (path, text) = &handoff.files[0];
    assert_eq!(path, Path::new("/p/run/.idea-hooks.json"));
    let settings: serde_json::Value = serde_json::from_str(text).unwrap();
    let notification = &settings["hooks"]["Notification"][0];
    assert_eq!(
        notification["matcher"],
        "permission_prompt|elicitation_dialog"
    );
    assert_eq!(
        notification["hooks"][0]["command"],
        "env 'HOME=/home/u s' /opt/idea hook --project /p --agent a1 --event needs-input"
    );
    for event in ["UserPromptSubmit", "PostToolUse", "Stop", "StopFailure"] {
        assert!(settings["hooks"][event].is_array(), "{event}");
    }
    // IdeA owns the resume after a usage limit, not Claude's own auto-continue.
    assert_eq!(settings["autoContinueAtUsageLimit"], false);
}

#[test]
fn codex_gets_a_notify_program_and_gemini_hooks_in_its_settings() {
    let env = bridge_env();
    let bridge = bridge(&env);
    let codex = hook_handoff(crate::profile::CliHome::Codex, &bridge, Path::new("/r"));
    assert_eq!(
        codex.args,
        [
            "-c",
            r#"notify=["env","HOME=/home/u s","/opt/idea","hook","--project","/p","--agent","a1","--event","turn-done"]"#
        ]
    );
    let gemini = hook_handoff(crate::profile::CliHome::Gemini, &bridge, Path::new("/r"));
    let hooks = gemini.settings_hooks.unwrap();
    let merged = with_settings_hooks(r#"{"mcpServers":{}}"#, &hooks).unwrap();
    let merged: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert!(merged["mcpServers"].is_object());
    assert!(
        merged["hooks"]["AfterAgent"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("--event turn-done")
    );
    assert_eq!(with_settings_hooks("[1]", &hooks), None);
}

#[test]
fn hook_events_read_back_from_their_names() {
    for event in [
        HookEvent::PromptSubmitted,
        HookEvent::ToolDone,
        HookEvent::NeedsInput,
        HookEvent::TurnDone,
    ] {
        assert_eq!(event.as_str().parse::<HookEvent>(), Ok(event));
    }
    assert!("later".parse::<HookEvent>().is_err());
}
