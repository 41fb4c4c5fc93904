import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { isTauri } from "@tauri-apps/api/core";
import "@xterm/xterm/css/xterm.css";
import "./styles.css";
import { App } from "./App";
import { adoptToken, sessionToken } from "./transport/token";

// First of all: the token leaves the address bar (see transport/token.ts).
adoptToken();

/** Shown by `idea serve` when this tab never had the token: the server would refuse it. */
function TokenMissing() {
  return (
    <main data-testid="token-missing" style={{ padding: "2em", maxWidth: "40em", lineHeight: 1.5 }}>
      <h1 style={{ fontSize: "1.3em" }}>IdeA needs its token</h1>
      <p>
        Open the address <code>idea serve</code> printed (it ends in <code>?token=…</code>). The token stays in this
        tab only.
      </p>
    </main>
  );
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(<StrictMode>{isTauri() || sessionToken() !== null ? <App /> : <TokenMissing />}</StrictMode>);
}
