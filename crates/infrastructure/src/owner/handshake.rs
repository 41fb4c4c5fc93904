//! The one-line handshake that opens every owner connection (JSON-RPC follows, framed by lines).

use super::OwnerError;
use super::line::{read_line_bounded, write_json_line};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io;
use tokio::io::{AsyncBufRead, AsyncWrite};

/// The longest handshake line accepted, either way.
pub const HELLO_MAX: usize = 4 * 1024;

/// What a client says first: `{"client":"cli"}` or `{"client":"mcp","agent":"..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "client", rename_all = "lowercase")]
pub enum Hello {
    /// The `idea` command line.
    Cli,
    /// An MCP bridge acting for an agent.
    Mcp {
        /// The agent's id or name.
        agent: String,
    },
}

/// The owner's answer: `{"ok":true,"server":"idea","version":"..."}` or
/// `{"ok":false,"error":"..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelloReply {
    /// Whether the connection is accepted.
    pub ok: bool,
    /// `"idea"` when accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The owner's version when accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Why it was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl HelloReply {
    /// Acceptance, naming this build of IdeA.
    #[must_use]
    pub fn accepted() -> Self {
        Self {
            ok: true,
            server: Some("idea".to_owned()),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            error: None,
        }
    }

    /// Refusal, saying why.
    #[must_use]
    pub fn refused(error: impl Into<String>) -> Self {
        Self {
            ok: false,
            server: None,
            version: None,
            error: Some(error.into()),
        }
    }
}

/// Reads the client's hello (owner side).
///
/// # Errors
/// [`OwnerError::Handshake`] when the line is missing, over [`HELLO_MAX`] or not a [`Hello`];
/// [`OwnerError::Io`] on other I/O errors.
pub async fn read_hello<R>(reader: &mut R) -> Result<Hello, OwnerError>
where
    R: AsyncBufRead + Unpin + ?Sized,
{
    read_json_line(reader, "hello").await
}

/// Sends the client's hello (client side).
///
/// # Errors
/// Any I/O error of `writer`.
pub async fn write_hello<W>(writer: &mut W, hello: &Hello) -> Result<(), OwnerError>
where
    W: AsyncWrite + Unpin + ?Sized,
{
    Ok(write_json_line(writer, hello).await?)
}

/// Reads the owner's reply (client side). A refusal is a reply too: check [`HelloReply::ok`].
///
/// # Errors
/// As [`read_hello`].
pub async fn read_reply<R>(reader: &mut R) -> Result<HelloReply, OwnerError>
where
    R: AsyncBufRead + Unpin + ?Sized,
{
    read_json_line(reader, "hello reply").await
}

/// Sends the owner's reply (owner side).
///
/// # Errors
/// Any I/O error of `writer`.
pub async fn write_reply<W>(writer: &mut W, reply: &HelloReply) -> Result<(), OwnerError>
where
    W: AsyncWrite + Unpin + ?Sized,
{
    Ok(write_json_line(writer, reply).await?)
}

async fn read_json_line<R, T>(reader: &mut R, what: &str) -> Result<T, OwnerError>
where
    R: AsyncBufRead + Unpin + ?Sized,
    T: DeserializeOwned,
{
    let line = match read_line_bounded(reader, HELLO_MAX).await {
        Ok(Some(line)) => line,
        Ok(None) => {
            return Err(OwnerError::Handshake(format!(
                "connection closed before the {what}"
            )));
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            return Err(OwnerError::Handshake(format!("{what}: {e}")));
        }
        Err(e) => return Err(OwnerError::Io(e)),
    };
    serde_json::from_str(&line).map_err(|e| OwnerError::Handshake(format!("malformed {what}: {e}")))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_shapes_are_the_documented_ones() {
        assert_eq!(
            serde_json::to_value(Hello::Cli).unwrap(),
            json!({"client": "cli"})
        );
        let mcp = Hello::Mcp { agent: "a1".into() };
        assert_eq!(
            serde_json::to_value(&mcp).unwrap(),
            json!({"client": "mcp", "agent": "a1"})
        );
        assert_eq!(
            serde_json::to_value(HelloReply::accepted()).unwrap(),
            json!({"ok": true, "server": "idea", "version": env!("CARGO_PKG_VERSION")})
        );
        assert_eq!(
            serde_json::to_value(HelloReply::refused("no")).unwrap(),
            json!({"ok": false, "error": "no"})
        );
    }

    #[tokio::test]
    async fn reads_a_hello_and_refuses_bad_ones() {
        let mut ok: &[u8] = b"{\"client\":\"mcp\",\"agent\":\"x\"}\n{\"jsonrpc\":\"2.0\"}\n";
        let hello = read_hello(&mut ok).await.unwrap();
        assert_eq!(hello, Hello::Mcp { agent: "x".into() });
        assert_eq!(
            ok, b"{\"jsonrpc\":\"2.0\"}\n",
            "only the hello line is consumed"
        );

        for bad in [
            b"{\"client\":\"robot\"}\n".to_vec(),
            b"{\"client\":\"mcp\"}\n".to_vec(),
            b"not json\n".to_vec(),
            b"".to_vec(),
            vec![b' '; HELLO_MAX + 1],
        ] {
            let mut reader = bad.as_slice();
            let result = read_hello(&mut reader).await;
            assert!(
                matches!(result, Err(OwnerError::Handshake(_))),
                "{result:?}"
            );
        }
    }
}
