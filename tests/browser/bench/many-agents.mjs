// Many agents at once (issue 18): a grid of shell cells in one page, all but one flooding, and
// the keystroke-to-echo time in the idle one, against the same grid with none flooding, in the
// same run. Also: how busy the page's main thread is, the WebGL contexts alive, how long Ctrl+C
// takes to bring a flooding cell back to its prompt, and the server's memory and threads.
// A benchmark, not a test: it prints figures and asserts nothing.
//
//   node tests/browser/bench/many-agents.mjs [--cells 24] [--keys 120] [--interrupts 11] [--profile]
//
// `--profile` samples the page's JavaScript during the flooding phase and prints where its main
// thread spent its time (self time by function; build the frontend with `--minify false` for
// readable names).
//
// with IDEA_BIN set as for the browser tests (docs/many-agents.md has figures).

import { readdir, readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { cells, launchBrowser, rpc, splitEvenly, startServer, waitUntil } from "../helpers.mjs";

const { values: args } = parseArgs({
  options: {
    cells: { type: "string", default: "24" },
    keys: { type: "string", default: "120" },
    interrupts: { type: "string", default: "11" },
    renderer: { type: "string", default: "webgl" },
    profile: { type: "boolean", default: false },
    trace: { type: "boolean", default: false },
    // Experiments: CSS added to the page (e.g. to try a containment rule before landing it).
    css: { type: "string", default: "" },
  },
});
const CELLS = Number(args.cells);
const KEYS = Number(args.keys);
const INTERRUPTS = Math.min(Number(args.interrupts), CELLS - 1);
/** A flood of coloured text, as an agent's busy output looks (cheap for the shell to make). */
const FLOOD = `yes "$(printf '\\033[32m%s\\033[0m %s' flooding 'the quick brown fox jumps over the lazy dog 0123456789')"\r`;

const ECHO_TIMEOUT_MS = 30000;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (v) => (v === undefined ? "-" : `${v.toFixed(1)} ms`);

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) };
}

/** A grid of `count` cells (6 columns of 4 for 24, 4 of 3 for 12), each running a shell. */
async function shellGrid(page, layoutId, rootNode, count) {
  const columns = count >= 24 ? 6 : count >= 12 ? 4 : 2;
  const rows = Math.ceil(count / columns);
  const nodes = [];
  for (const column of await splitEvenly(page, layoutId, rootNode, "horizontal", columns - 1)) {
    nodes.push(...(await splitEvenly(page, layoutId, column, "vertical", rows - 1)));
  }
  const sessions = [];
  for (const nodeId of nodes.slice(0, count)) {
    sessions.push((await rpc(page, "openShell", { layoutId, nodeId, rows: 10, cols: 30 })).sessionId);
  }
  await waitUntil(async () => (await cells(page)).filter((c) => c.sessionId).length >= count, "the shells did not show", 60000);
  return sessions;
}

/** The page side of the measurements, installed before the UI loads. */
function instrument() {
  const contexts = [];
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const context = getContext.call(this, type, ...rest);
    if (context && (type === "webgl2" || type === "webgl") && !contexts.includes(context)) contexts.push(context);
    return context;
  };
  let received = 0;
  // The round trip of a keystroke: from the page's send to the first binary frame after it.
  const trip = { sentAt: 0, waiting: false, session: null, samples: [] };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        received += event.data.byteLength;
        // Frames start with their session's id, as keystrokes do.
        if (trip.waiting && new Uint8Array(event.data, 0, 16).every((b, i) => b === trip.session[i])) {
          trip.samples.push(performance.now() - trip.sentAt);
          trip.waiting = false;
        }
      });
    }
    send(data) {
      // A keystroke: a session id (16 bytes) and a key.
      if (data instanceof Uint8Array && data.length === 17 && data[16] >= 0x61) {
        trip.session = data.slice(0, 16);
        trip.sentAt = performance.now();
        trip.waiting = true;
      }
      return super.send(data);
    }
  };
  window.__bench = {
    received: () => received,
    trips: () => trip.samples.splice(0),
    /** WebGL contexts neither lost nor left on a canvas out of the page. */
    liveContexts: () => contexts.filter((c) => !c.isContextLost() && c.canvas.isConnected).length,
  };
}

/** Echo of `keys` keystrokes typed into `sessionId`'s terminal, one after the other. */
async function measureEcho(page, sessionId, keys, prompt) {
  await page.evaluate(([id, prompt]) => {
    const term = window.__ideaTerminals[id];
    const state = { typedAt: 0, expect: null, samples: [], waiter: null };
    // The cursor's line up to the cursor (xterm keeps spaces the shell wrote).
    const line = () => {
      const buffer = term.buffer.active;
      return buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(false, 0, buffer.cursorX) ?? "";
    };
    const check = () => {
      if (state.expect !== null && line() === state.expect) {
        state.samples.push(performance.now() - state.typedAt);
        state.expect = null;
        state.waiter?.();
      }
    };
    // On screen: the render after the echo was parsed.
    state.dispose = term.onRender(check);
    term.textarea.addEventListener(
      "keydown",
      (event) => {
        if (event.key.length !== 1 || event.ctrlKey) return;
        // When the browser got the key, so time spent waiting for the main thread counts.
        state.typedAt = event.timeStamp;
        state.expect = line() + event.key;
      },
      { capture: true },
    );
    state.next = () =>
      new Promise((resolve) => {
        if (state.expect === null) return resolve();
        state.waiter = resolve;
      });
    state.line = line;
    window.__echo = state;
  }, [sessionId, prompt]);
  await page.locator(`[data-testid="terminal"][data-session-id="${sessionId}"] .xterm-screen`).click();
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i < keys; i++) {
    if (i > 0 && i % 10 === 0) {
      await page.keyboard.press("Control+U"); // the line discipline erases the line
      await page.waitForFunction((p) => window.__echo.line() === p, prompt, { timeout: ECHO_TIMEOUT_MS }).catch(() => undefined);
    }
    await page.keyboard.press(letters[i % letters.length]);
    // Keys go one at a time: the next only once this one's echo is on screen.
    const echoed = await Promise.race([page.evaluate(() => window.__echo.next().then(() => true)), page.waitForTimeout(ECHO_TIMEOUT_MS).then(() => false)]);
    if (!echoed) {
      console.log(`no echo of key ${i} within ${ECHO_TIMEOUT_MS} ms: counted as that long`);
      await page.evaluate((timeout) => {
        window.__echo.samples.push(timeout);
        window.__echo.expect = null;
      }, ECHO_TIMEOUT_MS);
    }
    await page.waitForTimeout(30 + Math.random() * 20);
  }
  await page.keyboard.press("Control+U");
  return page.evaluate(() => {
    window.__echo.dispose.dispose();
    return window.__echo.samples;
  });
}

/** Main-thread busy fraction, page bytes received per second and live WebGL contexts, over `run()`. */
async function observed(page, cdp, run) {
  const metric = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const before = await metric();
  const bytesBefore = await page.evaluate(() => window.__bench.received());
  await page.evaluate(() => window.__bench.trips());
  const started = Date.now();
  const result = await run();
  const seconds = (Date.now() - started) / 1000;
  const after = await metric();
  const bytes = (await page.evaluate(() => window.__bench.received())) - bytesBefore;
  const pacer = await page.evaluate(() => window.__ideaPacer?.());
  if (pacer) console.log(`pacer: budget ${(pacer.budget / 1024).toFixed(0)} KiB, ${pacer.slots} terminals a frame, gap ${pacer.gapMs.toFixed(0)} ms, ${pacer.waiting} waiting, ${pacer.skips} skips so far`);
  const trips = await page.evaluate(() => window.__bench.trips());
  return {
    result,
    trips,
    busy: (after.TaskDuration - before.TaskDuration) / seconds,
    mbps: bytes / seconds / 1e6,
    contexts: await page.evaluate(() => window.__bench.liveContexts()),
  };
}

/** `run()` under the page's sampling profiler; prints the functions with the most self time. */
async function profiled(cdp, run) {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  const result = await run();
  const { profile } = await cdp.send("Profiler.stop");
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  console.log(`profile of the flooding phase: ${(total / 1000).toFixed(0)} ms sampled; self time by function:`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
  return result;
}

/** `run()` under Chromium's tracing; prints the main thread's time by kind of work (events
 *  nested in others are counted in both). */
async function traced(cdp, run) {
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,blink,cc,gpu,v8", transferMode: "ReportEvents" });
  const result = await run();
  await cdp.send("Tracing.end");
  await complete;
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur);
  const span = (Math.max(...onMain.map((e) => e.ts + e.dur)) - Math.min(...onMain.map((e) => e.ts))) / 1000;
  const byName = new Map();
  for (const e of onMain) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
  console.log(`trace of the flooding phase: ${span.toFixed(0)} ms of the renderer's main thread; time by event:`);
  for (const [name, total] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${((total / span) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
  const calls = new Map();
  for (const e of onMain.filter((e) => e.name === "FunctionCall")) {
    const d = e.args?.data ?? {};
    const key = `${d.functionName || "(anonymous)"} ${String(d.url ?? "").split("/").pop()}:${(d.lineNumber ?? 0) + 1}:${(d.columnNumber ?? 0) + 1}`;
    calls.set(key, (calls.get(key) ?? 0) + e.dur / 1000);
  }
  console.log("  JavaScript entered from the event loop, by function:");
  for (const [name, total] of [...calls].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(`  ${((total / span) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
  return result;
}

/** The server's resident memory and its terminals' threads (named `pty…`). */
async function serverUsage(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const rss = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
  let threads = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const name = await readFile(`/proc/${pid}/task/${task}/comm`, "utf8").catch(() => "");
    if (name.startsWith("pty")) threads++;
  }
  return { rssMb: rss / 1024, threads };
}

/** Ctrl+C typed into each of `sessions` at once; per cell, the time until it shows its prompt. */
async function interrupt(page, sessions, prompt) {
  return page.evaluate(async ([ids, prompt]) => {
    const atPrompt = (term) => {
      const buffer = term.buffer.active;
      const line = buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(false) ?? "";
      return buffer.cursorX === prompt.length && line.startsWith(prompt) && line.slice(prompt.length).trim() === "";
    };
    const started = performance.now();
    const times = ids.map((id) => {
      const term = window.__ideaTerminals[id];
      return new Promise((resolve) => {
        const done = () => {
          if (!atPrompt(term)) return false;
          resolve(performance.now() - started);
          return true;
        };
        const timer = setInterval(() => done() && clearInterval(timer), 5);
        setTimeout(() => {
          clearInterval(timer);
          const buffer = term.buffer.active;
          const line = buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(false) ?? "";
          console.log(`not at the prompt: ${id} cursor ${buffer.cursorX} line ${JSON.stringify(line)} ${JSON.stringify(window.__ideaTerminalState?.(id))}`);
          resolve(Infinity);
        }, 60000);
      });
    });
    for (const id of ids) window.__ideaTerminals[id].input("\x03", true);
    return Promise.all(times);
  }, [sessions, prompt]);
}

async function main() {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(instrument);
    if (args.renderer === "dom") await context.addInitScript(() => localStorage.setItem("idea.renderer", "dom"));
    if (args.css) {
      await context.addInitScript((css) => {
        document.addEventListener("DOMContentLoaded", () => {
          const style = document.createElement("style");
          style.textContent = css;
          document.head.append(style);
        });
      }, args.css);
    }
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.text().startsWith("not at the prompt") && console.log(message.text()));
    await page.goto(server.url);
    await page.locator('[data-testid="picker"]').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");

    const empty = await serverUsage(server.pid);
    const layoutId = (await rpc(page, "getLayouts", {})).layouts[0].id;
    const [root] = await cells(page);
    const sessions = await shellGrid(page, layoutId, root.nodeId, CELLS);
    const idle = sessions.at(-1);
    const flooders = sessions.slice(0, -1);
    await waitUntil(async () => (await page.evaluate((ids) => ids.every((id) => window.__ideaTerminals?.[id]?.buffer.active.getLine(0)?.translateToString(true).trim().length > 0), sessions)), "no prompts", 60000).catch(async (error) => {
      console.log(await page.evaluate((ids) => ids.map((id) => window.__ideaTerminals?.[id]?.buffer.active.getLine(0)?.translateToString(true)), sessions));
      throw error;
    });
    await page.waitForTimeout(2000);
    // The shell's prompt ("$ ", or "# " as root), as the first line shows it.
    const prompt = await page.evaluate((id) => {
      const buffer = window.__ideaTerminals[id].buffer.active;
      return buffer.getLine(buffer.baseY + buffer.cursorY).translateToString(false, 0, buffer.cursorX);
    }, idle);
    const idleUsage = await serverUsage(server.pid);
    console.log(`prompt ${JSON.stringify(prompt)}`);

    const load = (await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" ");
    console.log(`many-agents: ${CELLS} shell cells at 1440x900, ${args.renderer} renderer, ${KEYS} keys per phase; load average ${load}`);

    const quiet = await observed(page, cdp, () => (args.trace ? traced(cdp, () => measureEcho(page, idle, KEYS, prompt)) : measureEcho(page, idle, KEYS, prompt)));

    for (const id of flooders) await rpc(page, "writeTerminal", { sessionId: id, data: FLOOD });
    await page.waitForTimeout(3000);
    const echoes = () => measureEcho(page, idle, KEYS, prompt);
    const flooding = await observed(page, cdp, () => (args.profile ? profiled(cdp, echoes) : args.trace ? traced(cdp, echoes) : echoes()));
    const floodUsage = await serverUsage(server.pid);

    const base = summary(quiet.result);
    const row = (name, phase) => {
      const s = summary(phase.result);
      const ratio = (a, b) => `${(a / b).toFixed(1)}x`;
      console.log(
        `${name.padEnd(28)} echo p50 ${ms(s.p50).padStart(9)} (${ratio(s.p50, base.p50)})  p95 ${ms(s.p95).padStart(9)} (${ratio(s.p95, base.p95)})  max ${ms(s.max).padStart(9)}` +
          `  main thread busy ${(phase.busy * 100).toFixed(0)}%  received ${phase.mbps.toFixed(1)} MB/s  WebGL contexts ${phase.contexts}`,
      );
    };
    row(`${CELLS} cells, none flooding`, quiet);
    if (quiet.trips?.length) console.log(`  keystroke round trip to the server (send to first frame back), none flooding: p50 ${ms(summary(quiet.trips).p50)} p95 ${ms(summary(quiet.trips).p95)}`);
    row(`${CELLS} cells, ${flooders.length} flooding`, flooding);
    if (flooding.trips?.length) console.log(`  keystroke round trip to the server, flooding: p50 ${ms(summary(flooding.trips).p50)} p95 ${ms(summary(flooding.trips).p95)}`);

    const interrupted = flooders.slice(0, INTERRUPTS);
    const times = (await interrupt(page, interrupted, prompt)).sort((a, b) => a - b);
    console.log(`Ctrl+C in ${interrupted.length} flooding cells: at the prompt after p50 ${ms(percentile(times, 50))}, max ${ms(times.at(-1))} (the others still flooding)`);

    const rest = flooders.slice(INTERRUPTS);
    await interrupt(page, rest, prompt);
    await page.waitForTimeout(10000);
    const after = await serverUsage(server.pid);
    const per = (usage) => ({
      mb: (usage.rssMb - empty.rssMb) / CELLS,
      threads: (usage.threads - empty.threads) / CELLS,
    });
    for (const [name, usage] of [
      ["idle", idleUsage],
      ["flooding", floodUsage],
      ["10 s after the floods", after],
    ]) {
      const p = per(usage);
      console.log(`server ${name.padEnd(22)} RSS ${usage.rssMb.toFixed(1)} MB (${p.mb.toFixed(2)} MB per session), ${usage.threads} threads (${p.threads.toFixed(1)} per session)`);
    }
    if (errors.length) console.log(`page errors: ${errors.join("; ")}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
