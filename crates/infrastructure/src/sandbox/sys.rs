//! The system calls of the namespace step, each wrapped in an `io::Result`. The mount API is
//! the descriptor-based one (Linux 5.12; Landlock ABI 6 needs 6.12 anyway): a mount is cloned
//! from an opened path, made read-only while detached, and attached onto another opened path,
//! so no path is looked up twice and no link is followed between the check and the mount.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

// Kernel ABI constants (include/uapi/linux/mount.h, fcntl.h), stable since Linux 5.12.
const OPEN_TREE_CLONE: libc::c_uint = 1;
const AT_RECURSIVE: libc::c_uint = 0x8000;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
const MOVE_MOUNT_T_EMPTY_PATH: libc::c_uint = 0x40;
pub(super) const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const MOUNT_ATTR_NOEXEC: u64 = 0x8;
const FSOPEN_CLOEXEC: libc::c_uint = 1;
const FSMOUNT_CLOEXEC: libc::c_uint = 1;
const FSCONFIG_SET_STRING: libc::c_uint = 1;
const FSCONFIG_CMD_CREATE: libc::c_uint = 6;
const FSCONFIG_SET_FLAG: libc::c_uint = 0;

/// `struct mount_attr` (MOUNT_ATTR_SIZE_VER0).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const EMPTY: &CStr = c"";

fn check(ret: libc::c_long) -> io::Result<libc::c_long> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

fn owned(ret: libc::c_long) -> io::Result<OwnedFd> {
    let fd = libc::c_int::try_from(check(ret)?).map_err(|_| io::Error::other("bad descriptor"))?;
    // SAFETY: the kernel just returned this new descriptor; nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

/// `unshare(CLONE_NEWUSER | CLONE_NEWNS)`: the calling process (single-threaded) enters a new
/// user namespace, in which it holds every capability, and a copy of its mount namespace.
pub(super) fn unshare_user_and_mounts() -> io::Result<()> {
    // SAFETY: takes no memory.
    let ret = unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) };
    check(libc::c_long::from(ret)).map(drop)
}

/// Makes every mount a slave (`mount --make-rslave /`): what this namespace mounts does not
/// propagate back to the user's.
pub(super) fn make_mounts_slave() -> io::Result<()> {
    // SAFETY: valid C strings; a propagation change takes no source, type or data.
    let ret = unsafe {
        libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_SLAVE,
            std::ptr::null(),
        )
    };
    check(libc::c_long::from(ret)).map(drop)
}

/// Opens `name` in `dir` as a path only (`O_PATH | O_NOFOLLOW`): a final link is opened as the
/// link, never followed.
pub(super) fn open_path_at(dir: BorrowedFd<'_>, name: &OsStr) -> io::Result<OwnedFd> {
    let name = c_name(name)?;
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid descriptor and C string.
    let ret = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags) };
    owned(libc::c_long::from(ret))
}

/// The file type bits (`S_IFMT`) of what `fd` refers to.
pub(super) fn file_type(fd: BorrowedFd<'_>) -> io::Result<libc::mode_t> {
    // SAFETY: `stat` is plain data, filled by the kernel.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor and a pointer to a `stat` we own.
    let ret = unsafe { libc::fstat(fd.as_raw_fd(), &raw mut stat) };
    check(libc::c_long::from(ret))?;
    Ok(stat.st_mode & libc::S_IFMT)
}

/// A detached copy of the mount tree at `fd` (`open_tree(OPEN_TREE_CLONE | AT_RECURSIVE)`),
/// or at `name` below it.
pub(super) fn clone_tree(fd: BorrowedFd<'_>, name: Option<&OsStr>) -> io::Result<OwnedFd> {
    let mut flags = OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint;
    let name = match name {
        Some(name) => c_name(name)?,
        None => {
            flags |= libc::AT_EMPTY_PATH as libc::c_uint;
            EMPTY.to_owned()
        }
    };
    // SAFETY: a valid descriptor and C string; returns a new descriptor.
    owned(unsafe { libc::syscall(libc::SYS_open_tree, fd.as_raw_fd(), name.as_ptr(), flags) })
}

/// Sets and clears mount attributes of the mount at `fd` (and of the mounts below it when
/// `recursive`).
pub(super) fn set_attributes(
    fd: BorrowedFd<'_>,
    set: u64,
    clear: u64,
    recursive: bool,
) -> io::Result<()> {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let mut flags = libc::AT_EMPTY_PATH as libc::c_uint;
    if recursive {
        flags |= AT_RECURSIVE;
    }
    // SAFETY: a valid descriptor, an empty path and a `mount_attr` of the size passed.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            fd.as_raw_fd(),
            EMPTY.as_ptr(),
            flags,
            &raw const attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    check(ret).map(drop)
}

/// Attaches the detached mount `mount` onto the path `target` refers to.
pub(super) fn attach(mount: BorrowedFd<'_>, target: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: valid descriptors and empty paths.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            mount.as_raw_fd(),
            EMPTY.as_ptr(),
            target.as_raw_fd(),
            EMPTY.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH,
        )
    };
    check(ret).map(drop)
}

/// Creates the file system configured on the `fsopen` descriptor `fs`.
fn create_superblock(fs: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: a valid descriptor; no key or value for this command.
    check(unsafe {
        libc::syscall(
            libc::SYS_fsconfig,
            fs.as_raw_fd(),
            FSCONFIG_CMD_CREATE,
            std::ptr::null::<libc::c_char>(),
            std::ptr::null::<libc::c_void>(),
            0,
        )
    })
    .map(drop)
}

/// A new, detached tmpfs (no setuid, devices or execution) holding an empty folder `d` and an
/// empty file `f`, both mode 000: what a hidden path is covered with.
pub(super) fn empty_tmpfs() -> io::Result<OwnedFd> {
    // SAFETY: a valid C string; returns a new descriptor.
    let fs = owned(unsafe { libc::syscall(libc::SYS_fsopen, c"tmpfs".as_ptr(), FSOPEN_CLOEXEC) })?;
    for (key, value) in [(c"size", c"16k"), (c"nr_inodes", c"16"), (c"mode", c"0700")] {
        // SAFETY: a valid descriptor and C strings.
        let ret = unsafe {
            libc::syscall(
                libc::SYS_fsconfig,
                fs.as_raw_fd(),
                FSCONFIG_SET_STRING,
                key.as_ptr(),
                value.as_ptr(),
                0,
            )
        };
        check(ret)?;
    }
    create_superblock(fs.as_fd())?;
    let attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC;
    // SAFETY: a valid descriptor; returns a new descriptor.
    let mount =
        owned(unsafe { libc::syscall(libc::SYS_fsmount, fs.as_raw_fd(), FSMOUNT_CLOEXEC, attrs) })?;
    // SAFETY: a valid descriptor and C string.
    let ret = unsafe { libc::mkdirat(mount.as_raw_fd(), c"d".as_ptr(), 0) };
    check(libc::c_long::from(ret))?;
    let flags = libc::O_CREAT | libc::O_EXCL | libc::O_WRONLY | libc::O_CLOEXEC;
    // SAFETY: a valid descriptor and C string; the mode is passed as `openat` expects.
    let file = owned(libc::c_long::from(unsafe {
        libc::openat(mount.as_raw_fd(), c"f".as_ptr(), flags, 0 as libc::c_uint)
    }))?;
    drop(file);
    Ok(mount)
}

/// A new, detached overlay of the folder `lower` whose changes land in `upper` (`work` is
/// overlayfs's own scratch folder, on the same file system as `upper`). Its extended
/// attributes go in the `user.` namespace, as in a user namespace they must.
pub(super) fn overlay(lower: &Path, upper: &Path, work: &Path) -> io::Result<OwnedFd> {
    // SAFETY: a valid C string; returns a new descriptor.
    let fs =
        owned(unsafe { libc::syscall(libc::SYS_fsopen, c"overlay".as_ptr(), FSOPEN_CLOEXEC) })?;
    let set = |key: &CStr, value: Option<&CStr>| {
        let (command, value) = match value {
            Some(value) => (FSCONFIG_SET_STRING, value.as_ptr()),
            None => (FSCONFIG_SET_FLAG, std::ptr::null()),
        };
        // SAFETY: a valid descriptor and C strings (or a null value for a flag).
        check(unsafe {
            libc::syscall(
                libc::SYS_fsconfig,
                fs.as_raw_fd(),
                command,
                key.as_ptr(),
                value,
                0,
            )
        })
    };
    let c_path = |path: &Path| CString::new(path.as_os_str().as_bytes()).map_err(io::Error::other);
    set(c"lowerdir", Some(&c_path(lower)?))?;
    set(c"upperdir", Some(&c_path(upper)?))?;
    set(c"workdir", Some(&c_path(work)?))?;
    set(c"userxattr", None)?;
    create_superblock(fs.as_fd())?;
    let attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    // SAFETY: a valid descriptor; returns a new descriptor.
    owned(unsafe { libc::syscall(libc::SYS_fsmount, fs.as_raw_fd(), FSMOUNT_CLOEXEC, attrs) })
}

/// Gives up every capability for good: the ambient and bounding sets emptied, then the
/// permitted, effective and inheritable ones. A root process execs without regaining any.
pub(super) fn drop_capabilities() -> io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    let ret = unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        )
    };
    check(libc::c_long::from(ret))?;
    for cap in 0..64 {
        // SAFETY: prctl with integer arguments only.
        let ret = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) };
        if ret < 0 {
            let error = io::Error::last_os_error();
            // Past the kernel's last capability.
            if error.raw_os_error() == Some(libc::EINVAL) {
                break;
            }
            return Err(error);
        }
    }
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: LINUX_CAPABILITY_VERSION_3,
        pid: 0,
    };
    let data = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: a version 3 header and the two data words it expects.
    let ret = unsafe { libc::syscall(libc::SYS_capset, &raw const header, data.as_ptr()) };
    check(ret).map(drop)
}
