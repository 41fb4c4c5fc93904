// The tiled cells end to end: split, create an agent, launch it, type into its terminal, see
// the output in that cell; reload and see it replayed; the same agent is refused in a second
// cell with "Go to cell". One server and one page for the whole file, steps in order.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, startServer, waitForConnection, terminalText, waitUntil } from "./helpers.mjs";

const SCREENSHOT = process.env.IDEA_SCREENSHOT ?? "/tmp/idea-ui.png";
const AGENT = "Worker";

describe("cells", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];
  /** The cell the agent runs in, and its session. */
  let first;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("(a) splits a cell, creates a shell agent, launches it and shows its output in that cell", async () => {
    await page.goto(server.url);
    await page.locator('[data-testid="cell"] [data-testid="picker"]').first().waitFor();
    assert.equal((await cells(page)).length, 1, "a new project shows one empty cell");
    await waitForConnection(page, server);

    // Split the cell: two empty cells side by side.
    await page.locator('[data-testid="cell-split-h"]').first().click();
    await waitUntil(async () => (await cells(page)).length === 2, "the split did not produce two cells");
    const [left, right] = await cells(page);
    const leftBox = await page.locator(`[data-testid="cell"][data-node-id="${left.nodeId}"]`).boundingBox();
    const rightBox = await page.locator(`[data-testid="cell"][data-node-id="${right.nodeId}"]`).boundingBox();
    assert.ok(rightBox.x > leftBox.x + leftBox.width - 2, "a horizontal split puts the new cell on the right");

    // Create an agent with the `shell` profile from the side panel.
    await page.locator('[data-testid="agent-new"]').click();
    const form = page.locator('[data-testid="create-agent-form"]');
    await form.locator('[data-testid="create-agent-name"]').fill(AGENT);
    await form.locator('[data-testid="create-agent-profile"]').selectOption("shell");
    await form.locator('[data-testid="create-agent-submit"]').click();
    await page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"]`).waitFor();

    // Launch it in the left cell.
    const leftCell = page.locator(`[data-testid="cell"][data-node-id="${left.nodeId}"]`);
    await leftCell.locator(`[data-testid="picker-agent"][data-agent-name="${AGENT}"]`).click();
    const sessionId = await waitUntil(
      async () => (await cells(page)).find((c) => c.nodeId === left.nodeId)?.sessionId,
      "the left cell has no session after launching",
    );
    await leftCell.locator('[data-testid="terminal"] .xterm').waitFor();
    await waitUntil(async () => (await leftCell.locator('[data-testid="cell-status"]').getAttribute("data-status")) === "running", "the cell does not show running");
    assert.equal(await leftCell.locator('[data-testid="cell-title"]').textContent(), AGENT);
    assert.equal(await leftCell.locator('[data-testid="profile-badge"]').getAttribute("data-profile-id"), "shell");
    await page.locator(`[data-testid="agent-row"][data-agent-name="${AGENT}"][data-running="true"]`).waitFor();

    // Wait for the shell's prompt, then type into the terminal.
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").trim().length > 0, "no prompt from the shell");
    await leftCell.locator('[data-testid="terminal"]').click();
    await page.keyboard.type("echo hello-from-cell");
    await page.keyboard.press("Enter");
    await waitUntil(
      async () => ((await terminalText(page, sessionId)) ?? "").split("\n").some((line) => line.trim() === "hello-from-cell"),
      "`hello-from-cell` is not printed in the left cell's terminal",
    );
    // …and only there: the right cell still offers the picker and has no terminal.
    const rightCell = page.locator(`[data-testid="cell"][data-node-id="${right.nodeId}"]`);
    assert.equal(await rightCell.locator('[data-testid="terminal"]').count(), 0);
    assert.equal(await rightCell.getAttribute("data-session-id"), null);
    // What is on screen: the DOM renderer's rows when WebGL is unavailable, else a WebGL canvas.
    if ((await leftCell.locator(".xterm-rows").count()) > 0) {
      await waitUntil(async () => (await leftCell.locator(".xterm-rows").textContent())?.includes("hello-from-cell"), "not rendered in .xterm-rows");
    } else {
      assert.ok((await leftCell.locator(".xterm-screen canvas").count()) > 0, "neither DOM rows nor a WebGL canvas");
    }

    first = { nodeId: left.nodeId, sessionId, rightNodeId: right.nodeId };
    await page.screenshot({ path: SCREENSHOT });
    assert.deepEqual(pageErrors, []);
  });

  it("(b) replays the output in the same cell after a reload", async () => {
    assert.ok(first, "needs (a)");
    await page.reload();
    const cell = page.locator(`[data-testid="cell"][data-node-id="${first.nodeId}"]`);
    await cell.locator('[data-testid="terminal"] .xterm').waitFor();
    assert.equal(await cell.getAttribute("data-session-id"), first.sessionId, "the cell shows the same session");
    await waitUntil(
      async () => ((await terminalText(page, first.sessionId)) ?? "").split("\n").some((line) => line.trim() === "hello-from-cell"),
      "the output was not replayed after the reload",
    );
    assert.equal((await cells(page)).length, 2, "the split survived the reload");
    assert.deepEqual(pageErrors, []);
  });

  it("(c) greys the running agent in another cell; launching it there says where it runs, with Go to cell", async () => {
    assert.ok(first, "needs (a)");
    const right = page.locator(`[data-testid="cell"][data-node-id="${first.rightNodeId}"]`);
    const entry = right.locator(`[data-testid="picker-agent"][data-agent-name="${AGENT}"]`);
    await waitUntil(async () => (await entry.getAttribute("data-running-elsewhere")) === "true", "the agent is not greyed in the other cell");
    await right.locator('[data-testid="picker-goto"]').waitFor();

    await entry.click();
    const error = right.locator('[data-testid="cell-error"]');
    await error.waitFor();
    assert.match(await error.textContent(), new RegExp(`${AGENT} is already running in another cell`));
    assert.equal(await right.getAttribute("data-session-id"), null, "no second session was started");

    // "Go to cell" focuses the cell where the agent runs.
    await error.locator('[data-testid="error-goto"]').click();
    await waitUntil(
      async () => (await cells(page)).find((c) => c.nodeId === first.nodeId)?.focused,
      "Go to cell did not focus the agent's cell",
    );
    // Keyboard focus is in that cell's terminal: typing reaches its shell.
    await page.keyboard.type("echo back-in-first");
    await page.keyboard.press("Enter");
    await waitUntil(
      async () => ((await terminalText(page, first.sessionId)) ?? "").split("\n").some((line) => line.trim() === "back-in-first"),
      "typing after Go to cell did not reach the agent's terminal",
    );
    assert.deepEqual(pageErrors, []);
  });

  it("(e) streams a large output completely (flow control acknowledges what xterm processed)", async () => {
    assert.ok(first, "needs (a)");
    // ~1.3 MB, well past the 512 KiB the server lets go unacknowledged before pausing the PTY.
    await page.keyboard.type("seq 1 200000 && echo seq-done");
    await page.keyboard.press("Enter");
    await waitUntil(async () => await hasLine(page, first.sessionId, "seq-done"), "the output stalled", 60000);
    assert.ok(await hasLine(page, first.sessionId, "200000"), "the last number is shown");
    // The terminal still answers afterwards.
    await page.keyboard.type("echo still-alive");
    await page.keyboard.press("Enter");
    await waitUntil(async () => await hasLine(page, first.sessionId, "still-alive"), "no answer after the burst");
    assert.deepEqual(pageErrors, []);
  });
});

async function hasLine(page, sessionId, text) {
  return ((await terminalText(page, sessionId)) ?? "").split("\n").some((line) => line.trim() === text);
}
