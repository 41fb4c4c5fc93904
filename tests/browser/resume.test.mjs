// The project's resume prompt (issue 20, §2): close IdeA with two agents running and one the
// user had stopped, start it again: the prompt offers exactly the two, each can resume its own
// conversation or start fresh, "Resume all" resumes the rest, and nothing starts by itself.
// The agents are the e2e fake agent posing as Claude Code (`--session-id`, `--resume`).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cells, fakeClaudeProfiles, launchBrowser, rpc, startServer, terminalText, waitForConnection, waitUntil } from "./helpers.mjs";

/** The fake agent with Claude Code's session flags (it keeps its conversations in its home). */
const profiles = (root) => fakeClaudeProfiles(root).map((p) => ({ ...p, session: { assignArgs: ["--session-id", "{id}"], resumeArgs: ["--resume", "{id}"] } }));

describe("resume prompt", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];
  let adaCell; // the node id of Ada's cell

  before(async () => {
    server = await startServer(null, { profiles });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await waitForConnection(page, server);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("offers the agents that were running after a restart, resumes them or starts them fresh", async () => {
    const layouts = await rpc(page, "getLayouts");
    const layoutId = layouts.active;
    const root = layouts.layouts.find((l) => l.id === layoutId).tree.id;
    adaCell = root;
    const second = await rpc(page, "splitCell", { layoutId, nodeId: root, direction: "horizontal" });
    const third = await rpc(page, "splitCell", { layoutId, nodeId: second, direction: "horizontal" });
    const before = {};
    for (const [name, nodeId] of [["Ada", root], ["Bob", second], ["Cy", third]]) {
      const agent = await rpc(page, "createAgent", { name, profileId: "fake" });
      before[name] = await rpc(page, "launchAgent", { layoutId, nodeId, agentId: agent.agentId, rows: 24, cols: 80 });
    }
    await rpc(page, "stopSession", { sessionId: before.Cy.sessionId });
    await waitUntil(async () => (await rpc(page, "listSessions")).find((s) => s.sessionId === before.Cy.sessionId)?.status === "exited", "Cy did not stop");
    assert.equal(await page.locator('[data-testid="resume-prompt"]').count(), 0, "a prompt while everything runs");

    // IdeA closes (SIGTERM, as Ctrl+C) and starts again on the same project.
    await server.kill();
    await page.locator('[data-testid="connection-status"]:not([data-state="open"])').waitFor();
    server = await startServer({ root: server.root, port: server.port, token: server.token }, { profiles });
    await waitForConnection(page, server);

    const prompt = page.locator('[data-testid="resume-prompt"]');
    await prompt.waitFor();
    const entries = prompt.locator('[data-testid="resume-entry"]');
    const offered = async () => (await entries.locator(".resume-prompt-name").allTextContents()).sort();
    assert.deepEqual(await offered(), ["Ada", "Bob"], "exactly the two that were running");
    assert.match(await prompt.textContent(), /2 agents can go on where they were/);
    // Nothing started by itself.
    assert.deepEqual((await rpc(page, "listSessions")).filter((s) => s.status === "running"), []);

    // Bob starts fresh: a new conversation.
    await prompt.locator(`[data-testid="resume-entry"][data-agent-id="${before.Bob.agentId}"] [data-testid="resume-entry-fresh"]`).click();
    await waitUntil(async () => (await offered()).join() === "Ada", "Bob is still offered");
    // Resume all: Ada continues her own conversation.
    await prompt.locator('[data-testid="resume-all"]').click();
    await prompt.waitFor({ state: "detached" });
    const running = await waitUntil(async () => {
      const list = (await rpc(page, "listSessions")).filter((s) => s.status === "running");
      return list.length === 2 ? list : null;
    }, "Ada and Bob are not both running");
    const now = Object.fromEntries(running.map((s) => [s.agentId, s]));
    assert.equal(now[before.Ada.agentId].engineSessionId, before.Ada.engineSessionId, "Ada did not resume her conversation");
    assert.notEqual(now[before.Bob.agentId].engineSessionId, before.Bob.engineSessionId, "Bob did not start fresh");
    assert.equal(now[before.Cy.agentId], undefined, "Cy, stopped by the user, was started");
    assert.deepEqual(pageErrors, []);
  });

  it("an agent at its usage limit: the cell counts down, the overview, the tab badge and the title count it", async () => {
    const ada = (await cells(page)).find((c) => c.nodeId === adaCell);
    const cell = page.locator(`[data-testid="cell"][data-node-id="${ada.nodeId}"]`);
    await cell.locator('[data-testid="terminal"]').click();
    await page.keyboard.type("hit-limit\n");
    await waitUntil(async () => (await rpc(page, "listSessions")).find((s) => s.sessionId === ada.sessionId)?.state === "usageLimited", "the limit was not seen");
    const note = cell.locator('[data-testid="limit-note"]');
    await note.waitFor();
    assert.match(await note.textContent(), /5-hour/);
    await waitUntil(async () => (await page.title()).includes("1 at its limit"), "the title does not count it");
    assert.equal(await page.locator('[data-testid="tab-limited"]').innerText(), "1");
    await page.locator('[data-testid="toggle-overview"]').click();
    const row = page.locator(`[data-testid="session-row"][data-session-id="${ada.sessionId}"]`);
    assert.match(await row.locator('[data-testid="session-limit"]').innerText(), /^resets in (1 h 5\d|2 h 0\d) min$/);
    await page.locator('[data-testid="toggle-overview"]').click();
    // Typing goes on before the reset: the agent is no longer held by its limit.
    await cell.locator('[data-testid="terminal"]').click();
    await page.keyboard.type("carry on\n");
    await waitUntil(async () => (await rpc(page, "listSessions")).find((s) => s.sessionId === ada.sessionId)?.state !== "usageLimited", "still limited");
    await waitUntil(async () => !(await page.title()).includes("limit"), "the title still counts it");
    assert.equal(await page.locator('[data-testid="tab-limited"]').count(), 0);
  });

  it("compacts an idle agent's conversation with its CLI's own command, not a working one", async () => {
    const ada = (await cells(page)).find((c) => c.nodeId === adaCell);
    const cell = page.locator(`[data-testid="cell"][data-node-id="${ada.nodeId}"]`);
    const compactItem = async () => {
      const button = cell.locator('[data-testid="cell-compact"]');
      if (await button.count()) return button;
      await cell.locator('[data-testid="cell-more"]').click();
      return cell.locator('[data-testid="cell-menu-item"][data-action="cell-compact"]');
    };
    // The fake agent answers a line, and its Stop hook makes it idle.
    await cell.locator('[data-testid="terminal"]').click();
    await page.keyboard.type("hello there\n");
    // Idle after this answer: the agent may still be idle from the line before when the wait
    // starts (and would then be working on this one when Compact is clicked).
    await waitUntil(async () => ((await terminalText(page, ada.sessionId)) ?? "").includes("you said: hello there"), "the agent never answered");
    await waitUntil(async () => (await rpc(page, "listSessions")).find((s) => s.sessionId === ada.sessionId)?.state === "idle", "the agent never went idle");
    const item = await compactItem();
    assert.equal(await item.isDisabled(), false, "Compact is not offered to an idle agent");
    await item.click();
    // Claude Code's command, typed at its prompt.
    await waitUntil(async () => ((await terminalText(page, ada.sessionId)) ?? "").includes("you said: /compact"), "/compact was not typed");
    assert.deepEqual(pageErrors, []);
  });
});
