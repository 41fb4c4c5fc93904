// The keyboard shortcuts are never cut: the top bar's hints show whole on a wide window and
// not at all on a narrow one, where the Keys button (and the palette's "Keyboard shortcuts")
// lists every one in a popover that Escape closes.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { useWorkspace, waitUntil } from "./helpers.mjs";

describe("shortcut hints", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1000, height: 700 }, pageErrors }, (opened) => ({ page } = opened));

  /** Whether the inline hints are either hidden or shown without being cut. */
  const hintsWholeOrHidden = () =>
    page.locator('[data-testid="topbar"] .shortcuts').evaluate((e) => e.offsetWidth === 0 || (e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= document.documentElement.clientWidth));

  it("at 1000 px the hints are not cut, and the Keys popover lists every shortcut", async () => {
    assert.ok(await hintsWholeOrHidden(), "the hints are cut at 1000 px");
    await page.locator('[data-testid="open-shortcuts"]').click();
    const popover = page.locator('[data-testid="shortcuts-popover"]');
    await popover.waitFor();
    const text = await popover.textContent();
    for (const keys of ["Ctrl+Shift+P", "Alt+1…9", "Ctrl+Shift+Enter", "Ctrl+Shift+F"]) assert.ok(text.includes(keys), `${keys} is missing`);
    const box = await popover.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 1000, "the popover leaves the window");
    await page.keyboard.press("Escape");
    await popover.waitFor({ state: "detached" });

    await page.keyboard.press("Control+Shift+P");
    await page.locator('[data-testid="palette-input"]').fill("keyboard shortcuts");
    await page.keyboard.press("Enter");
    await popover.waitFor();
    await page.keyboard.press("Escape");
    await popover.waitFor({ state: "detached" });
  });

  it("on a wide window the hints show whole", async () => {
    await page.setViewportSize({ width: 1600, height: 800 });
    await waitUntil(async () => (await page.locator('[data-testid="topbar"] .shortcuts').evaluate((e) => e.offsetWidth)) > 0, "no hints at 1600 px");
    assert.ok(await hintsWholeOrHidden(), "the hints are cut at 1600 px");
    assert.deepEqual(pageErrors, []);
  });
});
