// Pure rules of the requests panel: merging what `listRequests` and `requestChanged` say about
// one request, the bound on what is kept, and how a request reads (names, durations).

import type { RequestRecord } from "../generated/RequestRecord";
import { clockTime } from "./clock";
import type { RequestSource } from "../generated/RequestSource";
import type { RequestState } from "../generated/RequestState";
import type { Agent } from "../types";

export type { RequestRecord, RequestSource, RequestState };

/** How many requests the panel keeps (the backend's `listRequests` keeps as many). */
export const MAX_REQUESTS = 200;

// Running and waiting for a limit alternate (a turn waits, then runs again): the same rank, so
// the view that arrived last wins between them.
const RANK: Record<RequestState, number> = { queued: 0, running: 1, waitingForLimit: 1, done: 2, failed: 2, cancelled: 2 };

export function isActive(state: RequestState): boolean {
  return state === "queued" || state === "running" || state === "waitingForLimit";
}

/** A request's state as the panel says it. */
export const STATE_LABEL: Record<RequestState, string> = {
  queued: "queued",
  running: "running",
  waitingForLimit: "waiting for limit",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** "waiting for Ada's usage limit (resets 19:52)": what a request waiting for a reset says. */
export function limitWait(agent: string, resetsAt: number | null | undefined): string {
  if (resetsAt == null) return `waiting for ${agent}'s usage limit`;
  return `waiting for ${agent}'s usage limit (resets ${clockTime(resetsAt)})`;
}

/** The later of two views of one request: a state never goes back (an event that overtook a
 * `listRequests` answer wins over the answer's older copy). */
export function later(a: RequestRecord, b: RequestRecord): RequestRecord {
  return RANK[b.state] >= RANK[a.state] ? b : a;
}

/** `byId` with `records` merged in, trimmed to the newest [`MAX_REQUESTS`]. */
export function mergeRequests(byId: Map<string, RequestRecord>, records: RequestRecord[]): Map<string, RequestRecord> {
  const next = new Map(byId);
  for (const record of records) {
    const known = next.get(record.requestId);
    next.set(record.requestId, known ? later(known, record) : record);
  }
  if (next.size <= MAX_REQUESTS) return next;
  return new Map(newestFirst(next).slice(0, MAX_REQUESTS).map((r) => [r.requestId, r]));
}

export function newestFirst(byId: Map<string, RequestRecord>): RequestRecord[] {
  return [...byId.values()].sort((a, b) => b.createdAt - a.createdAt || b.requestId.localeCompare(a.requestId));
}

/** Who asked or was asked, as a person reads it: "You" for the user, an agent's name, never an id. */
export function partyName(party: string, agentsById: Map<string, Agent>): string {
  if (party === "user") return "You";
  return agentsById.get(party)?.name ?? "a deleted agent";
}

export const SOURCE_LABEL: Record<RequestSource, string> = { mcp: "MCP", file: "file", ui: "UI", handoff: "handoff" };

/** How long a request has taken: queued → since it was made, running → since it started
 * (live, against `now`), finished → finished minus started. */
export function durationMs(record: RequestRecord, now: number): number {
  const start = record.startedAt ?? record.createdAt;
  const end = record.finishedAt ?? now;
  return Math.max(0, end - start);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.floor(seconds % 60)} s`;
}
