//! The notifications a click can still answer: the service's id of each, with the tag the
//! page gave it. A notification is forgotten once clicked, or when it is the oldest of more
//! than [`KEPT`] (closing is not watched: a service may keep notifications in a tray, and
//! says it closed one right after a click, on another stream); a click on a forgotten one
//! does nothing.

use std::collections::VecDeque;

/// How many notifications a click can answer.
const KEPT: usize = 64;

#[derive(Debug, Default)]
pub struct Shown {
    entries: VecDeque<(u32, String)>,
}

impl Shown {
    /// Remembers notification `id` (a service may reuse an id: the newest wins).
    pub fn insert(&mut self, id: u32, tag: String) {
        self.entries.retain(|(known, _)| *known != id);
        if self.entries.len() == KEPT {
            self.entries.pop_front();
        }
        self.entries.push_back((id, tag));
    }

    /// The tag of notification `id`, forgotten: a click is answered once.
    pub fn take(&mut self, id: u32) -> Option<String> {
        let at = self.entries.iter().position(|(known, _)| *known == id)?;
        self.entries.remove(at).map(|(_, tag)| tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_is_answered_once() {
        let mut shown = Shown::default();
        shown.insert(7, "session-a".into());
        assert_eq!(shown.take(7).as_deref(), Some("session-a"));
        assert_eq!(shown.take(7), None);
        assert_eq!(shown.take(8), None);
    }

    #[test]
    fn the_oldest_is_forgotten_past_the_bound() {
        let mut shown = Shown::default();
        for id in 0..=KEPT as u32 {
            shown.insert(id, format!("tag-{id}"));
        }
        assert_eq!(shown.take(0), None);
        assert_eq!(shown.take(1).as_deref(), Some("tag-1"));
        assert_eq!(
            shown.take(KEPT as u32).as_deref(),
            Some(&*format!("tag-{KEPT}"))
        );
    }

    #[test]
    fn a_reused_id_takes_the_newest_tag() {
        let mut shown = Shown::default();
        shown.insert(3, "old".into());
        shown.insert(3, "new".into());
        assert_eq!(shown.take(3).as_deref(), Some("new"));
        assert_eq!(shown.take(3), None);
    }
}
