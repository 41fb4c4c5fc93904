// The agent picker marks an agent whose CLI is not installed, with the profile's install hint
// (the same one `idea doctor` prints), instead of sending the user to a command line after a
// failed launch. The test server's PATH has no `claude`. Nothing that cannot run is offered
// (no Chat for it, not the new-agent form's default) and an ask that fails for it reads in
// words, not as its error code.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rpc, useWorkspace, waitUntil } from "./helpers.mjs";

describe("missing CLIs", () => {
  let server;
  let page;

  useWorkspace({}, (opened) => ({ server, page } = opened));

  it("marks the agent in the picker with the install hint; a shell agent is not marked", async () => {
    const answer = await rpc(page, "listProfiles", null);
    assert.ok(answer.missing.includes("claude-code"), `claude should be missing here: ${answer.missing}`);
    assert.ok(!answer.missing.includes("shell"));
    await rpc(page, "createAgent", { name: "Writer", profileId: "claude-code" });
    await rpc(page, "createAgent", { name: "Terminal", profileId: "shell" });
    await page.reload();
    const writer = page.locator('[data-testid="picker-agent"][data-agent-name="Writer"]');
    await writer.waitFor();
    assert.equal(await writer.getAttribute("data-missing"), "true");
    const hint = page.locator('[data-testid="picker-install"]');
    assert.match((await hint.textContent()) ?? "", /npm install -g @anthropic-ai\/claude-code/);
    assert.equal(await page.locator('[data-testid="picker-agent"][data-agent-name="Terminal"]').getAttribute("data-missing"), "false");
  });

  it("offers no chat with it, reads its failed ask in words, and the new-agent form defaults to an installed profile", async () => {
    const writer = page.locator('[data-testid="picker-agent"][data-agent-name="Writer"]').locator("xpath=ancestor::li[1]");
    await writer.waitFor();
    assert.equal(await writer.locator('[data-testid="picker-chat"]').count(), 0, "Chat is offered for an agent that is not installed");

    const failed = await rpc(page, "askAgent", { target: "Writer", message: "hello?" }).then(
      () => null,
      (error) => error.message,
    );
    assert.match(failed ?? "", /COMMAND_NOT_FOUND/, "the ask did not fail for the missing CLI");
    await page.locator('[data-testid="toggle-requests"]').click();
    const line = page.locator('[data-testid="request-row"]').first();
    await line.waitFor();
    await line.locator('[data-testid="request-toggle"]').click();
    const detail = line.locator('[data-testid="request-detail"]');
    await waitUntil(async () => /not installed/.test((await detail.textContent()) ?? ""), "the failure does not say the CLI is not installed");
    assert.doesNotMatch((await detail.textContent()) ?? "", /COMMAND_NOT_FOUND/);
    await page.locator('[data-testid="toggle-requests"]').click();

    // A fresh browser: no remembered profile.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.locator('[data-testid="agent-new"]').click();
    const select = page.locator('[data-testid="create-agent-profile"]');
    await select.waitFor();
    const { missing } = await rpc(page, "listProfiles", null);
    await waitUntil(async () => (await select.inputValue()) !== "", "no default profile");
    assert.ok(!missing.includes(await select.inputValue()), `the form defaults to ${await select.inputValue()}, which is not installed`);
    const labels = await select.locator("option").evaluateAll((options) => options.map((o) => [o.value, o.textContent]));
    for (const [value, label] of labels) {
      if (missing.includes(value)) assert.match(label, /not installed/, `${value} is not marked as not installed`);
    }
  });
});
