// Pure rules of a chat cell: the user's turns with one agent, built from the request records
// (`listRequests`, `requestChanged`) and the turns' live events (`requestEvent`).

import type { TurnEvent } from "../generated/TurnEvent";
import type { RequestRecord } from "./requests";

export type { TurnEvent };

/** How many events a chat keeps per turn (the backend publishes at most 2000 plus the last). */
export const MAX_TURN_EVENTS = 500;

/** One line of a turn, as the chat shows it. */
export type ChatItem =
  | { kind: "text"; text: string }
  | { kind: "tool"; name: string; detail: string }
  | { kind: "result"; text: string; isError: boolean }
  | { kind: "usage"; input: number; output: number }
  | { kind: "notice"; text: string };

/** A turn's events, by request id, in `seq` order. */
export type EventsById = Map<string, { seq: number; event: TurnEvent }[]>;

/** `byId` with one more event of `requestId`, kept in order and bounded. */
export function addEvent(byId: EventsById, requestId: string, seq: number, event: TurnEvent): EventsById {
  const next = new Map(byId);
  const list = [...(next.get(requestId) ?? [])];
  if (list.some((e) => e.seq === seq)) return byId;
  list.push({ seq, event });
  list.sort((a, b) => a.seq - b.seq);
  next.set(requestId, list.length > MAX_TURN_EVENTS ? list.slice(-MAX_TURN_EVENTS) : list);
  return next;
}

/** The user's requests to `agentId`, oldest first: the chat's turns. */
export function chatTurns(records: RequestRecord[], agentId: string): RequestRecord[] {
  return records
    .filter((r) => r.requester === "user" && r.target === agentId)
    .sort((a, b) => a.createdAt - b.createdAt || a.requestId.localeCompare(b.requestId));
}

const short = (value: unknown): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** What a turn shows: its events as chat lines (text fragments joined), and its answer when no
 * text arrived as an event (a turn reloaded after the fact, or a CLI that says it only at the end). */
export function chatItems(events: { event: TurnEvent }[], answer: string | null): ChatItem[] {
  const items: ChatItem[] = [];
  for (const { event } of events) {
    switch (event.type) {
      case "text": {
        const last = items[items.length - 1];
        if (event.delta && last?.kind === "text") last.text += event.text;
        else items.push({ kind: "text", text: event.text });
        break;
      }
      case "toolCall":
        items.push({ kind: "tool", name: event.name, detail: short(event.input) });
        break;
      case "toolResult":
        items.push({ kind: "result", text: short(event.output), isError: event.isError });
        break;
      case "usage":
        items.push({ kind: "usage", input: event.usage.input, output: event.usage.output });
        break;
      case "notice":
        items.push({ kind: "notice", text: event.message });
        break;
      case "finished":
        if (!items.some((i) => i.kind === "text") && event.text) items.push({ kind: "text", text: event.text });
        if (event.usage && !items.some((i) => i.kind === "usage")) {
          items.push({ kind: "usage", input: event.usage.input, output: event.usage.output });
        }
        break;
      case "started":
        break;
    }
  }
  if (answer && !items.some((i) => i.kind === "text")) items.push({ kind: "text", text: answer });
  return items;
}
