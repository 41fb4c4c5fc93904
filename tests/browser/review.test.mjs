// An agent's own branch, reviewed in the UI: the Branches tab lists the agent's worktree (made
// over the API from a real git repository), a click shows a file's diff rendered by
// @pierre/diffs, a line gets a comment, and "Send" pastes the comments as one Markdown block
// into the fake agent's live terminal, once (a reload before sending keeps it) (its REPL answers each line it receives); the
// comment is then marked sent. Another agent changing the same file shows the overlap; a
// file the agent writes later shows up by itself.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cells, fakeClaudeProfiles, rpc, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

const git = (dir, ...args) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();

describe("review", () => {
  let server;
  let page;
  const pageErrors = [];

  useWorkspace({ profiles: fakeClaudeProfiles, viewport: { width: 1400, height: 900 }, pageErrors }, (opened) => ({ server, page } = opened));

  it("comments a line of an agent's branch and sends them to its terminal once", async () => {
    const root = server.projectDir;
    git(root, "init", "-q", "-b", "main");
    git(root, "config", "user.name", "User");
    git(root, "config", "user.email", "user@example.com");
    writeFileSync(join(root, "lib.rs"), "fn one() {}\nfn two() {}\n");
    git(root, "add", "lib.rs");
    git(root, "commit", "-q", "-m", "first");

    const ada = await rpc(page, "createAgent", { name: "Ada", profileId: "fake" });
    const bob = await rpc(page, "createAgent", { name: "Bob", profileId: "fake" });
    const adaTree = await rpc(page, "createWorktree", { agentId: ada.agentId });
    const bobTree = await rpc(page, "createWorktree", { agentId: bob.agentId });
    assert.ok(!adaTree.path.startsWith(root), adaTree.path);
    writeFileSync(join(adaTree.path, "lib.rs"), "fn one() {}\nfn two() { todo!() }\nfn three() {}\n");
    writeFileSync(join(bobTree.path, "lib.rs"), "fn one() {}\nfn bob() {}\n");

    const layouts = await rpc(page, "getLayouts", {});
    const [cell] = await cells(page);
    const session = await rpc(page, "launchAgent", { agentId: ada.agentId, layoutId: layouts.layouts[0].id, nodeId: cell.nodeId, rows: 24, cols: 100 });
    await waitUntil(async () => (await terminalText(page, session.sessionId)).includes("fake>"), "the agent's prompt");

    await page.locator('[data-testid="side-tab-branches"]').click();
    const item = page.locator('[data-testid="review-item"][data-agent="Ada"]');
    await item.waitFor();
    // The files were written after the list was first read: the panel reads it again.
    await waitUntil(async () => /idea\/ada.*main.*1 file/s.test(await item.innerText()), "Ada's branch with its file");
    assert.match(await item.locator('[data-testid="review-overlap"]').innerText(), /Bob \(lib\.rs\)/);
    // The agent's cell says it works on its own branch, and that another agent changed its file.
    const header = page.locator(`[data-testid="cell"][data-node-id="${cell.nodeId}"] [data-testid="cell-header"]`);
    await waitUntil(async () => (await header.locator('[data-testid="cell-overlap"]').count()) === 1, "no overlap on the cell");
    assert.match(await header.locator('[data-testid="cell-branch"]').innerText(), /idea\/ada/);
    await item.locator("button").first().click();
    await page.locator('[data-testid="review-file"]', { hasText: "lib.rs" }).click();

    // The diff as @pierre/diffs draws it (in its shadow root): the added line is there.
    const review = page.locator('[data-testid="file-review"]');
    const added = review.getByText("fn two() { todo!() }", { exact: false }).first();
    await added.waitFor({ timeout: 20000 });
    // Highlighted off the main thread: the library's worker was started.
    const workers = await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => /worker-[^/]*\.js/.test(e.name)).length);
    assert.ok(workers > 0, "no diff worker loaded");
    await added.click();
    const draft = page.locator('[data-testid="review-draft"]');
    await draft.waitFor();
    await draft.fill("unique-review-remark: implement two() instead of todo");
    await draft.press("Enter").catch(() => undefined);
    await page.locator(".review-draft button[type=submit]").click();
    await page.locator('[data-testid="review-comment"]').waitFor();

    // A reload keeps the comments not sent yet.
    await page.reload();
    await page.locator('[data-testid="side-tab-branches"]').click();
    await item.locator("button").first().click();
    await page.locator('[data-testid="review-file"]', { hasText: "lib.rs" }).click();
    assert.match(await page.locator('[data-testid="review-comment"]').innerText({ timeout: 20000 }), /unique-review-remark/);

    await page.locator('[data-testid="review-send"]').click();
    await waitUntil(async () => (await terminalText(page, session.sessionId)).includes("you said: unique-review-remark"), "the block reached the agent", 20000);
    // The block names the file and carries the code line; it went once.
    const text = await terminalText(page, session.sessionId);
    assert.equal(text.split("you said: unique-review-remark").length - 1, 1, text);
    assert.match(text, /you said: .*lib\.rs, line 2/, text);
    assert.match(text, /you said: fn two\(\) \{ todo!\(\) \}/, text);
    assert.match(await page.locator('[data-testid="review-comment"]').innerText(), /sent/);
    assert.ok(await page.locator('[data-testid="review-send"]').isDisabled(), "nothing left to send");
    // The agent goes on working: its listing follows without a refresh (the server watches
    // the worktree and says when it changed).
    writeFileSync(join(adaTree.path, "extra.rs"), "// more\n");
    await waitUntil(async () => /2 file/.test(await item.innerText()), "the listing did not follow the worktree", 20000);
    assert.deepEqual(pageErrors, []);
  });
});
