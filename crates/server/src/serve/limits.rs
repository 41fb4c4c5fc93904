//! What a connection may hold before it shows the token. Anyone on the machine can connect,
//! so an unauthenticated connection must send each request head within [`HEAD_TIMEOUT`], and
//! at most [`MAX_UNTRUSTED`] of them stay open: the next one closes the oldest, so a flood
//! can neither lock the user out nor use up the descriptors the terminals need (accepting
//! waits while the closed ones still hold theirs). Once a request shows the token (see
//! `auth::require_token`), its connection is trusted and exempt.

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener, TapIo};
use futures_util::task::AtomicWaker;
use std::collections::VecDeque;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// How long an unauthenticated connection may take to send a request head (from its accept,
/// or from its previous head): loopback clients send theirs at once.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// Unauthenticated connections open at once; a page load needs a handful.
const MAX_UNTRUSTED: usize = 128;
/// Descriptors unauthenticated connections may hold, those being closed included.
const MAX_UNTRUSTED_DESCRIPTORS: usize = 2 * MAX_UNTRUSTED;

/// One connection's standing, shared by its stream, the listener and its requests.
#[derive(Debug, Default)]
struct Watch {
    trusted: AtomicBool,
    evicted: AtomicBool,
    /// Wakes the connection's task so that it notices the eviction.
    waker: AtomicWaker,
}

impl Watch {
    fn evict(&self) {
        self.evicted.store(true, Ordering::Release);
        self.waker.wake();
    }
}

/// A request's connection, given to the handlers as `ConnectInfo<Ticket>`.
#[derive(Debug, Clone)]
pub(super) struct Ticket(Arc<Watch>);

impl Ticket {
    /// The connection showed the token: no deadline and no cap from now on.
    pub(super) fn trust(&self) {
        self.0.trusted.store(true, Ordering::Release);
    }
}

impl Connected<IncomingStream<'_, GuardedListener>> for Ticket {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Self {
        Self(Arc::clone(&stream.io().watch))
    }
}

/// The same through `ListenerExt::tap_io` (which sets `TCP_NODELAY`).
impl<F> Connected<IncomingStream<'_, TapIo<GuardedListener, F>>> for Ticket
where
    F: FnMut(&mut Guarded) + Send + 'static,
{
    fn connect_info(stream: IncomingStream<'_, TapIo<GuardedListener, F>>) -> Self {
        Self(Arc::clone(&stream.io().watch))
    }
}

/// The server's listener: accepts like axum's, and keeps the unauthenticated connections in
/// check.
#[derive(Debug)]
pub struct GuardedListener {
    tcp: TcpListener,
    /// Unauthenticated connections, oldest first.
    untrusted: VecDeque<Weak<Watch>>,
    /// One permit per descriptor an unauthenticated connection holds.
    descriptors: Arc<Semaphore>,
}

impl GuardedListener {
    pub(super) fn new(tcp: TcpListener) -> Self {
        Self {
            tcp,
            untrusted: VecDeque::new(),
            descriptors: Arc::new(Semaphore::new(MAX_UNTRUSTED_DESCRIPTORS)),
        }
    }
}

impl Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        // Never closed: the semaphore lives as long as `self`.
        let permit = Arc::clone(&self.descriptors).acquire_owned().await.ok();
        // axum's accept: retries, and backs off when out of descriptors.
        let (tcp, addr) = Listener::accept(&mut self.tcp).await;
        self.untrusted.retain(|w| {
            w.upgrade()
                .is_some_and(|w| !w.trusted.load(Ordering::Acquire))
        });
        while self.untrusted.len() >= MAX_UNTRUSTED {
            if let Some(oldest) = self.untrusted.pop_front().and_then(|w| w.upgrade()) {
                oldest.evict();
            }
        }
        let watch = Arc::new(Watch::default());
        self.untrusted.push_back(Arc::downgrade(&watch));
        (Guarded::new(tcp, watch, permit), addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

/// An accepted connection: a TCP stream that fails once an untrusted connection must go.
#[derive(Debug)]
pub struct Guarded {
    tcp: TcpStream,
    watch: Arc<Watch>,
    /// Released once trusted, or with the descriptor.
    permit: Option<OwnedSemaphorePermit>,
    deadline: Pin<Box<Sleep>>,
    /// How much of the blank line that ends a request head the bytes read so far end with.
    matched: u8,
}

impl Guarded {
    fn new(tcp: TcpStream, watch: Arc<Watch>, permit: Option<OwnedSemaphorePermit>) -> Self {
        Self {
            tcp,
            watch,
            permit,
            deadline: Box::pin(tokio::time::sleep(HEAD_TIMEOUT)),
            matched: 0,
        }
    }

    /// As [`TcpStream::set_nodelay`].
    pub fn set_nodelay(&self, nodelay: bool) -> io::Result<()> {
        self.tcp.set_nodelay(nodelay)
    }

    fn trusted(&self) -> bool {
        self.watch.trusted.load(Ordering::Acquire)
    }

    /// An error once an untrusted connection is evicted or its request head is overdue.
    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        if self.trusted() {
            self.permit = None;
            return Ok(());
        }
        self.watch.waker.register(cx.waker());
        if self.watch.evicted.load(Ordering::Acquire) {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "too many connections without the token",
            ));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no request head in time",
            ));
        }
        Ok(())
    }

    /// Gives the next request head a fresh deadline whenever one ends in `bytes`.
    fn read_bytes(&mut self, bytes: &[u8]) {
        let (matched, heads) = scan_heads(self.matched, bytes);
        self.matched = matched;
        if heads {
            self.deadline.as_mut().reset(Instant::now() + HEAD_TIMEOUT);
        }
    }
}

/// Follows `\r\n\r\n` (the end of a request head) through `bytes`, `matched` bytes of it
/// already seen: how many are matched at the end, and whether one completed.
fn scan_heads(mut matched: u8, bytes: &[u8]) -> (u8, bool) {
    let mut ended = false;
    for &byte in bytes {
        matched = match (matched, byte) {
            (0 | 2, b'\r') | (1 | 3, b'\n') => matched + 1,
            (_, b'\r') => 1,
            _ => 0,
        };
        if matched == 4 {
            ended = true;
            matched = 0;
        }
    }
    (matched, ended)
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.check(cx)?;
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.tcp).poll_read(cx, buf);
        if polled.is_ready() && !this.trusted() {
            this.read_bytes(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check(cx)?;
        Pin::new(&mut this.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check(cx)?;
        Pin::new(&mut this.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}

/// Every terminal takes descriptors: raise the soft limit (often 1024) to the hard one.
pub(super) fn raise_descriptor_limit() {
    #[cfg(unix)]
    {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        match getrlimit(Resource::RLIMIT_NOFILE) {
            Ok((soft, hard)) if soft < hard => {
                match setrlimit(Resource::RLIMIT_NOFILE, hard, hard) {
                    Ok(()) => tracing::debug!(from = soft, to = hard, "descriptor limit raised"),
                    Err(e) => tracing::info!(error = %e, soft, hard, "descriptor limit kept"),
                }
            }
            Ok(_) => {}
            Err(e) => tracing::info!(error = %e, "descriptor limit unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_heads_are_found_across_reads() {
        assert_eq!(
            scan_heads(0, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
            (0, true)
        );
        assert_eq!(scan_heads(0, b"GET / HTTP/1.1\r\nHost: x\r\n"), (2, false));
        assert_eq!(scan_heads(2, b"\r"), (3, false));
        assert_eq!(scan_heads(3, b"\n"), (0, true));
        assert_eq!(scan_heads(2, b"X"), (0, false));
        assert_eq!(scan_heads(1, b"\r\r\n\r\n"), (0, true));
        assert_eq!(scan_heads(0, b"\n\n"), (0, false));
    }
}
