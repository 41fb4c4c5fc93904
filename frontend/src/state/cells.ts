// What a cell shows about who runs in it: shared by its header and by the phone's list of cells.

import type { CellBusy } from "../hooks/useCellActions";
import type { Agent, NamedLayout, SessionInfo } from "../types";
import { findLeaf, leavesInReadingOrder } from "./layoutTree";

/** Who runs in a cell: the agent's name, "shell", or "" for an empty cell. */
export function occupantName(session: SessionInfo | undefined, agent: Agent | undefined): string {
  if (!session) return "";
  return session.agentId ? (agent?.name ?? "unknown agent") : "shell";
}

/** A cell's process status in words, and its kind (the status dot's colour). */
export function statusOf(session: SessionInfo | undefined, busy: CellBusy): { text: string; kind: string } {
  if (busy === "launching") return { text: "starting…", kind: "starting" };
  if (busy === "restarting") return { text: "restarting…", kind: "starting" };
  if (!session) return { text: "empty", kind: "empty" };
  if (session.status === "running") return { text: busy === "stopping" ? "stopping…" : "running", kind: "running" };
  const exit = session.exit;
  if (!exit) return { text: "exited", kind: "exited" };
  if (exit.stopped) return { text: "stopped", kind: "exited" };
  if (exit.signal) return { text: `killed by ${exit.signal}`, kind: "failed" };
  return { text: `exited with code ${exit.code}`, kind: exit.code === 0 ? "exited" : "failed" };
}

/** Whether the agent's state (working, needs you…) says more than the process status: a running
 *  agent's does, a shell has none. */
export function showsAgentState(session: SessionInfo | undefined): boolean {
  return session?.status === "running" && session.agentId !== null && session.agentId !== undefined;
}

/** The cell a phone shows of `layout`: the focused one if it is there, else the one it showed
 *  last (`remembered`, the focus having gone to another layout meanwhile), else the first in
 *  reading order. */
export function shownCell(layout: NamedLayout, focused: string | null, remembered: string | undefined): string | null {
  for (const candidate of [focused, remembered]) if (candidate && findLeaf(layout.tree, candidate)) return candidate;
  return leavesInReadingOrder(layout.tree)[0]?.id ?? null;
}
