// The stylesheet is alive: each panel has the layout its rules give it. A syntax error once
// dropped a third of the rules (the palette became a bare list pushing the page down, the
// requests panel and the sessions overview lost their layout, every state badge was grey)
// while every other test passed; these checks read computed styles, so a dead rule fails here.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { useWorkspace } from "./helpers.mjs";

/** The computed values of `properties` of the first element matching `selector`. */
const styleOf = (page, selector, properties) =>
  page.locator(selector).first().evaluate(
    (element, names) => Object.fromEntries(names.map((name) => [name, getComputedStyle(element).getPropertyValue(name)])),
    properties,
  );

describe("stylesheet", () => {
  let page;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ page } = opened));

  it("the command palette floats over the page", async () => {
    await page.locator('[data-testid="open-palette"]').click();
    await page.locator('[data-testid="command-palette"]').waitFor();
    const backdrop = await styleOf(page, ".palette-backdrop", ["position", "z-index"]);
    assert.equal(backdrop.position, "fixed");
    assert.equal(backdrop["z-index"], "50");
    const list = await styleOf(page, ".palette-list", ["list-style-type", "overflow-y"]);
    assert.equal(list["list-style-type"], "none");
    assert.equal(list["overflow-y"], "auto");
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="command-palette"]').waitFor({ state: "detached" });
  });

  it("the requests panel and its ask form are laid out in columns", async () => {
    await page.locator('[data-testid="toggle-requests"]').click();
    await page.locator('[data-testid="requests-panel"]').waitFor();
    const panel = await styleOf(page, '[data-testid="requests-panel"]', ["display", "flex-direction", "width"]);
    assert.deepEqual([panel.display, panel["flex-direction"], panel.width], ["flex", "column", "340px"]);
    // The form shows only when some agent is askable: its rule is checked on a form made
    // with the page's own class, inside the panel.
    const form = await page.locator('[data-testid="requests-panel"]').evaluate((panel) => {
      const form = document.createElement("form");
      form.className = "ask-form";
      panel.append(form);
      const { display, flexDirection } = getComputedStyle(form);
      form.remove();
      return [display, flexDirection];
    });
    assert.deepEqual(form, ["flex", "column"]);
    await page.locator('[data-testid="requests-close"]').click();
  });

  it("the sessions overview is a panel of rows in a grid", async () => {
    await page.locator('[data-testid="toggle-overview"]').click();
    await page.locator('[data-testid="sessions-overview"]').waitFor();
    const panel = await styleOf(page, '[data-testid="sessions-overview"]', ["display", "width"]);
    assert.deepEqual([panel.display, panel.width], ["flex", "340px"]);
    const list = await styleOf(page, '[data-testid="session-list"]', ["list-style-type"]);
    assert.equal(list["list-style-type"], "none");
    // No session yet: the row rule is checked on a row made with the page's own classes.
    const row = await page.evaluate(() => {
      const button = document.createElement("button");
      button.className = "session-row";
      document.body.append(button);
      const { display } = getComputedStyle(button);
      button.remove();
      return display;
    });
    assert.equal(row, "grid");
    await page.locator('[data-testid="toggle-overview"]').click();
  });

  it("each agent state has its own badge colour, and 'needs you' is red", async () => {
    const colours = await page.evaluate(() => {
      const states = ["working", "needsYou", "idle", "exited", "failed"];
      return Object.fromEntries(
        states.map((state) => {
          const badge = document.createElement("span");
          badge.className = `badge state-badge state-${state}`;
          document.body.append(badge);
          const { backgroundColor, whiteSpace } = getComputedStyle(badge);
          badge.remove();
          return [state, { backgroundColor, whiteSpace }];
        }),
      );
    });
    assert.equal(colours.needsYou.backgroundColor, "rgb(179, 38, 30)");
    assert.equal(colours.needsYou.whiteSpace, "nowrap");
    const distinct = new Set(Object.values(colours).map((c) => c.backgroundColor));
    assert.equal(distinct.size, 5, `badge colours: ${JSON.stringify(colours)}`);
  });

  it("the permissions panel is a column and its add form lines up", async () => {
    await page.locator('[data-testid="side-tab-permissions"]').click();
    await page.locator('[data-testid="permissions-panel"]').waitFor();
    const panel = await styleOf(page, '[data-testid="permissions-panel"]', ["display", "flex-direction"]);
    assert.deepEqual([panel.display, panel["flex-direction"]], ["flex", "column"]);
    const input = await styleOf(page, ".perm-add input", ["flex-grow", "min-width"]);
    assert.deepEqual([input["flex-grow"], input["min-width"]], ["1", "0px"]);
    await page.locator('[data-testid="side-tab-agents"]').click();
  });

  it("raised no page error", () => {
    assert.deepEqual(pageErrors, []);
  });
});
