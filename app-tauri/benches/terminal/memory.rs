//! The server's resident memory per idle shell cell.

use crate::client::Client;
use crate::server::{Server, status_field};
use anyhow::{Context, Result};
use serde_json::json;
use std::time::Duration;

pub(crate) const IDLE_CELLS: usize = 20;
const SETTLE: Duration = Duration::from_secs(1);

#[derive(Debug)]
pub(crate) struct Memory {
    /// VmRSS of the idle server: started, one client connected, no session.
    pub(crate) idle_server_kib: u64,
    /// VmRSS once the layout has its empty cells, just before the shells are opened.
    pub(crate) before_kib: u64,
    /// VmRSS with `IDLE_CELLS` idle shells open.
    pub(crate) after_kib: u64,
    pub(crate) threads_before: u64,
    pub(crate) threads_after: u64,
    /// VmRSS of one cell's `sh` (a separate process, not in the server's figure).
    pub(crate) shell_kib: Option<u64>,
}

/// The server's VmRSS before and after opening `IDLE_CELLS` idle shell cells.
pub(crate) async fn measure() -> Result<Memory> {
    let server = Server::start()?;
    let mut client = Client::connect(server.port).await?;
    let (layout, mut leaves) = client.leaves().await?;
    tokio::time::sleep(SETTLE).await;
    let idle_server_kib = server.status_field("VmRSS")?;

    // Split breadth-first, alternating directions, until there are enough cells.
    let mut next = 0;
    while leaves.len() < IDLE_CELLS {
        // Each cell is split twice (a tree, not a chain: layouts nest at most 16 deep).
        let target = leaves.get(next / 2).context("no cell to split")?.clone();
        let direction = if next % 2 == 0 {
            "horizontal"
        } else {
            "vertical"
        };
        let new = client
            .ok(
                "splitCell",
                json!({"layoutId": layout, "nodeId": target, "direction": direction}),
            )
            .await?;
        leaves.push(new.as_str().context("splitCell: no node id")?.to_owned());
        next += 1;
    }
    tokio::time::sleep(SETTLE).await;
    let before_kib = server.status_field("VmRSS")?;
    let threads_before = server.status_field("Threads")?;

    let mut shell_pid = None;
    for leaf in &leaves {
        let cell = client.open_shell(&layout, leaf).await?;
        shell_pid = shell_pid.or(cell.pid);
    }
    tokio::time::sleep(SETTLE).await;
    let after_kib = server.status_field("VmRSS")?;
    let threads_after = server.status_field("Threads")?;
    let shell_kib = shell_pid.and_then(|pid| status_field(pid, "VmRSS").ok());
    drop(client);
    server.stop();
    Ok(Memory {
        idle_server_kib,
        before_kib,
        after_kib,
        threads_before,
        threads_after,
        shell_kib,
    })
}
