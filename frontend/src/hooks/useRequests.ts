import { useCallback, useEffect, useMemo, useState } from "react";
import { request } from "../api";
import { isActive, mergeRequests, newestFirst, type RequestRecord } from "../state/requests";
import { useDomainEvent } from "./useDomainEvent";

export interface RequestsState {
  /** The last requests to agents, newest first (at most `MAX_REQUESTS`). */
  list: RequestRecord[];
  /** How many are queued or running. */
  active: number;
  /** The running request each agent is answering, by target agent id. */
  answeringByAgent: Map<string, RequestRecord>;
  /** Cancels a queued or running request; rejects with the API's error. */
  cancel(requestId: string): Promise<void>;
}

/** Every request to an agent: `listRequests` on each (re)connection, then `requestChanged`. */
export function useRequests(epoch: number): RequestsState {
  const [byId, setById] = useState<Map<string, RequestRecord>>(new Map());

  useEffect(() => {
    if (epoch === 0) return;
    let cancelled = false;
    request("listRequests")
      .then((records) => {
        if (!cancelled) setById((prev) => mergeRequests(prev, records));
      })
      .catch(() => undefined); // kept as is; the connection banner tells the rest
    return () => {
      cancelled = true;
    };
  }, [epoch]);

  useDomainEvent((event) => {
    if (event.type === "requestChanged") setById((prev) => mergeRequests(prev, [event.request]));
  });

  const list = useMemo(() => newestFirst(byId), [byId]);
  const answeringByAgent = useMemo(() => {
    const map = new Map<string, RequestRecord>();
    for (const record of list) if (record.state === "running") map.set(record.target, record);
    return map;
  }, [list]);
  const active = useMemo(() => list.filter((r) => isActive(r.state)).length, [list]);
  const cancel = useCallback(async (requestId: string) => {
    await request("cancelRequest", { requestId });
  }, []);

  return { list, active, answeringByAgent, cancel };
}
