// What a project shares with every agent, in the side panel's Shared tab: a skill created in the
// UI (its SKILL.md on disk), given to an agent and listed on it, edited as raw SKILL.md, a found
// one adopted, a broken one listed with its path; a memory entry written and found by a search;
// the shared context edited and saved (the file checked on disk, a reload with unsaved text
// asks first); a project tool written on disk listed with its parameter and run from the UI,
// its output shown and its run listed. An agent's tool call that waits for the user (made with
// `callTool {agent}`, the path an agent's MCP call takes) shows a prompt over the window and in
// the agent's cell: Later folds it, a new call unfolds it, Allow once runs it, Deny refuses it,
// on a phone too (touch-sized, within the screen). The palette shows each view. Each panel's
// layout is read from computed styles, so a dead stylesheet fails here.

import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, openWorkspace, rpc, startServer, waitForConnection, waitUntil } from "./helpers.mjs";

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };

/** The computed values of `properties` of the first element matching `selector`. */
const styleOf = (page, selector, properties) =>
  page.locator(selector).first().evaluate(
    (element, names) => Object.fromEntries(names.map((name) => [name, getComputedStyle(element).getPropertyValue(name)])),
    properties,
  );

describe("shared with every agent", () => {
  let server;
  let browser;
  let page;
  let ada;
  const pageErrors = [];

  const file = (path) => readFile(join(server.projectDir, path), "utf8");
  const write = async (path, text) => {
    await mkdir(join(server.projectDir, path, ".."), { recursive: true });
    await writeFile(join(server.projectDir, path), text);
  };
  const section = async (name) => {
    await page.locator('[data-testid="side-tab-shared"]').click();
    await page.locator(`[data-testid="shared-${name}"]`).click();
  };
  const skillRow = (name, source = "project") => page.locator(`[data-testid="skill-group"][data-source="${source}"] [data-testid="skill-row"][data-skill="${name}"]`);

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await openWorkspace(context, server, pageErrors);
    ada = await rpc(page, "createAgent", { name: "Ada", profileId: "shell" });
    await rpc(page, "createAgent", { name: "Bob", profileId: "shell" });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("creates a skill, gives it to an agent, edits and deletes it; adopts a found one; lists a broken one", async () => {
    await write(".claude/skills/found-one/SKILL.md", "---\nname: found-one\ndescription: Found in the Claude folder\n---\nDo it.\n");
    await write(".ideai/skills/broken/SKILL.md", "no front matter at all\n");
    await section("skills");
    const panel = page.locator('[data-testid="skills-panel"]');
    await panel.waitFor();
    assert.match(await panel.innerText(), /Claude Code agents also load this project's own \.claude\/skills/);

    await page.locator('[data-testid="skill-new"]').click();
    await page.locator('[data-testid="skill-create-name"]').fill("run-tests");
    await page.locator('[data-testid="skill-create-description"]').fill("Runs the test suite. Use before a commit.");
    assert.equal(await page.locator('[data-testid="skill-create-count"]').innerText(), "41/1024");
    await page.locator('[data-testid="skill-create-body"]').fill("Run `make test` and read the failures.");
    await page.locator('[data-testid="skill-create-submit"]').click();
    const row = skillRow("run-tests");
    await row.waitFor();
    assert.match(await file(".ideai/skills/run-tests/SKILL.md"), /description: "?Runs the test suite\. Use before a commit\."?\n[\s\S]*make test/);
    assert.match(await row.locator('[data-testid="skill-holders"]').innerText(), /No agent has it/);

    // Given to Ada: listed on the skill, on Ada's row, and in her manifest entry.
    await row.locator('[data-testid="skill-assign-toggle"]').click();
    await row.locator('[data-testid="skill-assign"][data-agent="Ada"]').click();
    await waitUntil(async () => (await row.locator('[data-testid="skill-assign"][data-agent="Ada"]').getAttribute("aria-pressed")) === "true", "Ada's chip is not on");
    assert.equal(await row.locator('[data-testid="skill-assign"][data-agent="Bob"]').getAttribute("aria-pressed"), "false");
    assert.equal(await row.locator('[data-testid="skill-holders"]').innerText(), "Given to Ada");
    const agents = await rpc(page, "listAgents", {});
    assert.deepEqual(agents.find((a) => a.name === "Ada").skills, [{ scope: "project", skillId: "run-tests" }]);

    // The found skill is listed under its folder, to adopt; the broken one with its path.
    assert.equal(await skillRow("found-one", "claudeFolder").count(), 1);
    const problems = page.locator('[data-testid="skill-problems"]');
    assert.match(await problems.innerText(), /\.ideai\/skills\/broken\/SKILL\.md/);
    await skillRow("found-one", "claudeFolder").locator('[data-testid="skill-adopt"]').click();
    await skillRow("found-one").waitFor();
    assert.match(await file(".ideai/skills/found-one/SKILL.md"), /Found in the Claude folder/);

    // The raw SKILL.md, edited and saved.
    await row.locator('[data-testid="skill-edit"]').click();
    const text = row.locator('[data-testid="skill-editor-text"]');
    await waitUntil(async () => (await text.inputValue()).includes("description:"), "SKILL.md did not load");
    await text.fill((await text.inputValue()).replace("Runs the test suite.", "Runs every test."));
    await row.locator('[data-testid="skill-editor-save"]').click();
    await waitUntil(async () => (await file(".ideai/skills/run-tests/SKILL.md")).includes("Runs every test."), "the edit was not saved");
    await waitUntil(async () => (await row.locator(".skill-desc").innerText()).includes("Runs every test."), "the list shows the old description");

    const rowStyle = await styleOf(page, '[data-testid="skill-row"]', ["display", "flex-direction", "border-top-style"]);
    assert.deepEqual([rowStyle.display, rowStyle["flex-direction"], rowStyle["border-top-style"]], ["flex", "column", "solid"]);
    const chip = await styleOf(page, '[data-testid="skill-assign"][aria-pressed="true"]', ["border-top-left-radius"]);
    assert.equal(chip["border-top-left-radius"], "10px");
    const shared = await styleOf(page, '[data-testid="shared-panel"]', ["display", "flex-direction"]);
    assert.deepEqual([shared.display, shared["flex-direction"]], ["flex", "column"]);
    assert.equal((await styleOf(page, ".shared-switch", ["display"])).display, "flex");

    // Listed on the agent, in the Agents tab.
    await page.locator('[data-testid="side-tab-agents"]').click();
    const skillsOfAda = page.locator('[data-testid="agent-row"][data-agent-name="Ada"] [data-testid="agent-skills"]');
    assert.match(await skillsOfAda.innerText(), /run-tests/);
    await section("skills");

    // Deleted after a confirmation: the folder goes, and Ada loses it.
    await row.locator('[data-testid="skill-delete"]').click();
    await page.locator('[data-testid="confirm-ok"]').click();
    await waitUntil(async () => (await row.count()) === 0, "the deleted skill is still listed");
    await assert.rejects(file(".ideai/skills/run-tests/SKILL.md"));
    await waitUntil(async () => (await rpc(page, "listAgents", {})).find((a) => a.name === "Ada").skills.length === 0, "Ada keeps the deleted skill");
  });

  it("writes a memory entry and finds it by a search", async () => {
    await section("memory");
    const panel = page.locator('[data-testid="memory-panel"]');
    assert.match(await panel.innerText(), /Agents recall these at each launch and keep them with idea_memory_write/);
    await page.locator('[data-testid="memory-new"]').click();
    await page.locator('[data-testid="memory-title"]').fill("Build command");
    await page.locator('[data-testid="memory-hook"]').fill("When building the project");
    await page.locator('[data-testid="memory-type"]').selectOption("reference");
    await page.locator('[data-testid="memory-body"]').fill("Run make zebra-target, never cargo directly.");
    await page.locator('[data-testid="memory-save"]').click();
    const row = page.locator('[data-testid="memory-row"][data-title="Build command"]');
    await row.waitFor();
    assert.match(await row.innerText(), /reference[\s\S]*When building the project[\s\S]*user/);
    const entries = (await rpc(page, "listMemory", {})).entries;
    assert.equal(entries.length, 1);
    assert.match(await file(`.ideai/memory/${entries[0].slug}.md`), /zebra-target/);

    await rpc(page, "writeMemory", { title: "Other thing", hook: "Unrelated", type: "project", body: "nothing here" });
    await waitUntil(async () => (await page.locator('[data-testid="memory-row"]').count()) === 2, "the other entry is not listed");
    await page.locator('[data-testid="memory-search"]').fill("zebra");
    await waitUntil(async () => (await page.locator('[data-testid="memory-row"]').count()) === 1, "the search did not narrow the list");
    assert.match(await page.locator('[data-testid="memory-row"]').innerText(), /Build command[\s\S]*zebra-target/);
    await page.locator('[data-testid="memory-search"]').fill("no-such-word-anywhere");
    await page.locator('[data-testid="memory-list"]', { hasText: "Nothing matches" }).waitFor();
    await page.locator('[data-testid="memory-search"]').fill("");

    const open = await styleOf(page, ".memory-open", ["display", "flex-direction", "white-space"]);
    assert.deepEqual([open.display, open["flex-direction"], open["white-space"]], ["flex", "column", "normal"]);
  });

  it("edits the shared context, saves it to .ideai/CONTEXT.md, and guards a reload", async () => {
    await section("context");
    const panel = page.locator('[data-testid="context-panel"]');
    assert.match(await panel.innerText(), /Injected into every agent before its persona, at its next launch or ask/);
    const text = page.locator('[data-testid="context-text"]');
    await waitUntil(async () => !(await text.isDisabled()), "the context did not load");
    await text.fill("We use Rust and React.\nRun make test before a commit.\n");
    await page.locator('[data-testid="context-unsaved"]').waitFor();
    await page.locator('[data-testid="context-save"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="context-unsaved"]').count()) === 0, "still unsaved");
    assert.equal(await file(".ideai/CONTEXT.md"), "We use Rust and React.\nRun make test before a commit.\n");
    assert.equal(await rpc(page, "readProjectContext", {}), "We use Rust and React.\nRun make test before a commit.\n");

    const area = await styleOf(page, '[data-testid="context-text"]', ["flex-grow", "font-family"]);
    assert.equal(area["flex-grow"], "1");
    assert.match(area["font-family"], /mono/i);

    // Unsaved text: a reload asks first, also from another tab of the side panel.
    await text.click();
    await page.keyboard.press("End");
    await page.keyboard.type("Unsaved line.");
    await page.locator('[data-testid="side-tab-agents"]').click();
    const dialogs = [];
    const onDialog = (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    };
    page.on("dialog", onDialog);
    await page.evaluate(() => setTimeout(() => location.reload(), 0));
    await waitUntil(async () => dialogs.includes("beforeunload"), "the reload did not ask first");
    page.off("dialog", onDialog);
    await section("context");
    assert.match(await text.inputValue(), /Unsaved line\.$/);
    await text.fill("We use Rust and React.\nRun make test before a commit.\n");
  });

  it("lists a project tool written on disk and runs it from the UI", async () => {
    await write(
      ".ideai/tools/echo_args/TOOL.json",
      JSON.stringify({ description: "Echoes", command: { parameters: [{ name: "text", type: "string" }], run: "printf %s {{text}}" } }),
    );
    // Written by hand: the view reads the folders again when shown.
    await section("tools");
    const row = page.locator('[data-testid="tool-row"][data-tool="echo_args"]');
    await row.waitFor();
    assert.match(await row.innerText(), /Echoes/);
    assert.match(await row.locator('[data-testid="tool-param"]').innerText(), /text\s+string\s+required/);

    await row.locator('[data-testid="tool-run-toggle"]').click();
    const input = row.locator('[data-testid="tool-run-input"][data-param="text"]');
    assert.ok(await row.locator('[data-testid="tool-run-submit"]').isDisabled(), "runs without its required parameter");
    await input.fill("hello from the UI");
    await row.locator('[data-testid="tool-run-submit"]').click();
    const stdout = row.locator('[data-testid="tool-stdout"]');
    await stdout.waitFor();
    assert.equal(await stdout.innerText(), "hello from the UI");
    assert.match(await row.locator('[data-testid="tool-result"]').innerText(), /exited 0/);
    const run = page.locator('[data-testid="tool-run-record"]').first();
    await waitUntil(async () => /echo_args[\s\S]*by user[\s\S]*allowed[\s\S]*exit 0/.test(await run.innerText()), "the run is not listed");

    const pre = await styleOf(page, '[data-testid="tool-stdout"]', ["white-space", "font-family"]);
    assert.equal(pre["white-space"], "pre-wrap");
    assert.match(pre["font-family"], /mono/i);
  });

  it("asks the user about an agent's tool call: Allow once runs it, Deny refuses it", async () => {
    const layouts = await rpc(page, "getLayouts", {});
    const [cell] = await cells(page);
    await rpc(page, "launchAgent", { agentId: ada.agentId, layoutId: layouts.layouts[0].id, nodeId: cell.nodeId, rows: 24, cols: 80 });
    const call = (text) =>
      rpc(page, "callTool", { tool: "echo_args", arguments: { text }, agent: "Ada" }).then(
        (result) => ({ result }),
        (error) => ({ error: error.message }),
      );

    const allowed = call("allowed words");
    const prompt = page.locator('[data-testid="tool-approval"]');
    await prompt.waitFor();
    assert.match(await prompt.innerText(), /Ada wants to run echo_args\s+\{"text":"allowed words"\}/);
    assert.match(await prompt.innerText(), /No permission rule names this tool/);
    // Also in Ada's cell, with a way there from the window's prompt.
    const inCell = page.locator(`[data-testid="cell"][data-node-id="${cell.nodeId}"] [data-testid="cell-tool-approval"]`);
    await inCell.waitFor();
    assert.equal(await prompt.locator('[data-testid="tool-approval-goto"]').count(), 1);
    const floating = await styleOf(page, '[data-testid="tool-approvals"]', ["position", "z-index"]);
    assert.deepEqual([floating.position, floating["z-index"]], ["fixed", "45"]);
    // "Later" folds it into a reminder at the bottom; a new call shows the prompts again.
    await page.locator('[data-testid="tool-approvals-fold"]').click();
    await waitUntil(async () => (await prompt.count()) === 0, "the prompt does not fold");
    const reminder = page.locator('[data-testid="tool-approvals-unfold"]');
    assert.equal(await reminder.innerText(), "Ada waits for your answer");
    const denied = call("denied words");
    await waitUntil(async () => (await prompt.count()) === 2, "a new call does not unfold the prompts");

    // One allowed from the window's prompt, the other denied from the cell's own.
    await prompt.filter({ hasText: "allowed words" }).locator('[data-testid="tool-approval-allow"]').click();
    const outcome = await allowed;
    assert.equal(outcome.result?.stdout, "allowed words", JSON.stringify(outcome));
    await waitUntil(async () => (await prompt.count()) === 1 && (await inCell.count()) === 1, "the answered prompt stays");
    assert.match(await inCell.innerText(), /denied words/);
    await inCell.locator('[data-testid="cell-tool-approval-deny"]').click();
    assert.match((await denied).error ?? "", /TOOL_DENIED/);
    await waitUntil(async () => (await prompt.count()) === 0 && (await inCell.count()) === 0, "a prompt stays after the deny");
    const record = page.locator('[data-testid="tool-run-record"]').first();
    await section("tools");
    await waitUntil(async () => /echo_args[\s\S]*by Ada[\s\S]*denied/.test(await record.innerText()), "the denied run is not listed");
    assert.deepEqual(pageErrors, []);
  });

  it("shows each view, and a new skill's or memory's form, from the command palette", async () => {
    const runCommand = async (text) => {
      await page.keyboard.press("Control+Shift+P");
      await page.locator('[data-testid="command-palette"]').waitFor();
      await page.locator('[data-testid="palette-input"]').fill(text);
      await page.keyboard.press("Enter");
      await page.locator('[data-testid="command-palette"]').waitFor({ state: "detached" });
    };
    await page.locator('[data-testid="side-tab-agents"]').click();
    for (const [command, panel] of [
      ["show the skills", "skills-panel"],
      ["show the project memory", "memory-panel"],
      ["edit the shared context", "context-panel"],
      ["show the project tools", "tools-panel"],
    ]) {
      await runCommand(command);
      await page.locator(`[data-testid="${panel}"]`).waitFor();
    }
    await runCommand("new skill");
    await page.locator('[data-testid="skill-create"]').waitFor();
    await page.keyboard.press("Escape");
    await runCommand("new memory entry");
    await page.locator('[data-testid="memory-editor"]').waitFor();
    assert.equal(await page.locator('[data-testid="memory-title"]').inputValue(), "");
  });

  it("on a phone, the prompt is within the screen, touch-sized, and answers", async () => {
    const context = await browser.newContext(PHONE);
    const phoneErrors = [];
    // Not `openWorkspace`: the only cell runs Ada, so no picker shows.
    const phone = await context.newPage();
    phone.on("pageerror", (error) => phoneErrors.push(error.message));
    await phone.goto(server.url);
    await waitForConnection(phone, server);
    // The Shared tab's views as a full-screen sheet: every control a 44 px target.
    await phone.locator('[data-testid="toggle-side-panel"]').tap();
    await phone.locator('[data-testid="side-tab-shared"]').tap();
    for (const name of ["skills", "memory", "context", "tools"]) {
      await phone.locator(`[data-testid="shared-${name}"]`).tap();
      await phone.locator(`[data-testid="${name}-panel"]`).waitFor();
      const small = await phone.$$eval('[data-testid="side-panel"] button, [data-testid="side-panel"] [role="tab"]', (elements) =>
        elements
          .filter((e) => e.getClientRects().length > 0)
          .map((e) => ({ e, box: e.getBoundingClientRect() }))
          .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
          .map(({ e, box }) => `${e.dataset.testid ?? e.className} ${Math.round(box.width)}×${Math.round(box.height)}`),
      );
      assert.deepEqual(small, [], `targets under 44 px in the ${name} view`);
    }
    const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);

    const asked = rpc(phone, "callTool", { tool: "echo_args", arguments: { text: "from the phone" }, agent: "Ada" }).then(
      (result) => result,
      (error) => ({ error: error.message }),
    );
    const prompt = phone.locator('[data-testid="tool-approval"]');
    await prompt.waitFor();
    const box = await prompt.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the prompt is not within the screen: ${JSON.stringify(box)}`);
    const allow = await phone.locator('[data-testid="tool-approval-allow"]').boundingBox();
    assert.ok(allow.height >= 43.5 && allow.width >= 43.5, `Allow once is ${allow.width}×${allow.height}`);
    await phone.locator('[data-testid="tool-approval-allow"]').tap();
    assert.equal((await asked).stdout, "from the phone");
    await waitUntil(async () => (await prompt.count()) === 0, "the phone's prompt stays");
    // The desktop's page saw the answer too.
    await waitUntil(async () => (await page.locator('[data-testid="tool-approval"]').count()) === 0, "the desktop's prompt stays");
    await context.close();
    assert.deepEqual(phoneErrors, []);
  });
});
