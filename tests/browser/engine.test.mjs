// "Change engine…" on a cell: the dialog shows the handoff the new engine will get (drafted,
// editable), the agent moves to the other profile, its live session is relaunched in the same
// cell, and the new engine's convention file carries the edited handoff.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { FAKE_AGENT, cells, rpc, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

/** Two engines: one like Claude Code (its session flags, CLAUDE.md), one reading AGENTS.md. */
const profiles = () => [
  {
    id: "fake",
    name: "Fake Claude",
    command: FAKE_AGENT,
    contextInjection: { kind: "conventionFile", target: "CLAUDE.md" },
    session: { assignArgs: ["--session-id", "{id}"], resumeArgs: ["--resume", "{id}"] },
  },
  { id: "fake-b", name: "Fake Codex", command: FAKE_AGENT, contextInjection: { kind: "conventionFile", target: "AGENTS.md" } },
];

/** Runs a cell header action: its button, or its item in the overflow menu of a narrow header. */
async function openAction(cell, action) {
  const button = cell.locator(`[data-testid="${action}"]`);
  if (await button.count()) return button.click();
  await cell.locator('[data-testid="cell-more"]').click();
  await cell.locator(`[data-testid="cell-menu-item"][data-action="${action}"]`).click();
}

describe("change engine", () => {
  let server;
  let page;
  const pageErrors = [];

  useWorkspace({ profiles, viewport: { width: 1400, height: 820 }, pageErrors }, (opened) => ({ server, page } = opened));

  it("moves a live agent to another engine with the handoff the user edited", async () => {
    const layouts = await rpc(page, "getLayouts");
    const layoutId = layouts.active;
    const nodeId = layouts.layouts.find((l) => l.id === layoutId).tree.id;
    const ada = await rpc(page, "createAgent", { name: "Ada", profileId: "fake" });
    const first = await rpc(page, "launchAgent", { layoutId, nodeId, agentId: ada.agentId, rows: 24, cols: 80 });
    await waitUntil(async () => (await cells(page)).some((c) => c.sessionId === first.sessionId), "the cell does not show Ada");
    const cell = page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
    await cell.locator('[data-testid="terminal"]').click();
    await page.keyboard.type("the parser is done\n");
    await waitUntil(async () => ((await terminalText(page, first.sessionId)) ?? "").includes("you said: the parser is done"), "Ada never answered");

    await openAction(cell, "cell-engine");
    const dialog = page.locator('[data-testid="engine-dialog"]');
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((e) => getComputedStyle(e).flexDirection), "column", "the dialog has no layout");
    const objective = dialog.locator('[data-testid="engine-objective"]');
    await waitUntil(async () => !(await objective.isDisabled()), "the handoff was never drafted");
    const offered = await dialog.locator('[data-testid="engine-profile"] option').allTextContents();
    assert.ok(offered.includes("Fake Codex") && !offered.includes("Fake Claude"), `offered: ${offered}`);
    assert.ok(offered.includes("Claude Code (not installed)"), `a missing CLI is not said so: ${offered}`);
    await dialog.locator('[data-testid="engine-profile"]').selectOption("fake-b");
    await objective.fill("Ship the --json flag");
    await dialog.locator('[data-testid="engine-summary"]').fill("The parser is done; the output is next.");
    await dialog.locator('[data-testid="engine-change"]').click();
    await dialog.waitFor({ state: "detached" });

    const second = await waitUntil(async () => {
      const now = (await cells(page)).find((c) => c.nodeId === nodeId);
      return now?.sessionId && now.sessionId !== first.sessionId ? now.sessionId : null;
    }, "Ada was not relaunched in her cell");
    const agents = await rpc(page, "listAgents");
    assert.equal(agents.find((a) => a.agentId === ada.agentId).profileId, "fake-b");
    const sessions = await rpc(page, "listSessions");
    assert.notEqual(sessions.find((s) => s.sessionId === second).engineSessionId, first.engineSessionId, "the old engine's id went to the new one");
    await waitUntil(async () => ((await terminalText(page, second)) ?? "").includes("fake>"), "the new engine did not start");
    const convention = await readFile(join(server.root, "project", ".ideai", "run", ada.agentId, "AGENTS.md"), "utf8");
    assert.match(convention, /# Conversation resume/);
    assert.match(convention, /Ship the --json flag/);
    assert.match(convention, /the output is next/);
  });

  it("sets what happens at a usage limit: a failover to another engine", async () => {
    const [ada] = await rpc(page, "listAgents");
    const nodeId = (await cells(page))[0].nodeId;
    const cell = page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
    await openAction(cell, "cell-limit-policy");
    const dialog = page.locator('[data-testid="limit-policy-dialog"]');
    await dialog.waitFor();
    assert.equal(await dialog.locator('[data-testid="limit-policy"]').inputValue(), "wait", "waiting is the default");
    await dialog.locator('[data-testid="limit-policy"]').selectOption("failOver:fake");
    const nudge = dialog.locator('[data-testid="resume-nudge"]');
    await waitUntil(async () => !(await nudge.isDisabled()), "the project's nudge never loaded");
    await nudge.fill("Carry on with the plan.");
    await dialog.locator('[data-testid="limit-policy-save"]').click();
    await dialog.waitFor({ state: "detached" });
    const saved = (await rpc(page, "listAgents")).find((a) => a.agentId === ada.agentId);
    assert.deepEqual(saved.onLimit, { kind: "failOver", profileId: "fake" });
    assert.equal((await rpc(page, "getProject")).resumeNudge, "Carry on with the plan.");
    // Shown again, the dialog says what was saved.
    await openAction(cell, "cell-limit-policy");
    await waitUntil(async () => (await dialog.locator('[data-testid="limit-policy"]').inputValue()) === "failOver:fake", "the saved policy is not shown");
    await dialog.locator('[data-testid="limit-policy-cancel"]').click();
    assert.deepEqual(pageErrors, []);
  });
});
