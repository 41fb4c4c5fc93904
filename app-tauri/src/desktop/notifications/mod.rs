//! The desktop window's native notifications, through the desktop's notification service: the
//! freedesktop `org.freedesktop.Notifications` interface on the session D-Bus, spoken with
//! `zbus`. The page decides when to notify (the same code as in a browser); this only shows
//! what it is given and reports a click back with the notification's tag.
//!
//! Not Tauri's notification plugin: on Linux it hands the notification to `notify-rust` and
//! drops the handle, so a click is never reported (its action events are mobile-only). Not
//! `notify-rust` itself either: each of its handles opens a D-Bus connection of its own and
//! needs a thread parked until the service says the notification closed, which a service that
//! keeps notifications in a tray may never do. Here one connection serves every notification
//! and one task hears every click (`docs/agent-states.md`, "Notifications").

mod proxy;
mod shown;
mod text;

use futures_util::StreamExt;
use proxy::NotificationsProxy;
use serde::Deserialize;
use shown::Shown;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tauri::async_runtime::JoinHandle;

/// The name a notification service shows for its sender.
const APP_NAME: &str = "IdeA";
/// The action a service invokes when the notification itself is clicked (its label is shown
/// only by services that draw actions as buttons).
const DEFAULT_ACTION: &str = "default";

/// One notification, as the page asks for it.
#[derive(Debug, Deserialize)]
pub struct Note {
    /// Who and why: "Reviewer needs you" (the page never puts an id here).
    pub title: String,
    /// The reason, from the agent's state.
    pub body: String,
    /// What a click reports back to the page (a session id).
    pub tag: String,
}

type OnClick = dyn Fn(String) + Send + Sync;

/// The window's notifications. The session bus is reached on the first one (a window that
/// never notifies never connects), and again after a call failed.
pub struct Notifications {
    bus: tokio::sync::Mutex<Option<Bus>>,
    shown: Arc<Mutex<Shown>>,
    on_click: Arc<OnClick>,
}

impl std::fmt::Debug for Notifications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notifications").finish_non_exhaustive()
    }
}

/// A connection to the notification service and the task that hears its clicks.
struct Bus {
    proxy: NotificationsProxy<'static>,
    listener: JoinHandle<()>,
}

impl Drop for Bus {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl Notifications {
    /// `on_click` gets the tag of each notification the user clicks, on the async runtime.
    pub fn new(on_click: impl Fn(String) + Send + Sync + 'static) -> Self {
        Self {
            bus: tokio::sync::Mutex::new(None),
            shown: Arc::default(),
            on_click: Arc::new(on_click),
        }
    }

    /// Shows `note` with a default action, so that clicking it is reported.
    ///
    /// # Errors
    /// No session bus, no notification service on it, or the call failed.
    pub async fn show(&self, note: Note) -> zbus::Result<()> {
        let mut bus = self.bus.lock().await;
        let connected = match bus.take() {
            Some(connected) => connected,
            None => self.connect().await?,
        };
        let sent = connected
            .proxy
            .notify(
                APP_NAME,
                0,
                "",
                &text::title(&note.title),
                &text::body(&note.body),
                &[DEFAULT_ACTION, "Open"],
                HashMap::new(),
                -1,
            )
            .await;
        // A failed call drops the connection: the next notification connects again.
        let id = sent?;
        if let Ok(mut shown) = self.shown.lock() {
            shown.insert(id, note.tag);
        }
        *bus = Some(connected);
        Ok(())
    }

    async fn connect(&self) -> zbus::Result<Bus> {
        let connection = zbus::Connection::session().await?;
        let proxy = NotificationsProxy::new(&connection).await?;
        // Subscribed before the first notification is sent, so no click can be missed. Only
        // clicks are heard: `NotificationClosed` comes right after `ActionInvoked`, on another
        // stream, and must not make the click be forgotten before it is read; `Shown` is
        // bounded instead.
        let mut invoked = proxy.receive_action_invoked().await?;
        let shown = Arc::clone(&self.shown);
        let on_click = Arc::clone(&self.on_click);
        let listener = tauri::async_runtime::spawn(async move {
            while let Some(signal) = invoked.next().await {
                let Ok(args) = signal.args() else { continue };
                let tag = (args.action_key == DEFAULT_ACTION)
                    .then(|| shown.lock().ok().and_then(|mut s| s.take(args.id)))
                    .flatten();
                if let Some(tag) = tag {
                    on_click(tag);
                }
            }
        });
        Ok(Bus { proxy, listener })
    }
}
