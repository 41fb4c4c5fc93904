//! The bare PTY baseline: a program on a pseudo-terminal read by the bench itself.

use crate::{COLS, DEADLINE, ROWS};
use anyhow::{Result, bail};
use portable_pty::{Child as PtyChild, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::Duration;

/// `sh -c SCRIPT` on a pseudo-terminal of its own, straight from portable-pty, with a
/// watchdog that kills it after `DEADLINE` (or the deadline given) so a blocking read cannot
/// hang the bench.
pub(crate) struct BarePty {
    child: Box<dyn PtyChild + Send + Sync>,
    pub(crate) reader: Box<dyn Read + Send>,
    pub(crate) writer: Box<dyn Write + Send>,
    _master: Box<dyn MasterPty + Send>,
    watchdog: Option<mpsc::Sender<()>>,
    fired: mpsc::Receiver<()>,
}

impl BarePty {
    pub(crate) fn spawn(script: &str) -> Result<Self> {
        Self::spawn_for(script, DEADLINE)
    }

    pub(crate) fn spawn_for(script: &str, deadline: Duration) -> Result<Self> {
        let pair = native_pty_system().openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })?;
        let mut command = CommandBuilder::new("/bin/sh");
        command.args(["-c", script]);
        let child = pair.slave.spawn_command(command)?;
        // Without this the master never sees EOF.
        drop(pair.slave);
        let reader = pair.master.try_clone_reader()?;
        let writer = pair.master.take_writer()?;
        let mut killer = child.clone_killer();
        let (done, wait) = mpsc::channel::<()>();
        let (fire, fired) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(deadline) {
                let _ = killer.kill();
                let _ = fire.send(());
            }
        });
        Ok(Self {
            child,
            reader,
            writer,
            _master: pair.master,
            watchdog: Some(done),
            fired,
        })
    }

    /// One read; EOF is an error (the child was expected to still be talking).
    pub(crate) fn read<'b>(&mut self, buf: &'b mut [u8]) -> Result<&'b [u8]> {
        loop {
            match self.reader.read(buf) {
                Ok(0) => bail!("the bare PTY closed (or the watchdog fired)"),
                Ok(n) => return Ok(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    pub(crate) fn timed_out(&self) -> bool {
        self.fired.try_recv().is_ok()
    }

    /// Kills the child if it still runs, reaps it and stops the watchdog.
    pub(crate) fn finish(&mut self) -> Result<()> {
        if self.child.try_wait()?.is_none() {
            let _ = self.child.kill();
        }
        self.child.wait()?;
        self.watchdog.take();
        Ok(())
    }
}

impl Drop for BarePty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
