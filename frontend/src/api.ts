// The one module through which the UI talks to the backend. It picks its transport at run
// time: Tauri's IPC inside the desktop shell; `idea serve`'s WebSocket in a browser.
import { invoke, isTauri } from "@tauri-apps/api/core";

/** The backend's error shape: a stable code and a readable message. */
export interface ApiError {
  code: string;
  message: string;
}

export function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && "code" in value && "message" in value;
}

/** Sends one request named after a use case (see docs/api.md) and returns its result. */
export async function request<T>(method: string, params?: Record<string, unknown>): Promise<T> {
  const body = params === undefined ? { method } : { method, params };
  if (isTauri()) {
    return invoke<T>("api_request", { request: body });
  }
  throw { code: "NO_BACKEND", message: "This page must be opened by the IdeA desktop app or `idea serve`." } satisfies ApiError;
}

/** Readable text for an error thrown by `request`. */
export function describeError(error: unknown): string {
  if (isApiError(error)) return `${error.message} (${error.code})`;
  return String(error);
}
