//! Newline-delimited framing with a ceiling: a peer can never make us buffer without bound.

use std::io;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

/// The largest JSON-RPC message line accepted after the handshake.
pub const MESSAGE_MAX: usize = 16 * 1024 * 1024;

/// Reads one line of at most `max` bytes (the `\n`, and a `\r` before it, are not counted nor
/// returned). `Ok(None)` at a clean end of stream; a last line without `\n` is still returned.
///
/// Keep the same `reader` (e.g. one `BufReader` around the stream) for the whole connection:
/// bytes after the line may already sit in its buffer.
///
/// # Errors
/// `InvalidData` when the line is longer than `max` (the stream is then out of step: close it)
/// or not UTF-8; any I/O error of `reader`.
pub async fn read_line_bounded<R>(reader: &mut R, max: usize) -> io::Result<Option<String>>
where
    R: AsyncBufRead + Unpin + ?Sized,
{
    let mut line = Vec::new();
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            if line.is_empty() {
                return Ok(None);
            }
            break;
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        if line.len() + chunk.len() > max.saturating_add(1) {
            return Err(too_long(max));
        }
        line.extend_from_slice(chunk);
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            break;
        }
    }
    // The one extra byte allowed above is a `\r` of a CRLF line ending.
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.len() > max {
        return Err(too_long(max));
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes `value` as one line of compact JSON and flushes it.
///
/// # Errors
/// Any I/O error of `writer`.
pub(super) async fn write_json_line<W, T>(writer: &mut W, value: &T) -> io::Result<()>
where
    W: AsyncWrite + Unpin + ?Sized,
    T: serde::Serialize,
{
    let mut bytes = serde_json::to_vec(value).map_err(io::Error::other)?;
    bytes.push(b'\n');
    writer.write_all(&bytes).await?;
    writer.flush().await
}

fn too_long(max: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("line longer than {max} bytes"),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<io::Result<Option<String>>> {
        // A 3-byte buffer makes lines span several fill_buf calls.
        let mut reader = tokio::io::BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        loop {
            let next = read_line_bounded(&mut reader, max).await;
            let stop = !matches!(next, Ok(Some(_)));
            out.push(next);
            if stop {
                return out;
            }
        }
    }

    fn texts(results: &[io::Result<Option<String>>]) -> Vec<Option<&str>> {
        results
            .iter()
            .map(|r| r.as_ref().unwrap().as_deref())
            .collect()
    }

    #[tokio::test]
    async fn splits_lines_and_strips_crlf() {
        let got = lines(b"one\r\ntwo\n\nlast", 10).await;
        assert_eq!(
            texts(&got),
            [Some("one"), Some("two"), Some(""), Some("last"), None]
        );
    }

    #[tokio::test]
    async fn a_line_at_the_limit_passes_and_one_over_errors() {
        let got = lines(b"12345\r\n123456\n", 5).await;
        assert_eq!(got[0].as_ref().unwrap().as_deref(), Some("12345"));
        let err = got[1].as_ref().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let got = lines(b"123456", 5).await;
        assert_eq!(
            got[0].as_ref().unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_invalid_data() {
        let got = lines(b"\xff\xfe\n", 10).await;
        assert_eq!(
            got[0].as_ref().unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }
}
