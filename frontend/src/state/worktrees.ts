// Every agent's own worktree (`listWorktrees`), shared by the Branches panel and the cells:
// fetched once, again after each `worktreeChanged` (and whenever a reader asks).

import { useEffect, useSyncExternalStore } from "react";
import { onConnection, onEvent, request } from "../api";
import type { WorktreeStatus } from "../generated/WorktreeStatus";

let current: WorktreeStatus[] = [];
let error: unknown = null;
let running = false;
let again = false;
let started = false;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Fetches the list again (one fetch at a time; a call meanwhile fetches once more after). */
export function refreshWorktrees(): void {
  if (running) {
    again = true;
    return;
  }
  running = true;
  void (async () => {
    do {
      again = false;
      try {
        current = await request("listWorktrees");
        error = null;
      } catch (e) {
        error = e;
      }
      emit();
    } while (again);
    running = false;
  })();
}

function start(): void {
  if (started) return;
  started = true;
  onEvent((event) => {
    if (event.type === "worktreeChanged" || event.type === "agentDeleted") refreshWorktrees();
  });
  onConnection((state) => {
    if (state === "open") refreshWorktrees();
  });
  refreshWorktrees();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The worktrees, and the last fetch's error. */
export function useWorktrees(): { worktrees: WorktreeStatus[]; error: unknown } {
  useEffect(start, []);
  const worktrees = useSyncExternalStore(subscribe, () => current);
  const failed = useSyncExternalStore(subscribe, () => error);
  return { worktrees, error: failed };
}

/** The worktree of `agentId`, if it has one. */
export function useWorktreeOf(agentId: string | undefined): WorktreeStatus | undefined {
  const { worktrees } = useWorktrees();
  return agentId ? worktrees.find((w) => w.agentId === agentId) : undefined;
}
