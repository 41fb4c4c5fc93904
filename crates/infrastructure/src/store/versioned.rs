//! Reading and writing JSON files that carry a top-level `version`.

use idea_domain::ports::StoreError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs;
use std::io;
use std::path::Path;

/// Reads `path` as a `T` whose schema version is at most `supported`, then runs `validate`.
/// `Ok(None)` when the file is absent. Never writes.
pub(crate) fn read_versioned<T: DeserializeOwned>(
    path: &Path,
    supported: u32,
    validate: impl FnOnce(&T) -> Result<(), String>,
) -> Result<Option<T>, StoreError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(StoreError::Io {
                action: "read",
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let corrupt = |reason: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| corrupt(format!("invalid JSON ({e})")))?;
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
