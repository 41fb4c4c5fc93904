// The replay after a reload reproduces what the user saw, at any cell width: a shell cell
// prints long wrapping lines and coloured output at about 120, 80 and 40 columns (the last two
// reached by narrowing the cell after the output was printed wider); the xterm.js buffer (each
// line's text, wrap flag and colours) and the cursor are the same before and after
// `page.reload()`, also when the page was too busy to draw the replay before its cell changed.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, serverLogTail, startServer, waitForConnection, waitUntil } from "./helpers.mjs";

/** Output that wraps and carries colours, printed by the cell's shell (`/bin/sh`). */
const SCRIPT = [
  "printf '\\033[31mred\\033[0m \\033[1;32mbold green\\033[0m \\033[44mblue bg\\033[0m \\033[38;5;208morange\\033[0m plain\\n'",
  "seq -s ' ' 1 70",
  "printf 'a long line of words: %s END\\n' \"$(seq -s ' word' 1 30)\"",
  "ls --color=always /",
].join("; ");

describe("replay after a reload", () => {
  let server;
  let browser;
  let page;
  let sessionId;
  const pageErrors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await waitForConnection(page, server);
    await page.locator('[data-testid="picker-shell"]').first().click();
    sessionId = await waitUntil(async () => (await cells(page))[0]?.sessionId, "no shell session");
    await page.locator('[data-testid="terminal"] .xterm').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Every line of the buffer (scrollback and screen): its wrap flag, text and colours. */
  const buffer = () =>
    page.evaluate((id) => {
      const term = window.__ideaTerminals?.[id];
      if (!term) return null;
      const active = term.buffer.active;
      const cell = active.getNullCell();
      const lines = [];
      for (let i = 0; i < active.length; i++) {
        const line = active.getLine(i);
        let look = "";
        for (let x = 0; x < (line?.length ?? 0); x++) {
          line.getCell(x, cell);
          if (cell.getChars() === "" || cell.getChars() === " ") continue;
          look += `${x}:${cell.getFgColorMode()}/${cell.getFgColor()}/${cell.getBgColorMode()}/${cell.getBgColor()}/${cell.isBold()} `;
        }
        // Trailing blanks are cut: a blank cell the replay had to print (to make a row wrap)
        // is a space where the original had an empty cell, which looks the same.
        lines.push(`${line?.isWrapped ? "+" : " "}${(line?.translateToString(true) ?? "").trimEnd()} | ${look}`);
      }
      return { cols: term.cols, rows: term.rows, lines, cursor: [active.cursorX, active.cursorY] };
    }, sessionId);

  const text = async () => (await buffer())?.lines.map((l) => l.slice(1, l.indexOf(" | "))).join("\n") ?? "";

  /** Sizes the window so the terminal gets about `cols` columns; returns the buffer once settled. */
  async function widen(cols) {
    let settled;
    // A second step when the first crossed into the phone layout (under a tablet's width), where
    // the side panel is gone and the cell spans the whole window.
    for (let step = 0; step < 2; step++) {
      const { cols: now } = await buffer();
      if (step > 0 && Math.abs(now - cols) <= cols * 0.1) break;
      const viewport = page.viewportSize();
      // The cell spans the window but the side panel: move the window edge by the missing columns.
      const cellWidth = await page.locator('[data-testid="terminal"]').evaluate((e) => e.clientWidth);
      const width = Math.round(viewport.width + ((cols - now) * cellWidth) / now);
      await page.setViewportSize({ width, height: viewport.height });
      settled = await waitUntil(async () => {
        const first = await buffer();
        await new Promise((r) => setTimeout(r, 400));
        const second = await buffer();
        return first.cols === second.cols && JSON.stringify(first) === JSON.stringify(second) ? second : null;
      }, "the terminal did not settle after the resize");
    }
    // The size report reaches the server 80 ms after the fit, or later on a busy machine: a
    // command run before the PTY has the new size prints for the old one (`ls` lays out its
    // columns by it), and the page and the server's model reflow that differently.
    await waitUntil(async () => {
      const size = await page.evaluate((id) => window.__ideaTerminalState?.(id)?.sessionSize ?? null, sessionId);
      return size && size.cols === settled.cols && size.rows === settled.rows;
    }, "the server never had the terminal's new size");
    return settled;
  }

  async function print(marker) {
    await page.locator('[data-testid="terminal"]').click();
    await page.keyboard.type(`${SCRIPT}; echo ${marker}`);
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await text()).split("\n").some((l) => l === marker), `${marker} was not printed`);
    await new Promise((r) => setTimeout(r, 300));
  }

  async function reloadAndCompare(label) {
    const before = await buffer();
    assert.ok(before.lines.some((l) => l.startsWith("+")), `${label}: some line wraps`);
    await page.reload();
    await page.locator('[data-testid="terminal"] .xterm').waitFor();
    const afterReload = await waitUntil(async () => {
      const b = await buffer();
      return b && b.lines.join("\n").includes("END") ? b : null;
    }, `${label}: nothing was replayed`);
    await new Promise((r) => setTimeout(r, 500));
    const replayed = await buffer();
    assert.equal(replayed.cols, before.cols, `${label}: same width`);
    if (JSON.stringify(replayed.lines) !== JSON.stringify(before.lines)) {
      // The sizes the session went through say which reflow differed.
      const log = (await serverLogTail(server, 400)).split("\n").filter((l) => l.includes("terminal resized") || l.includes("terminal attached"));
      assert.deepEqual(replayed.lines, before.lines, `${label}: the buffer after the reload\n${log.join("\n")}`);
    }
    assert.deepEqual(replayed.cursor, before.cursor, `${label}: the cursor`);
    assert.ok(afterReload);
  }

  it("at about 120 columns", async () => {
    const { cols } = await widen(120);
    assert.ok(cols >= 110 && cols <= 130, `${cols} columns`);
    await print("MARK-120");
    await reloadAndCompare(`${cols} columns`);
  });

  it("at about 80 columns, narrowed after printing at 120", async () => {
    const { cols } = await widen(80);
    assert.ok(cols >= 72 && cols <= 88, `${cols} columns`);
    await reloadAndCompare(`narrowed to ${cols} columns`);
    await print("MARK-80");
    await reloadAndCompare(`${cols} columns`);
  });

  it("at about 40 columns, narrowed again", async () => {
    const { cols } = await widen(40);
    assert.ok(cols >= 34 && cols <= 46, `${cols} columns`);
    await reloadAndCompare(`narrowed to ${cols} columns`);
    await print("MARK-40");
    await reloadAndCompare(`${cols} columns`);
  });

  it("a replay still waiting when the cell is resized is parsed at the size it was drawn for", async () => {
    // The page holds its output back (a busy page: the replay waits for a frame) while its cell
    // narrows and the server follows: the replay must still be parsed at the width it was drawn
    // for, then reflowed, as the server's model did (a replay parsed at the new width breaks
    // its rows: a cursor move that should wrap stops at the edge).
    await widen(120);
    await print("MARK-HELD");
    await page.addInitScript(() => {
      if (sessionStorage.getItem("idea-hold-output")) window.__ideaHoldOutput = true;
    });
    await page.evaluate(() => sessionStorage.setItem("idea-hold-output", "1"));
    await page.reload();
    await page.locator('[data-testid="terminal"] .xterm').waitFor();
    const state = () => page.evaluate((id) => window.__ideaTerminalState?.(id) ?? null, sessionId);
    const wide = await waitUntil(async () => {
      const now = await state();
      return now?.queued > 0 && now.sessionSize ? now.sessionSize : null;
    }, "the replay was not held back");
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: Math.round(viewport.width * 0.75), height: viewport.height });
    await waitUntil(async () => (await state())?.sessionSize?.cols < wide.cols, "the server never took the narrower size");
    await page.evaluate(() => {
      sessionStorage.removeItem("idea-hold-output");
      window.__ideaHoldOutput = false;
    });
    const settled = await waitUntil(async () => {
      const first = await buffer();
      await new Promise((r) => setTimeout(r, 400));
      const second = await buffer();
      return (await state())?.queued === 0 && first.lines.join("\n").includes("MARK-HELD") && JSON.stringify(first) === JSON.stringify(second) ? second : null;
    }, "the held replay was never drawn");
    assert.ok(settled.cols < wide.cols, `narrowed from ${wide.cols} to ${settled.cols} columns`);
    await reloadAndCompare(`held, then narrowed to ${settled.cols} columns`);
    assert.deepEqual(pageErrors, []);
  });
});
