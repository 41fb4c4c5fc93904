// `idea serve`'s transport: one WebSocket to `/ws` on the page's origin. Text frames carry
// JSON-RPC 2.0 (requests with ids, `event` notifications); binary frames carry terminal bytes
// (16-byte session uuid, then the payload) in both directions. The socket reconnects with
// backoff and re-attaches every terminal (the server replays their recent output).

import type { AttachAnswer } from "../generated/AttachAnswer";
import type { DomainEvent } from "../types";
import type { ApiError, ConnectionState, TerminalAttachment, TerminalSink, Transport } from "./transport";
import { BrowserNotifier } from "./notifier";
import { sessionToken } from "./token";
import { bytesToUuid, uuidToBytes } from "./uuid";

interface Pending {
  resolve(value: unknown): void;
  reject(error: ApiError): void;
}

interface Attached {
  sink: TerminalSink;
  /** Bytes received since the current attach; acks never exceed it. */
  delivered: number;
  acked: number;
  /** Whether output was ever received (a re-attach must then restart the terminal). */
  everReceived: boolean;
  /** The current attach was answered. Frames before the answer belong to an attachment this
   * one replaced on the same socket (the server sends the answer before the replay). */
  answered: boolean;
}

/** The JSON-RPC codes of answers that carry no IdeA code (a frame the server could not read). */
const JSON_RPC_CODES: Record<number, "INVALID_PARAMS" | "UNKNOWN_METHOD" | "INTERNAL"> = {
  [-32700]: "INVALID_PARAMS",
  [-32600]: "INVALID_PARAMS",
  [-32601]: "UNKNOWN_METHOD",
  [-32602]: "INVALID_PARAMS",
  [-32603]: "INTERNAL",
};

/** Maps a JSON-RPC error object to the API's error: `data` carries `{code, ...details}`. */
export function fromJsonRpcError(error: unknown): ApiError {
  if (typeof error !== "object" || error === null) return { code: "INTERNAL", message: String(error) };
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  const text = typeof message === "string" ? message : "request failed";
  if (typeof data === "object" && data !== null && typeof (data as { code?: unknown }).code === "string") {
    return { ...(data as object), message: text } as ApiError;
  }
  const known = typeof code === "number" ? JSON_RPC_CODES[code] : undefined;
  if (known === "UNKNOWN_METHOD") return { code: known, method: "", message: text };
  return { code: known ?? "INTERNAL", message: text } as ApiError;
}

function socketUrl(): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // The token authenticates the socket (there is no cookie); without one the server refuses.
  const token = sessionToken();
  return `${scheme}//${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

/** How long a connection's handshake may take before it is tried again. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export class WebSocketTransport implements Transport {
  readonly kind = "websocket" as const;
  readonly notifier = new BrowserNotifier();
  private socket: WebSocket | null = null;
  private state: ConnectionState = "connecting";
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly attached = new Map<string, Attached>();
  private readonly outbox: (string | Uint8Array)[] = [];
  private readonly eventListeners = new Set<(event: DomainEvent) => void>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private retryDelay = 250;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly url: string = socketUrl()) {
    this.connect();
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(JSON.stringify(message));
    });
  }

  onEvent(listener: (event: DomainEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  connectionState(): ConnectionState {
    return this.state;
  }

  attach(sessionId: string, sink: TerminalSink): TerminalAttachment {
    const key = sessionId.toLowerCase();
    const entry: Attached = { sink, delivered: 0, acked: 0, everReceived: false, answered: false };
    this.attached.set(key, entry);
    if (this.state === "open") this.sendAttach(key);
    return {
      detach: () => {
        if (this.attached.get(key) !== entry) return;
        this.attached.delete(key);
        // A new connection has no attachment, so there is nothing to detach while closed.
        if (this.state === "open") this.request("detachTerminal", { sessionId: key }).catch(() => undefined);
      },
      ack: (bytes: number) => {
        if (this.attached.get(key) !== entry || this.state !== "open") return;
        const n = Math.min(bytes, entry.delivered - entry.acked);
        if (n <= 0) return;
        entry.acked += n;
        this.notify("ackTerminal", { sessionId: key, bytes: n });
      },
      focus: () => {
        if (this.attached.get(key) === entry && this.state === "open") this.request("focusTerminal", { sessionId: key }).catch(() => undefined);
      },
      fit: (size) => {
        if (this.attached.get(key) !== entry || this.state !== "open") return;
        this.request("fitTerminal", { sessionId: key, ...size }).catch(() => undefined);
      },
    };
  }

  sendInput(sessionId: string, data: Uint8Array): void {
    // Keystrokes typed while disconnected are dropped (the UI shows the connection is down):
    // replaying them later into a shell would be a surprise.
    if (this.state !== "open" || !this.socket) return;
    const frame = new Uint8Array(16 + data.length);
    frame.set(uuidToBytes(sessionId), 0);
    frame.set(data, 16);
    this.socket.send(frame);
  }

  // --- connection -------------------------------------------------------------------------

  private connect(): void {
    this.setState("connecting");
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    // A handshake that never completes (a server that stalled, a socket lost on the way) would
    // leave the page "connecting" for good: give up on it and try again.
    const handshake = setTimeout(() => {
      if (socket.readyState === WebSocket.CONNECTING) {
        console.warn(`IdeA: no answer to the connection in ${HANDSHAKE_TIMEOUT_MS / 1000} s; trying again`);
        socket.close();
      }
    }, HANDSHAKE_TIMEOUT_MS);
    socket.onopen = () => {
      clearTimeout(handshake);
      this.retryDelay = 250;
      this.setState("open");
      for (const key of this.attached.keys()) this.sendAttach(key);
      for (const message of this.outbox.splice(0)) socket.send(message);
    };
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (event) => {
      clearTimeout(handshake);
      if (this.socket !== socket) return;
      if (this.state === "connecting") console.warn(`IdeA: the connection failed (${event.code}); trying again in ${this.retryDelay} ms`);
      this.socket = null;
      const lost: ApiError = { code: "DISCONNECTED", message: "the connection to IdeA was lost" };
      for (const pending of this.pending.values()) pending.reject(lost);
      this.pending.clear();
      this.setState("closed");
      this.scheduleReconnect();
    };
    socket.onerror = () => {
      // `onclose` follows and handles the retry.
    };
  }

  private scheduleReconnect(): void {
    if (this.retryTimer) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, 8000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of [...this.connectionListeners]) listener(state);
  }

  private send(message: string): void {
    if (this.state === "open" && this.socket) this.socket.send(message);
    else this.outbox.push(message);
  }

  /** A JSON-RPC notification (no answer); dropped while disconnected. */
  private notify(method: string, params: unknown): void {
    if (this.state === "open" && this.socket) this.socket.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  private sendAttach(key: string): void {
    const entry = this.attached.get(key);
    if (!entry) return;
    if (entry.everReceived) entry.sink.onRestart();
    entry.delivered = 0;
    entry.acked = 0;
    entry.answered = false;
    const size = entry.sink.size();
    const replay = entry.sink.replay?.() ?? "whole";
    this.request("attachTerminal", { sessionId: key, ...(size ? { size } : {}), ...(replay === "whole" ? {} : { replay }) })
      .then((answer) => {
        // The answer comes before the replay's first frame (the server holds it back).
        if (this.attached.get(key) !== entry) return;
        entry.answered = true;
        entry.sink.onAttached(answer as AttachAnswer);
      })
      .catch((error: ApiError) => {
      if (error.code === "DISCONNECTED") return; // re-attached on reconnect
      if (this.attached.get(key) === entry) {
        console.warn(`attachTerminal ${key} failed: ${error.message}`);
      }
    });
  }

  private receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      if (data.byteLength < 16) return;
      const key = bytesToUuid(new Uint8Array(data, 0, 16));
      const entry = this.attached.get(key);
      if (!entry?.answered) return;
      const payload = new Uint8Array(data, 16);
      entry.delivered += payload.length;
      entry.everReceived = true;
      entry.sink.onBytes(payload);
      return;
    }
    if (typeof data !== "string") return;
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(data) as typeof message;
    } catch {
      console.warn("IdeA: unreadable message from the server");
      return;
    }
    if (typeof message.id === "number" && this.pending.has(message.id)) {
      const pending = this.pending.get(message.id)!;
      this.pending.delete(message.id);
      if (message.error !== undefined) pending.reject(fromJsonRpcError(message.error));
      else pending.resolve(message.result ?? null);
      return;
    }
    if (message.method === "event" && typeof message.params === "object" && message.params !== null) {
      const event = message.params as DomainEvent;
      for (const listener of [...this.eventListeners]) listener(event);
    }
  }
}
