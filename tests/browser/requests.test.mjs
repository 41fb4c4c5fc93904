// Requests between agents in the UI: an ask runs a real JSON-mode turn of the fake Codex CLI
// (`fake-codex`, through the user's profiles.json), and the requests panel shows who asked
// whom (names, never ids), the source, the state going running → done, a live duration, and
// the question and answer on demand; the asked agent's cell shows "answering …" while it runs;
// a slow ask is cancelled from the panel; an ask that hits a usage limit waits for its reset
// and says until when; the panel's Ask form asks from the UI. One server and page, steps in
// order.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { builtinProfile, IDEA_BIN, launchBrowser, rpc, startServer, waitForConnection, waitUntil } from "./helpers.mjs";

const FAKE_CODEX = resolve(process.env.FAKE_CODEX ?? join(dirname(IDEA_BIN), "fake-codex"));

/** The built-in `codex` profile running `fake-codex`, each turn taking `delayMs`. */
function fakeCodex(codex, id, root, delayMs, env = {}) {
  const profile = structuredClone(codex);
  profile.id = id;
  profile.name = id;
  profile.command = FAKE_CODEX;
  delete profile.home; // no CLI home to trust folders in: the fake keeps its state below
  profile.env = { ...profile.env, FAKE_CLI_STATE: join(root, "fake-cli"), FAKE_CLI_DELAY_MS: String(delayMs), ...env };
  return profile;
}

describe("requests", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];
  const agents = {};
  let firstCell;

  const row = (requestId) => page.locator(`[data-testid="request-row"][data-request-id="${requestId}"]`);
  /** The newest request's id once `check(record)` holds for it in `listRequests`. */
  const requestWhere = (check, message) =>
    waitUntil(async () => (await rpc(page, "listRequests")).find(check)?.requestId, message);

  before(async () => {
    if (!existsSync(FAKE_CODEX)) throw new Error(`${FAKE_CODEX} not found: build it with \`cargo build -p idea-e2e --bins\``);
    const codex = await builtinProfile("codex");
    server = await startServer(null, {
      profiles: (root) => [fakeCodex(codex, "fake-codex", root, 4000), fakeCodex(codex, "fake-codex-slow", root, 120000),
        fakeCodex(codex, "fake-codex-limit", root, 0, { FAKE_CLI_FAIL: "limit" }),
      ],
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await waitForConnection(page, server);
    await page.locator('[data-testid="cell"]').first().waitFor();

    for (const [name, profileId] of [
      ["Reviewer", "fake-codex"],
      ["Sleeper", "fake-codex-slow"],
      ["Capped", "fake-codex-limit"],
    ]) {
      agents[name] = (await rpc(page, "createAgent", { name, profileId })).agentId;
    }
    // Reviewer is the first cell's agent (assigned, not running: a live terminal would be busy).
    const layouts = await rpc(page, "getLayouts");
    const layout = layouts.layouts.find((l) => l.id === layouts.active);
    firstCell = layout.tree.id;
    await rpc(page, "assignAgent", { agentId: agents.Reviewer, layoutId: layout.id, nodeId: firstCell });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows an ask running then done, with names, source, duration and the answer; the cell says it answers", async () => {
    await page.locator('[data-testid="toggle-requests"]').click();
    const panel = page.locator('[data-testid="requests-panel"]');
    await panel.waitFor();
    assert.equal(await page.locator('[data-testid="toggle-requests"]').getAttribute("aria-pressed"), "true");

    const answer = rpc(page, "askAgent", { target: "Reviewer", message: "hello there" });
    const requestId = await requestWhere((r) => r.target === agents.Reviewer, "the ask was not registered");
    const line = row(requestId);
    await line.and(page.locator('[data-state="running"]')).waitFor({ timeout: 5000 });
    assert.equal(await line.locator('[data-testid="request-from"]').textContent(), "You");
    assert.equal(await line.locator('[data-testid="request-to"]').textContent(), "Reviewer");
    assert.equal(await line.locator('[data-testid="request-source"]').textContent(), "UI");
    assert.equal(await line.locator('[data-testid="request-state"]').textContent(), "running");
    assert.equal(await page.locator('[data-testid="requests-active"]').textContent(), "1");

    // The asked agent's cell says whom it is answering, while it answers.
    const badge = page.locator(`[data-testid="cell"][data-node-id="${firstCell}"] [data-testid="cell-answering"]`);
    await badge.waitFor({ timeout: 2000 });
    assert.equal(await badge.textContent(), "answering you");

    // The running duration is live: it grows while nothing else changes.
    const duration = line.locator('[data-testid="request-duration"]');
    const first = await duration.textContent();
    await waitUntil(async () => (await duration.textContent()) !== first, "the running duration did not move", 3000);

    // Opening the row shows the question while it runs, then the answer.
    const toggle = line.locator('[data-testid="request-toggle"]');
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await line.locator('[data-testid="request-question"]').textContent(), "hello there");

    assert.equal((await answer).text, "echo: hello there");
    await line.and(page.locator('[data-state="done"]')).waitFor({ timeout: 5000 });
    assert.equal(await line.locator('[data-testid="request-answer"]').textContent(), "echo: hello there");
    assert.match(await duration.textContent(), /^\d+(\.\d)? s$/, "a finished request shows its duration");
    await badge.waitFor({ state: "detached", timeout: 2000 });
    assert.equal(await page.locator('[data-testid="requests-active"]').count(), 0);
    assert.equal(await line.locator('[data-testid="request-cancel"]').count(), 0, "a finished request has no Cancel");
  });

  it("cancels a slow ask from the panel; an agent's ask shows both names", async () => {
    const answer = rpc(page, "askAgent", { requester: agents.Reviewer, target: agents.Sleeper, message: "take your time" }).then(
      () => "answered",
      (error) => error.message,
    );
    const requestId = await requestWhere((r) => r.target === agents.Sleeper, "the slow ask was not registered");
    const line = row(requestId);
    await line.and(page.locator('[data-state="running"]')).waitFor({ timeout: 5000 });
    assert.equal(await line.locator('[data-testid="request-from"]').textContent(), "Reviewer");
    assert.equal(await line.locator('[data-testid="request-to"]').textContent(), "Sleeper");
    assert.equal(await line.locator('[data-testid="request-source"]').textContent(), "MCP");
    const rows = await page.locator('[data-testid="request-row"]').evaluateAll((els) => els.map((e) => e.dataset.requestId));
    assert.equal(rows[0], requestId, "newest first");

    // Keyboard: Tab reaches the Cancel button, whose name says which request it cancels.
    const cancel = line.locator('[data-testid="request-cancel"]');
    assert.equal(await cancel.getAttribute("aria-label"), "Cancel Reviewer's request to Sleeper");
    await line.locator('[data-testid="request-toggle"]').focus();
    await page.keyboard.press("Tab");
    assert.equal(await cancel.evaluate((el) => el === document.activeElement), true, "Cancel is next in tab order");
    await page.keyboard.press("Enter");

    await line.and(page.locator('[data-state="cancelled"]')).waitFor({ timeout: 10000 });
    assert.match(await answer, /CANCELLED/);
    await line.locator('[data-testid="request-toggle"]').click();
    await line.locator('[data-testid="request-error"]').waitFor();
    assert.equal(await cancel.count(), 0);
  });

  it("an ask that hits a usage limit waits for the reset, says until when, and can be cancelled", async () => {
    const answer = rpc(page, "askAgent", { requester: "user", target: agents.Capped, message: "over the limit" }).then(
      () => "answered",
      (error) => error.message,
    );
    const requestId = await requestWhere((r) => r.target === agents.Capped && r.state === "waitingForLimit", "the ask did not wait for the limit");
    const record = (await rpc(page, "listRequests")).find((r) => r.requestId === requestId);
    assert.ok(record.limitResetsAt * 1000 > Date.now(), `the reset is not ahead: ${record.limitResetsAt}`);
    const line = row(requestId);
    await line.and(page.locator('[data-state="waitingForLimit"]')).waitFor();
    assert.equal(await line.locator('[data-testid="request-state"]').textContent(), "waiting for limit");
    await line.locator('[data-testid="request-toggle"]').click();
    assert.match(await line.locator('[data-testid="request-progress"]').textContent(), /^Waiting for Capped's usage limit \(resets .*\d\d.*\): asked again then\.$/);
    const style = await line.locator('[data-testid="request-state"]').evaluate((el) => getComputedStyle(el).color);
    const dim = await line.locator('[data-testid="request-duration"]').evaluate((el) => getComputedStyle(el).color);
    assert.notEqual(style, dim, "the waiting state is not told apart");
    await line.locator('[data-testid="request-cancel"]').click();
    await line.and(page.locator('[data-state="cancelled"]')).waitFor({ timeout: 10000 });
    assert.match(await answer, /CANCELLED/);
  });

  it("asks from the panel's Ask form", async () => {
    const form = page.locator('[data-testid="ask-form"]');
    await form.locator('[data-testid="ask-target"]').selectOption({ label: "Reviewer" });
    await form.locator('[data-testid="ask-message"]').fill("from the form");
    await form.locator('[data-testid="ask-submit"]').click();
    const requestId = await requestWhere((r) => r.message === "from the form", "the form's ask was not registered");
    const line = row(requestId);
    await line.and(page.locator('[data-state="done"]')).waitFor({ timeout: 15000 });
    await line.locator('[data-testid="request-toggle"]').click();
    assert.equal(await line.locator('[data-testid="request-answer"]').textContent(), "echo: from the form");
    assert.deepEqual(pageErrors, [], "no uncaught errors in the page");
  });
});
