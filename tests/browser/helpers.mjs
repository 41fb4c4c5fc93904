// Shared helpers of the browser tests: a real `idea serve` on a fresh project, and Debian's
// Chromium driven by playwright-core (no browser is ever downloaded).

import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

export const IDEA_BIN = resolve(process.env.IDEA_BIN ?? join(here, "../../target/debug/idea"));
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts `idea serve` on a fresh temporary project (port 0, a random token) and resolves once
 * it prints `IdeA serving <path> at <url>`. `stop()` kills it and removes the temp folders.
 * `reuse` ({root, port, token} of a stopped server) starts it again on the same project.
 * `profiles(root)`, if given, returns the user's runtime profiles (written to the server's
 * `profiles.json` before it starts).
 */
export async function startServer(reuse = null, { profiles = null } = {}) {
  if (!existsSync(IDEA_BIN)) {
    throw new Error(`${IDEA_BIN} not found: build it with \`cargo build -p idea-app\` (or set IDEA_BIN)`);
  }
  const root = reuse?.root ?? (await mkdtemp(join(tmpdir(), "idea-e2e-")));
  const projectDir = join(root, "project");
  const userDir = join(root, "user");
  await Promise.all([mkdir(projectDir, { recursive: true }), mkdir(userDir, { recursive: true })]);
  if (profiles) await writeFile(join(userDir, "profiles.json"), JSON.stringify({ profiles: profiles(root) }));
  const token = reuse?.token ?? randomBytes(16).toString("hex");
  const port = String(reuse?.port ?? 0);
  // The token goes in the environment, not the command line that every local user can read.
  const child = spawn(IDEA_BIN, ["serve", projectDir, "--port", port], {
    // The server's refusals (a wrong token, a foreign origin) are logged at debug: a failure's
    // message shows the log's tail.
    env: { IDEA_LOG: "info,idea_server=debug", ...process.env, SHELL: "/bin/sh", IDEA_USER_DIR: userDir, HOME: userDir, IDEA_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolveUrl, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`idea serve did not start in time\nstdout: ${stdout}\nstderr: ${stderr}`)), 20000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /^IdeA serving (.+) at (http:\/\/\S+)$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[2]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`idea serve exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  const origin = new URL(url).origin;
  return {
    url,
    origin,
    port: Number(new URL(url).port),
    token,
    root,
    projectDir,
    userDir,
    /** The server's process id (benchmarks read its memory and threads from /proc). */
    pid: child.pid,
    stderr: () => stderr,
    /** Stops the server (SIGTERM, as a user's Ctrl+C); the project stays for a restart. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timeout = new Promise((r) => setTimeout(r, 5000, "timeout"));
      if ((await Promise.race([exited, timeout])) === "timeout") child.kill("SIGKILL");
    },
    /** Stops the server and removes its temporary folders. */
    async stop() {
      await this.kill();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The built-in runtime profile `id`, as `idea profiles --json` prints it. */
/** The e2e fake agent (`tests/src/bin/fake-agent.rs`), built beside `idea`. */
export const FAKE_AGENT = resolve(join(IDEA_BIN, "..", "fake-agent"));

/** A user profile running the fake agent as a Claude Code look-alike: IdeA hands it Claude's
 * `--settings` hooks and convention file, which it honours. For `startServer`'s `profiles`. */
export const fakeClaudeProfiles = () => [
  {
    id: "fake",
    name: "Fake agent",
    command: FAKE_AGENT,
    home: { kind: "claudeCode" },
    contextInjection: { kind: "conventionFile", target: "CLAUDE.md" },
  },
];

export async function builtinProfile(id) {
  const empty = await mkdtemp(join(tmpdir(), "idea-profiles-"));
  try {
    const { stdout } = await run(IDEA_BIN, ["profiles", "--json"], { env: { ...process.env, IDEA_USER_DIR: empty, HOME: empty } });
    const profile = JSON.parse(stdout).find((p) => p.id === id);
    if (!profile) throw new Error(`no built-in profile ${id}`);
    return profile;
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

/** One JSON-RPC request over a WebSocket of the page's own (docs/api.md, transport 1). */
export const rpc = (page, method, params) =>
  page.evaluate(
    async ([method, params]) => {
      // The page keeps its token in sessionStorage (docs/security.md).
      const token = encodeURIComponent(sessionStorage.getItem("idea.token") ?? "");
      const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () => reject(new Error("websocket error"));
      });
      try {
        return await new Promise((resolve, reject) => {
          ws.onmessage = (message) => {
            if (typeof message.data !== "string") return;
            const answer = JSON.parse(message.data);
            if (answer.id !== 1) return; // events
            if (answer.error) reject(new Error(`${method}: ${JSON.stringify(answer.error)}`));
            else resolve(answer.result);
          };
          ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
        });
      } finally {
        ws.close();
      }
    },
    [method, params],
  );

/** The last `lines` lines of the server's own log files (docs/troubleshooting.md), for a
 *  failure's message. */
export async function serverLogTail(server, lines = 40) {
  try {
    const dir = join(server.userDir, "logs");
    const names = (await readdir(dir)).sort();
    const text = names.length ? await readFile(join(dir, names[names.length - 1]), "utf8") : "";
    return text.split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(no log: ${error.message})`;
  }
}

/** Waits until the page's connection to `server` is open. A busy machine may take a while to
 *  serve the page and accept its socket, hence the long patience; a failure says what the page
 *  and the server saw meanwhile. */
export async function waitForConnection(page, server, timeout = 60000) {
  const console = [];
  const record = (message) => console.push(`${message.type()}: ${message.text()}`);
  page.on("console", record);
  try {
    await page.locator('[data-testid="connection-status"][data-state="open"]').waitFor({ timeout });
  } catch (error) {
    const state = await page
      .locator('[data-testid="connection-status"]')
      .getAttribute("data-state", { timeout: 1000 })
      .catch(() => "(no status shown)");
    throw new Error(
      `the page did not connect (state: ${state}): ${error.message}\npage console:\n${console.join("\n")}\n` +
        `server stderr:\n${server.stderr()}\nserver log:\n${await serverLogTail(server)}`,
    );
  } finally {
    page.off("console", record);
  }
}

/** A new page of `context` on the served UI, connected and a picker shown (the first: a
 *  workspace that earlier tests left with several empty cells shows one per cell); page errors
 *  go to `errors`. */
export async function openWorkspace(context, server, errors = []) {
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(server.url);
  await waitForConnection(page, server);
  await page.locator('[data-testid="picker"]').first().waitFor();
  return page;
}

/** Registers the suite's `before` and `after` hooks around the served workspace: `idea serve`
 *  (with `profiles`), Chromium, a context (of `viewport`, if given; `prepare(context, server)`
 *  runs on it first: permissions, init scripts) and the workspace page, whose errors go to
 *  `pageErrors`. Hands `{ server, page }` to `opened` once they are up; closes both after. */
export function useWorkspace({ profiles = null, viewport, prepare, pageErrors } = {}, opened) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(null, { profiles });
    browser = await launchBrowser();
    const context = await browser.newContext(viewport ? { viewport } : {});
    await prepare?.(context, server);
    opened({ server, page: await openWorkspace(context, server, pageErrors) });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Polls `check` (an async predicate) until it is truthy; throws `message` after `timeout` ms. */
export async function waitUntil(check, message, timeout = 10000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${message} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text of a session's terminal (scrollback included), read from xterm's buffer. */
export async function terminalText(page, sessionId) {
  return page.evaluate((id) => {
    const term = window.__ideaTerminals?.[id];
    if (!term) return null;
    const buffer = term.buffer.active;
    const lines = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return lines.join("\n");
  }, sessionId);
}

/** The cells of the shown layout, in order, as `{nodeId, sessionId}`. */
export async function cells(page) {
  return page.$$eval('[data-testid="cell"]', (elements) =>
    elements.map((e) => ({
      nodeId: e.dataset.nodeId,
      sessionId: e.dataset.sessionId ?? null,
      agentId: e.dataset.agentId ?? null,
      focused: e.dataset.focused === "true",
    })),
  );
}

/** Splits `nodeId` `count` times in `direction` and evens out the resulting split; returns the
 *  cells, `nodeId` first. */
export async function splitEvenly(page, layoutId, nodeId, direction, count) {
  const created = [nodeId];
  for (let i = 0; i < count; i++) created.push(await rpc(page, "splitCell", { layoutId, nodeId: created.at(-1), direction }));
  const tree = (await rpc(page, "getLayouts", {})).layouts.find((l) => l.id === layoutId).tree;
  const parent = findParent(tree, nodeId);
  await rpc(page, "resizeSplit", { layoutId, splitId: parent.id, ratios: parent.children.map(() => 1 / parent.children.length) });
  return created;
}

function findParent(node, childId) {
  if (node.type !== "split") return null;
  if (node.children.some((c) => c.id === childId)) return node;
  for (const child of node.children) {
    const found = findParent(child, childId);
    if (found) return found;
  }
  return null;
}
