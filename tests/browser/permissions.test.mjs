// The permissions view of the side panel: both files with ALLOW / ASK / DENY badges and the
// warnings, adding and removing a rule in the project's file, a hand edit picked up by Reload.

import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { launchBrowser, startServer, waitUntil } from "./helpers.mjs";

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

    await page.locator('[data-testid="perm-rule"]', { hasText: "bash(oops)" }).hover();
    await page.locator('[aria-label="Remove bash(oops)"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="perm-warning"]').count()) === 0, "the warning stays");
    assert.deepEqual((await projectRules()).deny, ["Bash(rm *)"]);
  });

  it("saves an invalid rule and says why it is skipped", async () => {
    await page.locator('[data-testid="perm-add-kind"]').selectOption("allow");
    await page.locator('[data-testid="perm-add-rule"]').fill("Edit(src/[)");
    await page.locator('[data-testid="perm-add-submit"]').click();
    const warning = page.locator('[data-testid="perm-warning"]');
    await warning.waitFor();
    assert.match(await warning.textContent(), /Edit\(src\/\[\).*invalid path pattern/);
    assert.equal(await file("project").locator(".perm-invalid").count(), 1);
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
