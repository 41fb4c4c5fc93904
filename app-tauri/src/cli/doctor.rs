//! `idea profiles` and `idea doctor`.

use super::{Failure, print_json};
use crate::compose::{cli_homes, profile_catalog};
use idea_domain::ports::{CliHomes, ProfileCatalog};
use idea_infrastructure::probe;
use idea_server::paths::user_dir;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

pub fn profiles(json: bool) -> Result<(), Failure> {
    let catalog = profile_catalog();
    let problems = catalog.problems();
    for problem in &problems {
        eprintln!(
            "idea: skipped a profile in {}: {}",
            problem.source.display(),
            problem.message
        );
    }
    let profiles = catalog.profiles();
    if json {
        return print_json(&profiles);
    }
    for p in profiles {
        let resume = if p.can_resume_session() { "resume" } else { "" };
        println!(
            "{:<12} {:<14} {:<10} {resume}",
            p.id.as_str(),
            p.name,
            p.command
        );
    }
    Ok(())
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CliReport {
    profile_id: String,
    command: String,
    path: Option<PathBuf>,
    version: Option<String>,
    problem: Option<String>,
    /// What the CLI still needs before an agent can start (installed CLIs whose user state
    /// IdeA can read): its first-run setup, a login, an API key.
    setup: Option<String>,
}

/// git's version, or why agents cannot have worktrees (missing, older than 2.38).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GitReport {
    version: Option<String>,
    problem: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct DoctorReport {
    clis: Vec<CliReport>,
    landlock: probe::LandlockSupport,
    user_namespaces: idea_infrastructure::sandbox::NamespaceSupport,
    git: GitReport,
    webkit: bool,
    display: bool,
    desktop_build: bool,
    user_dir: PathBuf,
    user_profiles: PathBuf,
    /// Today's log file (`<user dir>/logs/idea.log.<UTC date>`).
    log: PathBuf,
    profile_problems: Vec<idea_domain::ports::ProfileProblem>,
}

fn resolve_command(command: &str) -> String {
    if command == "{loginShell}" {
        std::env::var("SHELL")
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "/bin/sh".into())
    } else {
        command.to_owned()
    }
}

pub fn doctor(json: bool) -> Result<(), Failure> {
    let catalog = profile_catalog();
    let path_var = std::env::var_os("PATH");
    let homes = cli_homes();
    let clis = catalog
        .profiles()
        .into_iter()
        .map(|p| {
            let command = resolve_command(&p.command);
            let path = probe::find_on_path(&command, path_var.as_deref());
            let (version, problem) = match &path {
                None => (
                    None,
                    Some(match &p.install_hint {
                        Some(hint) => format!("not found on PATH; install it with: {hint}"),
                        None => "not found on PATH".to_owned(),
                    }),
                ),
                Some(found) => {
                    match probe::command_version(found, &p.version_args, Duration::from_secs(10)) {
                        Ok(v) => (Some(v), None),
                        Err(e) => (None, Some(e)),
                    }
                }
            };
            let setup = p
                .home
                .filter(|_| path.is_some())
                .and_then(|home| homes.setup_problem(home, &p.env));
            CliReport {
                profile_id: p.id.to_string(),
                command,
                path,
                version,
                problem,
                setup,
            }
        })
        .collect();
    let dir = user_dir();
    let report = DoctorReport {
        clis,
        landlock: probe::landlock_support(),
        user_namespaces: idea_infrastructure::sandbox::namespace_support(
            crate::compose::sandbox_helper().as_deref(),
        ),
        git: match idea_infrastructure::git::version() {
            Ok((major, minor, patch)) => GitReport {
                version: Some(format!("{major}.{minor}.{patch}")),
                problem: None,
            },
            Err(e) => GitReport {
                version: None,
                problem: Some(e.to_string()),
            },
        },
        webkit: probe::webkit_present(),
        display: probe::display_present(),
        desktop_build: cfg!(feature = "desktop"),
        user_profiles: idea_infrastructure::profiles::user_profiles_path(&dir),
        log: idea_server::logging::current_log_file(&dir),
        user_dir: dir,
        profile_problems: catalog.problems(),
    };
    if json {
        return print_json(&report);
    }
    println!("Agent CLIs:");
    for cli in &report.clis {
        let state = match (&cli.version, &cli.problem) {
            (Some(v), _) => format!(
                "{v}  ({})",
                cli.path
                    .as_deref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ),
            (None, Some(problem)) => problem.clone(),
            (None, None) => String::new(),
        };
        println!("  {:<12} {:<10} {state}", cli.profile_id, cli.command);
        if let Some(setup) = &cli.setup {
            println!("  {:<12} {:<10} needs setup: {setup}", "", "");
        }
    }
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!("Landlock:       {}", report.landlock.detail);
    println!("Namespaces:     {}", report.user_namespaces.detail);
    if let Some(how) = &report.user_namespaces.how_to_allow {
        println!("                to allow them: {how}");
    }
    match (&report.git.version, &report.git.problem) {
        (Some(version), _) => println!("git:            {version} (worktrees need 2.38 or later)"),
        (None, problem) => println!(
            "git:            {}",
            problem.as_deref().unwrap_or("unknown")
        ),
    }
    println!("WebKitGTK 4.1:  {}", yes_no(report.webkit));
    println!("Display:        {}", yes_no(report.display));
    println!("Desktop build:  {}", yes_no(report.desktop_build));
    println!("User data:      {}", report.user_dir.display());
    println!("User profiles:  {}", report.user_profiles.display());
    println!("Log:            {}", report.log.display());
    println!("Project data:   <project>/.ideai/ (run/ is git-ignored)");
    for problem in &report.profile_problems {
        println!(
            "Profile problem: {}: {}",
            problem.source.display(),
            problem.message
        );
    }
    Ok(())
}
