#![allow(clippy::unwrap_used)]

use super::*;
use idea_domain::permissions::{Decision, PathContext, PermissionSet, ToolCall, ToolInput};
use std::os::unix::fs::symlink;

/// A project in a temp dir and a user dir beside it.
struct Rig {
    dir: tempfile::TempDir,
    files: FsPermissionFiles,
}

impl Rig {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("project/.ideai")).unwrap();
        fs::create_dir_all(dir.path().join("user")).unwrap();
        let files = FsPermissionFiles::new(
            FsProjectStore::new(dir.path().join("project")),
            Some(user_permissions_path(&dir.path().join("user"))),
            Some(dir.path().join("home")),
        );
        Self { dir, files }
    }

    fn project_file(&self) -> PathBuf {
        self.dir.path().join("project/.ideai/permissions.json")
    }

    fn user_file(&self) -> PathBuf {
        self.dir.path().join("user/permissions.json")
    }

    fn load(&self) -> PermissionSet {
        let context = PathContext {
            root: self.dir.path().join("project"),
            home: self.files.home(),
        };
        PermissionSet::from_files(context, self.files.read())
    }
}

fn bash_plain(command: &str) -> ToolCall {
    ToolCall {
        tool: "Bash".into(),
        input: ToolInput::Command(idea_domain::permissions::ShellCommand {
            parts: vec![idea_domain::permissions::CommandPart::plain(command)],
            complete: true,
            ..Default::default()
        }),
    }
}

#[test]
fn no_files_no_rules_both_listed() {
    let rig = Rig::new();
    let set = rig.load();
    assert!(!set.has_rules());
    assert!(set.warnings().is_empty());
    let files: Vec<_> = set
        .files()
        .iter()
        .map(|f| (f.scope, f.path.clone(), f.exists))
        .collect();
    assert_eq!(
        files,
        [
            (PermissionScope::User, rig.user_file(), false),
            (PermissionScope::Project, rig.project_file(), false),
        ]
    );
}

#[test]
fn both_files_add_together_and_an_invalid_rule_is_skipped() {
    let rig = Rig::new();
    fs::write(
        rig.user_file(),
        r#"{"permissions":{"allow":["Bash(git *)"]}}"#,
    )
    .unwrap();
    fs::write(
        rig.project_file(),
        r#"{"permissions":{"deny":["Bash(git push *)","Bash(oops","Read(.env)"]}}"#,
    )
    .unwrap();
    let set = rig.load();
    assert_eq!(set.evaluate(&bash_plain("git status")), Decision::Allow);
    assert_eq!(set.evaluate(&bash_plain("git push -f")), Decision::Deny);
    let read_env = ToolCall {
        tool: "Read".into(),
        input: ToolInput::Path(".env".into()),
    };
    assert_eq!(set.evaluate(&read_env), Decision::Deny);
    assert_eq!(set.warnings().len(), 1);
    let warning = &set.warnings()[0];
    assert_eq!(warning.path, rig.project_file());
    assert_eq!(warning.rule.as_deref(), Some("Bash(oops"));
    assert!(
        warning.message.starts_with("deny[1]: "),
        "{}",
        warning.message
    );
}

#[test]
fn a_corrupt_file_is_a_warning_and_left_untouched() {
    let rig = Rig::new();
    let text = r#"{"permissions":{"deny":["Bash(rm *)""#;
    fs::write(rig.project_file(), text).unwrap();
    fs::write(rig.user_file(), r#"{"permissions":{"ask":["Bash(rm *)"]}}"#).unwrap();
    let set = rig.load();
    assert_eq!(
        set.evaluate(&bash_plain("rm x")),
        Decision::Ask,
        "the user file still applies"
    );
    assert_eq!(set.warnings().len(), 1);
    assert_eq!(set.warnings()[0].path, rig.project_file());
    assert!(set.warnings()[0].message.contains("invalid JSON"));
    assert_eq!(fs::read_to_string(rig.project_file()).unwrap(), text);
}

#[test]
fn a_linked_project_file_is_not_followed() {
    let rig = Rig::new();
    let elsewhere = rig.dir.path().join("elsewhere.json");
    fs::write(&elsewhere, r#"{"permissions":{"allow":["Bash"]}}"#).unwrap();
    symlink(&elsewhere, rig.project_file()).unwrap();
    let set = rig.load();
    assert!(!set.has_rules(), "the linked rules must not apply");
    assert_eq!(set.warnings().len(), 1);
    let message = &set.warnings()[0].message;
    assert!(message.contains("symbolic link"), "{message}");
    // Saving refuses the link too, and leaves its target alone.
    assert!(matches!(
        rig.files.write_project("{}"),
        Err(StoreError::UnsafePath { .. })
    ));
    assert!(fs::read_to_string(&elsewhere).unwrap().contains("Bash"));
}

#[test]
fn a_linked_ideai_folder_is_not_followed() {
    let rig = Rig::new();
    let project = rig.dir.path().join("project");
    fs::remove_dir(project.join(".ideai")).unwrap();
    let outside = rig.dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(
        outside.join("permissions.json"),
        r#"{"permissions":{"allow":["Bash"]}}"#,
    )
    .unwrap();
    symlink(&outside, project.join(".ideai")).unwrap();
    let set = rig.load();
    assert!(!set.has_rules());
    assert!(set.warnings()[0].message.contains("symbolic link"));
}

#[test]
fn a_linked_user_file_is_followed() {
    let rig = Rig::new();
    let dotfiles = rig.dir.path().join("dotfiles.json");
    fs::write(&dotfiles, r#"{"permissions":{"allow":["Bash(ls *)"]}}"#).unwrap();
    symlink(&dotfiles, rig.user_file()).unwrap();
    let set = rig.load();
    assert!(set.warnings().is_empty(), "{:?}", set.warnings());
    assert_eq!(set.evaluate(&bash_plain("ls -la")), Decision::Allow);
}

#[test]
fn too_big_not_text_and_not_a_file_are_warnings() {
    let rig = Rig::new();
    let big = format!(
        r#"{{"permissions":{{"allow":["Bash"]}},"pad":"{}"}}"#,
        "x".repeat(usize::try_from(MAX_PERMISSIONS_BYTES).unwrap())
    );
    fs::write(rig.project_file(), big).unwrap();
    fs::create_dir(rig.user_file()).unwrap();
    let set = rig.load();
    assert!(!set.has_rules());
    let messages: Vec<&str> = set.warnings().iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("not a regular file"), "{messages:?}");
    assert!(
        messages[1].contains("larger than 1048576 bytes"),
        "{messages:?}"
    );

    fs::write(rig.project_file(), [0xff, 0xfe, b'{']).unwrap();
    let set = rig.load();
    assert!(set.warnings()[1].message.contains("not valid UTF-8"));
}

#[test]
fn a_fifo_does_not_hang() {
    let rig = Rig::new();
    nix::unistd::mkfifo(&rig.project_file(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    nix::unistd::mkfifo(&rig.user_file(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let set = rig.load();
    assert_eq!(set.warnings().len(), 2, "{:?}", set.warnings());
    assert!(
        set.warnings()
            .iter()
            .all(|w| w.message.contains("not a regular file"))
    );
}

#[test]
fn writing_is_atomic_and_creates_the_folder() {
    let rig = Rig::new();
    fs::remove_dir(rig.dir.path().join("project/.ideai")).unwrap();
    rig.files
        .write_project("{\"permissions\":{\"deny\":[\"Bash(rm *)\"]}}\n")
        .unwrap();
    assert_eq!(
        rig.files.project.read_permissions().unwrap().as_deref(),
        Some("{\"permissions\":{\"deny\":[\"Bash(rm *)\"]}}\n")
    );
    let leftovers: Vec<_> = fs::read_dir(rig.dir.path().join("project/.ideai"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["permissions.json"]);
}
