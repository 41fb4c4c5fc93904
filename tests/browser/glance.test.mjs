// Cells that read at a glance: the header at 1024×700 and in a ~250 px wide cell (the status
// whole, every action reachable, the rest in the overflow menu), a Stop that reads "stopped",
// the exit line and the restart offer, the focused cell's contrast and dimming, focus after a
// split and after a reload, the program's title (OSC 2), the persona saved four times without a
// false conflict, and the frontend served compressed with cache headers.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

/** Every action a header may show, by test id. */
const ACTIONS = ["cell-search", "cell-change", "cell-restart", "cell-stop", "cell-split-h", "cell-split-v", "cell-zoom", "cell-close"];

/** WCAG relative luminance of a CSS `rgb(...)` colour. */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
};

describe("cells at a glance", () => {
  let server;
  let page;
  const pageErrors = [];
  const cell = (nodeId) => page.locator(`[data-testid="cell"][data-node-id="${nodeId}"]`);
  const typeLine = async (text) => {
    await page.keyboard.type(text);
    await page.keyboard.press("Enter");
  };

  /** Whether each header action of `nodeId` is reachable: inside the header, or in its menu. */
  async function headerReachable(nodeId) {
    const header = cell(nodeId).locator('[data-testid="cell-header"]');
    const box = await header.boundingBox();
    const shown = {};
    for (const id of ACTIONS) {
      const button = header.locator(`[data-testid="${id}"]`);
      if ((await button.count()) === 0) continue;
      const b = await button.boundingBox();
      shown[id] = b !== null && b.x >= box.x - 0.5 && b.x + b.width <= box.x + box.width + 0.5;
    }
    const more = header.locator('[data-testid="cell-more"]');
    const inMenu = [];
    if ((await more.count()) > 0) {
      await more.click();
      for (const item of await cell(nodeId).locator('[data-testid="cell-menu-item"]').all()) {
        const b = await item.boundingBox();
        assert.ok(b && b.width > 0, "a menu item is visible");
        inMenu.push(await item.getAttribute("data-action"));
      }
      await page.keyboard.press("Escape");
      const mb = await more.boundingBox();
      assert.ok(mb.x + mb.width <= box.x + box.width + 0.5, "the menu button is inside the header");
    }
    return { shown, inMenu };
  }

  /** The status is shown whole (not clipped, not cut with an ellipsis). */
  async function statusWhole(nodeId) {
    const status = cell(nodeId).locator('[data-testid="cell-status"]');
    const header = await cell(nodeId).locator('[data-testid="cell-header"]').boundingBox();
    const b = await status.boundingBox();
    const clipped = await status.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
    return !clipped && b.x >= header.x && b.x + b.width <= header.x + header.width + 0.5;
  }

  useWorkspace(
    {
      viewport: { width: 1024, height: 700 },
      prepare: (context) => context.addInitScript(() => localStorage.setItem("idea.renderer", "dom")),
      pageErrors,
    },
    (opened) => ({ server, page } = opened),
  );

  it("keeps the status whole and every action reachable in a narrow cell, at 1024×700", async () => {
    const [first] = await cells(page);
    await page.locator('[data-testid="picker-shell"]').click();
    const sessionId = await waitUntil(async () => (await cells(page))[0].sessionId, "no session");
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").trim().length > 0, "no prompt");
    // Without the side panel, three columns: the first cell is a quarter of the width (~250 px).
    await page.locator('[data-testid="toggle-side-panel"]').click();
    await cell(first.nodeId).locator('[data-testid="cell-split-h"]').click();
    await waitUntil(async () => (await cells(page)).length === 2, "no split");
    await cell(first.nodeId).locator('[data-testid="cell-split-h"]').click();
    await waitUntil(async () => (await cells(page)).length === 3, "no second split");
    const width = (await cell(first.nodeId).boundingBox()).width;
    assert.ok(width < 270, `a narrow cell (${width} px)`);

    await cell(first.nodeId).locator('[data-testid="terminal"]').click();
    await typeLine("exit 3");
    const status = cell(first.nodeId).locator('[data-testid="cell-status"]');
    await waitUntil(async () => (await status.textContent()) === "exited with code 3", "no exit status");
    assert.ok(await statusWhole(first.nodeId), "the exit status is shown whole");
    const { shown, inMenu } = await headerReachable(first.nodeId);
    for (const [id, visible] of Object.entries(shown)) {
      assert.ok(visible || inMenu.includes(id), `${id} is reachable (shown: ${JSON.stringify(shown)}, menu: ${inMenu})`);
    }
    assert.ok(inMenu.length > 0, "some actions went into the menu");
    assert.ok(inMenu.includes("cell-close") || shown["cell-close"], "close is reachable");

    // The exit is printed in the terminal, and typing there offers a restart.
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").includes("[process exited with code 3]"), "no exit line");
    await cell(first.nodeId).locator('[data-testid="terminal"]').click();
    await page.keyboard.type("x");
    await cell(first.nodeId).locator('[data-testid="cell-restart-offer"]').waitFor();
    await page.keyboard.press("Enter");
    await waitUntil(async () => {
      const now = (await cells(page)).find((c) => c.nodeId === first.nodeId);
      return now.sessionId && now.sessionId !== sessionId;
    }, "Enter did not restart the shell");
    await waitUntil(async () => (await status.textContent()) === "running", "not running again");

    // A menu action runs from the keyboard: close the narrow third cell through its menu.
    const third = (await cells(page))[2];
    const { inMenu: thirdMenu } = await headerReachable(third.nodeId);
    if (thirdMenu.includes("cell-close")) {
      await cell(third.nodeId).locator('[data-testid="cell-more"]').click();
      await cell(third.nodeId).locator('[data-testid="cell-menu-item"][data-action="cell-close"]').click();
    } else {
      await cell(third.nodeId).locator('[data-testid="cell-close"]').click();
    }
    await waitUntil(async () => (await cells(page)).length === 2, "the third cell was not closed");
    assert.deepEqual(pageErrors, []);
  });

  it("reads 'stopped' after a Stop, not a failure, and prints it in the terminal", async () => {
    const [first] = await cells(page);
    const sessionId = (await cells(page))[0].sessionId;
    await cell(first.nodeId).locator('[data-testid="cell-stop"]').click();
    await page.locator('[data-testid="confirm-ok"]').click();
    const status = cell(first.nodeId).locator('[data-testid="cell-status"]');
    await waitUntil(async () => (await status.textContent()) === "stopped", "no 'stopped'");
    assert.equal(await status.getAttribute("data-status"), "exited", "not shown as a failure");
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").includes("[process stopped]"), "no stop line");
    await cell(first.nodeId).locator('[data-testid="cell-restart"]').click();
    await waitUntil(async () => (await status.textContent()) === "running", "not restarted");
  });

  it("makes the focused cell stand out, dims the others, and focuses a new split's picker", async () => {
    const [first, second] = await cells(page);
    await cell(first.nodeId).locator('[data-testid="terminal"]').click();
    await waitUntil(async () => (await cells(page))[0].focused, "the first cell is not focused");
    const focusedBorder = await cell(first.nodeId).evaluate((e) => getComputedStyle(e).borderTopColor);
    const otherBorder = await cell(second.nodeId).evaluate((e) => getComputedStyle(e).borderTopColor);
    const ratio = contrast(focusedBorder, otherBorder);
    assert.ok(ratio >= 3, `the focused border stands out (${ratio.toFixed(2)}:1)`);
    const dimmed = await cell(second.nodeId).locator('[data-testid="cell-header"]').evaluate((e) => Number(getComputedStyle(e).opacity));
    assert.ok(dimmed < 1, "the other cell is dimmed");

    // A split moves the focus into the new cell, where Enter starts its first entry (a shell).
    await cell(first.nodeId).locator('[data-testid="cell-split-v"]').click();
    const created = await waitUntil(async () => (await cells(page)).find((c) => ![first.nodeId, second.nodeId].includes(c.nodeId)), "no new cell");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === created.nodeId).focused, "the new cell has no focus");
    await waitUntil(
      () => page.evaluate((id) => document.activeElement?.closest('[data-testid="cell"]')?.dataset.nodeId === id, created.nodeId),
      "keyboard focus is not in the new cell",
    );
    await page.keyboard.press("Enter");
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === created.nodeId).sessionId, "Enter started nothing");
  });

  it("shows the program's title (OSC 2) and restores the focus after a reload", async () => {
    const all = await cells(page);
    const target = all.find((c) => c.sessionId && c.focused) ?? all.find((c) => c.sessionId);
    await cell(target.nodeId).locator('[data-testid="terminal"]').click();
    await typeLine("printf '\\033]2;building widgets\\007'");
    const title = cell(target.nodeId).locator('[data-testid="cell-process-title"]');
    await waitUntil(async () => (await title.textContent()) === "building widgets", "no process title");

    await page.reload();
    await page.locator('[data-testid="cell"]').first().waitFor();
    await waitUntil(async () => (await cells(page)).find((c) => c.nodeId === target.nodeId)?.focused, "the focus did not come back");
    await waitUntil(
      () => page.evaluate((id) => document.activeElement?.closest('[data-testid="cell"]')?.dataset.nodeId === id, target.nodeId),
      "keyboard focus is not back in the cell",
    );
  });

  it("saves a persona four times without a false conflict", async () => {
    await page.locator('[data-testid="toggle-side-panel"]').click();
    await page.locator('[data-testid="agent-new"]').click();
    await page.locator('[data-testid="create-agent-name"]').fill("Writer");
    await page.locator('[data-testid="create-agent-profile"]').selectOption("shell");
    await page.locator('[data-testid="create-agent-submit"]').click();
    const text = page.locator('[data-testid="persona-text"]');
    await waitUntil(async () => (await text.inputValue()).length > 0, "the persona did not load");
    for (let i = 1; i <= 4; i++) {
      await text.fill(`# Writer\n\nDraft ${i}.\n`);
      await page.locator('[data-testid="persona-save"]').click();
      await waitUntil(async () => (await page.locator('[data-testid="persona-editor"]').getAttribute("data-dirty")) === "false", `save ${i}`);
      // The save's own event comes back; give it time to be (wrongly) taken for another's.
      await page.waitForTimeout(400);
      assert.equal(await page.locator('[data-testid="persona-conflict"]').count(), 0, `a false conflict after save ${i}`);
    }
  });

  it("serves the frontend compressed, hashed assets immutable and the page revalidated", async () => {
    const response = await page.request.get(server.url, { headers: { "Accept-Encoding": "br, gzip" } });
    assert.equal(response.headers()["cache-control"], "no-cache");
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(await response.text())[1];
    const asset = await page.request.get(new URL(script, server.origin).href, { headers: { "Accept-Encoding": "br, gzip" } });
    assert.equal(asset.headers()["content-encoding"], "br");
    assert.equal(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
  });

  it("keeps text, hints included, at 4.5:1 or more against its background", async () => {
    // The other cells are dimmed on purpose; the page's own text is measured with none dimmed.
    await page.locator('[data-testid="agent-new"]').click();
    await page.locator('[data-testid="agent-new"]').click();
    const low = await page.evaluate(() => {
      const lum = (c) => {
        const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map((v) => {
          const x = Number(v) / 255;
          return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = (e) => {
        for (; e; e = e.parentElement) {
          const c = getComputedStyle(e).backgroundColor;
          if (c !== "transparent" && !/, 0\)$/.test(c)) return c;
        }
        return getComputedStyle(document.documentElement).backgroundColor;
      };
      const out = [];
      for (const e of document.querySelectorAll("body *")) {
        if (!e.offsetParent || e.closest(".xterm") || e.closest(":disabled") || e.closest(".layout.has-focus .cell:not(.focused)")) continue;
        if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const [a, b] = [lum(getComputedStyle(e).color), lum(background(e))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) out.push(`${ratio.toFixed(2)}:1 ${e.className} "${e.textContent.trim().slice(0, 30)}"`);
      }
      return out;
    });
    assert.deepEqual(low, []);
  });

  it("names every icon button", async () => {
    const unnamed = await page.$$eval("button", (buttons) =>
      buttons
        .filter((b) => b.offsetParent !== null && b.textContent.trim() === "" && !b.getAttribute("aria-label") && !b.getAttribute("aria-labelledby"))
        .map((b) => b.outerHTML.slice(0, 120)),
    );
    assert.deepEqual(unnamed, []);

    // The side panel's row actions are reached by Tab and shown when focused.
    const row = page.locator('[data-testid="agent-row"][data-agent-name="Writer"]');
    await row.locator(".agent-name").focus();
    await page.keyboard.press("Tab");
    const edit = row.locator('[data-testid="agent-edit"]');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "agent-edit");
    assert.equal(await edit.evaluate((e) => getComputedStyle(e).opacity), "1");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Delete Writer");
    assert.deepEqual(pageErrors, []);
  });
});
