// Narrow cells still say who needs you: in a 24-cell grid (6 × 4 at 1280 × 800, about 160 px a
// cell) the header of a cell whose agent waits at a permission prompt shows its whole "needs
// you" state and some of its name, at about 250 px both whole; the actions give way first (into
// the overflow menu), and stay reachable.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, fakeClaudeProfiles, rpc, splitEvenly, useWorkspace, waitUntil } from "./helpers.mjs";

/** Whether `locator`'s text shows whole (not cut by an ellipsis or the header's edge). */
async function whole(locator, header) {
  const box = await locator.boundingBox();
  const headerBox = await header.boundingBox();
  const fits = await locator.evaluate((e) => e.scrollWidth <= e.clientWidth + 1);
  return box !== null && box.width > 0 && fits && box.x + box.width <= headerBox.x + headerBox.width + 0.5;
}

describe("narrow cell headers", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ profiles: fakeClaudeProfiles, viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  it("in a 24-cell grid, 'needs you' shows whole, the name whole from about 250 px; the actions sit in the menu", async () => {
    const layouts = await rpc(page, "getLayouts", {});
    const layoutId = layouts.layouts[0].id;
    const [root] = await cells(page);
    const columns = await splitEvenly(page, layoutId, root.nodeId, "horizontal", 5);
    const grid = [];
    for (const column of columns) grid.push(await splitEvenly(page, layoutId, column, "vertical", 3));
    await waitUntil(async () => (await cells(page)).length === 24, "no 24-cell grid");

    const target = grid[2][1];
    const agent = await rpc(page, "createAgent", { name: "Architect", profileId: "fake" });
    const session = await rpc(page, "launchAgent", { agentId: agent.agentId, layoutId, nodeId: target, rows: 10, cols: 30 });
    await rpc(page, "writeTerminal", { sessionId: session.sessionId, data: "ask-permission\r" });

    const header = page.locator(`[data-testid="cell"][data-node-id="${target}"] [data-testid="cell-header"]`);
    const badge = header.locator('[data-testid="state-badge"]');
    await waitUntil(async () => (await badge.getAttribute("data-state")) === "needsYou", "the agent does not need the user");
    await waitUntil(async () => whole(badge, header), "'needs you' is cut in the narrow header");
    const title = header.locator('[data-testid="cell-title"]');
    const narrow = (await header.boundingBox()).width;
    assert.ok(narrow < 200, `the cell is not narrow (${narrow} px)`);
    assert.ok((await title.boundingBox()).width >= 20, "the agent's name is squeezed out");

    // A wider column (about 250 px): the name too shows whole.
    const columnsSplit = (await rpc(page, "getLayouts", {})).layouts[0].tree;
    await rpc(page, "resizeSplit", { layoutId, splitId: columnsSplit.id, ratios: [0.15, 0.15, 0.25, 0.15, 0.15, 0.15] });
    await waitUntil(async () => (await header.boundingBox()).width > 220, "the column did not widen");
    await waitUntil(async () => (await whole(title, header)) && (await whole(badge, header)), "the agent's name or state is cut at about 250 px");
    assert.equal(await header.locator('[data-testid="cell-more"]').count(), 1, "the actions are not in the overflow menu");
    await header.locator('[data-testid="cell-more"]').click();
    const items = await page.locator(`[data-testid="cell"][data-node-id="${target}"] [data-testid="cell-menu-item"]`).evaluateAll((es) => es.map((e) => e.dataset.action));
    for (const action of ["cell-stop", "cell-split-h", "cell-close"]) {
      const inHeader = (await header.locator(`[data-testid="${action}"]`).count()) > 0;
      assert.ok(inHeader || items.includes(action), `${action} is unreachable`);
    }
    await page.keyboard.press("Escape");
    assert.deepEqual(pageErrors, []);
  });
});
