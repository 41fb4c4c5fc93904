// `idea serve`'s two locks, seen from a browser: the token (401 without it) and the Origin
// check (a page on another origin cannot open the WebSocket, even knowing the token).

import assert from "node:assert/strict";
import { request as httpRequest, createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { launchBrowser, startServer } from "./helpers.mjs";

/** A raw HTTP GET with chosen headers (fetch would not let us set `Origin`). */
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Opens a WebSocket from inside `page`; resolves to "open" or "refused". */
function tryWebSocket(page, wsUrl) {
  return page.evaluate(
    (url) =>
      new Promise((resolve) => {
        const socket = new WebSocket(url);
        const timer = setTimeout(() => resolve("timeout"), 5000);
        socket.onopen = () => {
          clearTimeout(timer);
          socket.close();
          resolve("open");
        };
        socket.onerror = () => {
          clearTimeout(timer);
          resolve("refused");
        };
      }),
    wsUrl,
  );
}

describe("token and origin", () => {
  let server;
  let browser;
  let foreign;
  let foreignUrl;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // A page on another origin (another port of localhost), as a malicious site would be.
    foreign = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>elsewhere</title><p>another site</p>");
    });
    await new Promise((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    foreignUrl = `http://localhost:${foreign.address().port}/`;
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => foreign?.close(resolve));
  });

  it("(d) answers 401 without the token", async () => {
    const page = await fetch(`${server.origin}/`);
    assert.equal(page.status, 401, "GET / without token");
    assert.equal((await fetch(`${server.origin}/?token=not-the-token`)).status, 401, "GET / with a wrong token");
    assert.equal((await fetch(`${server.origin}/ws`)).status, 401, "GET /ws without token");
    assert.equal((await fetch(`${server.url}`)).status, 200, "GET / with the token");
  });

  it("(d) refuses a foreign Origin with 403", async () => {
    const withToken = `${server.origin}/?token=${server.token}`;
    assert.equal(await get(withToken, { Origin: "http://evil.example" }), 403);
    assert.equal(await get(withToken, { Origin: `http://localhost:${server.port + 1}` }), 403);
    assert.equal(await get(withToken, { Origin: server.origin }), 200, "its own origin is fine");
  });

  it("(d) a page on another origin cannot open the WebSocket, even with the token", async () => {
    const wsUrl = `ws://127.0.0.1:${server.port}/ws?token=${server.token}`;
    const page = await browser.newPage();
    await page.goto(foreignUrl);
    assert.equal(await tryWebSocket(page, wsUrl), "refused", "WebSocket from another origin");

    // Control: the same socket from IdeA's own page opens.
    const own = await browser.newPage();
    await own.goto(server.url);
    assert.equal(await tryWebSocket(own, wsUrl), "open", "WebSocket from IdeA's own page");
    // …and with the cookie alone (the page set it), without the token in the address.
    assert.equal(await tryWebSocket(own, `ws://127.0.0.1:${server.port}/ws`), "open", "WebSocket with the cookie only");
  });
});
