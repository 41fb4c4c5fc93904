//! `ProcessToolRunner` against real processes: `#!/bin/sh` scripts in a temp tool folder (run
//! as `./script`, never through `sh -c`), programs on `PATH`. Arguments arrive whole, `./` is
//! the tool's folder and cannot be left, output is capped without blocking the child, a
//! timeout kills the whole process group, a subprocess holding the output cannot hang a run,
//! and a sandboxed run cannot write outside its plan.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_domain::sandbox::SandboxPlan;
use idea_domain::tool_run::{ToolProcesses, ToolRun, ToolRunError, ToolRunOutput};
use idea_infrastructure::tools::ProcessToolRunner;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Far longer than any run here takes: a test that needs the timeout sets its own.
const LONG: Duration = Duration::from_secs(120);

fn tool(cwd: &Path, program: &str, args: &[&str]) -> ToolRun {
    ToolRun {
        program: program.to_owned(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        cwd: cwd.to_path_buf(),
        env: vec![],
        sandbox: None,
        timeout: LONG,
        output_cap: 100_000,
    }
}

/// An executable `#!/bin/sh` script `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn run(run: &ToolRun) -> Result<ToolRunOutput, ToolRunError> {
    ProcessToolRunner::new(None).run(run)
}

fn ok(run: &ToolRun) -> ToolRunOutput {
    self::run(run).unwrap_or_else(|e| panic!("{}: {e}", run.program))
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet), waiting up to 20 s for it.
fn gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                // `pid (comm) S …`: the state follows the last `)`.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_owned))
            });
        match state.as_deref() {
            None | Some("Z" | "X") => return true,
            Some(_) if Instant::now() >= deadline => return false,
            Some(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn pid_in(file: &Path) -> Option<u32> {
    fs::read_to_string(file).ok()?.trim().parse().ok()
}

#[test]
fn arguments_arrive_whole_and_uninterpreted() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "echo-args.sh",
        "for a in \"$@\"; do printf '%s\\n' \"$a\"; done\n",
    );
    let args = [
        "two words",
        "it's",
        "\"double\" 'single'",
        "; rm -rf /",
        "$(touch pwned)",
        "`touch pwned2`",
        "&& touch pwned3 |",
        "*",
        "$HOME",
        "",
        "  padded  ",
    ];
    let out = ok(&tool(dir.path(), "./echo-args.sh", &args));
    let expected: String = args.iter().map(|a| format!("{a}\n")).collect();
    assert_eq!(out.stdout, expected);
    assert_eq!(out.stderr, "");
    assert_eq!(out.exit_code, Some(0));
    assert!(out.succeeded());
    assert!(!out.truncated && !out.timed_out);
    for name in ["pwned", "pwned2", "pwned3"] {
        assert!(!dir.path().join(name).exists(), "{name} was created");
    }
}

#[test]
fn dot_slash_is_the_tools_folder_and_its_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "where.sh", "pwd\n");
    script(dir.path(), "sub/nested.sh", "echo nested\n");
    let folder = dir.path().canonicalize().unwrap();

    let out = ok(&tool(dir.path(), "./where.sh", &[]));
    assert_eq!(out.stdout.trim_end(), folder.to_str().unwrap());
    assert_eq!(
        ok(&tool(dir.path(), "./sub/nested.sh", &[])).stdout,
        "nested\n"
    );
    assert_eq!(
        ok(&tool(dir.path(), "sub/nested.sh", &[])).stdout,
        "nested\n"
    );
    // `..` that stays inside is fine.
    assert_eq!(
        ok(&tool(&dir.path().join("sub"), "../sub/nested.sh", &[])).stdout,
        "nested\n"
    );
    // A link inside the folder to a program inside it is fine too.
    std::os::unix::fs::symlink(folder.join("sub/nested.sh"), folder.join("link.sh")).unwrap();
    assert_eq!(ok(&tool(dir.path(), "./link.sh", &[])).stdout, "nested\n");
    // An absolute path is taken as given.
    let absolute = folder.join("where.sh");
    let out = ok(&tool(&folder.join("sub"), absolute.to_str().unwrap(), &[]));
    assert_eq!(out.stdout.trim_end(), folder.join("sub").to_str().unwrap());
}

#[test]
fn a_relative_program_cannot_leave_the_tools_folder() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("tool");
    fs::create_dir(&folder).unwrap();
    let marker = root.path().join("ran");
    let outside = script(
        root.path(),
        "outside.sh",
        &format!("touch '{}'\n", marker.display()),
    );
    std::os::unix::fs::symlink(&outside, folder.join("escape.sh")).unwrap();

    for program in ["../outside.sh", "./../outside.sh", "./escape.sh"] {
        let err = run(&tool(&folder, program, &[])).unwrap_err();
        assert!(
            matches!(&err, ToolRunError::Spawn(why) if why.contains("outside the tool's folder")),
            "{program}: {err:?}"
        );
    }
    assert!(!marker.exists(), "a program outside the folder ran");
    assert_eq!(
        run(&tool(&folder, "../missing.sh", &[])),
        Err(ToolRunError::ProgramNotFound("../missing.sh".into()))
    );
}

#[test]
fn bare_names_are_looked_up_in_the_childs_path() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&tool(dir.path(), "printf", &["%s|%s", "a b", "$(c)"]));
    assert_eq!(out.stdout, "a b|$(c)");
    assert_eq!(out.exit_code, Some(0));

    // The run's own PATH is the one searched.
    let bin = tempfile::tempdir().unwrap();
    script(bin.path(), "my-tool", "echo mine\n");
    let mut with_path = tool(dir.path(), "my-tool", &[]);
    with_path.env = vec![(
        "PATH".into(),
        format!("/nonexistent-dir:{}", bin.path().display()),
    )];
    assert_eq!(ok(&with_path).stdout, "mine\n");
    // Not in IdeA's PATH.
    assert_eq!(
        run(&tool(dir.path(), "my-tool", &[])),
        Err(ToolRunError::ProgramNotFound("my-tool".into()))
    );
}

#[test]
fn missing_or_non_executable_programs_are_not_found() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("plain.sh"), "#!/bin/sh\necho no\n").unwrap();
    for program in [
        "idea-no-such-tool-4f1c",
        "./missing.sh",
        "./plain.sh",
        "/nonexistent-dir/tool",
        "",
    ] {
        assert_eq!(
            run(&tool(dir.path(), program, &[])),
            Err(ToolRunError::ProgramNotFound(program.into())),
            "{program}"
        );
    }
}

#[test]
fn a_missing_tool_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = run(&tool(&dir.path().join("gone"), "printf", &["x"])).unwrap_err();
    assert!(matches!(err, ToolRunError::Spawn(_)), "{err:?}");
}

#[test]
fn a_failure_keeps_its_exit_code_and_stderr() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "fail.sh",
        "echo partial\necho 'it broke' >&2\nexit 3\n",
    );
    let out = ok(&tool(dir.path(), "./fail.sh", &[]));
    assert_eq!(out.exit_code, Some(3));
    assert_eq!(out.stdout, "partial\n");
    assert_eq!(out.stderr, "it broke\n");
    assert!(!out.succeeded() && !out.timed_out && !out.truncated);
}

#[test]
fn a_signal_ending_the_tool_has_no_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "die.sh", "kill -KILL $$\n");
    let out = ok(&tool(dir.path(), "./die.sh", &[]));
    assert_eq!(out.exit_code, None);
    assert!(!out.timed_out && !out.succeeded());
}

#[test]
fn the_environment_is_idea_s_plus_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "env.sh",
        "printf '%s\\n' \"$TOOL_VAR\" \"$PATH\"\n",
    );
    let mut with_env = tool(dir.path(), "./env.sh", &[]);
    with_env.env = vec![("TOOL_VAR".into(), "x $(y) z".into())];
    let out = ok(&with_env);
    let path = std::env::var("PATH").unwrap_or_default();
    assert_eq!(out.stdout, format!("x $(y) z\n{path}\n"));
}

#[test]
fn stdin_is_dev_null() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok(&tool(dir.path(), "cat", &[]));
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout, "");
}

#[test]
fn output_is_capped_in_characters() {
    let dir = tempfile::tempdir().unwrap();
    // "héllo wörld" on stdout, invalid UTF-8 then "ok" on stderr.
    script(
        dir.path(),
        "utf8.sh",
        "printf 'h\\303\\251llo w\\303\\266rld'\nprintf '\\377ok' >&2\n",
    );
    let mut capped = tool(dir.path(), "./utf8.sh", &[]);
    capped.output_cap = 4;
    let out = ok(&capped);
    assert_eq!(out.stdout, "héll");
    assert_eq!(out.stderr, "\u{fffd}ok");
    assert!(out.truncated);
    assert_eq!(out.exit_code, Some(0));

    capped.output_cap = 11;
    let out = ok(&capped);
    assert_eq!(out.stdout, "héllo wörld");
    assert!(!out.truncated);
}

#[test]
fn ten_megabytes_of_output_do_not_block_the_tool() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "flood.sh",
        "head -c 10000000 /dev/zero | tr '\\000' b >&2\n\
         head -c 10000000 /dev/zero | tr '\\000' a\n\
         echo end\n\
         exit 7\n",
    );
    let mut flood = tool(dir.path(), "./flood.sh", &[]);
    flood.output_cap = 1000;
    let started = Instant::now();
    let out = ok(&flood);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(out.exit_code, Some(7));
    assert!(!out.timed_out);
    assert!(out.truncated);
    assert_eq!(out.stdout, "a".repeat(1000));
    assert_eq!(out.stderr, "b".repeat(1000));
}

#[test]
fn a_timeout_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    script(
        dir.path(),
        "hang.sh",
        "sleep 1000 &\necho $! > \"$1\"\necho started\nsleep 1000\n",
    );
    // A loaded machine may not even reach the script's second line in 500 ms: then try longer.
    let mut timeout = Duration::from_millis(500);
    let (out, grandchild) = loop {
        let _ = fs::remove_file(&pid_file);
        let mut hang = tool(dir.path(), "./hang.sh", &[pid_file.to_str().unwrap()]);
        hang.timeout = timeout;
        let out = ok(&hang);
        if let Some(pid) = pid_in(&pid_file) {
            break (out, pid);
        }
        assert!(
            timeout < Duration::from_secs(20),
            "the script never started"
        );
        timeout *= 4;
    };
    assert!(out.timed_out);
    assert_eq!(out.exit_code, None);
    assert!(!out.succeeded());
    assert!(
        gone(grandchild),
        "the backgrounded grandchild {grandchild} survived"
    );
}

#[test]
fn a_subprocess_holding_the_output_cannot_hang_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("sleeper.pid");
    script(
        dir.path(),
        "background.sh",
        "sleep 1000 &\necho $! > \"$1\"\necho done\n",
    );
    let mut background = tool(dir.path(), "./background.sh", &[pid_file.to_str().unwrap()]);
    background.timeout = Duration::from_secs(300);
    let started = Instant::now();
    let out = ok(&background);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "waited for the sleeper"
    );
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout, "done\n");
    assert!(!out.timed_out && out.succeeded());
    let sleeper = pid_in(&pid_file).unwrap();
    assert!(gone(sleeper), "the sleeper {sleeper} survived");
}

#[test]
fn a_plan_that_cannot_be_enforced_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().canonicalize().unwrap();
    let marker = folder.join("ran");
    script(
        &folder,
        "mark.sh",
        &format!("touch '{}'\n", marker.display()),
    );
    let mut sandboxed = tool(&folder, "./mark.sh", &[]);
    sandboxed.sandbox = Some(SandboxPlan {
        write_roots: vec![folder.clone()],
        ..SandboxPlan::default()
    });
    // No helper: refused whatever the kernel.
    let err = run(&sandboxed).unwrap_err();
    assert!(matches!(err, ToolRunError::Sandbox(_)), "{err:?}");
    // A plan that is not well formed: refused before the kernel is asked.
    sandboxed.sandbox = Some(SandboxPlan {
        write_roots: vec![PathBuf::from("relative")],
        ..SandboxPlan::default()
    });
    let helper =
        ProcessToolRunner::new(Some(PathBuf::from(env!("CARGO_BIN_EXE_idea-sandbox-exec"))));
    let err = helper.run(&sandboxed).unwrap_err();
    assert!(matches!(err, ToolRunError::Sandbox(_)), "{err:?}");
    assert!(!marker.exists(), "the tool ran unsandboxed");
}

#[test]
fn a_sandboxed_tool_cannot_write_outside_its_plan() {
    use idea_infrastructure::sandbox::{kernel_abi, required_abi};
    let abi = kernel_abi();
    if abi.is_none_or(|abi| abi < required_abi()) {
        eprintln!(
            "SKIPPED: this kernel offers Landlock ABI {abi:?}, the sandbox needs ABI {}",
            required_abi()
        );
        return;
    }
    let folder_dir = tempfile::tempdir().unwrap();
    let outside_dir = tempfile::tempdir().unwrap();
    let folder = folder_dir.path().canonicalize().unwrap();
    let outside = outside_dir.path().canonicalize().unwrap();
    let inside_file = folder.join("inside");
    let outside_file = outside.join("outside");

    let mut sandboxed = tool(
        &folder,
        "touch",
        &[
            inside_file.to_str().unwrap(),
            outside_file.to_str().unwrap(),
        ],
    );
    sandboxed.sandbox = Some(SandboxPlan {
        write_roots: vec![folder.clone(), PathBuf::from("/dev/null")],
        scope_signals: true,
        scope_abstract_unix: true,
        ..SandboxPlan::default()
    });
    let runner =
        ProcessToolRunner::new(Some(PathBuf::from(env!("CARGO_BIN_EXE_idea-sandbox-exec"))));
    let out = runner.run(&sandboxed).unwrap();
    assert!(inside_file.exists(), "{out:?}");
    assert!(!outside_file.exists(), "wrote outside the plan: {out:?}");
    assert_ne!(out.exit_code, Some(0), "{out:?}");
    assert!(out.stderr.contains("Permission denied"), "{out:?}");

    // The same run unsandboxed writes both: the plan is what refused.
    sandboxed.sandbox = None;
    let out = ok(&sandboxed);
    assert_eq!(out.exit_code, Some(0), "{out:?}");
    assert!(outside_file.exists());
}
