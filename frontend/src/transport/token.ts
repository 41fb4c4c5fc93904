// `idea serve`'s token. It arrives in the page's address (`?token=`), moves to this tab's
// `sessionStorage` and out of the address bar: the browser never sends it anywhere by itself
// (a cookie would go to every port of the host), and a reload still has it. The WebSocket
// presents it as `/ws?token=` (docs/security.md).

const KEY = "idea.token";
/** The token of this load, should `sessionStorage` be unavailable. */
let kept: string | null = null;

/** Takes `?token=` out of the page's address and keeps it for this tab; idempotent. */
export function adoptToken(): void {
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (token === null) return;
  kept = token;
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage refused (a private mode, a policy): the token lasts until the next reload.
  }
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}

/** This tab's token, if it has one. */
export function sessionToken(): string | null {
  adoptToken();
  if (kept !== null) return kept;
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
