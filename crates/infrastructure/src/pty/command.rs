//! Turning a [`SpawnSpec`] into a `portable_pty::CommandBuilder`: program resolution, working
//! directory check and the child's environment. Pure functions, so the rules are tested
//! without spawning anything.

use crate::sandbox;
use idea_domain::terminal::{PtyError, SpawnSpec};
use portable_pty::CommandBuilder;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Variables removed from every child, whatever the spec says: a terminal multiplexer's
/// markers would make an agent CLI believe it runs inside tmux, screen or zellij and drive
/// that multiplexer instead of its own terminal.
pub(crate) const MULTIPLEXER_VARIABLES: [&str; 5] =
    ["TMUX", "TMUX_PANE", "STY", "ZELLIJ", "ZELLIJ_SESSION_NAME"];

/// What IdeA's terminal (xterm.js) understands, unless the spec says otherwise.
const TERMINAL_VARIABLES: [(&str, &str); 2] =
    [("TERM", "xterm-256color"), ("COLORTERM", "truecolor")];

/// The command for `spec`, with the program resolved and the environment built from `inherited`.
///
/// # Errors
/// [`PtyError::CommandNotFound`] when the program cannot be found or is not executable;
/// [`PtyError::SpawnFailed`] when the working directory is not a directory (portable-pty would
/// otherwise silently start the child in `$HOME`), and when `spec.sandbox` cannot be enforced
/// (no `sandbox_helper`, a kernel without Landlock ABI 6): [`PtyError::Sandbox`], nothing runs
/// unsandboxed.
pub(crate) fn build(
    spec: &SpawnSpec,
    inherited: impl IntoIterator<Item = (OsString, OsString)>,
    sandbox_helper: Option<&Path>,
) -> Result<CommandBuilder, PtyError> {
    if !spec.cwd.is_dir() {
        return Err(PtyError::SpawnFailed {
            command: spec.command.clone(),
            reason: format!(
                "working directory {} is not a directory",
                spec.cwd.display()
            ),
        });
    }
    let env = child_env(inherited, spec);
    let program = resolve_program(&spec.command, &spec.cwd, env.get(OsStr::new("PATH")))
        .ok_or_else(|| PtyError::CommandNotFound(spec.command.clone()))?;

    let (mut command, plan_json) = match &spec.sandbox {
        None => (CommandBuilder::new(program), None),
        Some(plan) => {
            let wrapped =
                sandbox::wrap(sandbox_helper, plan, &program).map_err(|e| PtyError::Sandbox {
                    command: spec.command.clone(),
                    reason: e.to_string(),
                })?;
            let mut command = CommandBuilder::new(wrapped.program);
            command.args(&wrapped.args);
            (command, Some(wrapped.plan_json))
        }
    };
    command.args(&spec.args);
    command.cwd(&spec.cwd);
    // CommandBuilder starts from the parent's environment; replace it with exactly ours.
    // (portable-pty still sets `SHELL` itself, from this environment or the password database.)
    command.env_clear();
    for (key, value) in env {
        command.env(key, value);
    }
    // Last, so that no variable of the profile can stand in for the plan.
    if let Some(plan_json) = plan_json {
        command.env(sandbox::PLAN_ENV, plan_json);
    }
    Ok(command)
}

/// The child's environment: `inherited`, minus `spec.env_remove` and the multiplexer
/// variables, plus `spec.env`, plus the terminal variables that `spec.env` does not set.
pub(crate) fn child_env(
    inherited: impl IntoIterator<Item = (OsString, OsString)>,
    spec: &SpawnSpec,
) -> BTreeMap<OsString, OsString> {
    let mut env: BTreeMap<OsString, OsString> = inherited.into_iter().collect();
    for key in spec
        .env_remove
        .iter()
        .map(String::as_str)
        .chain(MULTIPLEXER_VARIABLES)
    {
        env.remove(OsStr::new(key));
    }
    for (key, value) in &spec.env {
        env.insert(key.into(), value.into());
    }
    for (key, value) in TERMINAL_VARIABLES {
        if !spec.env.contains_key(key) {
            env.insert(key.into(), value.into());
        }
    }
    env
}

/// Where `command` lives: as given (relative to `cwd`) when it contains a `/`, otherwise the
/// first executable file named so in `path_var` (the child's `PATH`, so a spec that changes
/// `PATH` finds what the child would). `None` when there is no such executable.
pub(crate) fn resolve_program(
    command: &str,
    cwd: &Path,
    path_var: Option<&OsString>,
) -> Option<PathBuf> {
    if command.is_empty() {
        return None;
    }
    if command.contains('/') {
        let path = cwd.join(command);
        return is_executable(&path).then_some(path);
    }
    std::env::split_paths(path_var?)
        // An empty entry traditionally means the current directory; never search it implicitly.
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| cwd.join(dir).join(command))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Elsewhere a plain file is taken as runnable (no `PATHEXT` handling: IdeA targets Unix first).
#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use idea_domain::terminal::TerminalSize;

    fn spec(command: &str) -> SpawnSpec {
        SpawnSpec {
            command: command.to_owned(),
            args: vec![],
            env: BTreeMap::new(),
            env_remove: vec![],
            cwd: std::env::temp_dir(),
            size: TerminalSize::default(),
            stdin_injection: None,
            sandbox: None,
        }
    }

    fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect()
    }

    fn get<'a>(env: &'a BTreeMap<OsString, OsString>, key: &str) -> Option<&'a str> {
        env.get(OsStr::new(key)).and_then(|v| v.to_str())
    }

    #[test]
    fn multiplexer_variables_are_always_removed() {
        let inherited = vars(&[
            ("TMUX", "/tmp/tmux-0/default,1,0"),
            ("TMUX_PANE", "%1"),
            ("STY", "1.pts-0"),
            ("ZELLIJ", "0"),
            ("ZELLIJ_SESSION_NAME", "s"),
            ("HOME", "/home/me"),
        ]);
        let env = child_env(inherited, &spec("x"));
        for key in MULTIPLEXER_VARIABLES {
            assert_eq!(get(&env, key), None, "{key} leaked");
        }
        assert_eq!(get(&env, "HOME"), Some("/home/me"));
    }

    #[test]
    fn env_remove_then_env_then_terminal_variables() {
        let mut spec = spec("x");
        spec.env_remove = vec!["SECRET".into(), "OVERRIDDEN".into()];
        spec.env.insert("OVERRIDDEN".into(), "new".into());
        spec.env.insert("EXTRA".into(), "1".into());
        let inherited = vars(&[
            ("SECRET", "s"),
            ("OVERRIDDEN", "old"),
            ("TERM", "screen"),
            ("COLORTERM", "24bit"),
            ("KEPT", "k"),
        ]);
        let env = child_env(inherited, &spec);
        assert_eq!(get(&env, "SECRET"), None);
        assert_eq!(get(&env, "OVERRIDDEN"), Some("new"));
        assert_eq!(get(&env, "EXTRA"), Some("1"));
        assert_eq!(get(&env, "KEPT"), Some("k"));
        assert_eq!(get(&env, "TERM"), Some("xterm-256color"));
        assert_eq!(get(&env, "COLORTERM"), Some("truecolor"));
    }

    #[test]
    fn the_spec_may_choose_its_own_terminal_variables() {
        let mut spec = spec("x");
        spec.env.insert("TERM".into(), "dumb".into());
        let env = child_env(vars(&[]), &spec);
        assert_eq!(get(&env, "TERM"), Some("dumb"));
        assert_eq!(get(&env, "COLORTERM"), Some("truecolor"));
    }

    #[test]
    fn the_spec_may_set_a_multiplexer_variable_explicitly() {
        // Only the inherited ones are stripped; an explicit choice of the profile wins.
        let mut spec = spec("x");
        spec.env.insert("TMUX".into(), "mine".into());
        let env = child_env(vars(&[("TMUX", "parent")]), &spec);
        assert_eq!(get(&env, "TMUX"), Some("mine"));
    }

    #[cfg(unix)]
    #[test]
    fn resolves_on_the_given_path_only_executables() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "data").unwrap();
        let tool = dir.path().join("tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths(["/nonexistent-dir".as_ref(), dir.path()]).unwrap();

        assert_eq!(
            resolve_program("tool", Path::new("/"), Some(&path)),
            Some(tool.clone())
        );
        assert_eq!(resolve_program("plain", Path::new("/"), Some(&path)), None);
        assert_eq!(
            resolve_program("missing", Path::new("/"), Some(&path)),
            None
        );
        assert_eq!(resolve_program("tool", Path::new("/"), None), None);
        assert_eq!(resolve_program("", Path::new("/"), Some(&path)), None);
        // With a slash: taken as a path, relative to the working directory.
        assert_eq!(
            resolve_program("./tool", dir.path(), None),
            Some(dir.path().join("./tool"))
        );
        assert_eq!(
            resolve_program(tool.to_str().unwrap(), Path::new("/"), None),
            Some(tool)
        );
        assert_eq!(resolve_program("./plain", dir.path(), None), None);
    }

    #[test]
    fn a_spec_with_a_plan_runs_through_the_helper_which_alone_sets_the_plan() {
        let mut spec = spec("sh");
        spec.args = vec!["-c".into(), "true".into()];
        let plan = idea_domain::sandbox::SandboxPlan {
            write_roots: vec![PathBuf::from("/w")],
            ..Default::default()
        };
        spec.sandbox = Some(plan.clone());
        // A profile's variable cannot replace the plan.
        spec.env
            .insert(sandbox::PLAN_ENV.into(), r#"{"writeRoots":["/"]}"#.into());
        let path = std::env::var_os("PATH");
        let inherited = vars(&[(
            "PATH",
            path.as_deref().and_then(|p| p.to_str()).unwrap_or(""),
        )]);
        match build(&spec, inherited.clone(), Some(Path::new("/opt/idea"))) {
            Ok(command) => {
                let argv: Vec<String> = command
                    .get_argv()
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect();
                assert_eq!(argv[..3], ["/opt/idea", "sandbox-exec", "--"]);
                assert!(argv[3].ends_with("/sh"), "{argv:?}");
                assert_eq!(argv[4..], ["-c", "true"]);
                let sent = command.get_env(sandbox::PLAN_ENV).unwrap();
                let sent: idea_domain::sandbox::SandboxPlan =
                    serde_json::from_str(sent.to_str().unwrap()).unwrap();
                assert_eq!(sent, plan);
            }
            // A kernel without Landlock ABI 6: refused, nothing to run.
            Err(PtyError::Sandbox { reason, .. }) => {
                assert!(reason.contains("cannot enforce"), "{reason}");
            }
            Err(other) => panic!("{other}"),
        }
        // No helper: refused, whatever the kernel.
        assert!(matches!(
            build(&spec, inherited, None),
            Err(PtyError::Sandbox { .. })
        ));
    }

    #[test]
    fn a_missing_program_is_command_not_found() {
        let mut spec = spec("idea-no-such-program-4f1c");
        spec.env.insert("PATH".into(), "/nonexistent-dir".into());
        let err = build(&spec, vars(&[]), None).err();
        assert_eq!(
            err,
            Some(PtyError::CommandNotFound(
                "idea-no-such-program-4f1c".into()
            ))
        );
    }

    #[test]
    fn a_missing_working_directory_is_a_spawn_failure() {
        let mut spec = spec("sh");
        spec.cwd = PathBuf::from("/nonexistent-dir/idea");
        assert!(matches!(
            build(&spec, vars(&[]), None),
            Err(PtyError::SpawnFailed { .. })
        ));
    }
}
