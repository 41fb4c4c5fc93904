// One owner per project: with `idea serve` running, `idea agent create` in a terminal goes
// through the server, and the agent appears in the open page at once, without a reload.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { IDEA_BIN, useWorkspace } from "./helpers.mjs";

const run = promisify(execFile);

describe("owner", () => {
  let server;
  let page;

  useWorkspace({}, (opened) => ({ server, page } = opened));

  it("shows an agent the command line created, without a reload", async () => {
    let reloaded = false;
    page.on("framenavigated", () => {
      reloaded = true;
    });
    const userDir = join(server.root, "user");
    const { stdout } = await run(
      IDEA_BIN,
      ["agent", "create", "--name", "Reviewer", "--profile", "shell", "--project", server.projectDir],
      { env: { ...process.env, IDEA_USER_DIR: userDir, HOME: userDir } },
    );
    assert.match(stdout, /Created Reviewer/);
    await page.locator('[data-testid="picker-agent"][data-agent-name="Reviewer"]').waitFor({ timeout: 5000 });
    assert.equal(reloaded, false, "the page was not reloaded");
  });
});
