// The page outlives its server: when `idea serve` stops, the UI says it is disconnected and
// keeps retrying; once the server is back (same project, port and token) it reconnects,
// reloads the state, and offers to resume the agent that was running in the cell.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, startServer, terminalText, waitUntil } from "./helpers.mjs";

describe("reconnect", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("reconnects after a server restart and offers to resume the agent", async () => {
    await page.goto(server.url);
    await page.locator('[data-testid="agent-new"]').click();
    await page.locator('[data-testid="create-agent-name"]').fill("Keeper");
    await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
    await page.locator('[data-testid="create-agent-submit"]').click();
    await page.locator('[data-testid="picker-agent"][data-agent-name="Keeper"]').click();
    const first = await waitUntil(async () => (await cells(page))[0].sessionId, "no session");
    await waitUntil(async () => ((await terminalText(page, first)) ?? "").trim().length > 0, "no prompt");
    const { nodeId } = (await cells(page))[0];

    // The server goes away: the page shows it.
    await server.kill();
    await page.locator('[data-testid="connection-status"]:not([data-state="open"])').waitFor();

    // Back on the same port with the same token and project.
    server = await startServer({ root: server.root, port: server.port, token: server.token });
    await page.locator('[data-testid="connection-status"][data-state="open"]').waitFor({ timeout: 20000 });

    // The old session is gone with the old server; the cell offers to resume its agent.
    const cell = page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
    await cell.locator('[data-testid="resume-offer"]').waitFor();
    assert.match(await cell.locator('[data-testid="resume-offer"]').textContent(), /Keeper was running here/);
    assert.equal(await page.evaluate((id) => window.__ideaTerminals?.[id], first), undefined, "the dead session's terminal was disposed");

    await cell.locator('[data-testid="resume-button"]').click();
    const second = await waitUntil(async () => (await cells(page))[0].sessionId, "resume did not start a session");
    assert.notEqual(second, first);
    await waitUntil(async () => (await cell.locator('[data-testid="cell-status"]').getAttribute("data-status")) === "running", "not running");
    assert.equal(await cell.locator('[data-testid="cell-title"]').textContent(), "Keeper");
    assert.deepEqual(pageErrors, []);
  });
});
