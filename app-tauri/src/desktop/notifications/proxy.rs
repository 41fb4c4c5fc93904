//! The part of the freedesktop notification interface IdeA uses (Desktop Notifications
//! Specification 1.2): `Notify`, and the signal that says one was clicked.

use std::collections::HashMap;
use zbus::zvariant::Value;

#[zbus::proxy(
    interface = "org.freedesktop.Notifications",
    default_service = "org.freedesktop.Notifications",
    default_path = "/org/freedesktop/Notifications"
)]
pub trait Notifications {
    /// Shows a notification (or replaces `replaces_id`); answers its id. `actions` alternates
    /// keys and labels; `expire_timeout` -1 leaves the time on screen to the service.
    #[expect(
        clippy::too_many_arguments,
        reason = "the specification's Notify signature"
    )]
    fn notify(
        &self,
        app_name: &str,
        replaces_id: u32,
        app_icon: &str,
        summary: &str,
        body: &str,
        actions: &[&str],
        hints: HashMap<&str, Value<'_>>,
        expire_timeout: i32,
    ) -> zbus::Result<u32>;

    /// The user invoked action `action_key` of notification `id` ("default": its body).
    #[zbus(signal)]
    fn action_invoked(&self, id: u32, action_key: String) -> zbus::Result<()>;
}
