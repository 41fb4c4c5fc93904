// The one module through which the UI talks to the backend (docs/api.md). It picks its
// transport at run time: Tauri's IPC inside the desktop shell, `idea serve`'s WebSocket in a
// browser. Everything else in the UI imports from here, never from a transport.

import { isTauri } from "@tauri-apps/api/core";
import { TauriTransport } from "./transport/tauri";
import type { ApiError, ConnectionState, TerminalAttachment, Transport } from "./transport/transport";
import { toApiError } from "./transport/transport";
import { WebSocketTransport } from "./transport/websocket";
import type {
  Agent,
  Direction,
  DomainEvent,
  Layouts,
  NamedLayout,
  PersonaTemplate,
  ProfilesAnswer,
  Project,
  SessionInfo,
  Side,
} from "./types";

export type { ApiError, ConnectionState, TerminalAttachment };

type Cell = { layoutId: string; nodeId: string };
type Size = { rows: number; cols: number };

/** Every request: its params and its result (docs/api.md, "Requests"). */
export interface Methods {
  getProject: [undefined, Project];
  listProfiles: [undefined, ProfilesAnswer];
  listTemplates: [undefined, PersonaTemplate[]];
  listAgents: [undefined, Agent[]];
  createAgent: [{ name: string; profileId: string; template: string | null }, Agent];
  readAgentContext: [{ agentId: string }, string];
  updateAgentContext: [{ agentId: string; content: string }, null];
  deleteAgent: [{ agentId: string }, Agent];
  getLayouts: [undefined, Layouts];
  createLayout: [{ name: string }, NamedLayout];
  renameLayout: [{ layoutId: string; name: string }, null];
  deleteLayout: [{ layoutId: string }, null];
  setActiveLayout: [{ layoutId: string }, null];
  splitCell: [Cell & { direction: Direction }, string];
  closeCell: [Cell, null];
  moveCell: [Cell & { targetId: string; direction: Direction; side?: Side }, null];
  swapCells: [{ layoutId: string; a: string; b: string }, null];
  resizeSplit: [{ layoutId: string; splitId: string; ratios: number[] }, null];
  assignAgent: [Cell & { agentId: string | null }, null];
  launchAgent: [Cell & Size & { agentId: string }, SessionInfo];
  openShell: [Cell & Size, SessionInfo];
  stopSession: [{ sessionId: string }, null];
  restartSession: [{ sessionId: string } & Size, SessionInfo];
  listSessions: [undefined, SessionInfo[]];
  writeTerminal: [{ sessionId: string; data: string }, null];
  resizeTerminal: [{ sessionId: string } & Size, null];
}

export type Method = keyof Methods;

let current: Transport | null = null;

function transport(): Transport {
  current ??= isTauri() ? new TauriTransport() : new WebSocketTransport();
  return current;
}

/** Sends one request named after a use case and returns its result; rejects with an [`ApiError`]. */
export async function request<M extends Method>(
  method: M,
  ...params: Methods[M][0] extends undefined ? [] : [Methods[M][0]]
): Promise<Methods[M][1]> {
  try {
    return (await transport().request(method, params[0])) as Methods[M][1];
  } catch (error) {
    throw toApiError(error);
  }
}

/** Calls `listener` with every domain event; returns the unsubscribe function. */
export function onEvent(listener: (event: DomainEvent) => void): () => void {
  return transport().onEvent(listener);
}

/** Calls `listener` when the connection to the backend opens, drops or comes back. */
export function onConnection(listener: (state: ConnectionState) => void): () => void {
  return transport().onConnection(listener);
}

export function connectionState(): ConnectionState {
  return transport().connectionState();
}

/**
 * Receives a session's output: the recent scrollback first, then live output. `onRestart` is
 * called when the stream starts over after a reconnect (clear the terminal; the replay follows).
 * Acknowledge bytes once the terminal has processed them.
 */
export function attachTerminal(
  sessionId: string,
  onBytes: (bytes: Uint8Array) => void,
  onRestart: () => void = () => undefined,
): TerminalAttachment {
  return transport().attach(sessionId, { onBytes, onRestart });
}

const encoder = new TextEncoder();

/** Types text (or raw bytes) into a session's PTY, in order. */
export function sendInput(sessionId: string, data: string | Uint8Array): void {
  transport().sendInput(sessionId, typeof data === "string" ? encoder.encode(data) : data);
}

/** Which transport is in use (for the status bar). */
export function transportKind(): "tauri" | "websocket" {
  return transport().kind;
}

// --- errors ---------------------------------------------------------------------------------

export function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && "code" in value && "message" in value;
}

/** How each error code reads to a user; the server's message carries the specifics. */
const DESCRIBE: Record<string, (message: string) => string> = {
  NOT_A_PROJECT: (m) => `This folder is not an IdeA project (${m}).`,
  CORRUPT_FILE: (m) => `A project file is damaged and was left untouched: ${m}`,
  NEWER_SCHEMA: (m) => `This project was saved by a newer IdeA; update IdeA to open it. ${m}`,
  IO_ERROR: (m) => `Could not read or write a project file: ${m}`,
  AGENT_NOT_FOUND: (m) => `${capitalise(m)} (it may have been deleted).`,
  INVALID_NAME: (m) => capitalise(m),
  AGENT_NAME_TAKEN: (m) => `${capitalise(m)}; choose another name.`,
  PROFILE_NOT_FOUND: (m) => capitalise(m),
  INVALID_PROFILE: (m) => `This runtime profile cannot be used: ${m}`,
  TEMPLATE_NOT_FOUND: (m) => capitalise(m),
  LAYOUT_NOT_FOUND: () => "This layout no longer exists.",
  NODE_NOT_FOUND: () => "This cell no longer exists (the layout changed).",
  INVALID_LAYOUT_OPERATION: (m) => capitalise(m),
  AGENT_ALREADY_RUNNING: (m) => capitalise(m),
  AGENT_RUNNING: (m) => capitalise(m),
  CELL_BUSY: () => "This cell already has a running terminal: stop it first.",
  SESSION_NOT_FOUND: () => "This terminal session no longer exists.",
  SESSION_EXITED: () => "This terminal's process has already exited.",
  SPAWN_FAILED: (m) =>
    /command not found/i.test(m)
      ? `Could not start the process: ${m}. Is the CLI installed and on PATH? (\`idea doctor\` lists the CLIs found.)`
      : `Could not start the process: ${m}`,
  BAD_REQUEST: (m) => `IdeA refused the request: ${m}`,
  INTERNAL: (m) => `Internal error: ${m}`,
  DISCONNECTED: () => "The connection to IdeA was lost; reconnecting…",
  UNKNOWN_METHOD: (m) => `This IdeA backend does not support that request (${m}).`,
};

function capitalise(text: string): string {
  return text.length > 0 ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** Readable text for an error thrown by `request`. */
export function describeError(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const describe = DESCRIBE[error.code];
  return describe ? describe(error.message) : `${capitalise(error.message)} (${error.code})`;
}

/** Something the user can do about an error. */
export type ErrorAction = { kind: "goToCell"; label: string; layoutId: string; nodeId: string };

/** The action offered with an error, if any (AGENT_ALREADY_RUNNING → "Go to cell"). */
export function errorAction(error: unknown): ErrorAction | null {
  if (!isApiError(error) || error.code !== "AGENT_ALREADY_RUNNING") return null;
  const data = error.data as { layoutId?: unknown; nodeId?: unknown } | undefined;
  if (typeof data?.layoutId !== "string" || typeof data.nodeId !== "string") return null;
  return { kind: "goToCell", label: "Go to cell", layoutId: data.layoutId, nodeId: data.nodeId };
}
