//! A fake desktop notification service for end-to-end tests: it owns
//! `org.freedesktop.Notifications` on the session D-Bus (run it under `dbus-run-session` for a
//! bus of its own) and implements the freedesktop notification interface the way a desktop's
//! notification daemon does, showing nothing.
//!
//! `fake-notifications LOG`: each `Notify` call is appended to `LOG` as one JSON line
//! (`id`, `appName`, `replacesId`, `summary`, `body`, `actions`, `hints` (their names),
//! `expireTimeout`), and so is each `CloseNotification` (`{"closed": id}`). Once the name is
//! owned it prints `ready <bus address>` on stdout. Then it reads commands from stdin, one a
//! line: `invoke ID` emits `ActionInvoked(ID, "default")` (the user clicked the notification)
//! then `NotificationClosed(ID, 2)` (dismissed by the user), as a daemon does; `close ID` emits
//! only the latter. End of input ends it.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use zbus::object_server::SignalEmitter;
use zbus::zvariant::OwnedValue;

const PATH: &str = "/org/freedesktop/Notifications";
/// `NotificationClosed` reasons of the specification.
const DISMISSED_BY_USER: u32 = 2;
const CLOSED_BY_CALL: u32 = 3;

struct Service {
    log: PathBuf,
    next_id: AtomicU32,
}

impl Service {
    fn record(&self, line: &serde_json::Value) {
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = written {
            eprintln!(
                "fake-notifications: cannot write {}: {e}",
                self.log.display()
            );
        }
    }
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Service {
    #[expect(
        clippy::too_many_arguments,
        reason = "the specification's Notify signature"
    )]
    fn notify(
        &self,
        app_name: String,
        replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        hints: HashMap<String, OwnedValue>,
        expire_timeout: i32,
    ) -> u32 {
        let id = if replaces_id > 0 {
            replaces_id
        } else {
            self.next_id.fetch_add(1, Ordering::SeqCst)
        };
        let mut hint_names: Vec<&String> = hints.keys().collect();
        hint_names.sort();
        self.record(&serde_json::json!({
            "id": id,
            "appName": app_name,
            "replacesId": replaces_id,
            "summary": summary,
            "body": body,
            "actions": actions,
            "hints": hint_names,
            "expireTimeout": expire_timeout,
        }));
        id
    }

    async fn close_notification(
        &self,
        id: u32,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> zbus::fdo::Result<()> {
        self.record(&serde_json::json!({ "closed": id }));
        Self::notification_closed(&emitter, id, CLOSED_BY_CALL).await?;
        Ok(())
    }

    fn get_capabilities(&self) -> Vec<&'static str> {
        vec!["actions", "body"]
    }

    fn get_server_information(&self) -> (&'static str, &'static str, &'static str, &'static str) {
        ("fake-notifications", "IdeA tests", "1.0", "1.2")
    }

    #[zbus(signal)]
    async fn action_invoked(
        emitter: &SignalEmitter<'_>,
        id: u32,
        action_key: &str,
    ) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn notification_closed(
        emitter: &SignalEmitter<'_>,
        id: u32,
        reason: u32,
    ) -> zbus::Result<()>;
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(e) = run().await {
        eprintln!("fake-notifications: {e}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let log = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: fake-notifications LOG")?;
    let service = Service {
        log,
        next_id: AtomicU32::new(1),
    };
    let connection = zbus::connection::Builder::session()?
        .name("org.freedesktop.Notifications")?
        .serve_at(PATH, service)?
        .build()
        .await?;
    let address = std::env::var("DBUS_SESSION_BUS_ADDRESS").unwrap_or_default();
    println!("ready {address}");
    std::io::stdout().flush()?;

    let (lines, mut commands) = tokio::sync::mpsc::unbounded_channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let emitter = SignalEmitter::new(&connection, PATH)?;
    while let Some(line) = commands.recv().await {
        let mut words = line.split_whitespace();
        let (command, id) = (
            words.next(),
            words.next().and_then(|w| w.parse::<u32>().ok()),
        );
        match (command, id) {
            (Some("invoke"), Some(id)) => {
                Service::action_invoked(&emitter, id, "default").await?;
                Service::notification_closed(&emitter, id, DISMISSED_BY_USER).await?;
            }
            (Some("close"), Some(id)) => {
                Service::notification_closed(&emitter, id, DISMISSED_BY_USER).await?;
            }
            _ => eprintln!("fake-notifications: unknown command {line:?}"),
        }
    }
    Ok(())
}
