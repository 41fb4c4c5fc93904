import { useCallback, useEffect, useMemo, useState } from "react";
import { request } from "../api";
import type { SessionInfo } from "../types";
import { useCoalescedRefresh } from "./useCoalescedRefresh";
import { useDomainEvent } from "./useDomainEvent";

export interface SessionsState {
  /** Each cell's session (live or exited), by cell id. */
  byCell: Map<string, SessionInfo>;
  /** Each agent's running session, by agent id. */
  runningByAgent: Map<string, SessionInfo>;
  /** Records a session a request just returned (before or after its event). */
  upsert(session: SessionInfo): void;
  refresh(): void;
}

/** The terminal sessions of every cell, from `listSessions` and session events. */
export function useSessions(epoch: number): SessionsState {
  const [byCell, setByCell] = useState<Map<string, SessionInfo>>(new Map());

  const refresh = useCoalescedRefresh(async () => {
    try {
      const sessions = await request("listSessions");
      setByCell(new Map(sessions.map((s) => [s.nodeId, s])));
    } catch {
      // kept as is; the connection banner or the next refresh tells the rest
    }
  });

  useEffect(() => {
    if (epoch > 0) refresh();
  }, [epoch, refresh]);

  const upsert = useCallback((session: SessionInfo) => {
    setByCell((prev) => {
      const current = prev.get(session.nodeId);
      // An exit already seen for this very session wins over a late "running" answer.
      if (current?.sessionId === session.sessionId && current.status === "exited") return prev;
      const next = new Map(prev);
      next.set(session.nodeId, session);
      return next;
    });
  }, []);

  useDomainEvent((event) => {
    switch (event.type) {
      case "sessionStarted":
        upsert(event.session);
        break;
      case "sessionExited":
        setByCell((prev) => {
          const current = prev.get(event.nodeId);
          if (!current || current.sessionId !== event.sessionId) return prev;
          const next = new Map(prev);
          next.set(event.nodeId, { ...current, status: "exited", exit: event.exit, pid: null });
          return next;
        });
        break;
      case "layoutsChanged":
        refresh(); // closed cells take their sessions with them
        break;
      default:
        break;
    }
  });

  const runningByAgent = useMemo(() => {
    const map = new Map<string, SessionInfo>();
    for (const session of byCell.values()) {
      if (session.agentId && session.status === "running") map.set(session.agentId, session);
    }
    return map;
  }, [byCell]);

  return { byCell, runningByAgent, upsert, refresh };
}
