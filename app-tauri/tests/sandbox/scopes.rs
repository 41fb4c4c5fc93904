//! Landlock's scopes: no signal and no abstract Unix socket across the sandbox's border.

use super::support::{helper, landlock, stderr, stdout, world};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn sleeper() -> Child {
    Command::new("sleep").arg("60").spawn().unwrap()
}

fn still_running(child: &mut Child) -> bool {
    std::thread::sleep(Duration::from_millis(100));
    child.try_wait().unwrap().is_none()
}

#[test]
fn a_sandboxed_process_cannot_signal_the_owner_or_another_agent() {
    if !landlock() {
        return;
    }
    let w = world();
    let owner = std::process::id();
    let mut unsandboxed = sleeper();
    // Another agent: sandboxed too, but in a sandbox of its own.
    let mut other_agent = Command::new(helper())
        .args(["sandbox-exec", "--plan"])
        .arg(w.plan_file(&w.plan()))
        .args(["--", "sleep", "60"])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let script = format!(
        "kill -0 {owner} 2>/dev/null && echo 'SIGNALLED owner'; \
         kill -TERM {} 2>/dev/null && echo 'SIGNALLED unsandboxed'; \
         kill -TERM {} 2>/dev/null && echo 'SIGNALLED other-agent'; \
         sleep 60 & kill -TERM $! && echo 'OWN CHILD SIGNALLED'",
        unsandboxed.id(),
        other_agent.id()
    );
    let out = w.run(&w.plan(), &script);
    let text = stdout(&out);
    assert!(!text.contains("SIGNALLED owner"), "{text}");
    assert!(!text.contains("SIGNALLED unsandboxed"), "{text}");
    assert!(!text.contains("SIGNALLED other-agent"), "{text}");
    // Its own descendants are in its sandbox: those it may signal.
    assert!(
        text.contains("OWN CHILD SIGNALLED"),
        "{text}{}",
        stderr(&out)
    );
    assert!(still_running(&mut unsandboxed));
    assert!(still_running(&mut other_agent));
    for child in [&mut unsandboxed, &mut other_agent] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

#[test]
fn a_sandboxed_process_cannot_reach_an_abstract_socket_made_outside() {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixListener};
    if !landlock() {
        return;
    }
    let w = world();
    let name = format!("idea-sandbox-test-{}", uuid::Uuid::new_v4());
    let listener =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    listener.set_nonblocking(true).unwrap();
    // perl is part of every Debian system (perl-base is essential): a tiny socket client.
    let client = format!(
        "perl -MSocket -e 'socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die; \
         connect($s, pack_sockaddr_un(\"\\0{name}\")) or die \"refused: $!\\n\"; print \"CONNECTED\\n\"'"
    );
    let out = w.run(&w.plan(), &client);
    assert!(!stdout(&out).contains("CONNECTED"), "{}", stdout(&out));
    assert!(stderr(&out).contains("refused"), "{}", stderr(&out));
    // The same client, not sandboxed, connects: the test can tell the difference.
    let native = Command::new("sh")
        .args(["-c", &client])
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(stdout(&native).contains("CONNECTED"), "{}", stderr(&native));
}
