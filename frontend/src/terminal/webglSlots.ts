// WebGL contexts for the terminals on screen only. Chromium keeps at most 16 per page and, past
// that, takes the oldest away (its terminal then fell back to the DOM renderer for good), so a
// hidden terminal gives its context back and at most `MAX_CONTEXTS` are held at once; a shown
// terminal beyond that draws with the DOM renderer until a context is free.

import { WebglAddon } from "@xterm/addon-webgl";
import type { Terminal } from "@xterm/xterm";

/** Below Chromium's 16, leaving room for other canvases of the page. */
export const MAX_CONTEXTS = 12;

/** A shown terminal that wants a context. */
export interface WebglUser {
  readonly term: Terminal;
  /** Whether the terminal is on screen now (a freed context goes to one that is). */
  shown(): boolean;
}

const held = new Map<WebglUser, WebglAddon>();
const waiting = new Set<WebglUser>();

function disabled(): boolean {
  return localStorage.getItem("idea.renderer") === "dom";
}

/** Gives `user` a WebGL renderer if a context is free; else it waits for one. */
export function acquireWebgl(user: WebglUser): void {
  if (held.has(user) || disabled()) return;
  if (held.size >= MAX_CONTEXTS) {
    waiting.add(user);
    return;
  }
  waiting.delete(user);
  try {
    const webgl = new WebglAddon();
    webgl.onContextLoss(() => {
      // WebKitGTK and GPU resets lose the context: fall back to the DOM renderer.
      releaseWebgl(user);
    });
    user.term.loadAddon(webgl);
    held.set(user, webgl);
  } catch {
    // No WebGL2 here: the DOM renderer stays.
  }
}

/** Takes `user`'s context away (hidden or disposed) and hands it to a shown terminal waiting. */
export function releaseWebgl(user: WebglUser): void {
  waiting.delete(user);
  const webgl = held.get(user);
  if (!webgl) return;
  held.delete(user);
  webgl.dispose();
  for (const next of waiting) {
    if (!next.shown()) continue;
    acquireWebgl(next);
    break;
  }
}

export function holdsWebgl(user: WebglUser): boolean {
  return held.has(user);
}

/** How many contexts terminals hold (tests read it through the page). */
export function webglContexts(): number {
  return held.size;
}
