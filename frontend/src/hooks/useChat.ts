import { useCallback, useMemo, useState } from "react";
import { isApiError, request } from "../api";
import { addEvent, chatTurns, type EventsById } from "../state/chat";
import { useWorkspace } from "../state/workspace";
import { useDomainEvent } from "./useDomainEvent";

/**
 * A chat cell's conversation with one agent: the user's requests to it (from the workspace's
 * request list, so asks from the requests panel show too: it is one conversation), the live
 * events of their turns, and `send`, one `askAgent` turn as the user.
 */
export function useChat(agentId: string) {
  const { requests, reportError } = useWorkspace();
  const [events, setEvents] = useState<EventsById>(new Map());
  const [sending, setSending] = useState(false);

  useDomainEvent((event) => {
    if (event.type === "requestEvent" && event.target === agentId) {
      setEvents((prev) => addEvent(prev, event.requestId, event.seq, event.event));
    }
  });

  const turns = useMemo(() => chatTurns(requests.list, agentId), [requests.list, agentId]);

  const send = useCallback(
    async (message: string) => {
      setSending(true);
      try {
        // Our own id: the turn's events can be shown before the answer comes.
        await request("askAgent", { target: agentId, message, requestId: crypto.randomUUID() });
      } catch (error) {
        // The turn's record shows why; only a failure to ask at all needs more.
        if (!isApiError(error) || error.code === "DISCONNECTED") reportError(error);
      } finally {
        setSending(false);
      }
    },
    [agentId, reportError],
  );

  return { turns, events, sending, send, cancel: requests.cancel };
}
