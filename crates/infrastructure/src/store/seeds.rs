//! Seed files in a run dir, and the ledger that tells IdeA's own writes from the user's edits.
//!
//! `<runDir>/.idea-seeds.json` maps each seeded path (relative) to the content IdeA last
//! wrote. A file whose content differs from its ledger entry — or that has none — was made or
//! edited by someone else and is left alone.

use super::confine;
use idea_domain::ports::{SeedOutcome, StoreError};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

const LEDGER: &str = ".idea-seeds.json";

/// `run_dir` itself was checked by the caller; folders below it and the files are checked here.
pub(super) fn seed(run_dir: &Path, path: &Path, content: &str) -> Result<SeedOutcome, StoreError> {
    let relative = path
        .strip_prefix(run_dir)
        .ok()
        .filter(|r| {
            !r.as_os_str().is_empty()
                && r.components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
        })
        .ok_or_else(|| StoreError::Io {
            action: "seed",
            path: path.to_path_buf(),
            source: io::Error::new(
                io::ErrorKind::PermissionDenied,
                "outside the agent's run dir",
            ),
        })?;
    let key = relative.to_string_lossy().into_owned();
    let ledger_path = run_dir.join(LEDGER);
    let mut ledger = read_ledger(&ledger_path)?;
    let folder = confine::parent(path);
    let current = if confine::real_dir(run_dir, &folder, false)? {
        confine::read(path)?
    } else {
        None
    };
    let ours = ledger.get(&key).map(String::as_bytes);
    let outcome = match current.as_deref() {
        Some(bytes) if bytes == content.as_bytes() => SeedOutcome::Unchanged,
        Some(bytes) if ours != Some(bytes) => return Ok(SeedOutcome::KeptUserEdit),
        _ => {
            confine::real_dir(run_dir, &folder, true)?;
            confine::write(path, content.as_bytes())?;
            SeedOutcome::Written
        }
    };
    if ledger.get(&key).map(String::as_str) != Some(content) {
        ledger.insert(key, content.to_owned());
        let bytes = serde_json::to_vec_pretty(&ledger).unwrap_or_default();
        confine::write(&ledger_path, &bytes)?;
    }
    Ok(outcome)
}

/// A missing or unreadable ledger is empty: then every existing file counts as the user's. A
/// linked one is refused, like any link in the run dir.
fn read_ledger(path: &Path) -> Result<BTreeMap<String, String>, StoreError> {
    Ok(confine::read(path)?
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn seeds_are_written_updated_and_user_edits_kept() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path();
        let file = run.join(".cli/settings.json");
        assert_eq!(seed(run, &file, "v1").unwrap(), SeedOutcome::Written);
        assert_eq!(seed(run, &file, "v1").unwrap(), SeedOutcome::Unchanged);
        // IdeA's own file follows IdeA's new content.
        assert_eq!(seed(run, &file, "v2").unwrap(), SeedOutcome::Written);
        assert_eq!(fs::read_to_string(&file).unwrap(), "v2");
        // The user edits it: IdeA never writes it again.
        fs::write(&file, "mine").unwrap();
        assert_eq!(seed(run, &file, "v3").unwrap(), SeedOutcome::KeptUserEdit);
        assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    }

    #[test]
    fn a_file_the_user_made_first_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        fs::write(&file, "user").unwrap();
        assert_eq!(
            seed(dir.path(), &file, "ours").unwrap(),
            SeedOutcome::KeptUserEdit
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "user");
    }

    #[test]
    fn paths_outside_the_run_dir_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        for bad in [dir.path().join("x"), run.join("../x"), run.clone()] {
            assert!(seed(&run, &bad, "x").is_err(), "{bad:?}");
        }
    }
}
