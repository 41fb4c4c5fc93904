//! Temp files of atomic writes that a crash left behind are swept when the project is opened.

use crate::world::{symlink, world};
use idea_infrastructure::store::FsProjectStore;
use std::fs;

/// The pid of a process that has exited (and been reaped).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn leftover_temp_files_are_swept_on_open_and_nothing_else() {
    let w = world();
    let ideai = w.ideai();
    let run = ideai.join("run/00000000-0000-0000-0000-000000000007");
    fs::create_dir_all(&run).unwrap();
    fs::create_dir_all(ideai.join("agents")).unwrap();
    let dead = dead_pid();
    let stale = [
        ideai.join(format!(".agents.json.tmp-{dead}-0")),
        ideai.join(format!(".layouts.json.tmp-{dead}-12")),
        ideai.join(format!("agents/.ada.md.tmp-{dead}-3")),
        run.join(format!(".CLAUDE.md.tmp-{dead}-1")),
        w.root().join(format!("..gitignore.tmp-{dead}-2")),
    ];
    for file in &stale {
        fs::write(file, "half written").unwrap();
    }
    // A live writer's temp file (this process), files that only look alike, a link named
    // like a temp file and the file it points to: all kept.
    let outside = w.outside().join("precious");
    fs::write(&outside, "keep me").unwrap();
    let mine = std::process::id();
    let kept = [
        ideai.join(format!(".agents.json.tmp-{mine}-0")),
        ideai.join(format!("agents.json.tmp-{dead}-0")),
        ideai.join(format!(".agents.json.tmp-{dead}")),
        ideai.join(format!(".agents.json.tmp-{dead}-x")),
        ideai.join("notes.md"),
        w.root().join(format!(".notes.tmp-{dead}-0")),
    ];
    for file in &kept {
        fs::write(file, "mine").unwrap();
    }
    let link = ideai.join(format!(".layouts.json.tmp-{dead}-9"));
    symlink(&outside, &link);
    let dir_named_alike = ideai.join(format!(".x.tmp-{dead}-1"));
    fs::create_dir(&dir_named_alike).unwrap();

    idea_application::project::open(&FsProjectStore::new(w.root())).unwrap();

    for file in &stale {
        assert!(!file.exists(), "{} was kept", file.display());
    }
    for file in &kept {
        assert!(file.exists(), "{} was removed", file.display());
    }
    assert!(fs::symlink_metadata(&link).is_ok(), "the link was removed");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep me");
    assert!(dir_named_alike.is_dir());
}
