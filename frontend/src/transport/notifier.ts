// Where the UI's notifications go: one port, two ways. In a browser (`idea serve`) the
// Notifications API, after the user opts in; in the desktop app the system's own
// notifications, shown by the desktop shell (`tauriNotifier.ts`), on from the start. The
// code that decides when to notify (hooks/useAttention.ts) is the same for both.

/** What a notification says, and the tag a click on it reports back (a session id). */
export interface Note {
  title: string;
  body: string;
  tag: string;
}

/** Whether notifications may be shown: granted, not yet asked, refused, or impossible here. */
export type NotifyPermission = "granted" | "default" | "denied" | "unsupported";

export interface Notifier {
  /** The user must opt in first (the browser's prompt); else notifications are on from the
   *  start, and the desktop's own settings turn them off. */
  readonly needsOptIn: boolean;
  permission(): NotifyPermission;
  requestPermission(): Promise<NotifyPermission>;
  show(note: Note): void;
  /** Calls `listener` with the tag of each notification the user clicks (after the window
   *  came to the front); returns the unsubscribe function. */
  onClick(listener: (tag: string) => void): () => void;
}

/** The click listeners of one notifier. */
export class Clicks {
  private readonly listeners = new Set<(tag: string) => void>();

  add(listener: (tag: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  fire(tag: string): void {
    for (const listener of [...this.listeners]) listener(tag);
  }
}

/** The browser's Notifications API. */
export class BrowserNotifier implements Notifier {
  readonly needsOptIn = true;
  private readonly clicks = new Clicks();

  permission(): NotifyPermission {
    return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  }

  async requestPermission(): Promise<NotifyPermission> {
    if (typeof Notification === "undefined") return "unsupported";
    return Notification.requestPermission();
  }

  show(note: Note): void {
    if (this.permission() !== "granted") return;
    const shown = new Notification(note.title, { body: note.body, tag: note.tag });
    shown.onclick = () => {
      window.focus();
      shown.close();
      this.clicks.fire(note.tag);
    };
  }

  onClick(listener: (tag: string) => void): () => void {
    return this.clicks.add(listener);
  }
}
