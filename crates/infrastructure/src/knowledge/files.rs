//! Bounded reads of shared folders: how many entries, how deep, how big. A repository can
//! commit a skill of a million files or a `SKILL.md` of a gigabyte; IdeA reads what fits and
//! reports the rest.

use super::Place;
use crate::store::confine;
use idea_domain::ports::StoreError;
use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A text IdeA reads whole (`SKILL.md`, `TOOL.json`, a memory entry, a template).
pub(crate) const MAX_TEXT: u64 = 256 * 1024;
/// Entries of one shared folder (skills, tools, memory entries) looked at.
pub(crate) const MAX_ENTRIES: usize = 1_000;
/// A skill's folder, copied whole into a run dir.
const MAX_TREE_FILES: usize = 200;
const MAX_TREE_BYTES: u64 = 8 * 1024 * 1024;
const MAX_TREE_DEPTH: usize = 4;

/// One entry of a shared folder.
#[derive(Debug)]
pub(crate) struct Entry {
    pub name: String,
    pub path: PathBuf,
    pub is_dir: bool,
}

/// The entries of `place` (none when it does not exist), sorted by name; in the project a link
/// is reported, not followed; names that are not UTF-8 or start with `.` are left out.
pub(crate) fn entries(place: &Place) -> (Vec<Entry>, Vec<(PathBuf, String)>) {
    let mut problems = Vec::new();
    match place.exists() {
        Ok(true) => {}
        Ok(false) => return (Vec::new(), problems),
        Err(e) => {
            problems.push((place.dir.clone(), e.to_string()));
            return (Vec::new(), problems);
        }
    }
    let reader = match fs::read_dir(&place.dir) {
        Ok(reader) => reader,
        Err(e) => {
            problems.push((place.dir.clone(), format!("cannot list it: {e}")));
            return (Vec::new(), problems);
        }
    };
    let mut found = Vec::new();
    for entry in reader.flatten() {
        if found.len() >= MAX_ENTRIES {
            problems.push((
                place.dir.clone(),
                format!("more than {MAX_ENTRIES} entries: the rest were not read"),
            ));
            break;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let is_dir = if meta.file_type().is_symlink() {
            if !place.trusted() {
                problems.push((path, format!("is {}; not followed", confine::LINK)));
                continue;
            }
            path.is_dir()
        } else {
            meta.is_dir()
        };
        found.push(Entry { name, path, is_dir });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    (found, problems)
}

/// The text of `path`, at most [`MAX_TEXT`] bytes; `None` when absent. In the project a link is
/// refused.
pub(crate) fn read_text(place: &Place, path: &Path) -> Result<Option<String>, StoreError> {
    let bytes = if place.trusted() {
        match fs::File::open(path) {
            Ok(file) => {
                let mut bytes = Vec::new();
                file.take(MAX_TEXT + 1)
                    .read_to_end(&mut bytes)
                    .map_err(|e| confine::io_error("read", path, e))?;
                if bytes.len() as u64 > MAX_TEXT {
                    return Err(too_big(path));
                }
                Some(bytes)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(confine::io_error("read", path, e)),
        }
    } else {
        confine::read_at_most(path, MAX_TEXT)?
    };
    bytes
        .map(|b| {
            String::from_utf8(b).map_err(|_| StoreError::Corrupt {
                path: path.to_path_buf(),
                reason: "not UTF-8 text".into(),
            })
        })
        .transpose()
}

fn too_big(path: &Path) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        reason: format!("larger than {MAX_TEXT} bytes"),
    }
}

/// The files under `dir`, relative and sorted, hidden ones left out; refused when the tree is
/// larger than a skill may be, deeper, or (in the project) holds a link.
pub(crate) fn tree(place: &Place) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let mut bytes = 0;
    walk(place, &place.dir, "", 0, &mut files, &mut bytes)?;
    files.sort();
    Ok(files)
}

fn walk(
    place: &Place,
    dir: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<String>,
    bytes: &mut u64,
) -> Result<(), String> {
    if depth > MAX_TREE_DEPTH {
        return Err(format!("deeper than {MAX_TREE_DEPTH} folders"));
    }
    let reader = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in reader.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
        let meta = if meta.file_type().is_symlink() {
            if !place.trusted() {
                return Err(format!("{} is {}", path.display(), confine::LINK));
            }
            fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?
        } else {
            meta
        };
        let relative = format!("{prefix}{name}");
        if meta.is_dir() {
            walk(
                place,
                &path,
                &format!("{relative}/"),
                depth + 1,
                files,
                bytes,
            )?;
        } else if meta.is_file() {
            *bytes += meta.len();
            files.push(relative);
            if files.len() > MAX_TREE_FILES {
                return Err(format!("more than {MAX_TREE_FILES} files"));
            }
            if *bytes > MAX_TREE_BYTES {
                return Err(format!("larger than {} MB", MAX_TREE_BYTES / 1024 / 1024));
            }
        }
    }
    Ok(())
}

/// Copies the files of `from` (as [`tree`] lists them) into the new folder `to`, keeping the
/// executable bit; `rewrite` may change a file's bytes on the way (by its relative path).
pub(crate) fn copy_tree(
    from: &Place,
    to: &Path,
    rewrite: impl Fn(&str, Vec<u8>) -> Vec<u8>,
) -> Result<(), String> {
    let files = tree(from)?;
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for relative in files {
        let source = from.dir.join(&relative);
        let bytes = if from.trusted() {
            fs::read(&source).map_err(|e| format!("{}: {e}", source.display()))?
        } else {
            confine::read(&source)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{} vanished", source.display()))?
        };
        let executable = fs::metadata(&source).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
        let target = to.join(&relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::write(&target, rewrite(&relative, bytes))
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
        if executable {
            let _ = fs::set_permissions(&target, fs::Permissions::from_mode(0o755));
        }
    }
    Ok(())
}

/// Removes `path` whatever it is (a link is removed, never followed).
pub(crate) fn remove_any(path: &Path) -> std::io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}
