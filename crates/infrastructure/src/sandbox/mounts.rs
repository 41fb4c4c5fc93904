//! The namespace step of a plan with a [`MountPlan`]: in the helper's own mount namespace,
//! IdeA's state and git's files become read-only mounts of themselves, the agent's own folders
//! under them writable mounts again, every denied path inside a write root that exists is
//! covered (hidden: an empty read-only tmpfs folder or file; write-denied: read-only), and the
//! folders on the way to any of these are pinned (mounted over themselves) so that they cannot
//! be renamed away and replaced. What remains for Landlock is returned: the project is no
//! longer split.
//!
//! Every path below a write root is opened one component at a time without following links,
//! and mounts are made on the opened descriptors: a protected path that is (or lies behind) a
//! symbolic link fails closed.

use super::enforce::real_path;
use super::{SandboxError, sys, userns};
use idea_domain::sandbox::{PrivateCache, SandboxPlan};
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

/// What is mounted over one path, in the order they are applied at the same depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Cover {
    /// Mounted over itself, unchanged: cannot be renamed or removed.
    Pin,
    /// Writable again below a read-only path.
    Writable,
    /// Read-only. `by_rule`: a rule's write denial, not IdeA's own state.
    ReadOnly { by_rule: bool },
    /// An empty, read-only folder or file instead.
    Hidden,
}

/// One path to cover, relative to the write root it lies in.
struct Target {
    root: PathBuf,
    relative: PathBuf,
    cover: Cover,
}

/// The write roots that are folders, as given and resolved, longest first.
fn folder_roots(plan: &SandboxPlan) -> Vec<(PathBuf, PathBuf)> {
    let mut roots: Vec<(PathBuf, PathBuf)> = plan
        .write_roots
        .iter()
        .filter(|r| !r.starts_with("/dev"))
        .map(|r| (r.clone(), real_path(r)))
        .filter(|(_, real)| real.is_dir())
        .collect();
    roots.sort_by_key(|(given, _)| std::cmp::Reverse(given.components().count()));
    roots
}

/// The write root `path` lies in (as given, or resolved), and its path below it.
fn locate(roots: &[(PathBuf, PathBuf)], path: &Path) -> Option<(PathBuf, PathBuf)> {
    roots.iter().find_map(|(given, real)| {
        let relative = path
            .strip_prefix(given)
            .or_else(|_| path.strip_prefix(real))
            .ok()?;
        (!relative.as_os_str().is_empty()).then(|| (real.clone(), relative.to_path_buf()))
    })
}

/// Opens `relative` below `root` one component at a time, links not followed. `None` when
/// something on the way does not exist (or is not a folder).
fn open_beneath(root: &Path, relative: &Path) -> Result<Option<OwnedFd>, SandboxError> {
    let mut current: OwnedFd = open_root(root)?;
    let mut so_far = root.to_path_buf();
    for part in relative.components() {
        let Component::Normal(name) = part else {
            return Err(SandboxError::Path {
                path: root.join(relative),
                source: io::Error::from(io::ErrorKind::InvalidInput),
            });
        };
        so_far.push(name);
        let next = match sys::open_path_at(current.as_fd(), name) {
            Ok(fd) => fd,
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ENOTDIR)) => {
                return Ok(None);
            }
            Err(source) => {
                return Err(SandboxError::Path {
                    path: so_far,
                    source,
                });
            }
        };
        let kind = sys::file_type(next.as_fd()).map_err(|source| SandboxError::Path {
            path: so_far.clone(),
            source,
        })?;
        if kind == libc::S_IFLNK {
            return Err(SandboxError::Link { path: so_far });
        }
        current = next;
    }
    Ok(Some(current))
}

fn open_root(root: &Path) -> Result<OwnedFd, SandboxError> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_DIRECTORY)
        .open(root)
        .map(OwnedFd::from)
        .map_err(|source| SandboxError::Path {
            path: root.to_path_buf(),
            source,
        })
}

/// Enters the namespaces and mounts what `plan.mounts` and its denied paths call for; the plan
/// Landlock enforces next. A plan without mounts is returned as it is, nothing entered.
///
/// # Errors
/// A namespace or mount the kernel refuses, a protected path that is a link: the caller must
/// not exec.
pub(super) fn isolate(plan: &SandboxPlan) -> Result<SandboxPlan, SandboxError> {
    let Some(mounts) = &plan.mounts else {
        return Ok(plan.clone());
    };
    // Before any path is opened: descriptors opened earlier would name the old namespace's
    // mounts.
    userns::enter()?;
    let roots = folder_roots(plan);
    let mut landlock = SandboxPlan {
        read_denied: vec![],
        write_denied: vec![],
        credentials: vec![],
        mounts: None,
        ..plan.clone()
    };
    let mut covers: Covers = BTreeMap::new();
    // IdeA's own protected paths, as given: a link among them is refused below.
    for path in &mounts.read_only {
        match locate(&roots, path) {
            Some((root, relative)) if open_beneath(&root, &relative)?.is_some() => {
                cover(
                    &mut covers,
                    root,
                    relative,
                    Cover::ReadOnly { by_rule: false },
                );
            }
            // Absent (or outside every write root): Landlock denies it, splitting its folders.
            _ => landlock.write_denied.push(path.clone()),
        }
    }
    // The denied paths, resolved as Landlock would see them.
    let denied = [
        (&plan.read_denied, Cover::Hidden, 0),
        (&plan.credentials, Cover::Hidden, 1),
        (&plan.write_denied, Cover::ReadOnly { by_rule: true }, 2),
    ];
    for (paths, kind, list) in denied {
        for path in paths {
            let real = real_path(path);
            match locate(&roots, &real) {
                Some((root, relative)) if open_beneath(&root, &relative)?.is_some() => {
                    cover(&mut covers, root, relative, kind);
                }
                // Absent inside a write root: nothing to read or keep yet, and left to
                // Landlock it would split the folders above it (no new entry at the project's
                // root). Like a glob that matches nothing, it is enforced from the next launch
                // on, once it exists (docs/sandbox.md).
                Some(_) => {}
                None => match list {
                    0 => landlock.read_denied.push(path.clone()),
                    1 => landlock.credentials.push(path.clone()),
                    _ => landlock.write_denied.push(path.clone()),
                },
            }
        }
    }
    let denied_by_rule: Vec<PathBuf> = covers
        .iter()
        .filter(|(_, (_, _, c))| matches!(c, Cover::Hidden | Cover::ReadOnly { by_rule: true }))
        .map(|(p, _)| p.clone())
        .collect();
    for path in &mounts.writable {
        let Some((root, relative)) = locate(&roots, path) else {
            continue;
        };
        let full = root.join(&relative);
        let covered = denied_by_rule.iter().any(|d| full.starts_with(d));
        if !covered && !covers.contains_key(&full) && open_beneath(&root, &relative)?.is_some() {
            cover(&mut covers, root, relative, Cover::Writable);
        }
    }
    let targets = with_pins(covers);
    apply(&targets)?;
    for cache in &mounts.private_caches {
        match private_cache(cache) {
            Ok(()) => landlock.write_roots.push(cache.path.clone()),
            // A cache the kernel will not overlay (a file system without user extended
            // attributes, say) stays read-only, as it was before private caches: builds that
            // download fail there, and the user is told why.
            Err(error) => eprintln!(
                "idea sandbox: {} stays read-only (no private copy: {error})",
                cache.path.display()
            ),
        }
    }
    sys::drop_capabilities().map_err(|source| SandboxError::Namespace {
        step: "drop capabilities",
        source,
    })?;
    Ok(landlock)
}

/// Mounts an overlay over the user's cache whose writes land in the agent's private folder
/// (made here, as the cache itself when missing: an overlay needs a folder to lie over).
fn private_cache(cache: &PrivateCache) -> io::Result<()> {
    std::fs::create_dir_all(&cache.path)?;
    let (upper, work) = (cache.private.join("upper"), cache.private.join("work"));
    std::fs::create_dir_all(&upper)?;
    std::fs::create_dir_all(&work)?;
    let lower = real_path(&cache.path);
    let target = open_root(&lower).map_err(io::Error::other)?;
    let mount = sys::overlay(&lower, &upper, &work)?;
    sys::attach(mount.as_fd(), target.as_fd())
}

/// Each covered path (resolved): its write root, its path below it, its cover.
type Covers = BTreeMap<PathBuf, (PathBuf, PathBuf, Cover)>;

/// One cover a path; the strongest wins (hidden over read-only).
fn cover(covers: &mut Covers, root: PathBuf, relative: PathBuf, kind: Cover) {
    let entry = covers
        .entry(root.join(&relative))
        .or_insert((root, relative, kind));
    entry.2 = entry.2.max(kind);
}

/// The covers plus a pin on every folder on the way to one (between its write root and it)
/// that no read-only or hidden cover already holds, shallowest first.
fn with_pins(covers: Covers) -> Vec<Target> {
    let frozen: Vec<&PathBuf> = covers
        .iter()
        .filter(|(_, (_, _, c))| !matches!(c, Cover::Writable))
        .map(|(p, _)| p)
        .collect();
    let mut pins: BTreeMap<PathBuf, (PathBuf, PathBuf)> = BTreeMap::new();
    for (root, relative, _) in covers.values() {
        let mut on_the_way = PathBuf::new();
        let parts: Vec<_> = relative.components().collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            on_the_way.push(part);
            let full = root.join(&on_the_way);
            let inside_frozen = frozen.iter().any(|f| full.starts_with(f));
            if !inside_frozen && !covers.contains_key(&full) {
                pins.insert(full, (root.clone(), on_the_way.clone()));
            }
        }
    }
    let mut targets: Vec<Target> = pins
        .into_values()
        .map(|(root, relative)| Target {
            root,
            relative,
            cover: Cover::Pin,
        })
        .chain(covers.into_values().map(|(root, relative, cover)| Target {
            root,
            relative,
            cover,
        }))
        .collect();
    targets.sort_by_key(|t| (t.relative.components().count(), t.cover));
    targets
}

fn apply(targets: &[Target]) -> Result<(), SandboxError> {
    let mut tmpfs: Option<OwnedFd> = None;
    for target in targets {
        let path = target.root.join(&target.relative);
        let failed = |step: &'static str| {
            let path = path.clone();
            move |source: io::Error| SandboxError::Mount { step, path, source }
        };
        let Some(fd) = open_beneath(&target.root, &target.relative)? else {
            // Gone since it was found: it must not stay reachable uncovered.
            return Err(SandboxError::Mount {
                step: "find",
                path,
                source: io::Error::from(io::ErrorKind::NotFound),
            });
        };
        let mount = match target.cover {
            Cover::Hidden => {
                if tmpfs.is_none() {
                    tmpfs = Some(sys::empty_tmpfs().map_err(failed("mount an empty tmpfs"))?);
                }
                let source =
                    tmpfs
                        .as_ref()
                        .map(AsFd::as_fd)
                        .ok_or_else(|| SandboxError::Mount {
                            step: "mount an empty tmpfs",
                            path: path.clone(),
                            source: io::Error::from(io::ErrorKind::NotFound),
                        })?;
                let is_dir = sys::file_type(fd.as_fd()).map_err(failed("stat"))? == libc::S_IFDIR;
                let name = OsStr::new(if is_dir { "d" } else { "f" });
                sys::clone_tree(source, Some(name)).map_err(failed("clone an empty entry"))?
            }
            _ => sys::clone_tree(fd.as_fd(), None).map_err(failed("clone (open_tree)"))?,
        };
        let (set, clear, recursive) = match target.cover {
            Cover::Pin => (0, 0, false),
            Cover::ReadOnly { .. } | Cover::Hidden => (sys::MOUNT_ATTR_RDONLY, 0, true),
            Cover::Writable => (0, sys::MOUNT_ATTR_RDONLY, false),
        };
        if set != 0 || clear != 0 {
            sys::set_attributes(mount.as_fd(), set, clear, recursive)
                .map_err(failed("set read-only (mount_setattr)"))?;
        }
        sys::attach(mount.as_fd(), fd.as_fd()).map_err(failed("attach (move_mount)"))?;
    }
    Ok(())
}
