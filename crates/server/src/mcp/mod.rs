//! IdeA's MCP server, spoken by the project's owner to an agent CLI.
//!
//! An agent CLI starts `idea mcp-server --project DIR --requester AGENT` (the stdio bridge,
//! in the `idea` binary); the bridge connects to the owner's local socket and says
//! `{"client":"mcp","agent":AGENT}`; the owner's socket server ([`crate::owner`]) then hands
//! the connection to [`serve`], which speaks MCP on it with the official SDK (`rmcp`). The
//! tools ([`tools`]) call the API through [`crate::api`], like every other transport, on a
//! blocking thread; a tool that changes state does so in the order the client called it
//! ([`order`]: `rmcp` runs each request on a task of its own, the transport keeps the order).

mod call;
mod cancel;
mod handler;
mod memory;
mod order;
mod params;
mod roster;
mod tools;

use idea_application::Deps;
use order::InOrder;
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

pub use tools::IdeaTools;

/// Serves MCP for `requester` on one connection until the client leaves. `read` is the
/// connection's read side *as the handshake left it*: a `BufReader` that may already hold the
/// first MCP bytes, which are then read first.
pub async fn serve<R, W>(deps: Arc<Deps>, requester: String, read: R, write: W)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let tools = IdeaTools::new(deps, &requester);
    let transport = InOrder::new(
        AsyncRwTransport::new_server(read, write),
        IdeaTools::ordered(),
    );
    match tools.serve(transport).await {
        Ok(running) => match running.waiting().await {
            Ok(reason) => tracing::info!(%requester, ?reason, "mcp: session ended"),
            Err(e) => tracing::warn!(%requester, error = %e, "mcp: session failed"),
        },
        // A client that left or spoke no MCP before `initialize`.
        Err(e) => tracing::warn!(%requester, error = %e, "mcp: no session"),
    }
}
