// The permissions view of the side panel: both files with ALLOW / ASK / DENY badges and the
// warnings, adding and removing a rule in the project's file (the remove buttons shown and
// reached by Tab), an invalid rule refused by name with nothing written, the note that running
// agents keep their sandbox until restarted and its restart, a hand edit picked up by Reload.

import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { launchBrowser, rpc, startServer, waitUntil } from "./helpers.mjs";

describe("permissions", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];

  const projectFile = () => join(server.projectDir, ".ideai/permissions.json");
  const projectRules = async () => JSON.parse(await readFile(projectFile(), "utf8")).permissions;
  const file = (scope) => page.locator(`[data-testid="perm-file"][data-scope="${scope}"]`);
  const rulesOf = (scope, kind) =>
    file(scope).locator(`[data-testid="perm-kind-${kind}"] [data-testid="perm-rule"] code`).allTextContents();

  before(async () => {
    server = await startServer();
    await writeFile(
      join(server.root, "user/permissions.json"),
      JSON.stringify({ permissions: { allow: ["Bash(git *)", "Read(src/**)"] } }),
    );
    await writeFile(projectFile(), JSON.stringify({ permissions: { deny: ["Bash(rm *)", "bash(oops)"] } }));
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(server.url);
    await page.locator('[data-testid="side-tab-permissions"]').click();
    await page.locator('[data-testid="permissions-panel"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows each file's rules under their badges, and the warnings", async () => {
    await waitUntil(async () => (await rulesOf("user", "allow")).length === 2, "the user's rules are not shown");
    assert.deepEqual(await rulesOf("user", "allow"), ["Bash(git *)", "Read(src/**)"]);
    assert.deepEqual(await rulesOf("project", "deny"), ["Bash(rm *)", "bash(oops)"]);
    // Only the families that have rules get a badge.
    assert.deepEqual(await file("user").locator('[data-testid="perm-badge"]').allTextContents(), ["ALLOW"]);
    assert.deepEqual(await file("project").locator('[data-testid="perm-badge"]').allTextContents(), ["DENY"]);
    const warning = await page.locator('[data-testid="perm-warning"]').textContent();
    assert.match(warning, /bash\(oops\)/);
    assert.match(warning, /did you mean "Bash"/);
    // The user's file is not edited from IdeA.
    assert.equal(await file("user").locator('[data-testid="perm-remove"]').count(), 0);
  });

  it("adds and removes rules in the project's file", async () => {
    await page.locator('[data-testid="perm-add-kind"]').selectOption("ask");
    await page.locator('[data-testid="perm-add-rule"]').fill("Bash(npm *)");
    await page.locator('[data-testid="perm-add-submit"]').click();
    await waitUntil(async () => (await rulesOf("project", "ask")).includes("Bash(npm *)"), "the added rule is not shown");
    assert.equal(await page.locator('[data-testid="perm-add-rule"]').inputValue(), "");
    assert.deepEqual((await projectRules()).ask, ["Bash(npm *)"]);
    assert.deepEqual(
      await file("project").locator('[data-testid="perm-badge"]').allTextContents(),
      ["ASK", "DENY"],
    );

    // Reachable without a mouse: shown, and focused by Tab from the rule before it.
    const remove = page.locator('[aria-label="Remove bash(oops)"]');
    assert.ok(await remove.isVisible(), "the remove button is hidden until hovered");
    await page.locator('[aria-label="Remove Bash(rm *)"]').focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Remove bash(oops)");
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await page.locator('[data-testid="perm-warning"]').count()) === 0, "the warning stays");
    assert.deepEqual((await projectRules()).deny, ["Bash(rm *)"]);
  });

  it("refuses an invalid rule by name and writes nothing", async () => {
    const before = await readFile(projectFile(), "utf8");
    for (const bad of ["Bash(rm -rf", "Edit(src/[)"]) {
      await page.locator('[data-testid="perm-add-kind"]').selectOption("deny");
      await page.locator('[data-testid="perm-add-rule"]').fill(bad);
      await page.locator('[data-testid="perm-add-submit"]').click();
      const error = page.locator('[data-testid="perm-error"]');
      await waitUntil(async () => ((await error.textContent()) ?? "").includes(bad), `the error does not name ${bad}`);
      assert.equal(await page.locator('[data-testid="perm-add-rule"]').inputValue(), bad, "the typed rule is lost");
      assert.equal(await readFile(projectFile(), "utf8"), before, `${bad} was written`);
      assert.equal(await page.locator('[data-testid="perm-warning"]').count(), 0);
    }
    await page.locator('[data-testid="perm-add-rule"]').fill("");
  });

  it("says running agents keep their sandbox until restarted, and restarts them", async () => {
    const agent = await rpc(page, "createAgent", { name: "Keeper", profileId: "shell" });
    const layouts = await rpc(page, "getLayouts", {});
    const layout = layouts.layouts[0];
    const started = await rpc(page, "launchAgent", { agentId: agent.agentId, layoutId: layout.id, nodeId: layout.tree.id, rows: 24, cols: 80 });
    await page.locator('[data-testid="perm-add-kind"]').selectOption("deny");
    await page.locator('[data-testid="perm-add-rule"]').fill("Read(./secret)");
    await page.locator('[data-testid="perm-add-submit"]').click();
    const note = page.locator('[data-testid="perm-restart-note"]');
    await waitUntil(async () => ((await note.textContent()) ?? "").includes("Keeper"), "no note naming the running agent");
    assert.match(await note.textContent(), /until restarted/);
    await note.locator('[data-testid="perm-restart"]').click();
    await waitUntil(async () => {
      const sessions = await rpc(page, "listSessions", {});
      const running = sessions.find((s) => s.agentId === agent.agentId && s.status === "running");
      return running && running.pid !== started.pid;
    }, "the agent was not restarted", 20000);
    await waitUntil(async () => (await note.count()) === 0, "the note stays after the restart");
  });

  it("reads a hand edit again on Reload", async () => {
    await writeFile(projectFile(), JSON.stringify({ permissions: { deny: ["WebFetch(domain:*.example.org)"] } }));
    await page.locator('[data-testid="perm-reload"]').click();
    await waitUntil(
      async () => (await rulesOf("project", "deny")).join() === "WebFetch(domain:*.example.org)",
      "the hand edit is not shown",
    );
    await page.screenshot({ path: process.env.IDEA_PERMISSIONS_SCREENSHOT ?? "/tmp/idea-permissions.png" });
    // Back to the agents.
    await page.locator('[data-testid="side-tab-agents"]').click();
    await page.locator('[data-testid="agent-new"]').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
