// Unsaved persona edits survive a reload attempt: while the persona editor holds changes, the
// page asks before it unloads (the browser's own "Leave site?" dialog), also with the side panel
// hidden; dismissing it keeps the text; once saved, a reload goes ahead without asking.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { useWorkspace, waitUntil } from "./helpers.mjs";

describe("persona edits and reloads", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  it("asks before a reload drops unsaved persona edits, and not once they are saved", async () => {
    await page.locator('[data-testid="agent-new"]').click();
    await page.locator('[data-testid="create-agent-name"]').fill("Scribe");
    await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
    await page.locator('[data-testid="create-agent-submit"]').click();
    const row = page.locator('[data-testid="agent-row"][data-agent-name="Scribe"]');
    await row.waitFor();
    await row.hover();
    await row.locator('[data-testid="agent-edit"]').click();
    const text = page.locator('[data-testid="persona-text"]');
    await waitUntil(async () => (await text.inputValue()).length > 0, "the persona did not load");
    await text.click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Unsaved words.");
    await page.locator('[data-testid="persona-unsaved"]').waitFor();

    const dialogs = [];
    const onDialog = (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    };
    page.on("dialog", onDialog);
    await page.evaluate(() => setTimeout(() => location.reload(), 0));
    await waitUntil(async () => dialogs.includes("beforeunload"), "the reload did not ask first");
    assert.match(await text.inputValue(), /Unsaved words\./, "the edit is gone");

    // Hiding the side panel keeps the edit, and the question.
    await page.locator('[data-testid="toggle-side-panel"]').click();
    await waitUntil(async () => !(await page.locator('[data-testid="side-panel"]').isVisible()), "the side panel stays");
    dialogs.length = 0;
    await page.evaluate(() => setTimeout(() => location.reload(), 0));
    await waitUntil(async () => dialogs.includes("beforeunload"), "the reload did not ask with the side panel hidden");
    await page.locator('[data-testid="toggle-side-panel"]').click();
    assert.match(await text.inputValue(), /Unsaved words\./, "the edit is gone after hiding the panel");

    await page.locator('[data-testid="persona-save"]').click();
    await waitUntil(async () => (await page.locator('[data-testid="persona-unsaved"]').count()) === 0, "still unsaved");
    dialogs.length = 0;
    await page.reload();
    await page.locator('[data-testid="picker"]').waitFor();
    assert.deepEqual(dialogs, [], "a reload with nothing unsaved asked");
    page.off("dialog", onDialog);
    assert.deepEqual(pageErrors, []);
  });
});
