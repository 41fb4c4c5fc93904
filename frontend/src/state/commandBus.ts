// Commands sent to the part of the UI that owns an action (a cell's Stop, a tab's rename, the
// side panel's view), so that the command palette runs the same code, confirmations included,
// as the button it stands for.

import { useEffect, useRef } from "react";

/** Who a command is for: one cell, one layout tab, the tab bar, the side panel, the shortcuts' help. */
export type CommandTarget = `cell:${string}` | `layout:${string}` | "tabbar" | "side-panel" | "shortcuts";

const bus = new EventTarget();

export function sendCommand(target: CommandTarget, command: string): void {
  bus.dispatchEvent(new CustomEvent(target, { detail: command }));
}

/** Calls `handle` with every command sent to `target` while mounted. */
export function useCommands(target: CommandTarget, handle: (command: string) => void): void {
  const latest = useRef(handle);
  latest.current = handle;
  useEffect(() => {
    const listener = (event: Event) => latest.current((event as CustomEvent<string>).detail);
    bus.addEventListener(target, listener);
    return () => bus.removeEventListener(target, listener);
  }, [target]);
}
