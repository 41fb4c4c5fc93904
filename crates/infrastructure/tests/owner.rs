//! The owner machinery against real files, sockets and processes: the lock held by a child
//! process, that child SIGKILLed, its stale socket replaced, a real client's handshake.
//!
//! Child processes are this test binary re-executed on one `helper_*` test, given its argument
//! in `IDEA_OWNER_TEST_ARG`; run normally, the helpers do nothing.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use idea_infrastructure::owner::{
    Hello, HelloReply, MESSAGE_MAX, OwnerError, OwnerInfo, OwnerListener, ProjectLock, connect,
    ensure_private_dir, read_hello, read_line_bounded, read_owner, read_reply, socket_dir,
    socket_path, write_hello, write_reply,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use std::{env, fs, sync::mpsc, thread};
use tokio::io::{AsyncWriteExt, BufReader as AsyncBufReader, split};

const ID: &str = "0f8e4c2a-1b3d-4e5f-8a9b-0c1d2e3f4a5b";
const URL: &str = "http://127.0.0.1:7777";
const ARG: &str = "IDEA_OWNER_TEST_ARG";

/// A project folder with its `.ideai/`, and a private socket folder (short socket paths).
struct Fixture {
    root: tempfile::TempDir,
    ideai: PathBuf,
    socket: PathBuf,
}

fn fixture_at(root: &Path) -> (PathBuf, PathBuf) {
    let sockets = root.join("s");
    ensure_private_dir(&sockets).unwrap();
    (root.join(".ideai"), socket_path(&sockets, ID).unwrap())
}

fn fixture() -> Fixture {
    let root = tempfile::tempdir().unwrap();
    let (ideai, socket) = fixture_at(root.path());
    fs::create_dir(&ideai).unwrap();
    Fixture {
        root,
        ideai,
        socket,
    }
}

fn info(socket: &Path) -> OwnerInfo {
    let (pid, url) = (std::process::id(), Some(URL.into()));
    OwnerInfo {
        pid,
        url,
        socket: socket.into(),
        started_at: 1,
    }
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

/// Re-executes this binary on the helper test `name`; returns it and its first `HELPER ` line.
/// Its stdin is a pipe held by the returned `Child`: the helper ends when we drop it.
fn helper(name: &str, arg: &Path, envs: &[(&str, &Path)], uid: Option<u32>) -> (Child, String) {
    let mut command = Command::new(env::current_exe().unwrap());
    command
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(ARG, arg);
    command
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    if let Some(uid) = uid {
        std::os::unix::process::CommandExt::uid(&mut command, uid);
    }
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // libtest prints `test <name> ... ` before the helper's own output.
            if let Some((_, said)) = line.split_once("HELPER ") {
                let _ = tx.send(said.to_owned());
            }
        }
    });
    let said = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("helper said nothing");
    (child, said)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Helper: owns the project at ARG (lock, `.owner.json`, socket) until stdin closes.
#[test]
fn helper_hold() {
    let Some(root) = env::var_os(ARG) else { return };
    let (ideai, socket) = fixture_at(Path::new(&root));
    let lock = ProjectLock::acquire(&ideai).unwrap();
    lock.publish(&info(&socket)).unwrap();
    let runtime = runtime();
    let _entered = runtime.enter();
    let _listener = OwnerListener::bind(&socket, &lock).unwrap();
    println!("HELPER ready");
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}

/// Helper: prints `socket_dir()` as resolved from this process's environment.
#[test]
fn helper_socket_dir() {
    if env::var_os(ARG).is_some() {
        println!("HELPER {}", socket_dir().unwrap().display());
    }
}

/// Helper: connects to the socket at ARG (as whatever uid it runs as), reads until closed.
#[test]
fn helper_connect() {
    let Some(path) = env::var_os(ARG) else { return };
    let mut stream = std::os::unix::net::UnixStream::connect(path).unwrap();
    println!("HELPER connected");
    // The owner may already have hung up on us (a foreign peer is dropped at accept).
    let _ = stream.write_all(b"{\"client\":\"cli\"}\n");
    let _ = stream.read_to_end(&mut Vec::new());
}

#[test]
fn a_second_open_file_description_is_refused_with_the_holders_info() {
    let f = fixture();
    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    lock.publish(&info(&f.socket)).unwrap();
    match ProjectLock::acquire(&f.ideai) {
        Err(OwnerError::Owned(owner)) => assert_eq!(owner, info(&f.socket)),
        other => panic!("expected Owned, got {other:?}"),
    }
}

#[tokio::test]
async fn a_killed_holder_frees_the_project_and_its_stale_socket_is_replaced() {
    let f = fixture();
    let (mut child, _) = helper("helper_hold", f.root.path(), &[], None);
    match ProjectLock::acquire(&f.ideai) {
        Err(OwnerError::Owned(owner)) => {
            assert_eq!((owner.pid, owner.url.as_deref()), (child.id(), Some(URL)));
        }
        other => panic!("expected Owned, got {other:?}"),
    }
    assert_eq!(mode(&f.socket), 0o600);
    child.kill().unwrap(); // SIGKILL: no destructor runs.
    child.wait().unwrap();
    assert!(
        f.socket.exists() && read_owner(&f.ideai).is_some(),
        "the dead owner's leftovers"
    );

    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    assert_eq!(
        read_owner(&f.ideai),
        None,
        "the stale .owner.json is cleared"
    );
    let listener = OwnerListener::bind(&f.socket, &lock).unwrap();
    let (accepted, connected) = tokio::join!(listener.accept(), connect(&f.socket));
    accepted.unwrap();
    connected.unwrap();
}

#[test]
fn the_lock_is_the_flock_other_tools_see() {
    if Command::new("flock").arg("--version").output().is_err() {
        eprintln!("skipped: no flock(1) on this machine");
        return;
    }
    let f = fixture();
    let lock_file = f.ideai.join(".lock");
    let try_flock = || {
        Command::new("flock")
            .arg("-n")
            .arg(&lock_file)
            .arg("true")
            .status()
    };
    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    assert!(
        !try_flock().unwrap().success(),
        "flock -n must fail while we hold it"
    );
    drop(lock);
    assert!(try_flock().unwrap().success());
    // flock(1) as the holder; -F makes it become `sleep`, so killing it releases the lock.
    let mut holder = Command::new("flock");
    let mut holder = holder
        .arg("-F")
        .arg(&lock_file)
        .args(["sleep", "60"])
        .spawn()
        .unwrap();
    // Polled until flock(1) holds it (the deadline is a hang guard).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let busy = loop {
        if matches!(ProjectLock::acquire(&f.ideai), Err(OwnerError::Busy)) {
            break true;
        }
        if std::time::Instant::now() > deadline {
            break false;
        }
        thread::sleep(Duration::from_millis(20));
    };
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert!(busy, "a holder that published nothing reads as Busy");
    assert!(ProjectLock::acquire(&f.ideai).is_ok());
}

#[test]
fn a_symlinked_lock_is_refused_and_not_followed() {
    let f = fixture();
    let target = f.root.path().join("victim");
    symlink(&target, f.ideai.join(".lock")).unwrap();
    let err = ProjectLock::acquire(&f.ideai).unwrap_err();
    assert!(matches!(err, OwnerError::UnsafePath { .. }), "{err:?}");
    assert!(err.to_string().contains("symlink"), "{err}");
    assert!(!target.exists(), "the link's target must not be created");
}

#[test]
fn the_socket_dir_is_0700_and_a_loose_linked_or_foreign_one_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sockets");
    ensure_private_dir(&dir).unwrap();
    assert_eq!(mode(&dir), 0o700);
    ensure_private_dir(&dir).unwrap();
    let refusal = |dir: &Path| ensure_private_dir(dir).unwrap_err().to_string();

    fs::set_permissions(&dir, fs::Permissions::from_mode(0o770)).unwrap();
    assert!(refusal(&dir).contains("mode 770"), "{}", refusal(&dir));
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();

    let link = tmp.path().join("link");
    symlink(&dir, &link).unwrap();
    assert!(refusal(&link).contains("symlink"));

    if nix::unistd::geteuid().is_root() {
        std::os::unix::fs::chown(&dir, Some(12_345), None).unwrap();
        assert!(refusal(&dir).contains("owned by uid 12345"));
    }
}

#[test]
fn socket_dir_follows_xdg_runtime_dir_else_the_temp_folder() {
    let runtime = tempfile::tempdir().unwrap();
    let envs = [("XDG_RUNTIME_DIR", runtime.path())];
    let (mut child, said) = helper("helper_socket_dir", Path::new("1"), &envs, None);
    child.wait().unwrap();
    assert_eq!(PathBuf::from(said), runtime.path().join("ideai"));
    assert_eq!(mode(&runtime.path().join("ideai")), 0o700);

    let temp = tempfile::tempdir().unwrap();
    let envs = [
        ("XDG_RUNTIME_DIR", Path::new("relative")),
        ("TMPDIR", temp.path()),
    ];
    let (mut child, said) = helper("helper_socket_dir", Path::new("1"), &envs, None);
    child.wait().unwrap();
    let expected = temp
        .path()
        .join(format!("ideai-{}", nix::unistd::geteuid()));
    assert_eq!(PathBuf::from(said), expected);
}

#[test]
fn bind_refuses_to_replace_what_is_not_a_socket() {
    let runtime = runtime();
    let _entered = runtime.enter();
    let f = fixture();
    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    fs::write(&f.socket, b"precious").unwrap();
    let err = OwnerListener::bind(&f.socket, &lock).unwrap_err();
    assert!(err.to_string().contains("not a socket"), "{err}");
    assert_eq!(fs::read(&f.socket).unwrap(), b"precious");
    fs::remove_file(&f.socket).unwrap();
    symlink(&f.ideai, &f.socket).unwrap();
    assert!(OwnerListener::bind(&f.socket, &lock).is_err());
    assert!(f.socket.is_symlink());
}

#[tokio::test]
async fn a_client_says_hello_exchanges_a_line_and_an_overlong_line_errors() {
    let f = fixture();
    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    let listener = OwnerListener::bind(&f.socket, &lock).unwrap();
    assert_eq!(mode(&f.socket), 0o600);
    let request = "{\"jsonrpc\":\"2.0\",\"id\":1}";
    let owner = async {
        let (stream, peer) = listener.accept().await.unwrap();
        assert_eq!(peer.uid, nix::unistd::geteuid().as_raw());
        assert_eq!(peer.pid, Some(std::process::id()));
        let (read, mut write) = split(stream);
        let mut read = AsyncBufReader::new(read);
        let hello = read_hello(&mut read).await.unwrap();
        write_reply(&mut write, &HelloReply::accepted())
            .await
            .unwrap();
        let line = read_line_bounded(&mut read, 64).await.unwrap().unwrap();
        write
            .write_all(format!("echo {line}\n").as_bytes())
            .await
            .unwrap();
        let err = read_line_bounded(&mut read, 64).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        hello
    };
    let client = async {
        let (read, mut write) = split(connect(&f.socket).await.unwrap());
        let mut read = AsyncBufReader::new(read);
        let hello = Hello::Mcp {
            agent: "claude".into(),
        };
        write_hello(&mut write, &hello).await.unwrap();
        assert_eq!(read_reply(&mut read).await.unwrap(), HelloReply::accepted());
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        let echo = read_line_bounded(&mut read, MESSAGE_MAX).await.unwrap();
        assert_eq!(echo, Some(format!("echo {request}")));
        write.write_all(&[b'x'; 100]).await.unwrap();
        write.write_all(b"\n").await.unwrap();
    };
    let (hello, ()) = tokio::join!(owner, client);
    assert_eq!(
        hello,
        Hello::Mcp {
            agent: "claude".into()
        }
    );
    drop(listener);
    assert!(!f.socket.exists(), "the socket file goes with the listener");
}

/// Root only (CI runs as root): a real process of another uid reaches the socket, whose
/// permissions are loosened on purpose, and `accept` still turns it away.
#[tokio::test]
async fn a_peer_of_another_uid_is_disconnected() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: needs root to start a process of another uid");
        return;
    }
    let f = fixture();
    let lock = ProjectLock::acquire(&f.ideai).unwrap();
    let listener = OwnerListener::bind(&f.socket, &lock).unwrap();
    for path in [f.root.path(), f.socket.parent().unwrap(), &f.socket] {
        fs::set_permissions(path, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let socket = f.socket.clone();
    let peer = thread::spawn(move || {
        let (mut child, said) = helper("helper_connect", &socket, &[], Some(12_345));
        child.wait().unwrap();
        said
    });
    match listener.accept().await {
        Err(OwnerError::ForeignPeer { uid }) => assert_eq!(uid, 12_345),
        other => panic!("expected ForeignPeer, got {:?}", other.map(|(_, p)| p)),
    }
    assert_eq!(peer.join().unwrap(), "connected");
}
