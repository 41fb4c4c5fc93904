// The keys a phone's on-screen keyboard lacks, as the bytes a terminal sends for them.

import { existingTerminal } from "./registry";

export type BarKey = "escape" | "tab" | "ctrlC" | "left" | "up" | "down" | "right" | "enter";

const FIXED: Partial<Record<BarKey, string>> = { escape: "\x1b", tab: "\t", ctrlC: "\x03", enter: "\r" };
const ARROW_FINAL: Partial<Record<BarKey, string>> = { up: "A", down: "B", right: "C", left: "D" };

/** The bytes of `key`; arrows follow the program's cursor-key mode (`ESC O A` once it asked for
 *  application keys, as full-screen programs do, else `ESC [ A`). */
export function keyBytes(key: BarKey, applicationCursorKeys: boolean): string {
  const arrow = ARROW_FINAL[key];
  if (arrow) return `${applicationCursorKeys ? "\x1bO" : "\x1b["}${arrow}`;
  return FIXED[key] ?? "";
}

/** Types `key` into session `sessionId`'s terminal as if pressed there: it goes wherever that
 *  terminal's keystrokes go (the process, or the restart offer once it has exited). */
export function typeKey(sessionId: string, key: BarKey): void {
  const term = existingTerminal(sessionId)?.term;
  term?.input(keyBytes(key, term.modes.applicationCursorKeysMode), true);
}
