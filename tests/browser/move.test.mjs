// Rearranging cells by dragging a header onto another cell (HTML5 drag and drop): an edge moves
// the cell there, its running terminal and output with it; the centre swaps two cells' contents
// (an agent assigned via the API follows, and so does a running shell with its output). The
// overlay shows the zone under the pointer; Escape and dropping onto itself change nothing.
// One server and page, steps in order.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, rpc, startServer, waitForConnection, terminalText, waitUntil } from "./helpers.mjs";

const leafOf = (tree, nodeId) => {
  if (tree.type === "leaf") return tree.id === nodeId ? tree : null;
  for (const child of tree.children) {
    const found = leafOf(child, nodeId);
    if (found) return found;
  }
  return null;
};

describe("moving cells", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];
  let layoutId;
  let shellCell; // { nodeId, sessionId } of the cell running a shell

  const cell = (nodeId) => page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
  const handle = (nodeId) => cell(nodeId).locator('[data-testid="cell-drag"]');
  const order = async () => (await cells(page)).map((c) => c.nodeId);
  const tree = async () => (await rpc(page, "getLayouts")).layouts.find((l) => l.id === layoutId).tree;
  /** A point of cell `nodeId` at fractions (fx, fy) of its size, relative to the cell. */
  const at = async (nodeId, fx, fy) => {
    const box = await cell(nodeId).boundingBox();
    return { x: Math.round(box.width * fx), y: Math.round(box.height * fy) };
  };
  const drag = async (from, to, fx, fy) =>
    handle(from).dragTo(cell(to), { sourcePosition: { x: 30, y: 8 }, targetPosition: await at(to, fx, fy) });
  const hasLine = async (sessionId, text) =>
    ((await terminalText(page, sessionId)) ?? "").split("\n").some((line) => line.trim() === text);

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await waitForConnection(page, server);
    await page.locator('[data-testid="picker"]').waitFor();
    layoutId = await page.locator('[data-testid="layout"]').getAttribute("data-layout-id");
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("a single cell has nothing to be dragged onto", async () => {
    assert.equal(await handle((await order())[0]).getAttribute("draggable"), "false");
  });

  it("moves a cell with a running shell to the left edge of another; its terminal follows with its output", async () => {
    await page.locator('[data-testid="cell-split-h"]').first().click();
    await waitUntil(async () => (await cells(page)).length === 2, "the split did not produce two cells");
    const [left, right] = await order();
    assert.equal(await handle(left).getAttribute("draggable"), "true");

    // A shell in the right cell, with a marker printed.
    await cell(right).locator('[data-testid="picker-shell"]').click();
    const sessionId = await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === right)?.sessionId, "no shell session");
    shellCell = { nodeId: right, sessionId };
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").trim().length > 0, "no prompt");
    await cell(right).locator('[data-testid="terminal"]').click();
    await page.keyboard.type("echo move-marker");
    await page.keyboard.press("Enter");
    await waitUntil(() => hasLine(sessionId, "move-marker"), "no output in the shell");

    // Drag its header onto the left edge of the other cell.
    await drag(right, left, 0.1, 0.5);
    await waitUntil(async () => (await order()).join() === [right, left].join(), "the moved cell is not on the left");
    const moved = (await cells(page)).find((c) => c.nodeId === right);
    assert.equal(moved.sessionId, sessionId, "the cell keeps its session");
    assert.equal(await page.locator('[data-testid="drop-zone"]').count(), 0, "the overlay is gone after the drop");
    const [leftBox, rightBox] = await Promise.all([cell(right).boundingBox(), cell(left).boundingBox()]);
    assert.ok(leftBox.x + leftBox.width <= rightBox.x + 2, "the moved cell is left of the other");

    // Its terminal is shown there, with the output, and still takes input.
    await cell(right).locator('[data-testid="terminal"] .xterm').waitFor();
    assert.ok(await hasLine(sessionId, "move-marker"), "the output survived the move");
    await cell(right).locator('[data-testid="terminal"]').click();
    await page.keyboard.type("echo still-alive");
    await page.keyboard.press("Enter");
    await waitUntil(() => hasLine(sessionId, "still-alive"), "the moved terminal does not take input");
    assert.equal(await cell(right).locator('[data-testid="cell-status"]').getAttribute("data-status"), "running");
  });

  it("shows the zone under the pointer while dragging; Escape cancels, and a drop onto itself does nothing", async () => {
    const [first, second] = await order();
    const source = await handle(first).boundingBox();
    const target = await cell(second).boundingBox();
    const point = (fx, fy) => [target.x + target.width * fx, target.y + target.height * fy];
    const overlay = page.locator('[data-testid="drop-zone"]');

    await page.mouse.move(source.x + 30, source.y + 8);
    await page.mouse.down();
    for (const [fx, fy, zone] of [
      [0.1, 0.5, "left"],
      [0.9, 0.5, "right"],
      [0.5, 0.1, "top"],
      [0.5, 0.9, "bottom"],
      [0.5, 0.5, "center"],
    ]) {
      await page.mouse.move(...point(fx, fy), { steps: 2 });
      await waitUntil(async () => (await overlay.getAttribute("data-zone")) === zone, `no ${zone} zone shown`, 5000);
      assert.equal(await overlay.count(), 1, "one overlay at a time");
      assert.equal(await cell(second).locator('[data-testid="drop-zone"]').count(), 1, "the overlay is on the target");
    }
    await page.keyboard.press("Escape");
    await waitUntil(async () => (await overlay.count()) === 0, "Escape leaves the overlay");
    await page.mouse.up();
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await order(), [first, second], "a cancelled drag changes nothing");

    // Onto itself: no overlay, no change.
    await drag(first, first, 0.1, 0.5);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await overlay.count(), 0);
    assert.deepEqual(await order(), [first, second]);
  });

  it("swaps two empty cells by a centre drop: the assigned agent changes cell", async () => {
    const agent = await rpc(page, "createAgent", { name: "Mover", profileId: "shell", template: null });
    // A third cell, right of the empty one; the agent assigned to the empty one.
    const empty = (await order()).find((id) => id !== shellCell.nodeId);
    await cell(empty).locator('[data-testid="cell-split-h"]').click();
    await waitUntil(async () => (await cells(page)).length === 3, "no third cell");
    const third = (await order()).find((id) => id !== shellCell.nodeId && id !== empty);
    await rpc(page, "assignAgent", { layoutId, nodeId: empty, agentId: agent.agentId });
    const assigned = (nodeId) => cell(nodeId).locator('[data-testid="picker-agent"][data-agent-name="Mover"] .picker-hint');
    await waitUntil(async () => (await assigned(empty).count()) === 1, "the picker does not show the assignment");

    const before = await order();
    await drag(empty, third, 0.5, 0.5);
    await waitUntil(async () => leafOf(await tree(), third)?.agent === agent.agentId, "the agent did not move to the other cell");
    assert.equal(leafOf(await tree(), empty)?.agent ?? null, null, "the first cell no longer has the agent");
    assert.deepEqual(await order(), before, "a swap keeps the cells where they are");
    await waitUntil(async () => (await assigned(third).count()) === 1 && (await assigned(empty).count()) === 0, "the pickers do not follow the swap");
  });

  it("swaps a cell running a shell with another by a centre drop: the terminal changes cell", async () => {
    const before = await order();
    const other = before.find((id) => id !== shellCell.nodeId);
    await drag(shellCell.nodeId, other, 0.5, 0.5);
    await waitUntil(
      async () => (await cells(page)).find((c) => c.nodeId === other)?.sessionId === shellCell.sessionId,
      "the running shell did not move to the other cell",
    );
    assert.deepEqual(await order(), before, "a swap keeps the cells where they are");
    // The cell it left shows no session once the page has drawn both sides of the swap (the
    // layout and the sessions come in separate events, so one frame may show only one).
    await waitUntil(
      async () => ((await cells(page)).find((c) => c.nodeId === shellCell.nodeId)?.sessionId ?? null) === null,
      "the cell the shell left still shows it",
    );
    await waitUntil(async () => (await terminalText(page, shellCell.sessionId))?.includes("move-marker"), "the output was lost");
    assert.deepEqual(pageErrors, []);
  });
});
