// The agents' tool calls waiting for the user (a permission rule, or no rule, said `ask`): read
// from `listTools().pending` at each (re)connect, added by `toolApprovalRequested`, removed by
// `toolApprovalResolved` (whoever answered, or the 600 s wait ran out).

import { useEffect, useSyncExternalStore } from "react";
import { onConnection, onEvent, request } from "../api";
import type { ToolApproval } from "../generated/ToolApproval";

let pending: ToolApproval[] = [];
let started = false;
const listeners = new Set<() => void>();

function set(next: ToolApproval[]): void {
  pending = next;
  for (const listener of listeners) listener();
}

function add(approval: ToolApproval): void {
  set([...pending.filter((a) => a.approvalId !== approval.approvalId), approval]);
}

function remove(approvalId: string): void {
  if (pending.some((a) => a.approvalId === approvalId)) set(pending.filter((a) => a.approvalId !== approvalId));
}

async function reload(): Promise<void> {
  try {
    set((await request("listTools")).pending);
  } catch {
    // Kept as they were; the next event or reconnect brings them.
  }
}

function start(): void {
  if (started) return;
  started = true;
  onEvent((event) => {
    if (event.type === "toolApprovalRequested") add(event.approval);
    if (event.type === "toolApprovalResolved") remove(event.approvalId);
  });
  onConnection((state) => {
    if (state === "open") void reload();
  });
  void reload();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The calls waiting for the user, oldest first. */
export function useToolApprovals(): ToolApproval[] {
  useEffect(start, []);
  return useSyncExternalStore(subscribe, () => pending);
}

/** Allows the call once, or denies it. A call nobody waits for any more (answered elsewhere,
 * given up) is dropped from the list, and the error says so. */
export async function answerToolApproval(approvalId: string, allow: boolean): Promise<void> {
  try {
    await request("answerToolApproval", { approvalId, allow });
  } finally {
    remove(approvalId);
  }
}

/** A call's arguments in one line, cut to `max` characters. */
export function argumentsText(approval: ToolApproval, max = 160): string {
  const text = JSON.stringify(approval.arguments) ?? "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
