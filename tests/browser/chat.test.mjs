// A chat cell: a JSON-mode session with an agent (the fake Codex CLI through the user's
// profiles.json) in a cell. A message typed in the cell runs one turn as the user; its answer,
// tool call and usage appear as they come; the second message continues the same Codex thread
// (`exec resume <thread>`, read from the fake's calls.jsonl). One server and page, in order.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { builtinProfile, IDEA_BIN, launchBrowser, rpc, startServer, waitForConnection, waitUntil } from "./helpers.mjs";

const FAKE_CODEX = resolve(process.env.FAKE_CODEX ?? join(dirname(IDEA_BIN), "fake-codex"));

describe("chat cell", () => {
  let server;
  let browser;
  let page;
  let state;
  const pageErrors = [];

  /** The fake's recorded starts, as parsed lines. */
  const calls = () =>
    existsSync(join(state, "calls.jsonl"))
      ? readFileSync(join(state, "calls.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line))
      : [];

  before(async () => {
    if (!existsSync(FAKE_CODEX)) throw new Error(`${FAKE_CODEX} not found: build it with \`cargo build -p idea-e2e --bins\``);
    const codex = await builtinProfile("codex");
    server = await startServer(null, {
      profiles: (root) => {
        state = join(root, "fake-cli");
        const profile = structuredClone(codex);
        profile.id = "fake-codex";
        profile.name = "fake-codex";
        profile.command = FAKE_CODEX;
        delete profile.home; // no CLI home to trust folders in: the fake keeps its state below
        profile.env = { ...profile.env, FAKE_CLI_STATE: state, FAKE_CLI_DELAY_MS: "300", FAKE_CLI_TOOL: "idea_list_agents" };
        return [profile];
      },
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await waitForConnection(page, server);
    await rpc(page, "createAgent", { name: "Coder", profileId: "fake-codex" });
    await rpc(page, "createAgent", { name: "Plain", profileId: "shell" });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("offers Chat only for agents with a JSON mode", async () => {
    const coder = page.locator('[data-testid="picker-agent"][data-agent-name="Coder"]');
    await coder.waitFor();
    const entry = (name) => page.locator(".picker-entry", { has: page.locator(`[data-agent-name="${name}"]`) });
    assert.equal(await entry("Coder").locator('[data-testid="picker-chat"]').count(), 1);
    assert.equal(await entry("Plain").locator('[data-testid="picker-chat"]').count(), 0);
  });

  it("answers a message typed in the cell, with its tool call and usage, then continues the thread", async () => {
    await page.locator(".picker-entry", { has: page.locator('[data-agent-name="Coder"]') }).locator('[data-testid="picker-chat"]').click();
    const chat = page.locator('[data-testid="chat"]');
    await chat.waitFor();
    const input = chat.locator('[data-testid="chat-message"]');
    await input.fill("first question");
    await input.press("Enter");

    const first = chat.locator('[data-testid="chat-turn"]').nth(0);
    await first.locator('[data-testid="chat-question"]', { hasText: "first question" }).waitFor();
    await first.locator('[data-testid="chat-answer"]', { hasText: "echo: first question" }).waitFor({ timeout: 15000 });
    await first.and(page.locator('[data-state="done"]')).waitFor();
    await first.locator('[data-testid="chat-tool"]', { hasText: "idea_list_agents" }).waitFor();
    await first.locator('[data-testid="chat-usage"]').first().waitFor();

    await input.fill("second question");
    await chat.locator('[data-testid="chat-send"]').click();
    const second = chat.locator('[data-testid="chat-turn"]').nth(1);
    await second.locator('[data-testid="chat-answer"]', { hasText: "echo: second question" }).waitFor({ timeout: 15000 });

    // The second turn resumed the thread the first one started.
    const turns = await waitUntil(async () => (calls().length >= 2 ? calls() : null), "the fake recorded no second call");
    const firstArgs = turns[0].args;
    const secondArgs = turns[1].args;
    assert.ok(!firstArgs.includes("resume"), JSON.stringify(firstArgs));
    const at = secondArgs.indexOf("resume");
    assert.ok(at > 0, JSON.stringify(secondArgs));
    assert.match(secondArgs[at + 1], /^[0-9a-f-]{36}$/, "a thread id");
    const record = (await rpc(page, "listRequests")).find((r) => r.message === "first question");
    assert.equal(record.requester, "user");
    assert.equal(record.source, "ui");
    assert.deepEqual(pageErrors, []);
  });

  it("keeps the conversation when the chat is closed and opened again", async () => {
    await page.locator('[data-testid="chat-close"]').click();
    await page.locator(".picker-entry", { has: page.locator('[data-agent-name="Coder"]') }).locator('[data-testid="picker-chat"]').click();
    const turns = page.locator('[data-testid="chat"] [data-testid="chat-turn"]');
    await waitUntil(async () => (await turns.count()) === 2, "the history did not come back");
    await turns.nth(0).locator('[data-testid="chat-answer"]', { hasText: "echo: first question" }).waitFor();
  });
});
