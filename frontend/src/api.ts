// The one module through which the UI talks to the backend (docs/api.md). It picks its
// transport at run time: Tauri's IPC inside the desktop shell, `idea serve`'s WebSocket in a
// browser. Everything else in the UI imports from here, never from a transport.

import { isTauri } from "@tauri-apps/api/core";
import { TauriTransport } from "./transport/tauri";
import type { Note, Notifier, NotifyPermission } from "./transport/notifier";
import type { ApiError, ConnectionState, TerminalAttachment, TerminalSink, Transport } from "./transport/transport";
import { toApiError } from "./transport/transport";
import { WebSocketTransport } from "./transport/websocket";
import type { Methods } from "./generated/Methods";
import type { DomainEvent, ErrorCode } from "./types";

export type { ApiError, ConnectionState, Note, Notifier, NotifyPermission, TerminalAttachment, TerminalSink };
export type { Methods };

export type Method = keyof Methods;
/** A request's params, as `request` takes them: none for a method without params. */
type ParamsOf<M extends Method> = Methods[M]["params"] extends null ? [] : [Methods[M]["params"]];

let current: Transport | null = null;

function transport(): Transport {
  current ??= isTauri() ? new TauriTransport() : new WebSocketTransport();
  return current;
}

/** Sends one request named after a use case and returns its result; rejects with an [`ApiError`]. */
export async function request<M extends Method>(method: M, ...params: ParamsOf<M>): Promise<Methods[M]["result"]> {
  try {
    return (await transport().request(method, params[0])) as Methods[M]["result"];
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
 * Receives a session's output (see `TerminalSink`): the answer with the session's size, the
 * replay (the scrollback and screen drawn anew at that size), then live output; again after a
 * reconnect, after `onRestart`. Acknowledge bytes once the terminal has processed them.
 */
export function attachTerminal(sessionId: string, sink: TerminalSink): TerminalAttachment {
  return transport().attach(sessionId, sink);
}

const encoder = new TextEncoder();

/** Types text (or raw bytes) into a session's PTY, in order. */
export function sendInput(sessionId: string, data: string | Uint8Array): void {
  transport().sendInput(sessionId, typeof data === "string" ? encoder.encode(data) : data);
}

/** Where notifications go: the browser's Notifications API, or the desktop app's native ones. */
export function notifier(): Notifier {
  return transport().notifier;
}

/** Which transport is in use (for the status bar). */
export function transportKind(): "tauri" | "websocket" {
  return transport().kind;
}

// --- errors ---------------------------------------------------------------------------------

export function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && "code" in value && "message" in value;
}

/** How each error reads to a user; the server's message carries the specifics. Every code
 * the backend declares must be here (the type says so). */
const DESCRIBE: { [C in ErrorCode]: (error: Extract<ApiError, { code: C }>) => string } = {
  NOT_A_PROJECT: ({ message: m }) => `This folder is not an IdeA project (${m}).`,
  CORRUPT_FILE: ({ message: m }) => `A project file is damaged and was left untouched: ${m}`,
  NEWER_SCHEMA: ({ message: m }) => `This project was saved by a newer IdeA; update IdeA to open it. ${m}`,
  IO_ERROR: ({ message: m }) => `Could not read or write a project file: ${m}`,
  UNSAFE_PATH: ({ message: m }) => `A file in .ideai is a link pointing elsewhere; IdeA refuses to follow it: ${m}`,
  AGENT_NOT_FOUND: ({ message: m }) => `${capitalise(m)} (it may have been deleted).`,
  INVALID_NAME: ({ message: m }) => capitalise(m),
  AGENT_NAME_TAKEN: ({ message: m }) => `${capitalise(m)}; choose another name.`,
  PROFILE_NOT_FOUND: ({ message: m }) => capitalise(m),
  INVALID_PROFILE: ({ message: m }) => `This runtime profile cannot be used: ${m}`,
  TEMPLATE_NOT_FOUND: ({ message: m }) => capitalise(m),
  LAYOUT_NOT_FOUND: () => "This layout no longer exists.",
  NODE_NOT_FOUND: () => "This cell no longer exists (the layout changed).",
  INVALID_LAYOUT_OPERATION: ({ message: m }) => capitalise(m),
  AGENT_ALREADY_RUNNING: ({ message: m }) => capitalise(m),
  AGENT_RUNNING: ({ message: m }) => capitalise(m),
  CELL_BUSY: () => "This cell already has a running terminal: stop it first.",
  SESSION_NOT_FOUND: () => "This terminal session no longer exists.",
  SESSION_EXITED: () => "This terminal's process has already exited.",
  INPUT_FULL: () => "This terminal's program is not reading its input; what you typed was dropped.",
  COMMAND_NOT_FOUND: (e) =>
    `Could not start ${e.command}: it is not installed, or not on the PATH IdeA was started with. The agent picker shows how to install it.`,
  SPAWN_FAILED: ({ message: m }) => `Could not start the process: ${m}`,
  SANDBOX_FAILED: ({ message: m }) =>
    `Not started: the permission rules call for a sandbox this machine cannot apply. ${m}`,
  PROJECT_OWNED: (e) =>
    `This project is open in another IdeA (process ${e.pid}${e.url ? `, ${e.url.split("?")[0]}` : ""}); use that one.`,
  INVALID_PARAMS: ({ message: m }) => `IdeA refused the request: ${m}`,
  INTERNAL: ({ message: m }) => `Internal error: ${m}`,
  DISCONNECTED: () => "The connection to IdeA was lost; reconnecting…",
  UNKNOWN_METHOD: ({ message: m }) => `This IdeA backend does not support that request (${m}).`,
  NOT_ASKABLE: ({ message: m }) => `This agent cannot be asked: ${m}`,
  AGENT_BUSY: ({ message: m }) => capitalise(m),
  TURN_TIMEOUT: ({ message: m }) => capitalise(m),
  CANCELLED: () => "The request was cancelled.",
  USAGE_LIMIT: (e) =>
    `The agent's provider hit its usage limit${
      e.resetsAt ? `; it resets at ${new Date(e.resetsAt * 1000).toLocaleString()}` : ""
    }.`,
  TURN_FAILED: ({ message: m }) => `The agent gave no answer: ${m}`,
  RESUME_NOT_FOUND: () => "No resume is scheduled for this agent any more (it was carried out or cancelled).",
  REQUEST_NOT_FOUND: () => "This request no longer exists.",
  GIT_UNAVAILABLE: ({ message: m }) => `${capitalise(m)}. Install git 2.38 or later (idea doctor checks).`,
  NOT_A_GIT_REPOSITORY: () => "This project is not a git repository: an agent's own branch needs one (git init).",
  BRANCH_TAKEN: ({ message: m }) => capitalise(m),
  UNKNOWN_REF: ({ message: m }) => `${capitalise(m)}: name a branch, a tag or a commit.`,
  BASE_MOVED: ({ message: m }) => `${capitalise(m)} Try again.`,
  MERGE_CONFLICT: (e) => `Merging would conflict in ${e.files.join(", ")}: nothing was changed. Rebase the agent's branch or ask it to resolve.`,
  REBASE_IN_PROGRESS: ({ message: m }) => `${capitalise(m)}: finish or abort it first.`,
  CHECKOUT_DIRTY: ({ message: m }) => capitalise(m),
  GIT_FAILED: ({ message: m }) => `git failed: ${m}`,
  NO_WORKTREE: ({ message: m }) => capitalise(m),
  WORKTREE_EXISTS: ({ message: m }) => capitalise(m),
  BASE_NOT_A_BRANCH: ({ message: m }) => capitalise(m),
  SKILL_NOT_FOUND: ({ message: m }) => capitalise(m),
  SKILL_EXISTS: ({ message: m }) => capitalise(m),
  INVALID_SKILL: ({ message: m }) => capitalise(m),
  MEMORY_NOT_FOUND: ({ message: m }) => capitalise(m),
  TOOL_NOT_FOUND: ({ message: m }) => capitalise(m),
  INVALID_TOOL_ARGS: ({ message: m }) => capitalise(m),
  TOOL_DENIED: ({ message: m }) => capitalise(m),
  TOOL_FAILED: ({ message: m }) => capitalise(m),
};

function capitalise(text: string): string {
  return text.length > 0 ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** Readable text for an error thrown by `request`. */
export function describeError(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const describe = DESCRIBE[error.code] as ((e: ApiError) => string) | undefined;
  return describe ? describe(error) : `${capitalise(error.message)} (${error.code})`;
}

/** Readable text for a request's recorded failure, which keeps only the code and the message
 * (so a text that names a detail, like the missing command, finds it in the message). */
export function describeFailure(failure: { code: string; message: string }): string {
  if (!(failure.code in DESCRIBE)) return capitalise(failure.message);
  const details = failure.code === "COMMAND_NOT_FOUND" ? { command: commandIn(failure.message) } : {};
  return describeError({ ...details, ...failure });
}

/** The command of a "command not found: X" message (the whole message if it has another shape). */
function commandIn(message: string): string {
  return /not found:\s*(.+)$/.exec(message)?.[1]?.trim() ?? message;
}

/** Something the user can do about an error. */
export type ErrorAction = { kind: "goToCell"; label: string; layoutId: string; nodeId: string };

/** The action offered with an error, if any (AGENT_ALREADY_RUNNING → "Go to cell"). */
export function errorAction(error: unknown): ErrorAction | null {
  if (!isApiError(error) || error.code !== "AGENT_ALREADY_RUNNING") return null;
  return { kind: "goToCell", label: "Go to cell", layoutId: error.layoutId, nodeId: error.nodeId };
}
