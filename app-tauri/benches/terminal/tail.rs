//! Finding an end marker in output read in pieces.

/// Finds a marker in a stream read in pieces, looking only at the last bytes seen (the marker
/// is near the end of the output: a shell prompt at most follows it in the same read).
pub(crate) struct Tail {
    marker: Vec<u8>,
    last: Vec<u8>,
}

impl Tail {
    const KEEP: usize = 256;

    pub(crate) fn new(marker: &[u8]) -> Self {
        Self {
            marker: marker.to_vec(),
            last: Vec::with_capacity(2 * Self::KEEP),
        }
    }

    /// Adds `bytes`; true once the marker is among the last bytes seen.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> bool {
        let new = &bytes[bytes.len().saturating_sub(Self::KEEP)..];
        self.last.extend_from_slice(new);
        let excess = self.last.len().saturating_sub(Self::KEEP);
        self.last.drain(..excess);
        self.last
            .windows(self.marker.len())
            .any(|window| window == self.marker.as_slice())
    }
}
