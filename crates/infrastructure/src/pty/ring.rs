//! The scrollback: the most recent output bytes of one terminal, bounded in size.

use std::collections::VecDeque;

/// A byte ring holding at most `capacity` bytes; appending past it drops the oldest bytes.
///
/// The replay may therefore start in the middle of a line or an escape sequence; terminal
/// emulators resynchronise on the next sequence, so this is cheaper than tracking boundaries.
#[derive(Debug)]
pub(crate) struct Scrollback {
    bytes: VecDeque<u8>,
    capacity: usize,
}

impl Scrollback {
    /// An empty ring keeping at most `capacity` bytes (no allocation until output arrives).
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            bytes: VecDeque::new(),
            capacity,
        }
    }

    /// Appends `batch`, dropping the oldest bytes beyond the capacity.
    pub(crate) fn push(&mut self, batch: &[u8]) {
        // Only the tail of an oversized batch can survive, so skip copying the rest.
        let kept = &batch[batch.len().saturating_sub(self.capacity)..];
        let overflow = (self.bytes.len() + kept.len()).saturating_sub(self.capacity);
        self.bytes.drain(..overflow);
        self.bytes.extend(kept);
    }

    /// A copy of the bytes held, oldest first.
    pub(crate) fn contents(&self) -> Vec<u8> {
        let (front, back) = self.bytes.as_slices();
        [front, back].concat()
    }

    /// How many bytes are held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_everything_below_the_capacity() {
        let mut ring = Scrollback::new(10);
        ring.push(b"abc");
        ring.push(b"def");
        assert_eq!(ring.contents(), b"abcdef");
        assert_eq!(ring.len(), 6);
    }

    #[test]
    fn drops_the_oldest_bytes_first() {
        let mut ring = Scrollback::new(5);
        ring.push(b"abcd");
        ring.push(b"efg");
        assert_eq!(ring.contents(), b"cdefg");
    }

    #[test]
    fn an_oversized_batch_keeps_only_its_tail() {
        let mut ring = Scrollback::new(4);
        ring.push(b"xy");
        ring.push(b"0123456789");
        assert_eq!(ring.contents(), b"6789");
    }

    #[test]
    fn stays_bounded_across_many_pushes_and_wraps() {
        let mut ring = Scrollback::new(7);
        let mut all = Vec::new();
        for i in 0..100u8 {
            let chunk = vec![i; usize::from(i % 5)];
            ring.push(&chunk);
            all.extend_from_slice(&chunk);
            assert!(ring.len() <= 7);
            let expected = &all[all.len().saturating_sub(7)..];
            assert_eq!(ring.contents(), expected);
        }
    }

    #[test]
    fn zero_capacity_keeps_nothing() {
        let mut ring = Scrollback::new(0);
        ring.push(b"abc");
        assert!(ring.contents().is_empty());
    }
}
