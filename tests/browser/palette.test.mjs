// The command palette (Ctrl+Shift+P and the top bar's button) and Alt+1…9: split, launch an
// agent here, go to an agent, new agent, and jumping to the n-th cell — all by keyboard; and
// the sessions overview (every session, its last line, a jump to it).

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { cells, useWorkspace, waitUntil } from "./helpers.mjs";

describe("command palette", () => {
  let server;
  let page;
  const pageErrors = [];

  const palette = (page) => page.locator('[data-testid="command-palette"]');
  const runCommand = async (text) => {
    await page.keyboard.press("Control+Shift+P");
    await palette(page).waitFor();
    await page.locator('[data-testid="palette-input"]').fill(text);
    await page.keyboard.press("Enter");
    await palette(page).waitFor({ state: "detached" });
  };

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ server, page } = opened));

  before(async () => {
    for (const name of ["Scout", "Critic"]) {
      await page.locator('[data-testid="agent-new"]').click();
      await page.locator('[data-testid="create-agent-name"]').fill(name);
      await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
      await page.locator('[data-testid="create-agent-submit"]').click();
      await page.locator(`[data-testid="picker-agent"][data-agent-name="${name}"]`).waitFor();
    }
  });

  it("splits the focused cell and launches an agent in it, by name", async () => {
    const [first] = await cells(page);
    await page.locator(`[data-testid="cell"][data-node-id="${first.nodeId}"]`).click();
    await runCommand("split right");
    await waitUntil(async () => (await cells(page)).length === 2, "no second cell");
    const second = (await cells(page))[1];
    await waitUntil(async () => (await cells(page))[1].focused, "focus did not follow the split");
    await runCommand("launch critic");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.sessionId, "Critic did not start in the new cell");
  });

  it("filters, moves with the arrows, and Escape closes without acting", async () => {
    await page.locator('[data-testid="open-palette"]').click();
    await palette(page).waitFor();
    await page.locator('[data-testid="palette-input"]').fill("layout");
    const options = page.locator('[data-testid="palette-list"] [role="option"]');
    assert.ok((await options.count()) >= 1);
    for (const text of await options.allTextContents()) assert.match(text.toLowerCase(), /layout/);
    await page.keyboard.press("Escape");
    await palette(page).waitFor({ state: "detached" });
  });

  it("Alt+1…9 jumps to the n-th cell and 'Go to' finds a running agent", async () => {
    const [first, second] = await cells(page);
    await page.keyboard.press("Alt+1");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === first.nodeId)?.focused, "Alt+1 did not focus the first cell");
    await page.keyboard.press("Alt+2");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "Alt+2 did not focus the second cell");
    await page.keyboard.press("Alt+1");
    await runCommand("go to critic");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "'Go to Critic' did not focus its cell");
  });

  it("the sessions overview lists sessions across layouts with their last line, and jumps", async () => {
    const [first, second] = await cells(page);
    await page.keyboard.press("Alt+1");
    await page.locator('[data-testid="toggle-overview"]').click();
    const rows = page.locator('[data-testid="session-row"]');
    await waitUntil(async () => (await rows.count()) === 1, "one session (Critic) expected");
    const row = rows.first();
    assert.match((await row.getAttribute("aria-label")) ?? "", /Go to Critic/);
    await waitUntil(async () => ((await row.locator('[data-testid="session-last-line"]').textContent()) ?? "").length > 0, "no last line");
    await row.click();
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "the row did not jump to Critic's cell");
    assert.ok(first.nodeId !== second.nodeId);
    await page.locator('[data-testid="toggle-overview"]').click();
  });

  it("opens the new agent form", async () => {
    await runCommand("new agent");
    await page.locator('[data-testid="create-agent-name"]').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});

describe("cell numbers", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  const cellBox = (nodeId) => page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
  const splitCell = async (nodeId, command) => {
    const before = (await cells(page)).length;
    await cellBox(nodeId).locator('[data-testid="cell-header"]').click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("Control+Shift+P");
    await page.locator('[data-testid="palette-input"]').fill(command);
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await cells(page)).length === before + 1, `no new cell after ${command}`);
  };

  it("numbers a 2×2 grid's cells in reading order, shows the number, and Alt+n follows it", async () => {
    const [a] = await cells(page);
    await splitCell(a.nodeId, "split right");
    const b = (await cells(page)).find((c) => c.nodeId !== a.nodeId);
    // Split the left column first, so that the tree's order (A, C, B, D) differs from reading order.
    await splitCell(a.nodeId, "split down");
    await splitCell(b.nodeId, "split down");
    const boxes = await page.$$eval('[data-testid="cell"]', (elements) =>
      elements.map((e) => {
        const r = e.getBoundingClientRect();
        return { nodeId: e.dataset.nodeId, top: Math.round(r.top), left: Math.round(r.left) };
      }),
    );
    const reading = [...boxes].sort((p, q) => p.top - q.top || p.left - q.left).map((box) => box.nodeId);
    assert.notDeepEqual(reading, boxes.map((box) => box.nodeId), "the grid's DOM order already is reading order: the test proves nothing");
    for (const [index, nodeId] of reading.entries()) {
      const number = cellBox(nodeId).locator('[data-testid="cell-number"]');
      assert.equal((await number.textContent())?.trim(), String(index + 1), `cell ${index + 1} shows the wrong number`);
      assert.ok(await number.isVisible(), `cell ${index + 1}'s number is hidden`);
    }
    for (const [index, nodeId] of reading.entries()) {
      await page.keyboard.press(`Alt+${index + 1}`);
      await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === nodeId)?.focused, `Alt+${index + 1} did not focus cell ${index + 1} (reading order)`);
    }
    assert.deepEqual(pageErrors, []);
  });
});
