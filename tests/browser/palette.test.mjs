// The command palette (Ctrl+Shift+P and the top bar's button) and Alt+1…9: split, launch an
// agent here, go to an agent, new agent, and jumping to the n-th cell — all by keyboard; and
// the sessions overview (every session, its last line, a jump to it).

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { cells, rpc, useWorkspace, waitUntil } from "./helpers.mjs";

describe("command palette", () => {
  let server;
  let page;
  const pageErrors = [];

  const palette = (page) => page.locator('[data-testid="command-palette"]');
  const runCommand = async (text) => {
    await page.keyboard.press("Control+Shift+P");
    await palette(page).waitFor();
    await page.locator('[data-testid="palette-input"]').fill(text);
    await page.keyboard.press("Enter");
    await palette(page).waitFor({ state: "detached" });
  };

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ server, page } = opened));

  before(async () => {
    for (const name of ["Scout", "Critic"]) {
      await page.locator('[data-testid="agent-new"]').click();
      await page.locator('[data-testid="create-agent-name"]').fill(name);
      await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
      await page.locator('[data-testid="create-agent-submit"]').click();
      await page.locator(`[data-testid="picker-agent"][data-agent-name="${name}"]`).waitFor();
    }
  });

  it("splits the focused cell and launches an agent in it, by name", async () => {
    const [first] = await cells(page);
    await page.locator(`[data-testid="cell"][data-node-id="${first.nodeId}"]`).click();
    await runCommand("split right");
    await waitUntil(async () => (await cells(page)).length === 2, "no second cell");
    const second = (await cells(page))[1];
    await waitUntil(async () => (await cells(page))[1].focused, "focus did not follow the split");
    await runCommand("launch critic");
    // The session and the layout's leaf (which names the agent) arrive as separate events.
    await waitUntil(async () => {
      const cell = (await cells(page)).find((c) => c.nodeId === second.nodeId);
      return cell?.sessionId && cell.agentId;
    }, "Critic did not start in the new cell");
  });

  it("opens the agent's engine and usage-limit dialogs", async () => {
    const critic = (await cells(page))[1];
    await page.locator(`[data-testid="cell"][data-node-id="${critic.nodeId}"] [data-testid="cell-header"]`).click({ position: { x: 4, y: 4 } });
    await runCommand("change the agent's engine");
    await page.locator('[data-testid="engine-dialog"]').waitFor();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="engine-dialog"]').waitFor({ state: "detached" });
    await runCommand("usage limit");
    await page.locator('[data-testid="limit-policy-dialog"]').waitFor();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="limit-policy-dialog"]').waitFor({ state: "detached" });
  });

  it("filters, moves with the arrows, and Escape closes without acting", async () => {
    await page.locator('[data-testid="open-palette"]').click();
    await palette(page).waitFor();
    await page.locator('[data-testid="palette-input"]').fill("layout");
    const options = page.locator('[data-testid="palette-list"] [role="option"]');
    assert.ok((await options.count()) >= 1);
    for (const text of await options.allTextContents()) assert.match(text.toLowerCase(), /layout/);
    await page.keyboard.press("Escape");
    await palette(page).waitFor({ state: "detached" });
  });

  it("Alt+1…9 jumps to the n-th cell and 'Go to' finds a running agent", async () => {
    const [first, second] = await cells(page);
    await page.keyboard.press("Alt+1");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === first.nodeId)?.focused, "Alt+1 did not focus the first cell");
    await page.keyboard.press("Alt+2");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "Alt+2 did not focus the second cell");
    await page.keyboard.press("Alt+1");
    await runCommand("go to critic");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "'Go to Critic' did not focus its cell");
  });

  it("the sessions overview lists sessions across layouts with their last line, and jumps", async () => {
    const [first, second] = await cells(page);
    await page.keyboard.press("Alt+1");
    await page.locator('[data-testid="toggle-overview"]').click();
    const rows = page.locator('[data-testid="session-row"]');
    await waitUntil(async () => (await rows.count()) === 1, "one session (Critic) expected");
    const row = rows.first();
    assert.match((await row.getAttribute("aria-label")) ?? "", /Go to Critic/);
    await waitUntil(async () => ((await row.locator('[data-testid="session-last-line"]').textContent()) ?? "").length > 0, "no last line");
    await row.click();
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === second.nodeId)?.focused, "the row did not jump to Critic's cell");
    assert.ok(first.nodeId !== second.nodeId);
    await page.locator('[data-testid="toggle-overview"]').click();
  });

  it("opens the new agent form", async () => {
    await runCommand("new agent");
    await page.locator('[data-testid="create-agent-name"]').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});

describe("cell numbers", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  const cellBox = (nodeId) => page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
  const splitCell = async (nodeId, command) => {
    const before = (await cells(page)).length;
    await cellBox(nodeId).locator('[data-testid="cell-header"]').click({ position: { x: 4, y: 4 } });
    await page.keyboard.press("Control+Shift+P");
    await page.locator('[data-testid="palette-input"]').fill(command);
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await cells(page)).length === before + 1, `no new cell after ${command}`);
  };

  it("numbers a 2×2 grid's cells in reading order, shows the number, and Alt+n follows it", async () => {
    const [a] = await cells(page);
    await splitCell(a.nodeId, "split right");
    const b = (await cells(page)).find((c) => c.nodeId !== a.nodeId);
    // Split the left column first, so that the tree's order (A, C, B, D) differs from reading order.
    await splitCell(a.nodeId, "split down");
    await splitCell(b.nodeId, "split down");
    const boxes = await page.$$eval('[data-testid="cell"]', (elements) =>
      elements.map((e) => {
        const r = e.getBoundingClientRect();
        return { nodeId: e.dataset.nodeId, top: Math.round(r.top), left: Math.round(r.left) };
      }),
    );
    const reading = [...boxes].sort((p, q) => p.top - q.top || p.left - q.left).map((box) => box.nodeId);
    assert.notDeepEqual(reading, boxes.map((box) => box.nodeId), "the grid's DOM order already is reading order: the test proves nothing");
    for (const [index, nodeId] of reading.entries()) {
      const number = cellBox(nodeId).locator('[data-testid="cell-number"]');
      assert.equal((await number.textContent())?.trim(), String(index + 1), `cell ${index + 1} shows the wrong number`);
      assert.ok(await number.isVisible(), `cell ${index + 1}'s number is hidden`);
    }
    for (const [index, nodeId] of reading.entries()) {
      await page.keyboard.press(`Alt+${index + 1}`);
      await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === nodeId)?.focused, `Alt+${index + 1} did not focus cell ${index + 1} (reading order)`);
    }
    assert.deepEqual(pageErrors, []);
  });
});

describe("every action in the palette", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  const palette = () => page.locator('[data-testid="command-palette"]');
  const runCommand = async (text) => {
    await page.keyboard.press("Control+Shift+P");
    await palette().waitFor();
    await page.locator('[data-testid="palette-input"]').fill(text);
    const first = page.locator('[data-testid="palette-list"] [role="option"]').first();
    await waitUntil(async () => (await first.count()) > 0 && !/No command/.test(await first.textContent()), `no command matches "${text}"`);
    await page.keyboard.press("Enter");
    await palette().waitFor({ state: "detached" });
  };
  const confirmIfAsked = async () => {
    const ok = page.locator('[data-testid="confirm-ok"]');
    await ok.waitFor({ timeout: 10000 });
    await ok.click();
  };
  const tabs = () => page.locator('[data-testid="tab"]');
  const shown = (testId) => page.locator(`[data-testid="${testId}"]`).isVisible();

  it("layouts: new, rename, delete", async () => {
    await runCommand("new layout");
    await waitUntil(async () => (await tabs().count()) === 2, "no new layout");
    await runCommand("rename layout");
    const input = page.locator('[data-testid="tab-rename-input"]');
    await input.waitFor();
    await input.fill("Renamed");
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await tabs().allTextContents()).some((t) => t.includes("Renamed")), "not renamed");
    await runCommand("delete layout");
    await confirmIfAsked();
    await waitUntil(async () => (await tabs().count()) === 1, "the layout was not deleted");
  });

  it("a cell: zoom, find, restart, stop", async () => {
    await page.locator('[data-testid="cell-header"]').first().click({ position: { x: 4, y: 4 } });
    await runCommand("split right");
    await waitUntil(async () => (await cells(page)).length === 2, "no second cell");
    await runCommand("open a shell here");
    const session = await waitUntil(async () => (await cells(page)).find((c) => c.focused)?.sessionId, "no shell in the focused cell");
    const cellNode = (await cells(page)).find((c) => c.sessionId === session).nodeId;
    const rpcSession = async () => {
      const here = (await rpc(page, "listSessions", null)).filter((s) => s.cell?.nodeId === cellNode);
      return here.find((s) => s.status === "running") ?? here.at(-1);
    };
    const first = await waitUntil(async () => (await rpcSession())?.pid, "no pid");

    await runCommand("zoom");
    await waitUntil(async () => (await cells(page)).length === 1, "not zoomed");
    await runCommand("restore the layout");
    await waitUntil(async () => (await cells(page)).length === 2, "not restored");

    await page.locator(`[data-testid="cell"][data-node-id="${cellNode}"] [data-testid="cell-header"]`).click({ position: { x: 4, y: 4 } });
    await runCommand("find");
    await page.locator(`[data-testid="cell"][data-node-id="${cellNode}"] [data-testid="search-bar"]`).waitFor();
    await page.keyboard.press("Escape");

    await runCommand("restart");
    await confirmIfAsked();
    await waitUntil(async () => {
      const now = await rpcSession();
      return now?.status === "running" && now.pid !== first;
    }, "not restarted", 20000);
    await runCommand("stop");
    await confirmIfAsked();
    await waitUntil(async () => (await rpcSession())?.status === "exited", "not stopped", 20000);
  });

  it("panels: sessions, requests, permissions, agents", async () => {
    await runCommand("sessions overview");
    await waitUntil(() => shown("sessions-overview"), "no sessions overview");
    await runCommand("requests");
    await waitUntil(() => shown("requests-panel"), "no requests panel");
    await runCommand("permissions");
    await waitUntil(() => shown("permissions-panel"), "no permissions panel");
    await runCommand("show agents");
    await waitUntil(() => shown("agent-new"), "no agents panel");
    assert.deepEqual(pageErrors, []);
  });
});
