// "Which agent needs me", end to end: the fake agent runs Claude Code's command hooks (IdeA's
// `--settings` file); each hook's `idea hook` reports to the owner; an agent in a hidden layout
// tab that reaches a permission prompt turns its tab badge, the page title and a browser
// notification to "needs you"; clicking the notification lands on its cell, and so do the
// sessions overview's "Next needing me" and the command palette's.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, fakeClaudeProfiles, rpc, useWorkspace, waitUntil } from "./helpers.mjs";

describe("attention", () => {
  let server;
  let page;
  const pageErrors = [];

  /** Lets the page notify, and records the notifications it creates so a test can click one. */
  async function recordNotifications(context, server) {
    await context.grantPermissions(["notifications"], { origin: server.origin });
    await context.addInitScript(() => {
      const Real = window.Notification;
      window.__notes = [];
      class Recorded extends Real {
        constructor(title, options) {
          super(title, options);
          window.__notes.push({ title, body: options?.body ?? "", note: this });
        }
      }
      Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
      Recorded.requestPermission = (...args) => Real.requestPermission(...args);
      window.Notification = Recorded;
    });
  }

  useWorkspace(
    { profiles: fakeClaudeProfiles, viewport: { width: 1280, height: 800 }, prepare: recordNotifications, pageErrors },
    (opened) => ({ server, page } = opened),
  );

  it("a hidden agent at a permission prompt: tab badge, title, notification, and back to its cell", async () => {
    await page.locator('[data-testid="notify-opt-in"]').click();
    const agent = await rpc(page, "createAgent", { name: "Hooked", profileId: "fake" });
    const layouts = await rpc(page, "getLayouts", {});
    const first = layouts.layouts[0];
    const [cell] = await cells(page);
    const session = await rpc(page, "launchAgent", {
      agentId: agent.agentId,
      layoutId: first.id,
      nodeId: cell.nodeId,
      rows: 24,
      cols: 80,
    });
    // Another tab is shown: the agent is out of view.
    const other = await rpc(page, "createLayout", { name: "Other" });
    await page.locator('[data-testid="tab"]', { hasText: "Other" }).click();
    await waitUntil(async () => (await cells(page)).every((c) => c.nodeId !== cell.nodeId), "the other tab is not shown");
    assert.ok(other.id);

    await rpc(page, "writeTerminal", { sessionId: session.sessionId, data: "ask-permission\r" });
    const firstTab = page.locator('[data-testid="tab"]').first();
    await waitUntil(async () => (await firstTab.locator('[data-testid="tab-needing"]').count()) === 1, "no badge on the hidden tab");
    await waitUntil(async () => (await page.title()).startsWith("(1)"), "the title does not count the agent");
    const note = await waitUntil(
      async () => (await page.evaluate(() => window.__notes.map((n) => n.title))).find((t) => t.includes("Hooked needs you")),
      "no notification",
    );
    assert.match(note, /Hooked needs you/);

    await page.evaluate(() => window.__notes.at(-1).note.onclick());
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === cell.nodeId)?.focused, "the notification did not land on the cell");

    // From the other tab again: the sessions overview shows the state and jumps to the next
    // agent that needs the user; so does the command palette.
    await page.locator('[data-testid="tab"]', { hasText: "Other" }).click();
    await waitUntil(async () => (await cells(page)).every((c) => c.nodeId !== cell.nodeId), "the other tab is not shown");
    await page.locator('[data-testid="toggle-overview"]').click();
    await waitUntil(
      async () => (await page.locator('[data-testid="session-state"]').first().getAttribute("data-state")) === "needsYou",
      "the overview does not show the state",
    );
    await page.locator('[data-testid="next-needing"]').click();
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === cell.nodeId)?.focused, "'Next needing me' did not land on the cell");
    await page.locator('[data-testid="tab"]', { hasText: "Other" }).click();
    await page.keyboard.press("Control+Shift+P");
    await page.locator('[data-testid="palette-input"]').fill("needs me");
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === cell.nodeId)?.focused, "the palette's 'next agent that needs me' did not land on the cell");
    assert.deepEqual(pageErrors, []);
  });
});
