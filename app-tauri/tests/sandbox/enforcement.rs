//! Where a sandboxed process may read and write.

use super::support::{landlock, stderr, stdout, try_read, try_write, unique, world};
use std::fs;
use std::path::Path;

#[test]
fn writes_inside_the_project_and_the_run_dir_succeed() {
    if !landlock() {
        return;
    }
    let w = world();
    fs::write(w.project.join("existing.txt"), "old").unwrap();
    let script = format!(
        "{}{}mkdir src && echo fn > src/main.rs && echo new > existing.txt && \
         mv src/main.rs src/lib.rs && rm existing.txt && echo ALL-OK",
        try_write(&w.project.join("created.txt")),
        try_write(&w.run_dir.join("notes.md")),
    );
    let out = w.run(&w.plan(), &script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains(&format!(
        "WROTE {}",
        w.project.join("created.txt").display()
    )));
    assert!(text.contains(&format!("WROTE {}", w.run_dir.join("notes.md").display())));
    assert!(text.contains("ALL-OK"), "{text}{}", stderr(&out));
    assert!(w.project.join("src/lib.rs").is_file());
}

#[test]
fn writes_are_denied_in_home_etc_var_tmp_and_a_sibling_of_the_project() {
    if !landlock() {
        return;
    }
    let w = world();
    let real_home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let mut targets = vec![
        unique(&w.home),
        unique(Path::new("/etc")),
        unique(Path::new("/var/tmp")),
        unique(&w.sibling),
        w.root.join("next-to-the-project.txt"),
    ];
    // The real home too: a unique name, so nothing of the user's is touched.
    targets.extend(real_home.as_deref().map(unique));
    let script: String = targets.iter().map(|t| try_write(t)).collect();
    let out = w.run(&w.plan(), &script);
    let text = stdout(&out);
    for target in &targets {
        assert!(
            text.contains(&format!("DENIED {}", target.display())),
            "{target:?} not denied: {text}{}",
            stderr(&out)
        );
        assert!(!target.exists(), "{target:?} was created");
    }
    // Reading outside the write roots still works.
    let read = w.run(&w.plan(), &try_read(Path::new("/etc/passwd")));
    assert!(
        stdout(&read).contains("READ /etc/passwd"),
        "{}",
        stdout(&read)
    );
}

#[test]
fn a_symlink_in_the_project_pointing_outside_grants_no_write() {
    if !landlock() {
        return;
    }
    let w = world();
    std::os::unix::fs::symlink(&w.sibling, w.project.join("out")).unwrap();
    std::os::unix::fs::symlink(w.home.join("file"), w.project.join("out-file")).unwrap();
    fs::write(w.home.join("file"), "keep").unwrap();
    let via_dir = w.project.join("out/created.txt");
    let script = format!(
        "{}{}{}",
        try_write(&via_dir),
        try_write(&w.project.join("out-file")),
        try_read(&w.project.join("out-file")),
    );
    let out = w.run(&w.plan(), &script);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("DENIED {}", via_dir.display())),
        "{text}"
    );
    let link = w.project.join("out-file");
    assert!(
        text.contains(&format!("DENIED {}", link.display())),
        "{text}"
    );
    assert!(text.contains(&format!("READ {}", w.project.join("out-file").display())));
    assert!(!w.sibling.join("created.txt").exists());
    assert_eq!(fs::read_to_string(w.home.join("file")).unwrap(), "keep");
}

#[test]
fn a_denied_path_inside_the_project_can_be_neither_read_nor_written() {
    if !landlock() {
        return;
    }
    let w = world();
    let secrets = w.project.join("secrets");
    fs::create_dir_all(secrets.join("deep")).unwrap();
    fs::write(secrets.join("key.txt"), "s3cret").unwrap();
    fs::write(secrets.join("deep/more.txt"), "s3cret").unwrap();
    fs::write(w.project.join(".env"), "TOKEN=1").unwrap();
    fs::write(w.project.join("README.md"), "hello").unwrap();
    fs::create_dir_all(w.project.join("src")).unwrap();
    let mut plan = w.plan();
    let later = w.project.join("not-yet.key");
    plan.read_denied = vec![secrets.clone(), w.project.join(".env"), later.clone()];
    let script = [
        try_read(&secrets.join("key.txt")),
        try_read(&secrets.join("deep/more.txt")),
        try_read(&w.project.join(".env")),
        try_write(&secrets.join("key.txt")),
        try_write(&secrets.join("new.txt")),
        try_write(&w.project.join(".env")),
        // Removing or renaming a denied file is a write too.
        format!(
            "rm -f '{}' 2>/dev/null || echo 'NO-RM'; ",
            secrets.join("key.txt").display()
        ),
        "mv .env moved 2>/dev/null || echo 'NO-MV'; ".to_owned(),
        // The rest of the project stays usable.
        try_read(&w.project.join("README.md")),
        try_write(&w.project.join("README.md")),
        try_write(&w.project.join("src/new.rs")),
        // A denied path that does not exist yet cannot be created either.
        try_write(&later),
        "ls >/dev/null && echo 'LISTED'; ".to_owned(),
        // Documented limit: the names inside a denied folder stay listable.
        "ls secrets | grep -q key.txt && echo 'NAMES-LISTED'; ".to_owned(),
    ]
    .concat();
    let out = w.run(&plan, &script);
    let text = stdout(&out);
    for denied in ["key.txt", "deep/more.txt"] {
        assert!(
            text.contains(&format!("DENIED {}", secrets.join(denied).display())),
            "{denied}: {text}{}",
            stderr(&out)
        );
    }
    assert!(text.contains(&format!("DENIED {}", secrets.join("new.txt").display())));
    assert_eq!(
        text.matches(&format!("DENIED {}", w.project.join(".env").display()))
            .count(),
        2
    );
    assert!(text.contains("NO-RM") && text.contains("NO-MV"), "{text}");
    assert!(text.contains(&format!("READ {}", w.project.join("README.md").display())));
    assert!(text.contains(&format!("WROTE {}", w.project.join("README.md").display())));
    assert!(text.contains(&format!("WROTE {}", w.project.join("src/new.rs").display())));
    assert!(
        text.contains(&format!("DENIED {}", later.display())),
        "{text}"
    );
    assert!(!later.exists());
    assert!(text.contains("LISTED"), "{text}");
    assert!(text.contains("NAMES-LISTED"), "{text}");
    assert_eq!(
        fs::read_to_string(secrets.join("key.txt")).unwrap(),
        "s3cret"
    );
    assert!(!secrets.join("new.txt").exists());
}

#[test]
fn a_grandchild_inherits_the_sandbox_even_once_detached() {
    if !landlock() {
        return;
    }
    let w = world();
    let direct = unique(&w.sibling);
    let detached = unique(&w.sibling);
    let marker = w.project.join("detached-done");
    let probe = |name: &str, body: String| {
        let file = w.root.join(name);
        fs::write(&file, body).unwrap();
        file.display().to_string()
    };
    let child = probe("child.sh", try_write(&direct));
    let orphan = probe(
        "orphan.sh",
        format!(
            "sleep 0.2; {{ {}}} > '{m}.tmp'; mv '{m}.tmp' '{m}'",
            try_write(&detached),
            m = marker.display()
        ),
    );
    // A grandchild through two shells, and one in a new session left running on its own.
    let script = format!("sh -c 'sh {child}'; setsid sh {orphan} > /dev/null 2>&1 &");
    let out = w.run(&w.plan(), &script);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("DENIED {}", direct.display())),
        "{text}{}",
        stderr(&out)
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !marker.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let seen = fs::read_to_string(&marker).unwrap_or_default();
    assert!(
        seen.contains(&format!("DENIED {}", detached.display())),
        "{seen}"
    );
    assert!(!direct.exists() && !detached.exists());
}

/// Regression: from a checkout under `/tmp` (or with `$TMPDIR` over Cargo's target dir) the
/// worlds were made inside a temp dir, which the plan of `idea sandbox --project` grants: the
/// "outside" of those tests was writable and they failed.
#[test]
fn a_test_world_lies_outside_every_folder_a_plan_grants_every_agent() {
    let w = world();
    let granted = crate::world_dir::granted_to_every_agent();
    assert!(
        granted.iter().all(|dir| !w.root.starts_with(dir)),
        "{} is under one of {granted:?}",
        w.root.display()
    );
}
