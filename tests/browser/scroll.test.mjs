// A terminal scrolled up keeps its place across a reload: the viewport's distance from the
// bottom is remembered per session and restored once the replay is drawn.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, rpc, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

describe("scroll position across a reload", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  const distance = (sessionId) =>
    page.evaluate((id) => {
      const term = window.__ideaTerminals?.[id];
      if (!term) return null;
      const buffer = term.buffer.active;
      return buffer.baseY - buffer.viewportY;
    }, sessionId);

  it("restores a scrolled-up terminal's distance from the bottom", async () => {
    const layouts = await rpc(page, "getLayouts", {});
    const layout = layouts.layouts[0];
    const [cell] = await cells(page);
    const session = await rpc(page, "openShell", { layoutId: layout.id, nodeId: cell.nodeId, rows: 24, cols: 80 });
    await waitUntil(async () => (await cells(page))[0].sessionId === session.sessionId, "the shell is not in the cell");
    await waitUntil(async () => (await terminalText(page, session.sessionId)) !== null, "no terminal");
    await rpc(page, "writeTerminal", { sessionId: session.sessionId, data: "seq 1 400; echo seq-done\r" });
    await waitUntil(async () => /^seq-done$/m.test((await terminalText(page, session.sessionId)) ?? ""), "no output");

    const body = page.locator('[data-testid="cell"] .terminal-host').first();
    const box = await body.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The mouse wheel, a notch at a time, as a user scrolls back.
    const before = await waitUntil(async () => {
      const d = await distance(session.sessionId);
      if (d > 20) return d;
      await page.mouse.wheel(0, -400);
      return null;
    }, "the wheel did not scroll the terminal up");
    await new Promise((r) => setTimeout(r, 300)); // let the wheel's scrolling settle before measuring
    const settled = await distance(session.sessionId);
    assert.ok(settled > 20);

    await page.reload();
    await page.locator('[data-testid="picker"], [data-testid="cell"]').first().waitFor();
    await waitUntil(async () => /^seq-done$/m.test((await terminalText(page, session.sessionId)) ?? ""), "no replay after the reload");
    await waitUntil(async () => Math.abs((await distance(session.sessionId)) - settled) <= 1, `the terminal is not ${settled} lines up again`, 15000);
    assert.ok(before > 0);
    assert.deepEqual(pageErrors, []);
  });
});
