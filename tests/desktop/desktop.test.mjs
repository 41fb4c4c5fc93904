// The desktop build, driven for real: tauri-driver + WebKitWebDriver start `idea desktop` (Tauri
// + WebKitGTK) under Xvfb, and plain WebDriver calls (no client library) click and type in the
// window. It proves the Tauri transport end to end: IPC requests, the terminal's raw-byte
// channel, keystrokes and events. Run by scripts/desktop-e2e.sh.

import { spawn, spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

const IDEA_BIN = resolve(process.env.IDEA_BIN ?? "target/debug/idea");
const DRIVER = process.env.TAURI_DRIVER ?? "tauri-driver";
const PORT = 4444 + (process.pid % 1000);

async function webdriver(method, path, body) {
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
  return json.value;
}

async function eventually(what, check, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopProcessesMentioning(text) {
  const alive = () => spawnSync("pgrep", ["-f", text]).status === 0;
  spawnSync("pkill", ["-TERM", "-f", text]);
  for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive()) spawnSync("pkill", ["-KILL", "-f", text]);
}

test("the desktop window runs a shell in a cell over Tauri IPC", { timeout: 180000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "idea-desktop-"));
  const project = join(root, "project");
  execFileSync(IDEA_BIN, ["init", project]);
  const driver = spawn(DRIVER, ["--port", String(PORT), "--native-port", String(PORT + 1)], {
    env: { ...process.env, SHELL: "/bin/sh", IDEA_USER_DIR: join(root, "user") },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let session;
  try {
    await eventually("tauri-driver", () => webdriver("GET", "/status").then(() => true));
    const created = await webdriver("POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application: IDEA_BIN, args: ["desktop", project] } } },
    });
    session = created.sessionId;
    const s = `/session/${session}`;
    const find = (css) => webdriver("POST", `${s}/element`, { using: "css selector", value: css });
    const elementId = (el) => Object.values(el)[0];
    const script = (body, args = []) => webdriver("POST", `${s}/execute/sync`, { script: body, args });

    // The page loaded from the embedded frontend and reached the backend over IPC.
    await eventually("the project name", async () => (await script("return document.querySelector('[data-testid=project-name]')?.textContent")) === "project");

    // Open a shell in the only cell, then type into xterm's input like a user.
    await webdriver("POST", `${s}/element/${elementId(await find("[data-testid=picker-shell]"))}/click`, {});
    const sessionId = await eventually("a session in the cell", () => script("return document.querySelector('[data-testid=cell]')?.dataset.sessionId"));
    const input = await eventually("xterm's input", () => find("[data-testid=cell] .xterm-helper-textarea"));
    await webdriver("POST", `${s}/element/${elementId(input)}/value`, { text: "echo hello-$((6*7))-desktop\n" });

    // The output came back through the raw-byte channel into the terminal.
    const text = () =>
      script(
        `const t = window.__ideaTerminals?.[arguments[0]]; if (!t) return "";
         const b = t.buffer.active; let out = "";
         for (let i = 0; i < b.length; i++) out += (b.getLine(i)?.translateToString(true) ?? "") + "\\n";
         return out;`,
        [sessionId],
      );
    await eventually("the command's output in the cell", async () => (await text()).includes("hello-42-desktop"));
    const status = await script("return document.querySelector('[data-testid=cell-status]')?.textContent");
    assert.match(status, /running/);

    const shot = await webdriver("GET", `${s}/screenshot`);
    writeFileSync(process.env.DESKTOP_SCREENSHOT ?? join(root, "desktop.png"), Buffer.from(shot, "base64"));
  } finally {
    if (session) await webdriver("DELETE", `/session/${session}`).catch(() => {});
    driver.kill("SIGTERM");
    // Closing the WebDriver session does not always end the app, which would keep Xvfb (and
    // the test command) waiting: end every process started on this test's unique project.
    await stopProcessesMentioning(project);
    rmSync(root, { recursive: true, force: true });
  }
});
