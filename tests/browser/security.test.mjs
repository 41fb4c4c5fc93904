// `idea serve`'s locks, seen from a browser: the token (the API refuses a request without it),
// the Origin check (a page on another origin cannot open the WebSocket, even knowing the token),
// and what a page on another local port can learn or do: no cookie reaches it, it cannot frame
// the UI, and the token leaves the address bar once the page has it.

import assert from "node:assert/strict";
import { request as httpRequest, createServer } from "node:http";
import { after, before, describe, it } from "node:test";
import { cells, launchBrowser, startServer, waitForConnection, terminalText, waitUntil } from "./helpers.mjs";

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

  it("(d) serves the static shell to anyone but the API only with the token", async () => {
    assert.equal((await fetch(`${server.origin}/`)).status, 200, "GET / (no secret in it)");
    assert.equal((await fetch(`${server.origin}/ws`)).status, 401, "GET /ws without token");
    assert.equal((await fetch(`${server.origin}/ws?token=not-the-token`)).status, 401, "GET /ws with a wrong token");
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
    // …but never without the token: no cookie stands in for it.
    assert.equal(await tryWebSocket(own, `ws://127.0.0.1:${server.port}/ws`), "refused", "WebSocket without the token");
  });
});

describe("another service on this machine", () => {
  let server;
  let browser;
  let other;
  /** The requests the other service received: `{url, headers}`. */
  const seen = [];
  let otherPort;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // Any local web service the user visits; cookies are not scoped by port.
    other = createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers });
      const frame = new URL(req.url, "http://x").searchParams.get("frame");
      res.writeHead(200, { "content-type": "text/html" });
      res.end(frame ? `<!doctype html><iframe id="idea" src="${frame}" width="800" height="600"></iframe>` : "<!doctype html><p>hello</p>");
    });
    await new Promise((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherPort = other.address().port;
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => other?.close(resolve));
  });

  /** Opens IdeA's link and waits until the UI is connected. */
  async function openIdea(page) {
    await page.goto(server.url);
    await waitForConnection(page, server);
  }

  it("learns no credential when the user visits it after opening IdeA", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openIdea(page);
    await page.goto(`http://127.0.0.1:${otherPort}/visited`);
    const visit = seen.find((r) => r.url === "/visited");
    assert.ok(visit, "the other service was visited");
    assert.equal(visit.headers.cookie, undefined, `cookie sent to another port: ${visit.headers.cookie}`);
    assert.ok(!JSON.stringify(visit.headers).includes(server.token), "the token reached another port");
    assert.deepEqual(await context.cookies(), [], "IdeA set no cookie");
    await context.close();
  });

  it("cannot show IdeA's UI in a frame", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const frameUrl = encodeURIComponent(server.url);
    await page.goto(`http://127.0.0.1:${otherPort}/framer?frame=${frameUrl}`);
    await page.waitForTimeout(2000);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(frame, "the iframe exists");
    // A blocked frame shows the browser's error page: no IdeA, no connection.
    const rendered = await frame
      .evaluate(() => document.querySelector('[data-testid="connection-status"]') !== null)
      .catch(() => false);
    assert.equal(rendered, false, `IdeA rendered inside a frame of another site (${frame.url()})`);
    await context.close();
  });

  it("removes the token from the address bar and keeps working after a reload", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The content policy must not break the UI: the browser reports what it blocks.
    const blocked = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) blocked.push(message.text());
    });
    await openIdea(page);
    const href = await page.evaluate(() => location.href);
    assert.ok(!href.includes(server.token), `the token is still in the address: ${href}`);
    await page.reload();
    await waitForConnection(page, server);
    assert.ok(!page.url().includes(server.token));
    // A terminal (xterm.js) works under the policy.
    await page.locator('[data-testid="picker-shell"]').first().click();
    const sessionId = await waitUntil(async () => (await cells(page)).find((c) => c.sessionId)?.sessionId, "no shell started");
    await waitUntil(async () => ((await terminalText(page, sessionId)) ?? "").trim().length > 0, "no prompt from the shell");
    assert.deepEqual(blocked, [], "the content policy blocked part of the UI");
    // …while an injected inline script is refused.
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.head.append(script);
    });
    await waitUntil(async () => blocked.length > 0, "an inline script was not reported as blocked");
    assert.equal(await page.evaluate(() => window.__injected ?? false), false, "an inline script ran");
    await context.close();
  });

  it("a page opened without the token says how to get in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await page.locator('[data-testid="token-missing"]').waitFor();
    await context.close();
  });
});
