// Many agents at once (docs/many-agents.md): output nobody can see costs the page nothing, and
// typing goes ahead of output that waits. A terminal in a hidden layout tab detaches and gives
// its WebGL context back, and shown again it has what was printed meanwhile (the server's
// replay); WebGL contexts never outnumber the terminals on screen; Ctrl+C in a flooding cell
// brings back its prompt while the other cells keep flooding; a terminal that skips a backlog
// shows its screen alone, and its whole scrollback once output pauses. Asserted on outcomes,
// not times.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, rpc, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

/** A flood whose every line differs (so a screen that still changes proves it still runs). */
const FLOOD = "seq 1000000000\r";

const state = (page, sessionId) => page.evaluate((id) => window.__ideaTerminalState?.(id) ?? null, sessionId);
const contexts = (page) => page.evaluate(() => window.__ideaWebglContexts?.() ?? 0);
const shownTerminals = (page) => page.locator('[data-testid="terminal"]').count();

/** The text of the screen of a session's terminal (not the scrollback). */
const screen = (page, sessionId) =>
  page.evaluate((id) => {
    const buffer = window.__ideaTerminals[id].buffer.active;
    const lines = [];
    for (let y = 0; y < window.__ideaTerminals[id].rows; y++) lines.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? "");
    return lines.join("\n");
  }, sessionId);

/** The text of the cursor's line of a session's terminal. */
const cursorLine = (page, sessionId) =>
  page.evaluate((id) => {
    const buffer = window.__ideaTerminals[id].buffer.active;
    return buffer.getLine(buffer.baseY + buffer.cursorY)?.translateToString(true) ?? "";
  }, sessionId);

describe("many agents at once", () => {
  let page;
  const pageErrors = [];
  let layoutId;
  const shells = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  it("a hidden tab's terminal detaches, and shown again replays what it printed meanwhile", async () => {
    layoutId = (await rpc(page, "getLayouts", {})).layouts[0].id;
    const [root] = await cells(page);
    const right = await rpc(page, "splitCell", { layoutId, nodeId: root.nodeId, direction: "horizontal" });
    const below = await rpc(page, "splitCell", { layoutId, nodeId: right, direction: "vertical" });
    for (const nodeId of [root.nodeId, right, below]) {
      shells.push((await rpc(page, "openShell", { layoutId, nodeId, rows: 10, cols: 40 })).sessionId);
    }
    const [first] = shells;
    await waitUntil(async () => ((await terminalText(page, first)) ?? "").trim().length > 0, "no prompt");
    await rpc(page, "writeTerminal", { sessionId: first, data: "echo before-$((6*7))\r" });
    await waitUntil(async () => (await terminalText(page, first))?.includes("before-42"), "no output before hiding");
    await waitUntil(async () => (await state(page, first))?.attached === true, "the shown terminal is not attached");
    assert.ok((await contexts(page)) <= (await shownTerminals(page)), "more WebGL contexts than terminals shown");

    // A second tab: the first tab's terminals are off screen, detached, without WebGL.
    await page.locator('[data-testid="tab-add"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="tab"]').nth(1).getAttribute("data-active")) === "true", "the new tab is not active");
    for (const id of shells) {
      await waitUntil(async () => (await state(page, id))?.attached === false, "a hidden terminal stays attached");
      assert.equal((await state(page, id)).webgl, false, "a hidden terminal keeps its WebGL context");
    }
    assert.equal(await contexts(page), 0, "WebGL contexts held with no terminal shown");

    // Output while hidden reaches the server's model only; shown again, the replay has it.
    await rpc(page, "writeTerminal", { sessionId: first, data: "echo while-$((6*7))-hidden\r" });
    await page.waitForTimeout(300);
    assert.ok(!(await terminalText(page, first)).includes("while-42-hidden"), "a hidden terminal still receives output");
    await page.locator('[data-testid="tab"]').first().click();
    await waitUntil(async () => (await state(page, first))?.attached === true, "the terminal did not attach again");
    await waitUntil(async () => {
      const text = (await terminalText(page, first)) ?? "";
      return text.includes("before-42") && text.includes("while-42-hidden");
    }, "the replay lacks what was printed before or while hidden");
    assert.ok((await contexts(page)) <= (await shownTerminals(page)), "more WebGL contexts than terminals shown");
  });

  it("a skip shows the screen alone, and the scrollback comes back once output pauses", async () => {
    const [, , third] = shells;
    await rpc(page, "writeTerminal", { sessionId: third, data: "seq 1 300; echo SEQ-$((6*7))\r" });
    await waitUntil(async () => (await terminalText(page, third))?.includes("\nSEQ-42"), "no output");
    const lines = (id) => page.evaluate((sessionId) => window.__ideaTerminals[sessionId].buffer.active.length, id);
    assert.ok((await lines(third)) > 300, "the scrollback lacks the output");

    // What the pacer does for a terminal typed into far behind a flood.
    await page.evaluate((id) => window.__ideaSkipTerminal(id), third);
    // The screen replay has come once the terminal holds no more lines than its screen (the
    // screen showed SEQ-42 before the skip too, so that alone proves nothing).
    const rows = await page.evaluate((id) => window.__ideaTerminals[id].rows, third);
    await waitUntil(
      async () => (await state(page, third))?.thin === true && (await lines(third)) === rows && (await screen(page, third)).includes("SEQ-42"),
      "the skip did not show the screen alone",
    );
    assert.equal((await state(page, third)).skips, 1);

    // Output pauses: the whole replay brings the scrollback back, once.
    await waitUntil(async () => (await state(page, third))?.thin === false, "the skipped scrollback never came back");
    await waitUntil(async () => (await lines(third)) > 300 && (await terminalText(page, third)).includes("\n1\n"), "the scrollback is not whole again");
    assert.ok((await screen(page, third)).includes("SEQ-42"), "the screen changed on mending");
  });

  it("Ctrl+C in a flooding cell brings its prompt back while the others keep flooding", async () => {
    const [target, ...others] = shells;
    const prompt = (await cursorLine(page, target)).trim();
    for (const id of shells) await rpc(page, "writeTerminal", { sessionId: id, data: FLOOD });
    await waitUntil(async () => /\n\d{4,}\n/.test((await terminalText(page, target)) ?? ""), "no flood");

    await page.locator(`[data-testid="terminal"][data-session-id="${target}"] .xterm-screen`).click();
    await page.keyboard.press("Control+C");
    // Back at the prompt: the cursor's line is the prompt alone, and it stays so.
    await waitUntil(async () => (await cursorLine(page, target)).trim() === prompt, "Ctrl+C did not bring the prompt back", 60000);
    await page.waitForTimeout(500);
    assert.equal((await cursorLine(page, target)).trim(), prompt, "the cell went on flooding after Ctrl+C");

    // The others still flood: their screens keep changing.
    for (const id of others) {
      const before = await screen(page, id);
      await waitUntil(async () => (await screen(page, id)) !== before, "another cell stopped flooding", 30000);
    }
    for (const id of others) {
      await page.evaluate((sessionId) => window.__ideaTerminals[sessionId].input("\x03", true), id);
    }
    for (const id of others) {
      await waitUntil(async () => (await cursorLine(page, id)).trim() === prompt, "Ctrl+C did not stop another cell", 60000);
    }
    assert.deepEqual(pageErrors, []);
  });
});
