//! Symlinks committed inside `.ideai/` must never be followed out of the project.

use crate::world::{World, deps_over, symlink, world};
use idea_application::agents::{self, NewAgent};
use idea_application::sessions::{self, LaunchAgent};
use idea_application::{AppError, layouts};
use idea_domain::ports::ProjectStore;
use idea_domain::terminal::TerminalSize;
use idea_domain::{Agent, AgentId, CellRef, ProfileId, ProjectPath};
use idea_infrastructure::store::FsProjectStore;
use idea_infrastructure::system::RandomIds;
use std::fs;
use std::path::Path;
use std::sync::Arc;

fn code(e: impl Into<AppError>) -> &'static str {
    e.into().code().as_str()
}

fn claude_agent(w: &World, name: &str) -> Agent {
    agents::create_from_scratch(
        &w.deps,
        NewAgent {
            name: name.into(),
            profile_id: ProfileId::new("claude-code"),
        },
    )
    .unwrap()
}

fn launch(w: &World, agent: AgentId) -> idea_application::AppResult<()> {
    let l = layouts::get(&w.deps).unwrap();
    let cell = CellRef::new(l.active, l.layouts[0].tree.leaves()[0].id);
    let size = TerminalSize { rows: 24, cols: 80 };
    sessions::launch_agent(
        &w.deps,
        LaunchAgent {
            agent_id: agent,
            cell,
            size,
            fresh: false,
        },
    )
    .map(|_| ())
}

fn run_dir(w: &World, agent: AgentId) -> std::path::PathBuf {
    w.ideai().join("run").join(agent.to_string())
}

/// Every file under `dir` with its content, to show nothing there changed.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_run_dir_linked_to_the_users_claude_folder_gets_no_claude_md() {
    for memory in [Some("my own memory\n"), None] {
        let w = world();
        let ada = claude_agent(&w, "Ada");
        agents::update_context(&w.deps, ada.agent_id, "Obey the repository.\n").unwrap();
        let claude = w.home().join(".claude");
        if let Some(text) = memory {
            fs::write(claude.join("CLAUDE.md"), text).unwrap();
        }
        let before = snapshot(&claude);
        fs::create_dir_all(w.ideai().join("run")).unwrap();
        symlink(&claude, &run_dir(&w, ada.agent_id));

        let err = launch(&w, ada.agent_id).unwrap_err();
        assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
        assert!(err.to_string().contains(&ada.agent_id.to_string()), "{err}");
        assert_eq!(snapshot(&claude), before, "~/.claude was written");
        assert!(
            w.spawned.0.lock().unwrap().is_empty(),
            "something was spawned"
        );
    }
}

#[test]
fn a_convention_file_linked_out_of_a_real_run_dir_is_not_written_through() {
    let w = world();
    let ada = claude_agent(&w, "Ada");
    let memory = w.home().join(".claude/CLAUDE.md");
    fs::write(&memory, "my own memory\n").unwrap();
    fs::create_dir_all(run_dir(&w, ada.agent_id)).unwrap();
    symlink(&memory, &run_dir(&w, ada.agent_id).join("CLAUDE.md"));

    let err = launch(&w, ada.agent_id).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(err.to_string().contains("CLAUDE.md"), "{err}");
    assert_eq!(fs::read_to_string(&memory).unwrap(), "my own memory\n");
    assert!(w.spawned.0.lock().unwrap().is_empty());
}

#[test]
fn a_persona_linked_outside_is_never_read() {
    let w = world();
    let ada = claude_agent(&w, "Ada");
    let secret = w.outside().join("id_rsa");
    fs::write(&secret, "PRIVATE KEY").unwrap();
    let persona = w.ideai().join(&ada.md_path);
    fs::remove_file(&persona).unwrap();
    symlink(&secret, &persona);

    let err = agents::read_context(&w.deps, ada.agent_id).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(err.to_string().contains("ada.md"), "{err}");
    assert!(!err.to_string().contains("PRIVATE KEY"));
    // A launch does not copy it into the agent's context either.
    let err = launch(&w, ada.agent_id).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(!run_dir(&w, ada.agent_id).join("CLAUDE.md").exists());
    assert!(w.spawned.0.lock().unwrap().is_empty());
    // Nor is it written through.
    let err = agents::update_context(&w.deps, ada.agent_id, "overwritten").unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert_eq!(fs::read_to_string(&secret).unwrap(), "PRIVATE KEY");
}

#[test]
fn an_agents_folder_linked_outside_receives_no_persona() {
    let w = world();
    let outside = w.outside();
    symlink(&outside, &w.ideai().join("agents"));
    let err = agents::create_from_template(
        &w.deps,
        NewAgent {
            name: "Archie".into(),
            profile_id: ProfileId::new("shell"),
        },
        "architect",
    )
    .unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(err.to_string().contains("agents"), "{err}");
    assert!(
        snapshot(&outside).is_empty(),
        "a persona was written outside"
    );
    assert!(
        !w.ideai().join("agents.json").exists(),
        "the manifest named a persona that could not be written"
    );
}

#[test]
fn an_ideai_folder_linked_elsewhere_is_refused() {
    let w = world();
    // A real project elsewhere, and one whose `.ideai` points at it.
    let elsewhere = w.outside();
    let other = FsProjectStore::new(&elsewhere);
    let path = ProjectPath::new(elsewhere.clone()).unwrap();
    idea_application::project::init(&other, &RandomIds, &path).unwrap();
    let before = snapshot(&elsewhere.join(".ideai"));
    let linked = w.dir.path().join("linked");
    fs::create_dir_all(&linked).unwrap();
    symlink(&elsewhere.join(".ideai"), &linked.join(".ideai"));
    let store = FsProjectStore::new(&linked);
    let err = idea_application::project::open(&store).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(err.to_string().contains(".ideai"), "{err}");
    let path = ProjectPath::new(linked.clone()).unwrap();
    let err = idea_application::project::init(&store, &RandomIds, &path).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    let (deps, _) = deps_over(Arc::new(store), w.dir.path());
    let err = agents::create_from_scratch(
        &deps,
        NewAgent {
            name: "Ada".into(),
            profile_id: ProfileId::new("shell"),
        },
    )
    .unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert_eq!(snapshot(&elsewhere.join(".ideai")), before);

    // A dangling link: init must not create its target.
    let dangling = w.dir.path().join("dangling");
    fs::create_dir_all(&dangling).unwrap();
    let target = w.dir.path().join("nowhere");
    symlink(&target, &dangling.join(".ideai"));
    let store = FsProjectStore::new(&dangling);
    let path = ProjectPath::new(dangling.clone()).unwrap();
    let err = idea_application::project::init(&store, &RandomIds, &path).unwrap_err();
    assert_eq!(err.code(), "UNSAFE_PATH", "{err}");
    assert!(!target.exists());
}

#[test]
fn state_files_linked_outside_are_neither_read_nor_written() {
    let w = world();
    let store = FsProjectStore::new(w.root());
    let project = store.load_project().unwrap();
    let manifest = store.load_manifest().unwrap();
    let layouts = layouts::get(&w.deps).unwrap();
    fs::write(w.ideai().join("CONTEXT.md"), "shared").unwrap();
    for name in ["project.json", "agents.json", "layouts.json", "CONTEXT.md"] {
        let file = w.ideai().join(name);
        let target = w.outside().join(name);
        if file.exists() {
            fs::rename(&file, &target).unwrap();
        } else {
            fs::write(&target, "{\"version\":1,\"entries\":[]}").unwrap();
        }
        let bytes = fs::read(&target).unwrap();
        symlink(&target, &file);
        let (read, write) = match name {
            "project.json" => (
                store.load_project().map(|_| ()),
                store.save_project(&project),
            ),
            "agents.json" => (
                store.load_manifest().map(|_| ()),
                store.save_manifest(&manifest),
            ),
            "layouts.json" => (
                store.load_layouts().map(|_| ()),
                store.save_layouts(&layouts),
            ),
            _ => (store.read_project_context().map(|_| ()), Ok(())),
        };
        assert_eq!(code(read.unwrap_err()), "UNSAFE_PATH", "reading {name}");
        if name != "CONTEXT.md" {
            let err = write.unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
            assert_eq!(code(err), "UNSAFE_PATH", "writing {name}");
        }
        assert_eq!(fs::read(&target).unwrap(), bytes, "{name} written through");
        assert!(fs::symlink_metadata(&file).unwrap().is_symlink());
        fs::remove_file(&file).unwrap();
        fs::rename(&target, &file).unwrap();
    }
}

#[test]
fn seeds_and_their_ledger_are_never_written_through_links() {
    let w = world();
    let store = FsProjectStore::new(w.root());
    let agent = AgentId(uuid_of(7));
    let run = store.prepare_run_dir(agent).unwrap();
    let outside = w.outside();
    // A linked sub-folder of the run dir.
    symlink(&outside, &run.join(".cli"));
    let err = store
        .seed_file(agent, &run.join(".cli/settings.json"), "{}")
        .unwrap_err();
    assert_eq!(code(err), "UNSAFE_PATH");
    fs::remove_file(run.join(".cli")).unwrap();
    // A linked seed file.
    let target = outside.join("settings.json");
    fs::write(&target, "theirs").unwrap();
    symlink(&target, &run.join("settings.json"));
    let err = store
        .seed_file(agent, &run.join("settings.json"), "{}")
        .unwrap_err();
    assert_eq!(code(err), "UNSAFE_PATH");
    fs::remove_file(run.join("settings.json")).unwrap();
    // A linked ledger.
    let ledger = outside.join("ledger.json");
    fs::write(&ledger, "{}").unwrap();
    symlink(&ledger, &run.join(".idea-seeds.json"));
    let err = store
        .seed_file(agent, &run.join("other.json"), "{}")
        .unwrap_err();
    assert_eq!(code(err), "UNSAFE_PATH");
    assert_eq!(fs::read_to_string(&target).unwrap(), "theirs");
    assert_eq!(fs::read_to_string(&ledger).unwrap(), "{}");
    assert_eq!(snapshot(&outside).len(), 2);
    // A generated file through a linked folder.
    symlink(&outside, &run.join("sub"));
    let err = store
        .write_generated(&run.join("sub/AGENTS.md"), "x")
        .unwrap_err();
    assert_eq!(code(err), "UNSAFE_PATH");
    assert_eq!(snapshot(&outside).len(), 2);
}

fn uuid_of(n: u128) -> uuid::Uuid {
    uuid::Uuid::from_u128(n)
}
