// The desktop app's notifications: the desktop shell shows them natively (`show_notification`,
// app-tauri/src/desktop/notifications), raises the window when one is clicked, then emits
// `idea://notification-click` with its tag.

import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { Clicks, type Note, type Notifier, type NotifyPermission } from "./notifier";

/** Native notifications; nothing to ask (the desktop's own settings may turn them off). */
export class NativeNotifier implements Notifier {
  readonly needsOptIn = false;
  private readonly clicks = new Clicks();

  constructor() {
    void listen<string>("idea://notification-click", (event) => this.clicks.fire(event.payload));
  }

  permission(): NotifyPermission {
    return "granted";
  }

  requestPermission(): Promise<NotifyPermission> {
    return Promise.resolve("granted");
  }

  show(note: Note): void {
    invoke("show_notification", { note }).catch((error: unknown) => console.warn("show_notification failed", error));
  }

  onClick(listener: (tag: string) => void): () => void {
    return this.clicks.add(listener);
  }
}
