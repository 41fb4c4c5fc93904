//! The owner's local socket: bind (replacing a crashed owner's leftover), accept same-uid peers,
//! and the client's `connect`.

use super::{OwnerError, ProjectLock, own_uid};
use interprocess::local_socket::tokio::prelude::*;
use interprocess::local_socket::tokio::{Listener, Stream};
use interprocess::local_socket::{GenericFilePath, ListenerOptions};
use interprocess::os::unix::local_socket::ListenerOptionsExt;
use std::fs::{self, Permissions};
use std::io;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A connection to or from an owner: tokio `AsyncRead + AsyncWrite + Unpin + Send`.
pub type OwnerStream = Stream;

/// Who is at the other end of a socket, as the kernel says (`SO_PEERCRED`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerCredentials {
    /// The peer's effective uid.
    pub uid: u32,
    /// The peer's pid, when the OS gives it.
    pub pid: Option<u32>,
}

/// Refuses a peer running as another user than ours: the socket is for our own processes only.
///
/// # Errors
/// [`OwnerError::ForeignPeer`] when `peer_uid != own_uid`.
pub fn check_peer(peer_uid: u32, own_uid: u32) -> Result<(), OwnerError> {
    if peer_uid == own_uid {
        Ok(())
    } else {
        Err(OwnerError::ForeignPeer { uid: peer_uid })
    }
}

/// The owner's listening socket. Dropping it removes the socket file.
#[derive(Debug)]
pub struct OwnerListener {
    listener: Listener,
    path: PathBuf,
    own_uid: u32,
}

impl OwnerListener {
    /// Binds the socket at `path` (from [`socket_path`](super::socket_path)), mode 0600. Must run
    /// inside a tokio runtime.
    ///
    /// `_held` proves we hold the project's lock, so whatever file sits at `path` was left by a
    /// dead owner: a socket there is removed and replaced; anything else (a regular file, a
    /// symlink) is refused, never deleted.
    ///
    /// # Errors
    /// `AlreadyExists` when a non-socket occupies `path`; any I/O error of bind or chmod.
    pub fn bind(path: &Path, _held: &ProjectLock) -> io::Result<Self> {
        remove_stale_socket(path)?;
        let mut listener = match listen(path, true) {
            // Some Unix systems cannot set a socket's mode before bind: chmod below suffices.
            Err(e) if e.kind() == io::ErrorKind::Unsupported => listen(path, false),
            result => result,
        }?;
        // Our Drop removes the file, checking it is still a socket first.
        listener.do_not_reclaim_name_on_drop();
        let this = Self {
            listener,
            path: path.to_path_buf(),
            own_uid: own_uid(),
        };
        // Belt and braces: the mode also holds where the pre-bind one was not applied.
        fs::set_permissions(path, Permissions::from_mode(0o600))?;
        Ok(this)
    }

    /// Waits for the next connection of our own user.
    ///
    /// A peer of another uid is disconnected at once and reported as
    /// [`OwnerError::ForeignPeer`] so the caller can log it; the listener stays usable: log and
    /// call `accept` again (likewise for an [`OwnerError::Io`] about one connection).
    ///
    /// # Errors
    /// [`OwnerError::ForeignPeer`], or [`OwnerError::Io`] when accepting or reading the peer's
    /// credentials failed (e.g. it hung up at once).
    pub async fn accept(&self) -> Result<(OwnerStream, PeerCredentials), OwnerError> {
        let stream = self.listener.accept().await?;
        let peer = peer_credentials(&stream)?;
        check_peer(peer.uid, self.own_uid)?;
        Ok((stream, peer))
    }

    /// The socket file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OwnerListener {
    fn drop(&mut self) {
        let is_socket = fs::symlink_metadata(&self.path).is_ok_and(|m| m.file_type().is_socket());
        if is_socket {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Connects to the owner socket at `path` (inside a tokio runtime), and checks the owner runs as
/// our user: a socket of another user's process is not an IdeA of ours.
///
/// # Errors
/// I/O errors of connect (`NotFound`, `ConnectionRefused` when no owner listens);
/// `PermissionDenied` when the listener is of another uid.
pub async fn connect(path: &Path) -> io::Result<OwnerStream> {
    let stream = Stream::connect(path.to_fs_name::<GenericFilePath>()?).await?;
    let peer = peer_credentials(&stream)?;
    check_peer(peer.uid, own_uid())
        .map_err(|e| io::Error::new(io::ErrorKind::PermissionDenied, e))?;
    Ok(stream)
}

/// Turns a connection into a tokio `UnixStream`, whose write side can be shut down on its own
/// (`shutdown(SHUT_WR)`; the stream's own `poll_shutdown` is a no-op): a client that has sent
/// everything says so, and still reads the answers on their way. Must run inside a tokio
/// runtime.
///
/// # Errors
/// When the descriptor cannot be taken out of the stream or registered with tokio.
pub fn into_unix_stream(stream: OwnerStream) -> io::Result<tokio::net::UnixStream> {
    let Stream::UdSocket(stream) = stream;
    let fd = std::os::fd::OwnedFd::try_from(stream)?;
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true)?;
    tokio::net::UnixStream::from_std(stream)
}

fn listen(path: &Path, with_mode: bool) -> io::Result<Listener> {
    let options = ListenerOptions::new()
        .name(path.to_fs_name::<GenericFilePath>()?)
        .try_overwrite(false);
    // fchmod before bind: the file never exists with a laxer mode.
    let options = if with_mode {
        options.mode(0o600)
    } else {
        options
    };
    options.create_tokio()
}

fn peer_credentials(stream: &Stream) -> io::Result<PeerCredentials> {
    let creds = stream.peer_creds()?;
    let uid = creds
        .euid()
        .ok_or_else(|| io::Error::other("the OS gave no uid for the socket peer"))?;
    Ok(PeerCredentials {
        uid,
        pid: creds.pid().and_then(|pid| u32::try_from(pid).ok()),
    })
}

/// Removes a leftover socket at `path`; refuses to touch anything else.
fn remove_stale_socket(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(meta) if meta.file_type().is_socket() => fs::remove_file(path),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("refusing to replace {}: it is not a socket", path.display()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the JSON-RPC side relies on, checked at compile time.
    #[test]
    fn the_stream_is_a_sendable_tokio_stream() {
        fn usable<T>()
        where
            T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + Sync + 'static,
        {
        }
        fn sendable<T: Send + Sync>() {}
        usable::<OwnerStream>();
        sendable::<OwnerListener>();
        sendable::<ProjectLock>();
    }

    #[test]
    fn a_peer_of_another_uid_is_refused_ours_accepted() {
        assert!(check_peer(1000, 1000).is_ok());
        assert!(check_peer(0, 0).is_ok());
        assert!(matches!(
            check_peer(1001, 1000),
            Err(OwnerError::ForeignPeer { uid: 1001 })
        ));
        assert!(matches!(
            check_peer(0, 1000),
            Err(OwnerError::ForeignPeer { uid: 0 })
        ));
    }
}
