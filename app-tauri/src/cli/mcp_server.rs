//! `idea mcp-server --project DIR --requester AGENT`: the stdio MCP server an agent CLI starts.
//!
//! It is only a bridge: it finds the project's owner (`.ideai/.owner.json`), connects to its
//! local socket, says `{"client":"mcp","agent":AGENT}`, then copies bytes both ways (stdin to
//! the socket, the socket to stdout) until either side ends. The owner speaks MCP; nothing is
//! parsed or buffered by line here. It never takes the project lock: with no owner running it
//! fails at once, with one line on stderr.

use super::Failure;
use idea_infrastructure::owner::{
    Hello, OwnerInfo, connect, into_unix_stream, read_owner, read_reply, write_hello,
};
use idea_server::paths::project_path;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;
use tokio::io::BufReader;

/// Connecting and the handshake take this long at most. The owner answers a hello at once,
/// but on a machine busy with builds that "at once" stretched past the 1.5 s this once was, and
/// the CLI then ran without IdeA's tools; the CLIs wait longer than this for an MCP server.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Once stdin has ended, answers still on their way get this long to reach stdout.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);
/// One read's worth: an MCP message is usually far smaller, a large one takes a few.
const CHUNK: usize = 64 * 1024;

/// Runs the bridge until stdin or the owner's connection ends.
///
/// # Errors
/// `Failure::User` when the folder is not a project or no IdeA owns it; `Failure::Internal`
/// when the connection fails.
pub fn run(project: &Path, requester: &str) -> Result<(), Failure> {
    let path = project_path(project)?;
    let ideai = path.as_path().join(".ideai");
    if !ideai.join("project.json").is_file() {
        return Err(Failure::User(format!(
            "{} is not an IdeA project (no .ideai/project.json)",
            path.as_path().display()
        )));
    }
    let Some(owner) = read_owner(&ideai) else {
        return Err(no_owner(path.as_path(), "no IdeA has it open"));
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Internal(anyhow::Error::new(e).context("cannot start a runtime")))?;
    let hello = Hello::Mcp {
        agent: requester.to_owned(),
    };
    let connected = runtime.block_on(async {
        tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake(&owner, &hello)).await
    });
    drop(runtime);
    let (socket, early) = match connected {
        Ok(Ok(connected)) => connected,
        Ok(Err(e)) => {
            let why = format!("its owner (process {}) did not answer: {e}", owner.pid);
            return Err(no_owner(path.as_path(), &why));
        }
        Err(_) => {
            let why = format!("its owner (process {}) did not answer in time", owner.pid);
            return Err(no_owner(path.as_path(), &why));
        }
    };
    tracing::info!(
        requester,
        pid = owner.pid,
        "mcp-server: connected to the owner"
    );
    let relayed = relay(&socket, &early);
    tracing::info!(requester, "mcp-server: done");
    relayed.map_err(|e| {
        Failure::Internal(anyhow::Error::new(e).context("the connection to the owner failed"))
    })
}

/// Connects, says hello, reads the owner's reply. The answer: the connection as a blocking
/// socket, and the bytes that followed the reply in the same read (MCP already).
async fn handshake(owner: &OwnerInfo, hello: &Hello) -> Result<(UnixStream, Vec<u8>), String> {
    let stream = connect(&owner.socket).await.map_err(|e| e.to_string())?;
    // A plain Unix socket, whose write side can be shut down on its own.
    let stream = into_unix_stream(stream).map_err(|e| e.to_string())?;
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    write_hello(&mut write, hello)
        .await
        .map_err(|e| e.to_string())?;
    let reply = read_reply(&mut reader).await.map_err(|e| e.to_string())?;
    if !reply.ok {
        return Err(reply.error.unwrap_or_else(|| "it refused".to_owned()));
    }
    // Bytes already read past the reply line: the owner's first MCP bytes, if it was quick.
    let early = reader.buffer().to_vec();
    let stream = reader
        .into_inner()
        .reunite(write)
        .map_err(|e| e.to_string())?
        .into_std()
        .map_err(|e| e.to_string())?;
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    Ok((stream, early))
}

/// Copies stdin to `socket` on a thread of its own, and `socket` (after `early`) to stdout on
/// this one, each chunk written and flushed as soon as it is read: blocking reads, no
/// runtime, nothing waits for more. Ends when the owner closes the connection, or once stdin
/// has ended and the owner's last answers are through ([`DRAIN_TIMEOUT`] at most).
fn relay(socket: &UnixStream, early: &[u8]) -> io::Result<()> {
    let mut to_owner = socket.try_clone()?;
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buf = vec![0; CHUNK];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if to_owner.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        // The owner sees the end of the session and closes once its answers are out; if it
        // does not, the read below is woken after the drain time.
        let _ = to_owner.shutdown(Shutdown::Write);
        std::thread::sleep(DRAIN_TIMEOUT);
        let _ = to_owner.shutdown(Shutdown::Both);
    });
    let mut stdout = io::stdout().lock();
    let mut out = |bytes: &[u8]| stdout.write_all(bytes).and_then(|()| stdout.flush());
    let mut from_owner = socket;
    let mut buf = vec![0; CHUNK];
    let mut chunk: &[u8] = early;
    loop {
        match out(chunk) {
            Ok(()) => {}
            // The CLI closed our stdout: it is gone, and so are we.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e),
        }
        let n = match from_owner.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => 0,
            Err(e) => return Err(e),
        };
        chunk = &buf[..n];
    }
}

fn no_owner(project: &Path, why: &str) -> Failure {
    Failure::User(format!(
        "cannot serve MCP for {}: {why}; open the project in IdeA (the desktop window or `idea serve`) first",
        project.display()
    ))
}
