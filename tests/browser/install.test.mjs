// The agent picker marks an agent whose CLI is not installed, with the profile's install hint
// (the same one `idea doctor` prints), instead of sending the user to a command line after a
// failed launch. The test server's PATH has no `claude`.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rpc, useWorkspace } from "./helpers.mjs";

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
});
