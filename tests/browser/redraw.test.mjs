// A resize is not work. Loading the page, a second client of another size, or a panel opening
// resizes every terminal, and each quiet program redraws (bash its prompt line): that output
// flipped idle hookless agents (shell, Gemini, Aider, OpenCode cells) to "working" and, 4 s
// later, to idle again, with a "… is done" notification each. Their state must stay idle.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, launchBrowser, rpc, useWorkspace, waitUntil } from "./helpers.mjs";

/** An interactive bash: readline redraws its prompt line on every size change. */
const bashProfiles = () => [
  { id: "bash", name: "Bash", command: "bash", args: ["--norc", "--noprofile", "-i"], contextInjection: { kind: "none" } },
];

describe("a resize is not work", () => {
  let server;
  let page;
  const pageErrors = [];

  useWorkspace({ profiles: bashProfiles, viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ server, page } = opened));

  /** The states of the running agent sessions, by session id. */
  const states = async () => {
    const sessions = await rpc(page, "listSessions", {});
    return Object.fromEntries(sessions.filter((s) => s.agentId && s.status === "running").map((s) => [s.sessionId, s.state]));
  };

  it("idle agents stay idle through a second client, panels and a reload", async () => {
    const layouts = await rpc(page, "getLayouts", {});
    const layoutId = layouts.active;
    const [first] = await cells(page);
    const second = await rpc(page, "splitCell", { layoutId, nodeId: first.nodeId, direction: "horizontal" });
    const third = await rpc(page, "splitCell", { layoutId, nodeId: second, direction: "vertical" });
    for (const [name, nodeId] of [["One", first.nodeId], ["Two", second], ["Three", third]]) {
      const agent = await rpc(page, "createAgent", { name, profileId: "bash" });
      await rpc(page, "launchAgent", { agentId: agent.agentId, layoutId, nodeId, rows: 24, cols: 80 });
    }
    await waitUntil(async () => (await cells(page)).filter((c) => c.sessionId).length === 3, "the three agents did not start");
    await waitUntil(
      async () => {
        const now = Object.values(await states());
        return now.length === 3 && now.every((state) => state === "idle");
      },
      "the agents did not settle to idle",
      30000,
    );

    // Watched from here on: a "working" lasts at least the 4 s of quiet that end it, so a
    // poll every 200 ms cannot miss one.
    const seen = [];
    let step = "start";
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        // A poll that meets the reload is simply not counted.
        const now = await states().catch(() => ({}));
        for (const [sessionId, state] of Object.entries(now)) if (state !== "idle") seen.push({ sessionId, state, at: step });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    const browser = await launchBrowser();
    try {
      // A second client, much smaller: its attaches resize the terminals.
      step = "second client";
      // Wider than the phone layout, which would show (and resize) one of the three.
      const phone = await browser.newContext({ viewport: { width: 800, height: 700 } });
      // Every cell has its agent: no picker to wait for, as `openWorkspace` does.
      const small = await phone.newPage();
      small.on("pageerror", (error) => pageErrors.push(error.message));
      await small.goto(server.url);
      await waitUntil(async () => (await cells(small)).filter((c) => c.sessionId).length === 3, "the second client shows no terminals");
      await small.close();
      step = "panels";
      // Panels resize every cell of the first page.
      for (const toggle of ["toggle-requests", "toggle-overview", "toggle-side-panel"]) {
        await page.locator(`[data-testid="${toggle}"]`).click();
        await page.waitForTimeout(300);
        await page.locator(`[data-testid="${toggle}"]`).click();
      }
      step = "reload";
      await page.reload();
      await page.locator('[data-testid="picker"], [data-testid="cell"]').first().waitFor();
      // Long enough for a redraw taken for work to show: past the 4 s of quiet that would
      // have ended it.
      await page.waitForTimeout(6000);
    } finally {
      watching = false;
      await watcher;
      await browser.close();
    }
    assert.deepEqual(seen, [], "an agent left idle on a resize");
    assert.deepEqual(pageErrors, []);
  });
});
