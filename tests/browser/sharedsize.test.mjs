// One size, many clients (issue 18): opening the page on a phone resized a desktop's session
// to 8 columns, its next commands echoed garbled, and the session stayed narrow after the
// phone left. The session now has the size of the client the user last typed in (or asked
// to fit it in); the other client draws it at that size, scrolling, with a "Fit here" note;
// when the leading client leaves, the other gets its size back. The PTY's own size is read by
// `stty size` in the shell.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cells, launchBrowser, terminalText, useWorkspace, waitUntil } from "./helpers.mjs";

/** The xterm's rows and columns of `sessionId` in `page`. */
const termSize = (page, sessionId) =>
  page.evaluate((id) => {
    const term = window.__ideaTerminals?.[id];
    return term ? { rows: term.rows, cols: term.cols } : null;
  }, sessionId);

/** Types `stty size` in `page`'s terminal and returns what the PTY reports, as {rows, cols}. */
async function ptySize(page, sessionId, marker) {
  await page.locator('[data-testid="terminal"]').first().click();
  await page.keyboard.type(`stty size; echo ${marker}-done\n`);
  const answer = new RegExp(`^\\s*(\\d+) (\\d+)\\s*\\n${marker}-done\\s*$`, "m");
  const match = await waitUntil(async () => (await terminalText(page, sessionId))?.match(answer), `${marker}: stty size never answered`);
  return { rows: Number(match[1]), cols: Number(match[2]) };
}

describe("one size for a terminal two clients show", () => {
  let server;
  let desktop;
  const pageErrors = [];

  useWorkspace({ viewport: { width: 1280, height: 800 }, pageErrors }, (opened) => ({ server, page: desktop } = opened));

  it("the phone follows until its user types, and the desktop gets its size back", async () => {
    await desktop.locator('[data-testid="picker-shell"]').first().click();
    const sessionId = await waitUntil(async () => (await cells(desktop))[0]?.sessionId, "no shell session");
    // Fitted, and settled: on a busy machine the layout may still grow the cell after the
    // first fit (the size sampled then is not the one the PTY ends up with).
    const desktopSize = await waitUntil(async () => {
      const size = await termSize(desktop, sessionId);
      await desktop.waitForTimeout(500);
      const again = await termSize(desktop, sessionId);
      return size && size.cols > 100 && size.cols === again?.cols && size.rows === again.rows ? size : null;
    }, "the desktop terminal was never fitted");
    assert.deepEqual(await ptySize(desktop, sessionId, "a"), desktopSize);

    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 600, height: 700 } });
      const phone = await context.newPage();
      phone.on("pageerror", (error) => pageErrors.push(error.message));
      await phone.goto(server.url);
      // The phone draws the session at the desktop's size, scrolled in its cell, and says so.
      await waitUntil(async () => {
        const size = await termSize(phone, sessionId);
        return size?.cols === desktopSize.cols && size.rows === desktopSize.rows;
      }, "the phone did not take the desktop's size");
      const note = phone.locator('[data-testid="size-note"]');
      await note.waitFor();
      assert.match(await note.innerText(), new RegExp(`${desktopSize.cols}×${desktopSize.rows}`));
      assert.equal(await phone.locator(".terminal-host.terminal-overflowing").count(), 1);
      assert.deepEqual(await termSize(desktop, sessionId), desktopSize, "the desktop was resized by the phone");
      assert.deepEqual(await ptySize(desktop, sessionId, "b"), desktopSize, "the PTY was resized by the phone");

      // The phone's user types: the phone leads, the desktop follows and says so.
      const phoneSize = await ptySize(phone, sessionId, "c");
      assert.ok(phoneSize.cols < desktopSize.cols, `phone ${JSON.stringify(phoneSize)}`);
      assert.deepEqual(await termSize(phone, sessionId), phoneSize);
      assert.equal(await note.count(), 0, "the leading client shows no note");
      await waitUntil(async () => (await termSize(desktop, sessionId))?.cols === phoneSize.cols, "the desktop did not follow the phone");
      const desktopNote = desktop.locator('[data-testid="size-note"]');
      await desktopNote.waitFor();

      // "Fit here" on the desktop gives it the size back.
      await desktopNote.click();
      await waitUntil(async () => (await termSize(desktop, sessionId))?.cols === desktopSize.cols, "Fit here did not fit the desktop");
      assert.deepEqual(await ptySize(desktop, sessionId, "d"), desktopSize);
      await waitUntil(async () => (await termSize(phone, sessionId))?.cols === desktopSize.cols, "the phone did not follow the desktop");

      // The phone leads again, then leaves: the desktop gets its size back without typing.
      assert.deepEqual(await ptySize(phone, sessionId, "e"), phoneSize);
      await waitUntil(async () => (await termSize(desktop, sessionId))?.cols === phoneSize.cols, "the desktop did not follow the phone");
      await phone.close();
      await waitUntil(async () => (await termSize(desktop, sessionId))?.cols === desktopSize.cols, "the desktop did not get its size back");
      assert.equal(await desktop.locator('[data-testid="size-note"]').count(), 0);
      assert.deepEqual(await ptySize(desktop, sessionId, "f"), desktopSize);
    } finally {
      await browser.close();
    }
    assert.deepEqual(pageErrors, []);
  });
});
