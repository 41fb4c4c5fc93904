//! `idea mcp-server --project DIR --requester AGENT`: the stdio MCP server an agent CLI starts.
//!
//! It is only a bridge: it finds the project's owner (`.ideai/.owner.json`), connects to its
//! local socket, says `{"client":"mcp","agent":AGENT}`, then copies bytes both ways (stdin to
//! the socket, the socket to stdout) until either side ends. The owner speaks MCP; nothing is
//! parsed or buffered by line here. It never takes the project lock: with no owner running it
//! fails at once, with one line on stderr.

use super::Failure;
use crate::compose::project_path;
use idea_infrastructure::owner::{
    Hello, OwnerInfo, connect, into_unix_stream, read_owner, read_reply, write_hello,
};
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};

/// Connecting and the handshake take this long at most (the owner answers a hello at once).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_millis(1500);
/// Once stdin has ended, answers still on their way get this long to reach stdout.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

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
    let outcome = runtime.block_on(bridge(path.as_path(), &owner, requester));
    // A read of stdin may still be parked on a blocking thread: do not wait for it.
    runtime.shutdown_background();
    outcome
}

async fn bridge(project: &Path, owner: &OwnerInfo, requester: &str) -> Result<(), Failure> {
    let hello = Hello::Mcp {
        agent: requester.to_owned(),
    };
    let handshake = async {
        let stream = connect(&owner.socket).await.map_err(|e| e.to_string())?;
        // A tokio stream, so that stdin's end can half-close the connection.
        let stream = into_unix_stream(stream).map_err(|e| e.to_string())?;
        let (read, mut write) = stream.into_split();
        let mut reader = BufReader::new(read);
        write_hello(&mut write, &hello)
            .await
            .map_err(|e| e.to_string())?;
        let reply = read_reply(&mut reader).await.map_err(|e| e.to_string())?;
        if !reply.ok {
            return Err(reply.error.unwrap_or_else(|| "it refused".to_owned()));
        }
        Ok((reader, write))
    };
    let (mut from_owner, mut to_owner) =
        match tokio::time::timeout(HANDSHAKE_TIMEOUT, handshake).await {
            Ok(Ok(halves)) => halves,
            Ok(Err(e)) => {
                let why = format!("its owner (process {}) did not answer: {e}", owner.pid);
                return Err(no_owner(project, &why));
            }
            Err(_) => {
                let why = format!("its owner (process {}) did not answer in time", owner.pid);
                return Err(no_owner(project, &why));
            }
        };
    tracing::info!(
        requester,
        pid = owner.pid,
        "mcp-server: connected to the owner"
    );
    let mut stdin = tokio::io::stdin();
    let mut stdout = tokio::io::stdout();
    // `copy_buf` hands on what the handshake's reader already holds, then the socket. Both
    // copies flush their writer as soon as their reader has nothing more for now: no waits.
    let upstream = async {
        let copied = tokio::io::copy(&mut stdin, &mut to_owner).await;
        // Tell the owner we are done (it ends the MCP session), but keep reading its answers.
        let _ = to_owner.shutdown().await;
        copied
    };
    let result = {
        let downstream = tokio::io::copy_buf(&mut from_owner, &mut stdout);
        tokio::pin!(upstream, downstream);
        tokio::select! {
            sent = &mut upstream => {
                // stdin ended: let the answers in flight through, then leave.
                let _ = tokio::time::timeout(DRAIN_TIMEOUT, &mut downstream).await;
                sent.map(|_| ())
            }
            received = &mut downstream => received.map(|_| ()),
        }
    };
    let _ = stdout.flush().await;
    tracing::info!(requester, "mcp-server: done");
    result.map_err(|e| {
        Failure::Internal(anyhow::Error::new(e).context("the connection to the owner failed"))
    })
}

fn no_owner(project: &Path, why: &str) -> Failure {
    Failure::User(format!(
        "cannot serve MCP for {}: {why}; open the project in IdeA (the desktop window or `idea serve`) first",
        project.display()
    ))
}
