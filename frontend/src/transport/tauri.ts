// The desktop shell's transport: Tauri commands (`api_request`, `attach_terminal`,
// `detach_terminal`, `ack_terminal`, `focus_terminal`, `fit_terminal`), terminal output on a Channel as raw ArrayBuffers, and
// domain events on the `idea://event` Tauri event. IPC never disconnects. Notifications are
// the desktop's own (`show_notification`).

import { Channel, invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { AttachAnswer } from "../generated/AttachAnswer";
import type { DomainEvent } from "../types";
import { NativeNotifier } from "./tauriNotifier";
import { toApiError, type ConnectionState, type TerminalAttachment, type TerminalSink, type Transport } from "./transport";

const decoder = new TextDecoder();

function toBytes(message: unknown): Uint8Array | null {
  if (message instanceof ArrayBuffer) return new Uint8Array(message);
  if (message instanceof Uint8Array) return message;
  return null;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export class TauriTransport implements Transport {
  readonly kind = "tauri" as const;
  readonly notifier = new NativeNotifier();
  private readonly eventListeners = new Set<(event: DomainEvent) => void>();
  private readonly inputQueue = new Map<string, Uint8Array[]>();

  constructor() {
    void listen<DomainEvent>("idea://event", (event) => {
      for (const listener of [...this.eventListeners]) listener(event.payload);
    });
  }

  async request(method: string, params: unknown): Promise<unknown> {
    try {
      return await invoke("api_request", { method, params: params ?? null });
    } catch (error) {
      throw toApiError(error);
    }
  }

  onEvent(listener: (event: DomainEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onConnection(_listener: (state: ConnectionState) => void): () => void {
    return () => undefined;
  }

  connectionState(): ConnectionState {
    return "open";
  }

  attach(sessionId: string, sink: TerminalSink): TerminalAttachment {
    let live = true;
    const channel = new Channel<unknown>((message) => {
      const bytes = live ? toBytes(message) : null;
      if (bytes) sink.onBytes(bytes);
    });
    invoke<AttachAnswer>("attach_terminal", { sessionId, size: sink.size(), replay: sink.replay?.() ?? "whole", onOutput: channel })
      .then((answer) => {
        if (live) sink.onAttached(answer);
      })
      .catch((error: unknown) => {
        console.warn(`attach_terminal ${sessionId} failed: ${toApiError(error).message}`);
      });
    return {
      detach: () => {
        if (!live) return;
        live = false;
        invoke("detach_terminal", { sessionId }).catch(() => undefined);
      },
      ack: (bytes: number) => {
        if (live && bytes > 0) invoke("ack_terminal", { sessionId, bytes }).catch(() => undefined);
      },
      focus: () => {
        if (live) invoke("focus_terminal", { sessionId }).catch(() => undefined);
      },
      fit: (size) => {
        if (live) invoke("fit_terminal", { sessionId, size }).catch(() => undefined);
      },
    };
  }

  sendInput(sessionId: string, data: Uint8Array): void {
    // `writeTerminal` takes UTF-8 text. One write per session is in flight at a time and what
    // is typed meanwhile is sent next in one piece, so keystrokes never overtake each other.
    const queued = this.inputQueue.get(sessionId);
    if (queued) {
      queued.push(data);
      return;
    }
    this.inputQueue.set(sessionId, []);
    const pump = (chunk: Uint8Array): void => {
      void this.request("writeTerminal", { sessionId, data: decoder.decode(chunk) })
        .catch(() => undefined)
        .finally(() => {
          const rest = this.inputQueue.get(sessionId) ?? [];
          if (rest.length === 0) {
            this.inputQueue.delete(sessionId);
            return;
          }
          this.inputQueue.set(sessionId, []);
          pump(concat(rest));
        });
    };
    pump(data);
  }
}
