import type { Note } from "../api";
import type { Agent, AgentState, CellRef, Layouts, SessionInfo } from "../types";
import { findLeaf } from "./layoutTree";

/** The label and tooltip of a state badge. */
export const STATE_LABEL: Record<AgentState, string> = {
  working: "working",
  needsYou: "needs you",
  idle: "idle",
  usageLimited: "usage limit",
  exited: "exited",
  failed: "failed",
};

/** Whether `session` is an agent's (not a shell's) that waits for the user. */
export function needsYou(session: SessionInfo): boolean {
  return Boolean(session.agentId) && session.status === "running" && session.state === "needsYou";
}

/** Agent sessions (not shells) that wait for the user. */
export function needingYou(sessions: Iterable<SessionInfo>): SessionInfo[] {
  return [...sessions].filter(needsYou);
}

/** The session that needs the user after cell `current` (in `order`, wrapping round), or the
 * first one that does when `current` is not among them. */
export function nextNeedingYou(sessions: Iterable<SessionInfo>, order: (s: SessionInfo) => number, current: string | null): SessionInfo | null {
  const waiting = needingYou(sessions).sort((a, b) => order(a) - order(b));
  if (waiting.length === 0) return null;
  const at = waiting.findIndex((s) => s.cell?.nodeId === current);
  return waiting[(at + 1) % waiting.length] ?? null;
}

/** How many of `sessions` in layout `layoutId` need the user. */
export function needingYouIn(sessions: Iterable<SessionInfo>, layoutId: string): number {
  return needingYou(sessions).filter((s) => s.cell?.layoutId === layoutId).length;
}

/** The sessions stopped by their provider's usage limit (in layout `layoutId`, if given). */
export function limitedIn(sessions: Iterable<SessionInfo>, layoutId?: string): number {
  return [...sessions].filter((s) => s.state === "usageLimited" && s.status === "running" && (layoutId === undefined || s.cell?.layoutId === layoutId)).length;
}

/** The page title with the count of agents that need the user, and of those waiting for a
 *  usage limit: "(2) IdeA", "(2) IdeA · 1 at its limit". */
export function titleWithCount(base: string, count: number, limited = 0): string {
  const title = count > 0 ? `(${count}) ${base}` : base;
  return limited > 0 ? `${title} · ${limited} at ${limited === 1 ? "its" : "their"} limit` : title;
}

/** A state change worth a notification: an agent now needs the user, finished its turn, or
 *  failed (a stop the user asked for is not one). */
export function notable(previous: AgentState | undefined, next: AgentState): boolean {
  if (previous === next) return false;
  if (next === "usageLimited" || (previous === "usageLimited" && next === "working")) return true;
  return next === "needsYou" || next === "failed" || (next === "idle" && previous === "working");
}

/** The notification for `session`, now in a notable state: the agent's name and the reason,
 *  never an id (the tag, which is never shown, is the session's id). */
export function noteFor(session: SessionInfo, agents: Agent[]): Note {
  const name = agents.find((a) => a.agentId === session.agentId)?.name ?? "An agent";
  const title =
    session.state === "needsYou"
      ? `${name} needs you`
      : session.state === "failed"
        ? `${name} failed`
        : session.state === "usageLimited"
          ? `${name} stopped at its usage limit`
          : session.state === "working"
            ? `${name} continues after its usage limit`
            : `${name} is done`;
  return { title, body: session.stateReason ?? STATE_LABEL[session.state], tag: session.sessionId };
}

/** Where a click on session `sessionId`'s notification goes: its cell as it is now, or
 *  nowhere when the session or its cell is gone (closed, its layout deleted). */
export function clickTarget(sessionId: string, sessions: Map<string, SessionInfo>, layouts: Layouts | null): CellRef | null {
  const cell = sessions.get(sessionId)?.cell;
  const layout = cell && layouts?.layouts.find((l) => l.id === cell.layoutId);
  return cell && layout && findLeaf(layout.tree, cell.nodeId) ? cell : null;
}
