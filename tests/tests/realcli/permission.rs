//! A real permission prompt, end to end: the fake model asks the CLI to run `touch proof.txt`
//! through its shell tool, the CLI stops on its permission prompt, and the session's state must
//! follow what a user sees: needs you while the prompt is up, working once it is answered,
//! idle after the turn, and no flip back to working from a redraw afterwards.
//!
//! With `IDEA_REALCLI_CAPTURE=1` the screens it meets are written as the screen detectors'
//! fixtures (`crates/domain/src/agent_state/fixtures/`, see the README there): the prompt, the
//! same screen once answered, and a transcript quoting the prompt's text.

use super::rig::Rig;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What one CLI's permission prompt is like.
#[derive(Debug, Clone, Copy)]
pub struct Asking {
    /// The npm package of the CLI (its pinned version names the fixtures).
    pub package: &'static str,
    /// The fixtures' name prefix (`claude`, `codex`, `gemini`).
    pub fixture: &'static str,
    /// What the user types to make the model ask for `touch proof.txt` (`fake_model::tool_call`).
    pub ask: &'static str,
    /// The keys a user presses to allow the command once.
    pub allow: &'static str,
    /// The prompt's question and first options, as a user might paste them into a message.
    pub quote: &'static str,
    /// A message whose turn runs a command that prints nothing for longer than IdeA's quiet
    /// period, for a CLI whose quiet output is taken as the end of a turn (Codex): the turn
    /// must end from the CLI's own signal, not from the quiet.
    pub quiet_turn: Option<&'static str>,
    /// A setting of the user's own (in the throwaway HOME) without which the CLI would not
    /// ask, with the text its ready screen shows then; see each CLI in `realcli.rs`.
    pub user_setting: Option<UserSetting>,
}

/// A user's own setting of the CLI, written into the throwaway HOME before the launch.
#[derive(Debug, Clone, Copy)]
pub struct UserSetting {
    pub apply: fn(&Path),
    /// The CLI's ready text under that setting.
    pub ready: &'static str,
}

/// How long the prompt is left unanswered.
const PROMPT_UP: Duration = Duration::from_secs(8);

/// How long after its turn a session is watched for a wrong flip back to working.
const AFTER_TURN: Duration = Duration::from_secs(12);

/// The story, in a cell of `rig`'s CLI; prints the timeline of states (for the docs).
pub fn prompt_answer_and_idle(rig: &mut Rig, asking: Asking) {
    if let Some(setting) = asking.user_setting {
        (setting.apply)(&rig.home);
        rig.cli.ready = setting.ready;
    }
    let cell = rig.agent_in_first_cell("Runner", "CODEWORD-PERMISSION");
    let launched = rig.launch(&cell);
    let id = launched["sessionId"]
        .as_str()
        .expect("sessionId")
        .to_owned();
    rig.wait_ready(&id);
    let t0 = Instant::now();
    // Let the start-up settle into idle first, so every later state belongs to the turn.
    wait_state(rig, &id, 0, "idle", Duration::from_secs(30));
    let typed_at = rig.wire.states(&id).len();
    rig.ask(&id, asking.ask, &[asking.ask]);

    let asked = wait_state(rig, &id, typed_at, "needsYou", Duration::from_secs(60));
    // Let the prompt finish drawing before it is captured.
    rig.wire.pump(Duration::from_millis(1500));
    capture(rig, &id, asking, "shell-permission");
    // The prompt stays up a while, as it would for a user looking elsewhere: a CLI that
    // signals a prompt late (a hook, a desktop notification) shows it in the timeline.
    eprintln!("{}: prompt captured at {}", rig.cli.profile, since(t0));
    rig.wire.pump(PROMPT_UP);
    eprintln!("{}: prompt left up until {}", rig.cli.profile, since(t0));
    let listed = rig.wire.call("listSessions", json!(null));
    let me = listed
        .as_array()
        .and_then(|all| all.iter().find(|s| s["sessionId"] == id.as_str()))
        .cloned()
        .unwrap_or_default();
    assert_eq!(me["state"], "needsYou", "listSessions: {me}");
    eprintln!(
        "{}: needsYou from {} ({})",
        rig.cli.profile, asked["source"], asked["reason"]
    );
    assert!(
        !proof_exists(&rig.project),
        "the command ran before the user allowed it"
    );

    let answered_at = rig.wire.states(&id).len();
    rig.wire.call(
        "writeTerminal",
        json!({"sessionId": id, "data": asking.allow}),
    );
    eprintln!("{}: answered at {}", rig.cli.profile, since(t0));
    wait_state(rig, &id, answered_at, "working", Duration::from_secs(30));
    rig.wait_screen(&id, "FAKE-MODEL-TOOL-DONE");
    assert!(
        proof_exists(&rig.project),
        "{}: no proof.txt after the prompt was answered",
        rig.cli.profile
    );
    let idle = wait_state(rig, &id, answered_at, "idle", Duration::from_secs(30));
    eprintln!("{}: idle from {}", rig.cli.profile, idle["source"]);
    let idle_at = rig.wire.states(&id).len();
    rig.wire.pump(AFTER_TURN);
    capture(rig, &id, asking, "answered");
    let turn = timeline(rig, &id, t0);
    eprintln!("{}: timeline\n{turn}", rig.cli.profile);
    assert_eq!(
        rig.wire.states(&id).len(),
        idle_at,
        "{}: the state changed after the turn ended:\n{turn}",
        rig.cli.profile
    );

    // The prompt's own words, pasted into a message and quoted back by the model: a transcript
    // that must not read as a prompt.
    let quoted_at = rig.wire.states(&id).len();
    rig.wire.call(
        "writeTerminal",
        json!({"sessionId": id, "data": format!("\x1b[200~quote this:\n{}\x1b[201~", asking.quote)}),
    );
    rig.wire.pump(Duration::from_millis(500));
    rig.wire
        .call("writeTerminal", json!({"sessionId": id, "data": "\r"}));
    // The CLIs may wrap a paste in tags of their own before the model sees it.
    rig.wait_screen(&id, "FAKE-MODEL-REPLY to:");
    wait_state(rig, &id, quoted_at, "idle", Duration::from_secs(30));
    rig.wire.pump(Duration::from_millis(1500));
    capture(rig, &id, asking, "quoted-prompt");
    let states: Vec<&Value> = rig.wire.states(&id)[quoted_at..]
        .iter()
        .map(|(_, s)| s)
        .collect();
    assert!(
        states.iter().all(|s| s["state"] != "needsYou"),
        "{}: a quoted prompt was taken for one:\n{}",
        rig.cli.profile,
        timeline(rig, &id, t0)
    );
    if let Some(message) = asking.quiet_turn {
        let from = rig.wire.states(&id).len();
        rig.ask(&id, message, &[message]);
        let idle = wait_state(rig, &id, from, "idle", Duration::from_secs(60));
        assert_eq!(
            idle["source"],
            "hook",
            "{}: a quiet command was taken for the turn's end:\n{}",
            rig.cli.profile,
            timeline(rig, &id, t0)
        );
    }
    eprintln!(
        "{}: whole timeline\n{}",
        rig.cli.profile,
        timeline(rig, &id, t0)
    );
    rig.stop(&id);
}

/// Waits for state `state` among the session's state events from index `from` on; returns it.
fn wait_state(rig: &mut Rig, id: &str, from: usize, state: &str, wait: Duration) -> Value {
    let deadline = Instant::now() + wait;
    loop {
        if let Some((_, found)) = rig
            .wire
            .states(id)
            .iter()
            .skip(from)
            .find(|(_, s)| s["state"] == state)
        {
            return found.clone();
        }
        if Instant::now() > deadline {
            let started = rig
                .wire
                .states(id)
                .first()
                .map_or_else(Instant::now, |s| s.0);
            panic!(
                "{}: no {state} within {wait:?}; states:\n{}\nscreen:\n{}",
                rig.cli.profile,
                timeline(rig, id, started),
                rig.wire.screen(id)
            );
        }
        rig.wire.pump(Duration::from_millis(100));
    }
}

/// `+S.Ss` since `t0`.
fn since(t0: Instant) -> String {
    format!("+{:.1}s", t0.elapsed().as_secs_f64())
}

/// The session's states so far, one line each: seconds since `t0`, state, source, reason.
fn timeline(rig: &Rig, id: &str, t0: Instant) -> String {
    rig.wire
        .states(id)
        .iter()
        .map(|(at, s)| {
            let secs = at.checked_duration_since(t0).map_or_else(
                || format!("-{:.1}", t0.duration_since(*at).as_secs_f64()),
                |d| format!("+{:.1}", d.as_secs_f64()),
            );
            format!(
                "  {secs:>6}s {} ({}) {}",
                s["state"].as_str().unwrap_or("?"),
                s["source"].as_str().unwrap_or("?"),
                s["reason"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `proof.txt` exists anywhere under the project (the agent's cwd is its run dir).
fn proof_exists(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let path = e.path();
            path.file_name().is_some_and(|n| n == "proof.txt")
                || (path.is_dir() && proof_exists(&path))
        })
}

/// The detectors' fixture folder.
fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/domain/src/agent_state/fixtures")
}

/// The pinned version of `package` (`tests/realcli/package.json`).
fn pinned_version(package: &str) -> String {
    let pins =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("realcli/package.json"))
            .expect("tests/realcli/package.json");
    let pins: Value = serde_json::from_str(&pins).expect("pins");
    pins["dependencies"][package]
        .as_str()
        .expect("a pinned version")
        .to_owned()
}

/// With `IDEA_REALCLI_CAPTURE` set, writes the session's visible rows as the fixture
/// `<cli>-<version>-<what>.txt` (trailing blanks cut, as the detector ignores them; the rig's
/// temp folder shown as `/rig`, or as `rig` where the CLI shortens the path).
fn capture(rig: &Rig, id: &str, asking: Asking, what: &str) {
    if std::env::var_os("IDEA_REALCLI_CAPTURE").is_none() {
        return;
    }
    let rows: Vec<String> = rig
        .wire
        .rows(id)
        .iter()
        .map(|r| r.trim_end().to_owned())
        .collect();
    let last = rows
        .iter()
        .rposition(|r| !r.is_empty())
        .map_or(0, |i| i + 1);
    // The rig's temp folder says nothing about the prompt, and differs on every run.
    let root = rig.project.parent().expect("the rig's folder");
    let name = root.file_name().expect("a name").to_string_lossy();
    let mut text = rows[..last]
        .join("\n")
        .replace(&root.display().to_string(), "/rig")
        .replace(name.as_ref(), "rig");
    text.push('\n');
    let name = format!(
        "{}-{}-{what}.txt",
        asking.fixture,
        pinned_version(asking.package)
    );
    let path = fixtures_dir().join(&name);
    std::fs::write(&path, text).expect("write the fixture");
    eprintln!("realcli: captured {}", path.display());
}
