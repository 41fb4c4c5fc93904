//! The door against real files and a real watch, with a handler that counts its calls.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use idea_domain::RequestId;
use idea_domain::filedrop::{FileError, FileResponse};
use serde_json::Value;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

const QUIET: Duration = Duration::from_millis(100);

/// A handler that answers `<folder>: <message>` and counts (and may hold) its calls.
#[derive(Default)]
struct Counting {
    calls: AtomicUsize,
    now: AtomicUsize,
    most: AtomicUsize,
    /// While true, calls wait.
    held: Mutex<bool>,
    released: Condvar,
}

impl Counting {
    fn handler(self: &Arc<Self>) -> DropHandler {
        let me = Arc::clone(self);
        Arc::new(move |dropped: &Dropped| {
            me.calls.fetch_add(1, Ordering::SeqCst);
            let now = me.now.fetch_add(1, Ordering::SeqCst) + 1;
            me.most.fetch_max(now, Ordering::SeqCst);
            let held = me.held.lock().unwrap();
            drop(me.released.wait_while(held, |held| *held).unwrap());
            me.now.fetch_sub(1, Ordering::SeqCst);
            if dropped.request.to == "Nobody" {
                return DropAnswer::Error(FileError {
                    code: "AGENT_NOT_FOUND".into(),
                    message: "no agent \"Nobody\"".into(),
                });
            }
            DropAnswer::Response(FileResponse {
                from: dropped.request.to.clone(),
                answer: format!("{}: {}", dropped.folder, dropped.request.message),
                request_id: RequestId(uuid::Uuid::from_u128(1)),
            })
        })
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    fn hold(&self, hold: bool) {
        *self.held.lock().unwrap() = hold;
        self.released.notify_all();
    }
}

struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        fs::create_dir_all(root.join(".ideai")).unwrap();
        Self { _dir: dir, root }
    }

    fn folder(&self, folder: &str) -> PathBuf {
        let dir = self.root.join(".ideai/requests").join(folder);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn open(&self, counting: &Arc<Counting>) -> FileDrop {
        self.open_with(
            counting,
            DropLimits {
                quiet: QUIET,
                ..DropLimits::default()
            },
        )
    }

    fn open_with(&self, counting: &Arc<Counting>, limits: DropLimits) -> FileDrop {
        FileDrop::with_limits(&self.root, counting.handler(), limits).unwrap()
    }
}

fn ask(dir: &Path, id: &str, to: &str, message: &str) {
    let body = serde_json::json!({"to": to, "message": message}).to_string();
    fs::write(dir.join(format!("{id}.json")), body).unwrap();
}

/// Waits (10 s at most) for `<id>.response.json` or `<id>.error.json`: (which, its JSON).
fn answer_of(dir: &Path, id: &str) -> (&'static str, Value) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        for (kind, name) in [
            ("response", format!("{id}.response.json")),
            ("error", format!("{id}.error.json")),
        ] {
            if let Ok(text) = fs::read_to_string(dir.join(name)) {
                return (kind, serde_json::from_str(&text).unwrap());
            }
        }
        assert!(
            Instant::now() < deadline,
            "no answer to {id}: {:?}",
            listing(dir)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn error_code(dir: &Path, id: &str) -> String {
    let (kind, value) = answer_of(dir, id);
    assert_eq!(kind, "error", "{value}");
    value["code"].as_str().unwrap().to_owned()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Long enough for the door to have acted on anything it would act on.
fn settle() {
    std::thread::sleep(QUIET * 6);
}

#[test]
fn a_request_is_answered_once_and_never_again() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let _door = project.open(&counting);
    let dir = project.folder("ada");
    ask(&dir, "r1", "Bob", "hi");
    let (kind, value) = answer_of(&dir, "r1");
    assert_eq!(kind, "response");
    assert_eq!(value["from"], "Bob");
    assert_eq!(value["answer"], "ada: hi");
    assert!(value["requestId"].is_string());
    assert_eq!(listing(&dir), ["r1.claimed", "r1.json", "r1.response.json"]);
    let claim: Value = serde_json::from_slice(&fs::read(dir.join("r1.claimed")).unwrap()).unwrap();
    assert_eq!(claim["pid"], std::process::id());
    // Written again, touched: still answered, not run again.
    ask(&dir, "r1", "Bob", "hi again");
    settle();
    assert_eq!(counting.calls(), 1);
}

#[test]
fn a_restart_answers_what_came_meanwhile_and_runs_nothing_twice() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let dir = project.folder("ada");
    let door = project.open(&counting);
    ask(&dir, "before", "Bob", "one");
    answer_of(&dir, "before");
    drop(door);
    // Dropped while no owner runs.
    ask(&dir, "meanwhile", "Bob", "two");
    std::thread::sleep(QUIET * 2);
    let _door = project.open(&counting);
    assert_eq!(answer_of(&dir, "meanwhile").1["answer"], "ada: two");
    settle();
    assert_eq!(counting.calls(), 2);
}

#[test]
fn a_request_claimed_by_an_owner_that_died_is_interrupted_not_run() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let dir = project.folder("ada");
    ask(&dir, "r1", "Bob", "hi");
    fs::write(dir.join("r1.claimed"), "{}").unwrap();
    let _door = project.open(&counting);
    assert_eq!(error_code(&dir, "r1"), "INTERRUPTED");
    assert_eq!(counting.calls(), 0);
}

#[test]
fn bad_files_get_an_error_file_and_the_door_goes_on() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let _door = project.open(&counting);
    let dir = project.folder("ada");
    fs::write(dir.join("json.json"), "{\"to\": \"Bob\", ").unwrap();
    fs::write(dir.join("fields.json"), r#"{"to": "Bob"}"#).unwrap();
    fs::write(
        dir.join("typo.json"),
        r#"{"to": "Bob", "message": "hi", "timeout": 3}"#,
    )
    .unwrap();
    fs::write(
        dir.join("big.json"),
        vec![b' '; usize::try_from(idea_domain::filedrop::MAX_REQUEST_BYTES).unwrap() + 1],
    )
    .unwrap();
    fs::write(dir.join("bad id.json"), r#"{"to": "Bob", "message": "hi"}"#).unwrap();
    fs::create_dir(dir.join("folder.json")).unwrap();
    // A link to a valid request elsewhere is not followed.
    let outside = project.root.join("outside.json");
    fs::write(&outside, r#"{"to": "Bob", "message": "secret"}"#).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link.json")).unwrap();
    nix::unistd::mkfifo(&dir.join("fifo.json"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    for (id, code) in [
        ("json", "INVALID_PARAMS"),
        ("fields", "INVALID_PARAMS"),
        ("typo", "INVALID_PARAMS"),
        ("big", "INVALID_PARAMS"),
        ("bad id", "INVALID_PARAMS"),
        ("folder", "UNSAFE_PATH"),
        ("link", "UNSAFE_PATH"),
        ("fifo", "UNSAFE_PATH"),
    ] {
        assert_eq!(error_code(&dir, id), code, "{id}");
    }
    let (_, typo) = answer_of(&dir, "typo");
    assert!(
        typo["message"]
            .as_str()
            .unwrap()
            .contains("unknown field `timeout`"),
        "{typo}"
    );
    let (_, fields) = answer_of(&dir, "fields");
    assert!(
        fields["message"]
            .as_str()
            .unwrap()
            .contains("missing field `message`"),
        "{fields}"
    );
    assert_eq!(
        fs::read_to_string(&outside).unwrap(),
        r#"{"to": "Bob", "message": "secret"}"#
    );
    // Nothing ran, nothing was claimed; the door still answers.
    assert_eq!(counting.calls(), 0);
    assert!(
        !listing(&dir).iter().any(|n| n.ends_with(".claimed")),
        "{:?}",
        listing(&dir)
    );
    ask(&dir, "good", "Bob", "hi");
    assert_eq!(answer_of(&dir, "good").0, "response");
    ask(&dir, "nobody", "Nobody", "hi");
    assert_eq!(error_code(&dir, "nobody"), "AGENT_NOT_FOUND");
}

/// The door reads a request once its file has not changed for the quiet time, so a writer that
/// pauses for longer may be read half-written (hence the guide's "in one go, or renamed").
/// The pause here is a fraction of the quiet time: only a test thread stalled for seconds
/// could make it longer.
#[test]
fn a_request_written_slowly_is_read_whole() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let quiet = Duration::from_secs(3);
    let _door = project.open_with(
        &counting,
        DropLimits {
            quiet,
            ..DropLimits::default()
        },
    );
    let dir = project.folder("ada");
    {
        use std::io::Write;
        let mut file = fs::File::create(dir.join("slow.json")).unwrap();
        file.write_all(br#"{"to": "Bob", "#).unwrap();
        file.flush().unwrap();
        std::thread::sleep(quiet / 30);
        file.write_all(br#""message": "slowly"}"#).unwrap();
    }
    assert_eq!(answer_of(&dir, "slow").1["answer"], "ada: slowly");
    assert_eq!(counting.calls(), 1);
}

#[test]
fn a_request_renamed_into_place_is_read_whole_and_its_hidden_name_never() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let _door = project.open(&counting);
    let dir = project.folder("ada");
    fs::write(
        dir.join(".renamed.json.tmp"),
        r#"{"to": "Bob", "message": "renamed"}"#,
    )
    .unwrap();
    settle();
    assert_eq!(listing(&dir), [".renamed.json.tmp"]);
    fs::rename(dir.join(".renamed.json.tmp"), dir.join("renamed.json")).unwrap();
    assert_eq!(answer_of(&dir, "renamed").1["answer"], "ada: renamed");
    assert_eq!(counting.calls(), 1);
}

#[test]
fn a_flood_of_requests_runs_a_few_at_a_time_and_all_are_answered() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    counting.hold(true);
    let limits = DropLimits {
        quiet: QUIET,
        per_requester: 2,
        in_flight: 3,
        ..DropLimits::default()
    };
    let _door = project.open_with(&counting, limits);
    let (ada, bob) = (project.folder("ada"), project.folder("bob"));
    for i in 0..12 {
        ask(&ada, &format!("a{i}"), "Carol", "hi");
        ask(&bob, &format!("b{i}"), "Carol", "hi");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while counting.now.load(Ordering::SeqCst) < 3 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(10));
    }
    settle();
    // Held: three run (at most two of one requester), the rest wait unread and unclaimed.
    assert_eq!(counting.calls(), 3);
    let claims = |dir: &Path| {
        listing(dir)
            .iter()
            .filter(|n| n.ends_with(".claimed"))
            .count()
    };
    assert!(claims(&ada) <= 2 && claims(&bob) <= 2 && claims(&ada) + claims(&bob) == 3);
    counting.hold(false);
    for i in 0..12 {
        assert_eq!(answer_of(&ada, &format!("a{i}")).0, "response");
        assert_eq!(answer_of(&bob, &format!("b{i}")).0, "response");
    }
    assert_eq!(counting.calls(), 24);
    assert_eq!(counting.most.load(Ordering::SeqCst), 3);
}

#[test]
fn links_in_place_of_folders_are_refused() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    // A requester folder that is a link to a folder elsewhere: never read, never written.
    let elsewhere = project.root.join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    ask(&elsewhere, "r1", "Bob", "hi");
    fs::create_dir_all(project.root.join(".ideai/requests")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, project.root.join(".ideai/requests/ada")).unwrap();
    let _door = project.open(&counting);
    settle();
    assert_eq!(listing(&elsewhere), ["r1.json"]);
    assert_eq!(counting.calls(), 0);
    // `requests/` itself a link: the door does not open.
    let other = Project::new();
    std::os::unix::fs::symlink(&elsewhere, other.root.join(".ideai/requests")).unwrap();
    let refused = FileDrop::start(&other.root, counting.handler());
    assert!(
        matches!(refused, Err(FileDropError::Folder(_))),
        "{refused:?}"
    );
}

#[test]
fn a_requests_folder_removed_and_made_again_is_watched_again() {
    let project = Project::new();
    let counting = Arc::new(Counting::default());
    let _door = project.open(&counting);
    fs::remove_dir_all(project.root.join(".ideai/requests")).unwrap();
    std::thread::sleep(QUIET);
    let dir = project.folder("ada");
    ask(&dir, "r1", "Bob", "back");
    assert_eq!(answer_of(&dir, "r1").1["answer"], "ada: back");
}
