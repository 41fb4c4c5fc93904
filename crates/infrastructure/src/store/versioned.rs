//! Reading and writing JSON files that carry a top-level `version`.

use idea_domain::ports::StoreError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;

/// Parses `bytes` (the content of `path`, `None` when absent) as a `T` whose schema version is
/// at most `supported`, then runs `validate`. `Ok(None)` when the file is absent. Never writes.
pub(crate) fn read_versioned<T: DeserializeOwned>(
    path: &Path,
    bytes: Option<Vec<u8>>,
    supported: u32,
    validate: impl FnOnce(&T) -> Result<(), String>,
) -> Result<Option<T>, StoreError> {
    let Some(bytes) = bytes else {
        return Ok(None);
    };
    let corrupt = |reason: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    // serde_json's recursion limit keeps a hand-nested file from overflowing the stack; say so
    // in words rather than only in serde's.
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        let e = e.to_string();
        if e.contains("recursion limit") {
            corrupt(format!("nested too deep to read ({e})"))
        } else {
            corrupt(format!("invalid JSON ({e})"))
        }
    })?;
    let version = value
        .get("version")
        .ok_or_else(|| corrupt("no \"version\" field".into()))?
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| corrupt("\"version\" is not a positive integer".into()))?;
    if version > supported {
        return Err(StoreError::NewerSchema {
            path: path.to_path_buf(),
            found: version,
            supported,
        });
    }
    // The path (`entries[0].agentId`) tells the user where to look in a hand-edited file.
    let parsed: T = serde_path_to_error::deserialize(value).map_err(|e| {
        match e.path().to_string().as_str() {
            "." => corrupt(e.inner().to_string()),
            path => corrupt(format!("{path}: {}", e.inner())),
        }
    })?;
    validate(&parsed).map_err(corrupt)?;
    Ok(Some(parsed))
}

/// Pretty JSON with a trailing newline, as people read and diff these files.
pub(crate) fn to_pretty_json<T: Serialize>(value: &T, path: &Path) -> Result<Vec<u8>, StoreError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason: format!("cannot encode: {e}"),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}
