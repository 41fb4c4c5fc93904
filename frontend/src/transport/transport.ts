// What a backend transport provides. Only `src/api.ts` uses transports; the rest of the UI
// talks to `api.ts`.

import type { AttachAnswer } from "../generated/AttachAnswer";
import type { ReplayScope } from "../generated/ReplayScope";
import type { TerminalSize } from "../generated/TerminalSize";
import type { DomainEvent, WireError } from "../types";
import type { Notifier } from "./notifier";

/** The backend's error shape: a stable code with its typed details, and a readable message. */
export type ApiError = WireError;

/** Receives one session's output. */
export interface TerminalSink {
  /** Output bytes, in order: the replay first, then live output. */
  onBytes(bytes: Uint8Array): void;
  /** The stream starts over (re-attached after a reconnect): the replay follows. */
  onRestart(): void;
  /**
   * The size of the terminal's cell when it is known, sent with each attach: when no other
   * client leads the session, the backend resizes it to that first.
   */
  size(): TerminalSize | null;
  /**
   * The attach was answered: this client's attachment id and the size the session has (the
   * replay that follows is drawn at it). Called before the replay's first bytes.
   */
  onAttached(answer: AttachAnswer): void;
  /** What the attach replays, read at each attach (a reconnect's too): the whole terminal
   *  unless the sink is skipping a backlog to the screen. */
  replay?(): ReplayScope;
}

/** A client's attachment to one session's output. */
export interface TerminalAttachment {
  /** Stops receiving output. */
  detach(): void;
  /** Tells the backend that `bytes` more bytes were processed (flow control). */
  ack(bytes: number): void;
  /** The user typed here or asked to fit the terminal here: this client leads its size. */
  focus(): void;
  /** This client's cell for the terminal is now `size`. */
  fit(size: TerminalSize): void;
}

export type ConnectionState = "connecting" | "open" | "closed";

export interface Transport {
  readonly kind: "tauri" | "websocket";
  request(method: string, params: unknown): Promise<unknown>;
  onEvent(listener: (event: DomainEvent) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  connectionState(): ConnectionState;
  attach(sessionId: string, sink: TerminalSink): TerminalAttachment;
  sendInput(sessionId: string, data: Uint8Array): void;
  /** Where notifications go: the browser's Notifications API, or the desktop's own. */
  readonly notifier: Notifier;
}

/** Normalises anything a transport may reject with into an [`ApiError`]. */
export function toApiError(value: unknown): ApiError {
  if (typeof value === "object" && value !== null && "code" in value && "message" in value) {
    const error = value as { code: unknown; message: unknown };
    if (typeof error.code === "string") return { ...(value as object), message: String(error.message) } as ApiError;
  }
  if (value instanceof Error) return { code: "INTERNAL", message: value.message };
  return { code: "INTERNAL", message: String(value) };
}
