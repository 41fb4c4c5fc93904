//! The door's file work: reading a request without following a link and within the size cap,
//! and writing claims and answers atomically (never through a link in their place).

use crate::store::confine;
use idea_domain::filedrop::{DropAnswer, DropRefusal, MAX_REQUEST_BYTES, claim_name};
use idea_domain::ports::StoreError;
use serde::Serialize;
use std::io::{self, Read};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// What reading a request came to.
#[derive(Debug)]
pub(super) enum Reading {
    Bytes(Vec<u8>),
    /// Removed since the scan: nothing to answer.
    Gone,
    /// Answered with an error, unread.
    Refused(DropRefusal),
    /// An I/O error: tried again at the next scan.
    Failed(io::Error),
}

/// Reads the request at `path`: a link, a folder or a FIFO is refused, so is a file over
/// [`MAX_REQUEST_BYTES`] (checked before reading, and again while reading, should it grow).
pub(super) fn read_request(path: &Path) -> Reading {
    let file = match confine::open_no_follow(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Reading::Gone,
        Err(e) => {
            return match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => Reading::Refused(DropRefusal::Link),
                _ => Reading::Failed(e),
            };
        }
    };
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return Reading::Failed(e),
    };
    if !meta.is_file() {
        return Reading::Refused(DropRefusal::NotRegular);
    }
    if meta.len() > MAX_REQUEST_BYTES {
        return Reading::Refused(DropRefusal::TooLarge { size: meta.len() });
    }
    let mut bytes = Vec::new();
    match file.take(MAX_REQUEST_BYTES + 1).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 > MAX_REQUEST_BYTES => {
            Reading::Refused(DropRefusal::TooLarge {
                size: bytes.len() as u64,
            })
        }
        Ok(_) => Reading::Bytes(bytes),
        Err(e) => Reading::Failed(e),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Claim {
    /// Unix milliseconds.
    claimed_at: u64,
    pid: u32,
}

/// Writes `<stem>.claimed` in `dir` (atomically, synced): from now on the request never runs
/// again, even if this process dies before it answers.
pub(super) fn claim(root: &Path, dir: &Path, stem: &str) -> Result<(), StoreError> {
    let claimed_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let claim = Claim {
        claimed_at,
        pid: std::process::id(),
    };
    write_json(root, &dir.join(claim_name(stem)), &claim)
}

/// Writes the answer to request `stem` in `dir`.
pub(super) fn answer(
    root: &Path,
    dir: &Path,
    stem: &str,
    answer: &DropAnswer,
) -> Result<(), StoreError> {
    let path = dir.join(answer.file_name(stem));
    match answer {
        DropAnswer::Response(response) => write_json(root, &path, response),
        DropAnswer::Error(error) => write_json(root, &path, error),
    }
}

/// The folder is checked again (no link on the way from the project root), then the file is
/// replaced atomically, refusing a link in its place.
fn write_json(root: &Path, path: &Path, value: &impl Serialize) -> Result<(), StoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| {
        confine::io_error(
            "encode",
            path,
            io::Error::new(io::ErrorKind::InvalidData, e),
        )
    })?;
    bytes.push(b'\n');
    if !confine::real_dir(root, &confine::parent(path), false)? {
        return Err(confine::io_error(
            "write",
            path,
            io::Error::new(io::ErrorKind::NotFound, "the folder is gone"),
        ));
    }
    confine::write(path, &bytes)
}
