import { useCallback, useEffect, useMemo, useState } from "react";
import { request } from "../api";
import type { SessionInfo } from "../types";
import { useCoalescedRefresh } from "./useCoalescedRefresh";
import { useDomainEvent } from "./useDomainEvent";

export interface SessionsState {
  /** Each cell's session (live or exited), by cell id. */
  byCell: Map<string, SessionInfo>;
  /** The first `listSessions` has answered. */
  loaded: boolean;
  /** Each agent's running session, by agent id (shown in a cell or not). */
  runningByAgent: Map<string, SessionInfo>;
  /** Every session known, by session id. */
  all: Map<string, SessionInfo>;
  /** Records a session a request just returned (before or after its event). */
  upsert(session: SessionInfo): void;
  refresh(): void;
}

/** Every session of the project, from `listSessions` and session events, by session id. */
export function useSessions(epoch: number): SessionsState {
  const [byId, setById] = useState<Map<string, SessionInfo>>(new Map());
  const [loaded, setLoaded] = useState(false);

  const refresh = useCoalescedRefresh(async () => {
    try {
      const sessions = await request("listSessions");
      setById(new Map(sessions.map((s) => [s.sessionId, s])));
      setLoaded(true);
    } catch {
      // kept as is; the connection banner or the next refresh tells the rest
    }
  });

  useEffect(() => {
    if (epoch > 0) refresh();
  }, [epoch, refresh]);

  const update = useCallback((sessionId: string, change: (current: SessionInfo) => SessionInfo) => {
    setById((prev) => {
      const current = prev.get(sessionId);
      if (!current) return prev;
      return new Map(prev).set(sessionId, change(current));
    });
  }, []);

  const upsert = useCallback((session: SessionInfo) => {
    setById((prev) => {
      const current = prev.get(session.sessionId);
      // An exit already seen for this very session wins over a late "running" answer.
      if (current?.status === "exited") return prev;
      const next = new Map(prev);
      // A new session takes its cell: the cell's previous (exited) session is forgotten.
      for (const [id, other] of prev) {
        if (id !== session.sessionId && sameCell(other, session)) next.delete(id);
      }
      return next.set(session.sessionId, session);
    });
  }, []);

  useDomainEvent((event) => {
    switch (event.type) {
      case "sessionStarted":
        upsert(event.session);
        break;
      case "sessionExited":
        update(event.sessionId, (s) => ({ ...s, status: "exited", exit: event.exit, pid: null }));
        break;
      case "sessionStateChanged":
        // The limit travels with the state: the overview's countdown reads it.
        update(event.sessionId, (s) => ({ ...s, state: event.state, stateSource: event.source, stateReason: event.reason ?? null, usageLimit: event.usageLimit ?? null }));
        break;
      case "sessionMoved":
        update(event.sessionId, (s) => ({ ...s, cell: event.cell }));
        break;
      case "layoutsChanged":
        refresh(); // closed cells take their sessions with them
        break;
      default:
        break;
    }
  });

  const byCell = useMemo(() => {
    const map = new Map<string, SessionInfo>();
    for (const session of byId.values()) {
      const shown = session.cell ? map.get(session.cell.nodeId) : undefined;
      // A live session wins over an exited one still known for the same cell.
      if (session.cell && (!shown || shown.status === "exited")) map.set(session.cell.nodeId, session);
    }
    return map;
  }, [byId]);

  const runningByAgent = useMemo(() => {
    const map = new Map<string, SessionInfo>();
    for (const session of byId.values()) {
      if (session.agentId && session.status === "running") map.set(session.agentId, session);
    }
    return map;
  }, [byId]);

  return { all: byId, byCell, loaded, runningByAgent, upsert, refresh };
}

function sameCell(a: SessionInfo, b: SessionInfo): boolean {
  return !!a.cell && !!b.cell && a.cell.layoutId === b.cell.layoutId && a.cell.nodeId === b.cell.nodeId;
}
