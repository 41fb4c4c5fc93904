// The desktop build, driven for real: tauri-driver + WebKitWebDriver start `idea desktop` (Tauri
// + WebKitGTK) under Xvfb, and plain WebDriver calls (no client library) click and type in the
// window. It proves the Tauri transport end to end: IPC requests, the terminal's raw-byte
// channel, keystrokes and events; and the native notifications, against a fake notification
// service (`fake-notifications`) on a session D-Bus of its own (`dbus-run-session`). Run by
// scripts/test.sh.

import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";

const IDEA_BIN = resolve(process.env.IDEA_BIN ?? "target/debug/idea");
const FAKE_AGENT = resolve(IDEA_BIN, "..", "fake-agent");
const FAKE_NOTIFICATIONS = resolve(IDEA_BIN, "..", "fake-notifications");
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
  let w;
  try {
    w = await openWindow(project, { SHELL: "/bin/sh", IDEA_USER_DIR: join(root, "user") });
    // The page loaded from the embedded frontend and reached the backend over IPC.
    await eventually("the project name", async () => (await w.script("return document.querySelector('[data-testid=project-name]')?.textContent")) === "project");

    // Open a shell in the only cell, then type into xterm's input like a user.
    await w.click("[data-testid=picker-shell]");
    const sessionId = await eventually("a session in the cell", () => w.script("return document.querySelector('[data-testid=cell]')?.dataset.sessionId"));
    const input = await eventually("xterm's input", () => w.find("[data-testid=cell] .xterm-helper-textarea"));
    await w.type(input, "echo hello-$((6*7))-desktop\n");

    // The output came back through the raw-byte channel into the terminal.
    const text = () =>
      w.script(
        `const t = window.__ideaTerminals?.[arguments[0]]; if (!t) return "";
         const b = t.buffer.active; let out = "";
         for (let i = 0; i < b.length; i++) out += (b.getLine(i)?.translateToString(true) ?? "") + "\\n";
         return out;`,
        [sessionId],
      );
    await eventually("the command's output in the cell", async () => (await text()).includes("hello-42-desktop"));
    const status = await w.script("return document.querySelector('[data-testid=cell-status]')?.textContent");
    assert.match(status, /running/);

    const shot = await w.screenshot();
    writeFileSync(process.env.DESKTOP_SCREENSHOT ?? join(root, "desktop.png"), Buffer.from(shot, "base64"));
  } finally {
    await w?.close();
    rmSync(root, { recursive: true, force: true });
  }
});

/** Starts tauri-driver (with `env` added to ours) and opens IdeA's desktop window on
 *  `project`; `close()` ends the session, the driver and every process started on the
 *  project. */
async function openWindow(project, env) {
  const driver = spawn(DRIVER, ["--port", String(PORT), "--native-port", String(PORT + 1)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let session;
  const close = async () => {
    if (session) await webdriver("DELETE", `/session/${session}`).catch(() => {});
    driver.kill("SIGTERM");
    // Closing the WebDriver session does not always end the app, which would keep Xvfb (and
    // the test command) waiting: end every process started on this test's unique project.
    await stopProcessesMentioning(project);
  };
  try {
    await eventually("tauri-driver", () => webdriver("GET", "/status").then(() => true));
    const created = await webdriver("POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application: IDEA_BIN, args: ["desktop", project] } } },
    });
    session = created.sessionId;
  } catch (error) {
    await close();
    throw error;
  }
  return { ...windowOf(session), close };
}

/** The WebDriver session's helpers: find, click, run a script, call IdeA's API over Tauri IPC. */
function windowOf(session) {
  const s = `/session/${session}`;
  const elementId = (el) => Object.values(el)[0];
  const find = (css) => webdriver("POST", `${s}/element`, { using: "css selector", value: css });
  const script = (body, args = []) => webdriver("POST", `${s}/execute/sync`, { script: body, args });
  return {
    find,
    script,
    click: async (css) => webdriver("POST", `${s}/element/${elementId(await find(css))}/click`, {}),
    /** Types `text` into `element` (found with `find`), as keystrokes. */
    type: (element, text) => webdriver("POST", `${s}/element/${elementId(element)}/value`, { text }),
    /** A PNG of the window, base64. */
    screenshot: () => webdriver("GET", `${s}/screenshot`),
    /** One request through the page's own Tauri IPC, as the UI sends it. */
    async call(method, params = null) {
      const answer = await webdriver("POST", `${s}/execute/async`, {
        script: `const done = arguments[arguments.length - 1];
          window.__TAURI_INTERNALS__.invoke("api_request", { method: arguments[0], params: arguments[1] })
            .then((result) => done({ result }), (error) => done({ error }));`,
        args: [method, params],
      });
      if ("error" in answer) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
      return answer.result;
    },
    /** The cells shown: node id and whether it has the focus. */
    cells: () =>
      script(`return [...document.querySelectorAll('[data-testid=cell]')].map((e) => ({ nodeId: e.dataset.nodeId, focused: e.dataset.focused === "true" }))`),
  };
}

/** `dbus-run-session` with our fake notification service as its program: a session bus of its
 *  own, whose address it prints once it owns the notification service's name. */
async function startNotificationService(log) {
  // Its own process group, so that `stop` also ends whatever the bus started.
  const child = spawn("dbus-run-session", ["--", FAKE_NOTIFICATIONS, log], { stdio: ["pipe", "pipe", "inherit"], detached: true });
  const exited = new Promise((r) => child.once("exit", r));
  const address = await new Promise((resolveAddress, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`fake-notifications did not start: ${out}`)), 15000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const ready = /^ready (\S+)$/m.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolveAddress(ready[1]);
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`dbus-run-session exited with ${code}: ${out}`)));
  });
  // The bus daemon inherits this pipe: left open, it would keep the test process alive.
  child.stdout.destroy();
  return {
    address,
    /** Every Notify the service received, in order. */
    notes: () => (existsSync(log) ? readFileSync(log, "utf8") : "").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((n) => "summary" in n),
    /** The user clicks notification `id`. */
    click: (id) => child.stdin.write(`invoke ${id}\n`),
    /** Ends the service (its input closed), the bus with it, then anything left in its group. */
    async stop() {
      child.stdin.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is gone already
      }
    },
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test("a hidden agent that needs the user: a native notification whose click lands on its cell", { timeout: 180000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "idea-desktop-notify-"));
  const project = join(root, "project");
  const user = join(root, "user");
  mkdirSync(user);
  execFileSync(IDEA_BIN, ["init", project]);
  // The fake agent runs Claude Code's hooks, so "ask-permission" makes it need the user.
  const profile = { id: "fake", name: "Fake agent", command: FAKE_AGENT, home: { kind: "claudeCode" }, contextInjection: { kind: "conventionFile", target: "CLAUDE.md" } };
  writeFileSync(join(user, "profiles.json"), JSON.stringify({ profiles: [profile] }));
  const service = await startNotificationService(join(root, "notifications.jsonl"));
  let w;
  try {
    // NO_AT_BRIDGE: GTK would start the accessibility bus on this bus, outliving the test.
    w = await openWindow(project, { SHELL: "/bin/sh", IDEA_USER_DIR: user, HOME: user, DBUS_SESSION_BUS_ADDRESS: service.address, NO_AT_BRIDGE: "1" });
    await eventually("the project name", async () => (await w.script("return document.querySelector('[data-testid=project-name]')?.textContent")) === "project");
    // Native notifications need no opt-in.
    assert.equal(await w.script("return document.querySelectorAll('[data-testid=notify-opt-in]').length"), 0);

    const agent = await w.call("createAgent", { name: "Hooked", profileId: "fake" });
    const first = (await w.call("getLayouts")).layouts[0];
    const [cell] = await eventually("the first tab's cell", () => w.cells().then((c) => (c.length === 1 ? c : null)));
    const { sessionId } = await w.call("launchAgent", { agentId: agent.agentId, layoutId: first.id, nodeId: cell.nodeId, rows: 24, cols: 80 });
    // Another tab is shown: the agent is out of view.
    const other = await w.call("createLayout", { name: "Other" });
    const showOther = async () => {
      await eventually("the other tab", () => w.find(`[data-testid=tab][data-layout-id="${other.id}"]`));
      await w.click(`[data-testid=tab][data-layout-id="${other.id}"]`);
      await eventually("the agent's cell hidden", async () => !(await w.cells()).some((c) => c.nodeId === cell.nodeId));
    };
    await showOther();

    await w.call("writeTerminal", { sessionId, data: "ask-permission\r" });
    const note = await eventually("a notification that the agent needs the user", () => service.notes().find((n) => n.summary === "Hooked needs you"));
    assert.equal(note.appName, "IdeA");
    assert.deepEqual(note.actions, ["default", "Open"]);
    assert.doesNotMatch(`${note.summary} ${note.body}`, UUID);

    // The user clicks it: the window shows the first tab with the agent's cell focused.
    service.click(note.id);
    await eventually("the click landed on the agent's cell", async () => (await w.cells()).find((c) => c.nodeId === cell.nodeId)?.focused);
    assert.equal(await w.script("return document.querySelector('[data-testid=tab][data-active=true]')?.dataset.layoutId"), first.id);

    // Out of view again, the agent fails; its tab is deleted before the notification is
    // clicked, which then goes nowhere: no error, the tab shown stays.
    await showOther();
    await w.call("writeTerminal", { sessionId, data: "exit 3\r" });
    const failed = await eventually("a notification that the agent failed", () => service.notes().find((n) => n.summary === "Hooked failed"));
    assert.equal(failed.body, "exit code 3");
    await w.call("deleteLayout", { layoutId: first.id });
    await eventually("the first tab gone", async () => (await w.script("return document.querySelectorAll('[data-testid=tab]').length")) === 1);
    service.click(failed.id);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await w.script("return document.querySelector('[data-testid=tab][data-active=true]')?.dataset.layoutId"), other.id);
    assert.equal(await w.script("return document.querySelectorAll('[data-testid=toast], [data-testid=layouts-error]').length"), 0);
  } finally {
    await w?.close();
    await service.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
