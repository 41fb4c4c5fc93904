// Issue 11's "done means", end to end: four agents run in two layout tabs; the one that stops
// on a permission prompt in the hidden tab turns that tab's badge and the page title to "needs
// you", and nothing else changes. The time from the agent's prompt to the badge is measured in
// the page and printed (a measurement, not an assertion: speed belongs to benchmarks).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, fakeClaudeProfiles, rpc, useWorkspace, waitUntil } from "./helpers.mjs";

/** Launches `agentId` in `nodeId` of `layoutId`; returns its session id. */
async function launch(page, agentId, layoutId, nodeId) {
  const session = await rpc(page, "launchAgent", { agentId, layoutId, nodeId, rows: 24, cols: 80 });
  return session.sessionId;
}

/** Creates a layout named `name` with two cells; returns `{id, nodes}`. */
async function twoCellLayout(page, name) {
  const layout = name ? await rpc(page, "createLayout", { name }) : (await rpc(page, "getLayouts", {})).layouts[0];
  const first = layout.tree.id;
  const second = await rpc(page, "splitCell", { layoutId: layout.id, nodeId: first, direction: "horizontal" });
  return { id: layout.id, nodes: [first, second] };
}

describe("four agents in two tabs", () => {
  let server;
  let page;
  const pageErrors = [];

  useWorkspace({ profiles: fakeClaudeProfiles, viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ server, page } = opened));

  it("the agent at a permission prompt in the hidden tab alone turns its tab and the title to 'needs you'", async () => {
    const names = ["Architect", "Builder", "Tester", "Reviewer"];
    const agents = [];
    for (const name of names) agents.push((await rpc(page, "createAgent", { name, profileId: "fake" })).agentId);

    const one = await twoCellLayout(page, null);
    const two = await twoCellLayout(page, "Two");
    const sessions = [
      await launch(page, agents[0], one.id, one.nodes[0]),
      await launch(page, agents[1], one.id, one.nodes[1]),
      await launch(page, agents[2], two.id, two.nodes[0]),
      await launch(page, agents[3], two.id, two.nodes[1]),
    ];

    // The first tab is shown; the second ("Two") is hidden.
    const tabs = page.locator('[data-testid="tab"]');
    await tabs.first().click();
    await waitUntil(async () => (await cells(page)).some((c) => c.nodeId === one.nodes[0]), "the first tab is not shown");
    await waitUntil(async () => (await cells(page)).length === 2, "the first tab does not show its two cells");
    // Every agent settles (the fake prints its prompt, then waits): nobody needs the user yet.
    await waitUntil(
      async () => (await rpc(page, "listSessions", {})).filter((s) => sessions.includes(s.sessionId)).every((s) => s.state !== "working"),
      "the four agents do not settle",
      20000,
    );
    assert.equal(await page.title(), "IdeA");
    assert.equal(await page.locator('[data-testid="tab-needing"]').count(), 0);

    // The Reviewer, in the hidden tab, stops on a permission prompt. The page notes when the
    // badge and the title change, on its own clock, from just before the keystroke is sent.
    const timing = await page.evaluate(async (sessionId) => {
      const token = encodeURIComponent(sessionStorage.getItem("idea.token") ?? "");
      const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () => reject(new Error("websocket error"));
      });
      const seen = {};
      const observer = new MutationObserver(() => {
        const now = performance.now();
        if (seen.badge === undefined && document.querySelector('[data-testid="tab-needing"]')) seen.badge = now;
        if (seen.title === undefined && document.title.startsWith("(1)")) seen.title = now;
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      const start = performance.now();
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "writeTerminal", params: { sessionId, data: "ask-permission\r" } }));
      const deadline = start + 10000;
      while ((seen.badge === undefined || seen.title === undefined) && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      observer.disconnect();
      ws.close();
      return { badgeMs: seen.badge - start, titleMs: seen.title - start };
    }, sessions[3]);
    assert.ok(Number.isFinite(timing.badgeMs), "no badge on the hidden tab");
    assert.ok(Number.isFinite(timing.titleMs), "the title does not count the agent");
    console.log(
      `permission prompt -> hidden tab badge ${timing.badgeMs.toFixed(0)} ms, page title ${timing.titleMs.toFixed(0)} ms`,
    );

    // Exactly one agent needs the user: the badge is on the hidden tab only, counting one.
    const hidden = tabs.filter({ hasText: "Two" });
    assert.equal(await hidden.locator('[data-testid="tab-needing"]').innerText(), "1");
    assert.equal(await tabs.first().locator('[data-testid="tab-needing"]').count(), 0);
    assert.equal(await page.title(), "(1) IdeA");
    const states = Object.fromEntries(
      (await rpc(page, "listSessions", {})).filter((s) => sessions.includes(s.sessionId)).map((s) => [s.sessionId, s.state]),
    );
    assert.equal(states[sessions[3]], "needsYou");
    for (const other of sessions.slice(0, 3)) assert.notEqual(states[other], "needsYou", `${other} needs the user too`);

    // Answering it (from its tab) clears the badge and the title.
    await hidden.click();
    await waitUntil(async () => (await cells(page)).some((c) => c.nodeId === two.nodes[1]), "the second tab is not shown");
    await rpc(page, "writeTerminal", { sessionId: sessions[3], data: "yes\r" });
    await waitUntil(async () => (await page.title()) === "IdeA", "the title still counts an agent");
    assert.equal(await page.locator('[data-testid="tab-needing"]').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
