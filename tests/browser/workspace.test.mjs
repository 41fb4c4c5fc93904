// The rest of the workspace, end to end: layout tabs (terminal content survives switching),
// resize by the gutter (persisted), Alt+Arrow focus, zoom, stop/restart, the side panel's
// persona editor and "Stop and delete" offered, search, copy and paste (with xterm's DOM renderer). One
// server and page, in order.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, startServer, terminalText, waitUntil } from "./helpers.mjs";

const AGENT = "Alpha";

const hasLine = async (page, sessionId, text) =>
  ((await terminalText(page, sessionId)) ?? "").split("\n").some((line) => line.trim() === text);

describe("workspace", () => {
  let server;
  let browser;
  let context;
  let page;
  const pageErrors = [];
  let main; // { nodeId, sessionId } of the agent's cell in the first tab

  const cell = (nodeId) => page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
  const layoutsFile = async () => JSON.parse(await readFile(join(server.projectDir, ".ideai/layouts.json"), "utf8"));
  const typeLine = async (text) => {
    await page.keyboard.type(text);
    await page.keyboard.press("Enter");
  };

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 820 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
    // These tests use xterm's DOM renderer (the WebGL fallback); cells.test.mjs the default one.
    await context.addInitScript(() => localStorage.setItem("idea.renderer", "dom"));
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await page.locator('[data-testid="picker"]').waitFor();

    // An agent with the shell profile, running in the only cell.
    await page.locator('[data-testid="agent-new"]').click();
    await page.locator('[data-testid="create-agent-name"]').fill(AGENT);
    await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
    await page.locator('[data-testid="create-agent-submit"]').click();
    await page.locator(`[data-testid="picker-agent"][data-agent-name="${AGENT}"]`).click();
    const [only] = await cells(page);
    const sessionId = await waitUntil(async () => (await cells(page))[0].sessionId, "no session");
    main = { nodeId: only.nodeId, sessionId };
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").trim().length > 0, "no prompt");
    await cell(main.nodeId).locator('[data-testid="terminal"]').click();
    await typeLine("echo one-marker");
    await waitUntil(() => hasLine(page, sessionId, "one-marker"), "no output in the first cell");
    await waitUntil(
      async () => (await cell(main.nodeId).locator(".xterm-rows").textContent())?.includes("one-marker"),
      "the DOM renderer does not show the output",
    );
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("creates, renames, switches and deletes layout tabs; terminals survive the switch", async () => {
    const before = await page.evaluate((id) => window.__ideaTerminals[id] !== undefined, main.sessionId);
    assert.ok(before);
    await page.locator('[data-testid="tab-add"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="tab"]').count()) === 2, "no second tab");
    const second = page.locator('[data-testid="tab"]').nth(1);
    await waitUntil(async () => (await second.getAttribute("data-active")) === "true", "the new tab is not active");
    assert.equal(await cell(main.nodeId).count(), 0, "the first tab's cell is not shown");

    // Rename by double-click.
    await second.dblclick();
    const input = page.locator('[data-testid="tab-rename-input"]');
    await input.fill("Second");
    await input.press("Enter");
    await waitUntil(async () => (await second.textContent())?.includes("Second"), "the tab was not renamed");
    assert.ok((await layoutsFile()).layouts.some((l) => l.name === "Second"), "the name is saved");

    // The agent runs in the first tab: greyed here, and "Go to cell" switches tab and focuses it.
    const entry = page.locator(`[data-testid="picker-agent"][data-agent-name="${AGENT}"]`);
    assert.equal(await entry.getAttribute("data-running-elsewhere"), "true");
    await page.locator('[data-testid="picker-goto"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="tab"]').first().getAttribute("data-active")) === "true", "Go to cell did not switch tab");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === main.nodeId)?.focused, "Go to cell did not focus the cell");
    assert.ok(await hasLine(page, main.sessionId, "one-marker"), "the terminal kept its content across the switch");
    await waitUntil(async () => {
      const saved = await layoutsFile();
      return saved.active === saved.layouts[0].id;
    }, "the active tab is not saved");
    await second.click();
    await waitUntil(async () => (await second.getAttribute("data-active")) === "true", "could not switch back to the second tab");

    // A shell in the new tab's cell.
    await page.locator('[data-testid="picker-shell"]').click();
    const shell = await waitUntil(async () => (await cells(page))[0].sessionId, "no shell session");
    await waitUntil(async () => ((await terminalText(page, shell)) ?? "").trim().length > 0, "no shell prompt");
    await page.locator('[data-testid="terminal"]').click();
    await typeLine("echo two-marker");
    await waitUntil(() => hasLine(page, shell, "two-marker"), "no output in the shell cell");
    assert.equal(await page.locator('[data-testid="cell-title"]').textContent(), "shell");

    // Back to the first tab: the same terminal, content intact.
    await page.locator('[data-testid="tab"]').first().click();
    await cell(main.nodeId).locator('[data-testid="terminal"] .xterm').waitFor();
    assert.ok(await hasLine(page, main.sessionId, "one-marker"));
    assert.equal(
      await cell(main.nodeId).locator(".terminal-host").getAttribute("data-session-id"),
      main.sessionId,
      "the cell shows its session's terminal",
    );

    // Delete the second tab (with confirmation).
    await page.locator('[data-testid="tab"]').nth(1).hover();
    await page.locator('[data-testid="tab"]').nth(1).locator('[data-testid="tab-close"]').click();
    await page.locator('[data-testid="confirm-dialog"]').waitFor();
    await page.locator('[data-testid="confirm-ok"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="tab"]').count()) === 1, "the tab was not deleted");
    assert.equal((await layoutsFile()).layouts.length, 1);
    assert.deepEqual(pageErrors, []);
  });

  it("splits vertically, resizes by dragging the gutter (saved), moves focus with Alt+Arrow, zooms", async () => {
    await cell(main.nodeId).locator('[data-testid="cell-split-v"]').click();
    await waitUntil(async () => (await cells(page)).length === 2, "no second cell");
    const [top, bottom] = await cells(page);
    assert.equal(top.nodeId, main.nodeId, "the new cell goes below");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === bottom.nodeId)?.focused, "the new cell is not focused");

    // Drag the gutter down by 120 px.
    const gutter = page.locator('[data-testid="gutter"]');
    const box = await gutter.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + 60, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2, box.y + 120, { steps: 4 });
    await page.mouse.up();
    const saved = await waitUntil(async () => {
      const root = (await layoutsFile()).layouts[0].tree;
      return root.type === "split" && root.ratios[0] > 0.55 ? root.ratios : null;
    }, "the new ratios were not saved");
    assert.ok(Math.abs(saved[0] + saved[1] - 1) < 1e-6);
    const topBox = await cell(top.nodeId).boundingBox();
    const bottomBox = await cell(bottom.nodeId).boundingBox();
    assert.ok(topBox.height > bottomBox.height + 150, "the top cell grew");

    // Alt+Up from the bottom cell focuses the top one, Alt+Down goes back.
    await cell(bottom.nodeId).locator('[data-testid="picker-shell"]').focus();
    await page.keyboard.press("Alt+ArrowUp");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === top.nodeId)?.focused, "Alt+Up did not focus the top cell");
    await page.keyboard.press("Alt+ArrowDown");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === bottom.nodeId)?.focused, "Alt+Down did not focus the bottom cell");

    // Zoom the top cell, then restore.
    await cell(top.nodeId).locator('[data-testid="cell-zoom"]').click();
    await waitUntil(async () => (await cells(page)).length === 1, "zoom did not hide the other cell");
    assert.ok(await hasLine(page, main.sessionId, "one-marker"), "the zoomed terminal kept its content");
    await cell(top.nodeId).locator('[data-testid="cell-zoom"]').click();
    await waitUntil(async () => (await cells(page)).length === 2, "unzoom did not bring the other cell back");

    // Close the bottom cell.
    await cell(bottom.nodeId).locator('[data-testid="cell-close"]').click();
    await waitUntil(async () => (await cells(page)).length === 1, "the cell was not closed");
    assert.deepEqual(pageErrors, []);
  });

  it("finds text in a terminal, copies with Ctrl+Shift+C and pastes with Ctrl+Shift+V", async () => {
    const term = cell(main.nodeId).locator('[data-testid="terminal"]');
    await term.click();
    await page.keyboard.press("Control+Shift+F");
    const search = cell(main.nodeId).locator('[data-testid="search-input"]');
    await search.waitFor();
    await search.fill("one-marker");
    await waitUntil(async () => /^\d+\/\d+$/.test((await cell(main.nodeId).locator('[data-testid="search-count"]').textContent()) ?? ""), "no match counted");
    await search.press("Escape");
    assert.equal(await cell(main.nodeId).locator('[data-testid="search-bar"]').count(), 0);

    // Copy: select everything, Ctrl+Shift+C; the shell receives no ^C meanwhile.
    await page.evaluate((id) => window.__ideaTerminals[id].focus(), main.sessionId);
    await page.evaluate((id) => window.__ideaTerminals[id].selectAll(), main.sessionId);
    await page.keyboard.press("Control+Shift+C");
    await waitUntil(async () => (await page.evaluate(() => navigator.clipboard.readText())).includes("one-marker"), "the selection was not copied");

    // Paste: what is on the clipboard is typed into the shell.
    await page.evaluate(() => navigator.clipboard.writeText("echo pasted-marker"));
    await page.keyboard.press("Control+Shift+V");
    await waitUntil(
      async () => ((await terminalText(page, main.sessionId)) ?? "").includes("echo pasted-marker"),
      "the pasted text is not on the command line",
    );
    await page.keyboard.press("Enter");
    await waitUntil(() => hasLine(page, main.sessionId, "pasted-marker"), "the paste did not reach the shell");
    assert.deepEqual(pageErrors, []);
  });

  it("offers to stop a running agent before deleting it, and edits its persona with an explicit save", async () => {
    const row = page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"]`);
    await row.hover();
    await row.locator('[data-testid="agent-delete"]').click();
    assert.equal(await page.locator('[data-testid="confirm-ok"]').textContent(), "Stop and delete");
    await page.locator('[data-testid="confirm-cancel"]').click();
    assert.equal(await row.count(), 1, "the agent is still listed");
    assert.equal(await row.getAttribute("data-running"), "true", "and still running");

    await row.locator('[data-testid="agent-edit"]').click();
    const text = page.locator('[data-testid="persona-text"]');
    await waitUntil(async () => (await text.inputValue()).length > 0, "the persona did not load");
    await text.fill("# Alpha\n\nReviews every change twice.\n");
    await page.locator('[data-testid="persona-unsaved"]').waitFor();
    const file = join(server.projectDir, ".ideai/agents/alpha.md");
    assert.doesNotMatch(await readFile(file, "utf8"), /twice/, "nothing is saved before Save");
    await page.locator('[data-testid="persona-save"]').click();
    await waitUntil(async () => (await readFile(file, "utf8")).includes("Reviews every change twice."), "the persona was not saved");
    await waitUntil(async () => (await page.locator('[data-testid="persona-unsaved"]').count()) === 0, "still marked unsaved");
    assert.deepEqual(pageErrors, []);
  });

  it("stops the agent (output stays readable), restarts it, and then deletes it once stopped", async () => {
    const c = cell(main.nodeId);
    await c.locator('[data-testid="cell-stop"]').click();
    await page.locator('[data-testid="confirm-ok"]').click();
    await waitUntil(async () => (await c.locator('[data-testid="cell-status"]').getAttribute("data-status")) === "exited", "the cell does not show the stop");
    // A stop the user asked for is not a failure, whatever the CLI's exit status.
    assert.equal(await c.locator('[data-testid="cell-status"]').textContent(), "stopped");
    assert.ok(await hasLine(page, main.sessionId, "one-marker"), "the output stays readable after the exit");
    await page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"][data-running="false"]`).waitFor();

    await c.locator('[data-testid="cell-restart"]').click();
    const restarted = await waitUntil(async () => {
      const id = await c.getAttribute("data-session-id");
      return id && id !== main.sessionId ? id : null;
    }, "restart did not start a new session");
    await waitUntil(async () => (await c.locator('[data-testid="cell-status"]').getAttribute("data-status")) === "running", "not running after restart");
    await waitUntil(async () => ((await terminalText(page, restarted)) ?? "").trim().length > 0, "no prompt after restart");
    assert.equal(await page.evaluate((id) => window.__ideaTerminals[id], main.sessionId), undefined, "the old terminal was disposed");

    // Stop again, then the agent can be deleted.
    await c.locator('[data-testid="cell-stop"]').click();
    await page.locator('[data-testid="confirm-ok"]').click();
    await page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"][data-running="false"]`).waitFor();
    const row = page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"]`);
    await row.hover();
    await row.locator('[data-testid="agent-delete"]').click();
    await page.locator('[data-testid="confirm-ok"]').click();
    await waitUntil(async () => (await row.count()) === 0, "the agent was not deleted");
    assert.deepEqual(pageErrors, []);
  });
});
