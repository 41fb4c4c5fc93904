// A phone is a real client (issue 18): at 390×844 with touch, the workspace shows one cell at a
// time; its header is the switcher listing the layout's cells with each agent's state (the one
// that needs the user stands out); panels open as full-screen sheets and close; every control is
// a 44 px target; a key bar types Esc, Tab, Ctrl+C, the arrows and Enter into the shown
// terminal; the page never scrolls sideways. An agent at a permission prompt is found and
// answered from the phone, end to end. Widening the window (or a desktop at 1440×900) brings the
// tiled layout back unchanged.

import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fakeClaudeProfiles, launchBrowser, openWorkspace, rpc, startServer, terminalText, waitUntil } from "./helpers.mjs";

// At a scale of 1: headless Chromium's WebGL draws no terminal in a screenshot above it (on a
// desktop's viewport too).
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1440, height: 900 } };
/** Where the screenshots go (looked at by hand; not compared). */
const SHOTS = process.env.IDEA_PHONE_SCREENSHOTS ?? tmpdir();

describe("phone layout", () => {
  let server;
  let browser;
  let page;
  const pageErrors = [];
  /** The fixture: a 3-cell layout with a shell (cell 1), an empty cell (2) and the agent (3). */
  let layoutId;
  let nodes;
  let shell;
  let agent;

  before(async () => {
    server = await startServer(null, { profiles: fakeClaudeProfiles });
    browser = await launchBrowser();
    const context = await browser.newContext(PHONE);
    page = await openWorkspace(context, server, pageErrors);
    page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));

    const layouts = await rpc(page, "getLayouts", {});
    layoutId = layouts.layouts[0].id;
    const first = await page.locator('[data-testid="cell"]').getAttribute("data-node-id");
    const second = await rpc(page, "splitCell", { layoutId, nodeId: first, direction: "horizontal" });
    const third = await rpc(page, "splitCell", { layoutId, nodeId: second, direction: "vertical" });
    nodes = [first, second, third];
    shell = await rpc(page, "openShell", { layoutId, nodeId: first, rows: 24, cols: 80 });
    const hooked = await rpc(page, "createAgent", { name: "Hooked", profileId: "fake" });
    agent = await rpc(page, "launchAgent", { agentId: hooked.agentId, layoutId, nodeId: third, rows: 24, cols: 80 });
    await rpc(page, "writeTerminal", { sessionId: shell.sessionId, data: "echo phone-marker\r" });
    await waitUntil(async () => (await rpc(page, "listSessions", {})).length === 2, "the sessions did not start");
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const shownCell = () => page.locator('[data-testid="cell"]');
  const switcher = () => page.locator('[data-testid="cell-switcher"]');
  const row = (nodeId) => page.locator(`[data-testid="cell-list-row"][data-node-id="${nodeId}"]`);

  /** Opens the switcher's list and taps cell `nodeId`'s row; resolves once that cell is shown. */
  async function showCell(nodeId) {
    await switcher().tap();
    await row(nodeId).tap();
    await waitUntil(async () => (await page.locator('[data-testid="cell-list"]').count()) === 0, "the list of cells stays open");
    await waitUntil(async () => (await shownCell().getAttribute("data-node-id")) === nodeId, `cell ${nodeId} is not shown`);
  }

  /** Buttons under `selector` that are shown but smaller than a 44 px target, as "testid w×h". */
  const smallTargets = (selector) =>
    page.$$eval(`${selector} button, ${selector} [role="tab"]`, (elements) =>
      elements
        .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")
        .map((e) => ({ e, box: e.getBoundingClientRect() }))
        .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
        .map(({ e, box }) => `${e.dataset.testid ?? e.className} ${Math.round(box.width)}×${Math.round(box.height)}`),
    );

  /** Whether the page or one of the bars is wider than the screen. */
  const overflowing = () =>
    page.evaluate(() => {
      const width = window.innerWidth;
      const wide = [];
      if (document.documentElement.scrollWidth > width) wide.push(`page ${document.documentElement.scrollWidth}`);
      for (const testId of ["app", "topbar", "tabbar", "cell-header", "key-bar"]) {
        for (const element of document.querySelectorAll(`[data-testid="${testId}"]`)) {
          const box = element.getBoundingClientRect();
          // A bar may scroll sideways inside itself (the tabs do), never past the screen.
          if (box.left < 0 || box.right > width + 0.5) wide.push(`${testId} ${box.left}..${box.right}`);
          if (testId === "cell-header" && element.scrollWidth > element.clientWidth + 1) wide.push(`cell-header content ${element.scrollWidth}`);
        }
      }
      return wide;
    });

  it("shows one cell at a time, touch-sized, and nothing wider than the screen", async () => {
    await page.locator('[data-testid="app"][data-phone="true"]').waitFor();
    await waitUntil(async () => (await shownCell().count()) === 1, "more than one cell is shown");
    assert.equal(await shownCell().getAttribute("data-node-id"), nodes[0], "the first cell is not the one shown");
    const box = await shownCell().boundingBox();
    assert.ok(box.width >= 388, `the cell is ${box.width} px wide, not the screen's width`);
    // The agents panel, open by default on a desktop, does not cover a phone at load.
    assert.equal(await page.locator('[data-testid="side-panel"]').isVisible(), false, "the side panel covers the phone at load");
    await page.locator('[data-testid="key-bar"]').waitFor();
    await waitUntil(async () => (await terminalText(page, shell.sessionId))?.includes("phone-marker"), "the shell's output is not shown");

    // The layout is as tall as the visual viewport, which the on-screen keyboard shrinks.
    const heights = await page.evaluate(() => ({
      viewport: window.visualViewport.height,
      variable: getComputedStyle(document.documentElement).getPropertyValue("--app-height"),
      app: document.querySelector('[data-testid="app"]').getBoundingClientRect().height,
    }));
    assert.deepEqual(heights, { viewport: 844, variable: "844px", app: 844 });

    assert.deepEqual(await overflowing(), []);
    for (const bar of ['[data-testid="topbar"]', '[data-testid="tabbar"]', '[data-testid="cell-header"]', '[data-testid="key-bar"]']) {
      assert.deepEqual(await smallTargets(bar), [], `targets under 44 px in ${bar}`);
    }
    // The header's actions that do not fit are reached through its menu, by touch.
    await page.locator('[data-testid="cell-more"]').tap();
    const items = page.locator('[data-testid="cell-menu-item"]');
    assert.ok((await items.count()) > 0, "the overflow menu is empty");
    assert.deepEqual(await smallTargets('[data-testid="cell-menu"]'), []);
    await page.locator('[data-testid="cell-more"]').tap();
    await page.screenshot({ path: join(SHOTS, "idea-phone-shell.png") });
  });

  it("finds the agent that needs the user in the switcher, and answers it there", async () => {
    // Keep the shell's terminal object: switching cells must keep it alive, not recreate it.
    await page.evaluate((id) => (window.__ideaTerminals[id].__kept = true), shell.sessionId);
    await rpc(page, "writeTerminal", { sessionId: agent.sessionId, data: "ask-permission\r" });
    // The header of the cell shown (the shell's) says another cell here needs the user.
    await waitUntil(async () => (await page.locator('[data-testid="switcher-needing"]').textContent()) === "+1", "the switcher does not say another cell needs the user");

    await switcher().tap();
    const list = page.locator('[data-testid="cell-list"]');
    await list.waitFor();
    const sheet = await list.boundingBox();
    assert.deepEqual([sheet.x, sheet.y, sheet.width, sheet.height], [0, 0, 390, 844], "the list of cells is not a full-screen sheet");
    const rows = await page.$$eval('[data-testid="cell-list-row"]', (elements) =>
      elements.map((e) => ({
        node: e.dataset.nodeId,
        needs: e.dataset.needsYou === "true",
        text: e.innerText.replace(/\s+/g, " ").trim(),
        border: getComputedStyle(e).borderTopColor,
        height: e.getBoundingClientRect().height,
      })),
    );
    assert.deepEqual(rows.map((r) => r.node), nodes, "the list is not the cells in reading order");
    assert.match(rows[0].text, /^1 shell running/);
    assert.match(rows[1].text, /^2 empty empty/);
    assert.match(rows[2].text, /^3 Hooked needs you/);
    assert.deepEqual(rows.map((r) => r.needs), [false, false, true]);
    // The one that needs the user stands out (the theme's red), the others do not.
    assert.equal(rows[2].border, "rgb(239, 107, 115)");
    assert.notEqual(rows[0].border, rows[2].border);
    assert.equal(await row(nodes[2]).locator('[data-testid="cell-list-state"]').getAttribute("data-state"), "needsYou");
    for (const r of rows) assert.ok(r.height >= 44, `a row is ${r.height} px tall`);
    await page.screenshot({ path: join(SHOTS, "idea-phone-switcher.png") });

    await row(nodes[2]).tap();
    await waitUntil(async () => (await shownCell().getAttribute("data-session-id")) === agent.sessionId, "the agent's cell is not shown");
    const badge = page.locator('[data-testid="cell-header"] [data-testid="state-badge"]');
    assert.equal(await badge.getAttribute("data-state"), "needsYou");
    assert.equal(await page.locator('[data-testid="switcher-needing"]').count(), 0, "the shown agent counts as another cell");
    await waitUntil(async () => (await terminalText(page, agent.sessionId))?.includes("Do you want to proceed?"), "the prompt is not on screen");
    await page.screenshot({ path: join(SHOTS, "idea-phone-needs-you.png") });

    // The jump put the focus in its terminal: type the answer, and Enter from the key bar.
    await waitUntil(
      () => page.evaluate(() => document.activeElement?.classList.contains("xterm-helper-textarea") && document.activeElement.closest('[data-testid="cell"]') !== null),
      "the agent's terminal has no focus",
    );
    await page.keyboard.type("yes");
    await page.locator('[data-testid="key-enter"]').tap();
    await waitUntil(async () => (await terminalText(page, agent.sessionId))?.includes("you said: yes"), "the answer did not reach the agent");
    await waitUntil(async () => (await badge.getAttribute("data-state")) !== "needsYou", "the agent still needs the user");
    await waitUntil(async () => (await page.title()) === "IdeA", "the title still counts an agent");
    // The key bar's Enter kept the focus in the terminal (the on-screen keyboard stays up).
    assert.ok(await page.evaluate(() => document.activeElement?.classList.contains("xterm-helper-textarea")), "the key bar took the focus");

    // Back to the shell: the same terminal, its output still there.
    await showCell(nodes[0]);
    assert.ok(await page.evaluate((id) => window.__ideaTerminals[id].__kept === true, shell.sessionId), "the shell's terminal was recreated");
    assert.match(await terminalText(page, shell.sessionId), /phone-marker/);
    assert.deepEqual(pageErrors, []);
  });

  it("the key bar types Esc, Tab, the arrows, Enter and Ctrl+C into the shown terminal", async () => {
    await waitUntil(async () => (await shownCell().getAttribute("data-session-id")) === shell.sessionId, "the shell is not shown");
    // The keys may arrive before cat starts: the terminal's line discipline keeps them for it.
    await rpc(page, "writeTerminal", { sessionId: shell.sessionId, data: "clear; cat -vT\r" });
    for (const key of ["escape", "tab", "up", "left", "enter"]) await page.locator(`[data-testid="key-${key}"]`).tap();
    // `cat -vT` writes back what it read: ESC as ^[, Tab as ^I.
    await waitUntil(async () => (await terminalText(page, shell.sessionId))?.includes("^[^I^[[A^[[D"), "the keys did not arrive as typed");
    await page.locator('[data-testid="key-ctrlC"]').tap();
    await rpc(page, "writeTerminal", { sessionId: shell.sessionId, data: "echo after-$((40+2))\r" });
    await waitUntil(async () => (await terminalText(page, shell.sessionId))?.includes("after-42"), "Ctrl+C did not end cat");
  });

  it("a finger dragged over the terminal scrolls its scrollback", async () => {
    await rpc(page, "writeTerminal", { sessionId: shell.sessionId, data: "seq 1 300\r" });
    const position = () =>
      page.evaluate((id) => {
        const buffer = window.__ideaTerminals[id].buffer.active;
        return { top: buffer.viewportY, bottom: buffer.baseY };
      }, shell.sessionId);
    await waitUntil(async () => (await terminalText(page, shell.sessionId))?.includes("\n300\n"), "seq did not print");
    await waitUntil(async () => (await position()).bottom > 200, "no scrollback");
    const cdp = await page.context().newCDPSession(page);
    const drag = async (from, to) => {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: 195, y: from }] });
      for (let step = 1; step <= 10; step++) {
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: 195, y: from + ((to - from) * step) / 10 }] });
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const { bottom } = await position();
    assert.equal((await position()).top, bottom, "the terminal is not at its bottom");
    // Down: back in time, about a row per row's height (17 px here) dragged.
    await drag(300, 600);
    await waitUntil(async () => (await position()).top < bottom - 10, "a drag down does not scroll back");
    const { top } = await position();
    assert.equal((await page.evaluate(() => document.documentElement.scrollTop)), 0, "the page moved instead");
    await drag(600, 300);
    await waitUntil(async () => (await position()).top > top, "a drag up does not scroll forward");
    await cdp.detach();
  });

  it("opens the panels as full-screen sheets that close again; a jump from one closes it", async () => {
    const fullScreen = async (testId) => {
      const box = await page.locator(`[data-testid="${testId}"]`).boundingBox();
      return box !== null && box.x === 0 && box.y === 0 && box.width === 390 && box.height === 844;
    };
    const cellWidth = async () => (await shownCell().boundingBox()).width;

    await page.locator('[data-testid="toggle-side-panel"]').tap();
    await waitUntil(() => fullScreen("side-panel"), "the side panel is not a full-screen sheet");
    assert.equal(await page.locator('[data-testid="side-panel"]').evaluate((e) => getComputedStyle(e).position), "absolute");
    await page.screenshot({ path: join(SHOTS, "idea-phone-agents.png") });
    // A hover-only control (the agent row's edit and delete) is shown and taps.
    const edit = page.locator('[data-testid="agent-row"] [data-testid="agent-edit"]').first();
    assert.equal(await edit.evaluate((e) => getComputedStyle(e).opacity), "1", "the row's actions wait for a hover that never comes");
    assert.deepEqual(await smallTargets('[data-testid="side-panel"]'), []);
    await edit.tap();
    await page.locator('[data-testid="persona-editor"]').waitFor();
    await page.locator('[data-testid="side-panel-close"]').tap();
    await waitUntil(async () => !(await page.locator('[data-testid="side-panel"]').isVisible()), "the side panel does not close");

    await page.locator('[data-testid="toggle-requests"]').tap();
    await waitUntil(() => fullScreen("requests-panel"), "the requests panel is not a full-screen sheet");
    await page.screenshot({ path: join(SHOTS, "idea-phone-requests.png") });
    // Beneath it the cell keeps its width (it used to shrink to 2 px).
    assert.ok((await cellWidth()) >= 388, "the requests panel squeezes the cell");
    assert.equal(await page.locator('[data-testid="requests-panel"]').evaluate((e) => getComputedStyle(e).display), "flex");
    await page.locator('[data-testid="requests-close"]').tap();
    await waitUntil(async () => (await page.locator('[data-testid="requests-panel"]').count()) === 0, "the requests panel does not close");

    await page.locator('[data-testid="toggle-overview"]').tap();
    await waitUntil(() => fullScreen("sessions-overview"), "the sessions overview is not a full-screen sheet");
    await page.screenshot({ path: join(SHOTS, "idea-phone-sessions.png") });
    await page.locator(`[data-testid="session-row"][data-session-id="${agent.sessionId}"]`).tap();
    await waitUntil(async () => (await page.locator('[data-testid="sessions-overview"]').count()) === 0, "the jump left the overview over the cell");
    await waitUntil(async () => (await shownCell().getAttribute("data-session-id")) === agent.sessionId, "the overview's jump did not show the cell");

    // The command palette: the screen's width, touch-sized rows, a tap below it closes it.
    await page.locator('[data-testid="open-palette"]').tap();
    const palette = page.locator('[data-testid="command-palette"]');
    await palette.waitFor();
    const paletteBox = await palette.boundingBox();
    assert.equal(paletteBox.width, 390, "the palette is not the screen's width");
    const rowHeights = await palette.locator('[role="option"]').evaluateAll((es) => es.map((e) => e.getBoundingClientRect().height));
    assert.ok(rowHeights.length > 0 && rowHeights.every((h) => h >= 44), `palette rows under 44 px: ${rowHeights}`);
    assert.equal(await palette.locator('[role="option"]', { hasText: "Zoom the cell" }).count(), 0, "the palette offers a zoom a phone has no use for");
    await page.screenshot({ path: join(SHOTS, "idea-phone-palette.png") });
    await page.touchscreen.tap(195, paletteBox.y + paletteBox.height + 20);
    await waitUntil(async () => (await palette.count()) === 0, "a tap beside the palette does not close it");
    // The top bar has no Keys button on a phone; the palette still lists the shortcuts.
    assert.equal(await page.locator('[data-testid="open-shortcuts"]').isVisible(), false);
    await page.locator('[data-testid="open-palette"]').tap();
    await palette.locator('[role="option"]', { hasText: "Keyboard shortcuts" }).tap();
    const shortcuts = await page.locator('[data-testid="shortcuts-popover"]').boundingBox();
    assert.ok(shortcuts.x >= 0 && shortcuts.x + shortcuts.width <= 390, "the shortcuts run off the screen");
    await page.touchscreen.tap(195, 700);
    await waitUntil(async () => (await page.locator('[data-testid="shortcuts-popover"]').count()) === 0, "a tap elsewhere does not close the shortcuts");

    // The tab bar: an inactive tab's delete, shown on a desktop's hover, stays out of a tapping
    // finger's way (a tap's hover would show it under the finger); tapping the tab shows that
    // layout, and then its delete.
    const second = await rpc(page, "createLayout", { name: "Second" });
    const tab = page.locator(`[data-testid="tab"][data-layout-id="${second.id}"]`);
    const main = page.locator(`[data-testid="tab"][data-layout-id="${layoutId}"]`);
    // A new layout is shown at once: back to the first, whose tab is then the inactive one.
    await waitUntil(async () => (await tab.getAttribute("data-active")) === "true", "the new layout is not shown");
    await main.tap();
    await waitUntil(async () => (await tab.getAttribute("data-active")) === "false", "the first layout is not shown");
    await tab.tap();
    await waitUntil(async () => (await tab.getAttribute("data-active")) === "true", "tapping the tab did not show its layout");
    assert.equal(await page.locator('[data-testid="confirm-dialog"]').count(), 0, "the tap hit the tab's delete");
    assert.equal(await tab.locator('[data-testid="tab-close"]').evaluate((e) => getComputedStyle(e).visibility), "visible");
    assert.deepEqual(await smallTargets('[data-testid="tabbar"]'), []);
    assert.deepEqual(await overflowing(), []);
    assert.deepEqual(pageErrors, []);
  });

  it("widening to a desktop's size brings back the tiled layout, and narrowing the phone's", async () => {
    // The layout tabs stay within reach: back to the first layout (the new one is shown).
    const main = page.locator(`[data-testid="tab"][data-layout-id="${layoutId}"]`);
    if ((await main.getAttribute("data-active")) !== "true") await main.tap();
    await waitUntil(async () => (await shownCell().getAttribute("data-session-id")) === agent.sessionId, "the first layout's agent is not shown");
    await page.setViewportSize(DESKTOP.viewport);
    await page.locator('[data-testid="app"][data-phone="false"]').waitFor();
    await waitUntil(async () => (await shownCell().count()) === 3, "the tiled layout did not come back");
    assert.equal(await page.locator('[data-testid="key-bar"]').count(), 0);
    assert.equal(await page.locator('[data-testid="cell-switcher"]').count(), 0);
    // A phone held sideways (short, touch): still one cell at a time.
    await page.setViewportSize({ width: 844, height: 390 });
    await page.locator('[data-testid="app"][data-phone="true"]').waitFor();
    await waitUntil(async () => (await shownCell().count()) === 1, "the phone held sideways tiles the cells");
    assert.deepEqual(await overflowing(), []);
    await page.screenshot({ path: join(SHOTS, "idea-phone-landscape.png") });
    await page.setViewportSize(PHONE.viewport);
    await page.locator('[data-testid="app"][data-phone="true"]').waitFor();
    await waitUntil(async () => (await shownCell().count()) === 1, "the phone layout did not come back");
    // The cell shown before widening is shown again.
    assert.equal(await shownCell().getAttribute("data-session-id"), agent.sessionId);
    assert.deepEqual(pageErrors, []);
  });

  it("a desktop at 1440×900 keeps its tiled layout, panels beside the cells, and no phone controls", async () => {
    const context = await browser.newContext(DESKTOP);
    const errors = [];
    const desktop = await openWorkspace(context, server, errors);
    await desktop.locator('[data-testid="app"][data-phone="false"]').waitFor();
    await desktop.locator(`[data-testid="tab"][data-layout-id="${layoutId}"]`).click();
    await waitUntil(async () => (await desktop.locator('[data-testid="cell"]').count()) === 3, "the desktop does not tile the three cells");
    // Read once laid out: right after the tab's click the panels may not have their boxes yet.
    const widthOf = async (testId) => (await desktop.locator(`[data-testid="${testId}"]`).boundingBox())?.width;
    await waitUntil(async () => (await widthOf("side-panel")) === 300, "the side panel is not the desktop's 300 px column");
    const header = await desktop.locator('[data-testid="cell-header"]').first().boundingBox();
    assert.equal(header.height, 26, "the desktop's cell headers changed height");
    assert.equal(await desktop.locator('[data-testid="cell-zoom"]').count() > 0 || (await desktop.locator('[data-testid="cell-more"]').count()) > 0, true);
    for (const absent of ["key-bar", "cell-switcher", "side-panel-close", "cell-list"]) {
      assert.equal(await desktop.locator(`[data-testid="${absent}"]`).count(), 0, `${absent} shows on a desktop`);
    }
    await desktop.locator('[data-testid="toggle-requests"]').click();
    await waitUntil(async () => (await widthOf("requests-panel")) === 340, "the requests panel is not a column beside the cells");
    await desktop.screenshot({ path: join(SHOTS, "idea-phone-desktop.png") });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
