//! Under the namespace sandbox a PTY agent is the same process as without: the pid IdeA holds
//! is the program's own (the helper enters the namespaces in place and execs), its exit status
//! comes through, and a Stop ends what it left running in new sessions (`setsid`, `nohup`),
//! found by the session's marker as outside.

use super::namespace::namespaces;
use super::support::{helper, landlock, world};
use super::wiring::{host, spec};
use idea_domain::ids::SessionId;
use idea_domain::sandbox::MountPlan;
use idea_domain::terminal::TerminalSession;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Whether `pid` still runs: an exited process not reaped yet (a zombie) has ended.
/// The process `pid` as `/proc` has it now: its start time (in clock ticks since boot), unless
/// it is gone or a zombie. Pids wrap around fast on a busy machine (`pid_max` is 32768 here):
/// a pid alone does not name a process for long.
fn started_at(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    // After the name: state is field 3, start time field 22.
    (fields.first() != Some(&"Z")).then(|| fields.get(19)?.parse().ok())?
}

fn alive(pid: i32) -> bool {
    started_at(pid).is_some()
}

fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_pid_exit_status_and_stop_sweep_are_as_without_namespaces() {
    if !landlock() || !namespaces() {
        return;
    }
    let w = world();
    std::fs::create_dir_all(w.project.join(".ideai")).unwrap();
    let mut plan = w.plan();
    plan.mounts = Some(MountPlan {
        read_only: vec![w.project.join(".ideai")],
        writable: vec![w.run_dir.clone()],
        private_caches: vec![],
    });
    let pty = host(Some(helper()));

    // The pid and the exit status.
    let pid_file = w.project.join("pid");
    let script = format!("echo $$ > '{}'; exit 7", pid_file.display());
    let (tx, rx) = mpsc::channel();
    let session = pty
        .spawn_session(
            SessionId::from_uuid(uuid::Uuid::new_v4()),
            &spec(&w, &script, Some(plan.clone())),
            Box::new(move |exit| {
                let _ = tx.send(exit);
            }),
        )
        .unwrap();
    let exit = rx.recv_timeout(Duration::from_secs(60)).expect("it ended");
    assert_eq!(exit.code, 7);
    let own_pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(session.pid(), Some(own_pid), "the helper exec'd in place");

    // Children that left the process group, then Stop.
    let pids = w.project.join("pids");
    let ready = w.project.join("ready");
    let script = format!(
        "setsid sleep 300 >/dev/null 2>&1 & echo $! > '{p}'; \
         nohup sleep 300 >/dev/null 2>&1 & echo $! >> '{p}'; \
         touch '{r}'; exec sleep 300",
        p = pids.display(),
        r = ready.display()
    );
    let (tx, rx) = mpsc::channel();
    let session = pty
        .spawn_session(
            SessionId::from_uuid(uuid::Uuid::new_v4()),
            &spec(&w, &script, Some(plan)),
            Box::new(move |exit| {
                let _ = tx.send(exit);
            }),
        )
        .unwrap();
    wait_for(&ready);
    let left: Vec<i32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(left.len(), 2);
    assert!(left.iter().all(|pid| alive(*pid)), "{left:?}");
    let births: Vec<(i32, Option<u64>)> = left.iter().map(|pid| (*pid, started_at(*pid))).collect();
    session.kill();
    let exit = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("it stopped");
    assert!(exit.stopped, "{exit:?}");
    for (pid, born) in births {
        // Gone, or its pid already taken by another process.
        assert_ne!(started_at(pid), born, "{pid} outlived the Stop");
    }
}
