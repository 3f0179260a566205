/**
 * The bundled extension in a real headless Chromium: loaded from the bundled assets, pointed at a loopback corpus
 * server through `chrome.storage.local.serverPort` (as `mapper browser start` does), it loads the corpus, resolves
 * the one most specific view (a `:param` route beating a `**` one declared first, later a `**` route), resolves a
 * hovered and a clicked element to the right component path with extracted properties (CSS sub-selector, transform),
 * relays both to the side panel, and picks up a new corpus version through cheap conditional polls. The shared
 * route-case table runs inside the extension too, on the resolver.js it ships.
 */
import assert from "node:assert/strict";
import { assetsUnder } from "../src/assets.ts";
import { extensionId as idOfKey } from "../src/browser/extension.ts";
import { tempDir } from "./_helpers.ts";
import { launchWithExtension, until } from "./_extension_harness.ts";
import { skipBrowserTests } from "./site/harness.ts";
import routeCases from "./fixtures/route_cases.json" with { type: "json" };

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Item</title></head>
<body style="margin:0;font:16px sans-serif">
  <header id="header">Shop</header>
  <main>
    <div class="card" data-label="First" style="padding:20px">
      <h2 class="title">First item</h2>
      <button class="buy" style="width:200px;height:60px">Buy  now</button>
    </div>
    <p class="free">Nothing to see</p>
  </main>
</body></html>`;

function corpusV1() {
  return {
    site: "shop",
    version: 1000,
    memory: [],
    globals: [], // no globals: hover must work anyway
    views: [
      {
        // Declared first and matching /items/42 too, but less specific (3 < 5): never active there.
        name: "AnyItem",
        route: "/items/**",
        memory: [],
        requests: [],
        components: [{ name: "Loose", selector: ".card", parentChain: [], properties: [] }],
      },
      {
        name: "Item",
        route: "/items/:id/",
        memory: [],
        requests: [],
        components: [
          {
            name: "Card",
            selector: ".card",
            parentChain: [],
            properties: [
              { name: "label", extract: "attr=data-label" },
              { name: "has_buy", extract: "exists:BuyButton" },
              { name: "title", extract: "h2.title", transform: "first_word" },
            ],
          },
          {
            name: "BuyButton",
            selector: ".card .buy",
            parentChain: ["Card"],
            properties: [{ name: "text", extract: "text" }],
          },
        ],
      },
      {
        name: "Other",
        route: "/other/**",
        memory: [],
        requests: [],
        components: [{
          name: "Free",
          selector: ".free",
          parentChain: [],
          properties: [{ name: "note", extract: "text", transform: "last_word" }],
        }],
      },
    ],
    requests: [],
    messages: [],
  };
}

/** A loopback corpus server with ETag support on `/mapper/version`, which also serves the test page. */
function corpusServer() {
  let corpus: ReturnType<typeof corpusV1> = corpusV1();
  const hits = { corpus: 0, version: 0, notModified: 0 };
  const cors = { "Access-Control-Allow-Origin": "*", "Content-Type": "application/json" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/mapper") {
      hits.corpus++;
      return new Response(JSON.stringify(corpus), { headers: cors });
    }
    if (path === "/mapper/version") {
      hits.version++;
      const etag = `"${corpus.version}"`;
      if (req.headers.get("If-None-Match") === etag) {
        hits.notModified++;
        return new Response(null, { status: 304, headers: { ...cors, ETag: etag } });
      }
      return new Response(JSON.stringify({ version: corpus.version }), { headers: { ...cors, ETag: etag } });
    }
    if (path.startsWith("/items/") || path.startsWith("/other/")) {
      return new Response(PAGE, { headers: { "Content-Type": "text/html" } });
    }
    return new Response("not found", { status: 404 });
  });
  return {
    port: server.addr.port,
    hits,
    set(next: ReturnType<typeof corpusV1>) {
      corpus = next;
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

Deno.test({
  name:
    "extension e2e - loads the corpus, resolves hover and click to the component path, follows version changes and server switches",
  ignore: skipBrowserTests(),
}, async () => {
  await using dir = await tempDir("mapper-ext-e2e-");
  await using server = corpusServer();
  await using b = await launchWithExtension(dir);
  const { cdp, evaluate, logs, exceptions, extensionId } = b;
  const workerSession = b.worker;
  const attach = async (targetId: string) =>
    (await cdp.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true })).sessionId;

  // The manifest key fixes the id, so the daemon's guard knows the one origin it lets through.
  const key = JSON.parse(assetsUnder("extension/").find(([p]) => p === "manifest.json")![1]).key;
  assert.equal(extensionId, await idOfKey(key));
  // Announce the server port, as `mapper browser start` does.
  await b.announce(server.port);
  assert.equal(await evaluate(workerSession, `chrome.runtime.getManifest().name`), "Mapper Overlay");

  // The page: attach first so no console line is missed, then navigate.
  const { targetId: pageTarget } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
  const page = await attach(pageTarget);
  await cdp.send("Runtime.enable", {}, page);
  await cdp.send("Page.enable", {}, page);
  await cdp.send("Page.navigate", { url: `http://127.0.0.1:${server.port}/items/42` }, page);
  await until("the content script to load the corpus", () => logs(page).some((l) => l.includes("[mapper] loaded")));
  assert.ok(logs(page).includes("[mapper] loaded 4 components from shop v1000"), logs(page).join("\n"));
  await until("the active view line", () => logs(page).some((l) => l.startsWith("[mapper] active view")));
  assert.ok(logs(page).includes("[mapper] active view on /items/42: Item"), logs(page).join("\n"));
  // A side panel (opened as a page of its own window) turns the overlay on and receives the relayed events.
  const { targetId: panelTarget } = await cdp.send<{ targetId: string }>("Target.createTarget", {
    url: `chrome-extension://${extensionId}/side-panel.html`,
    newWindow: true,
  });
  const panel = await attach(panelTarget);
  await cdp.send("Runtime.enable", {}, panel);
  await until("the side panel status", async () => {
    const text = await evaluate(panel, `document.getElementById("status")?.textContent`);
    return text === "shop · 4 components · v1000" ? text : undefined;
  });

  // What the DevTools panel shows: the tab's active views and how many elements each component matches.
  const inspect = `(async () => {
    const [tab] = await chrome.tabs.query({ url: "http://127.0.0.1/*" });
    return await chrome.runtime.sendMessage({ type: "inspect", tabId: tab.id });
  })()`;
  const picture = await evaluate(panel, inspect) as {
    view: { name: string; params: Record<string, string> } | null;
    components: Array<{ name: string; view: string | null; count: number }>;
  };
  assert.deepEqual([picture.view?.name, picture.view?.params], ["Item", { id: "42" }]);
  assert.deepEqual(picture.components.map((c) => [c.name, c.view, c.count]), [
    ["Card", "Item", 1],
    ["BuyButton", "Item", 1],
  ]);

  // The DevTools panel page, opened as a tab with a stand-in for the `chrome.devtools` API (real DevTools cannot
  // be opened in headless Chromium): it lists the inspected tab's components with their match counts.
  const tabId = await evaluate(panel, `chrome.tabs.query({ url: "http://127.0.0.1/*" }).then(([t]) => t.id)`);
  const { targetId: devtoolsTarget } = await cdp.send<{ targetId: string }>("Target.createTarget", {
    url: "about:blank",
    newWindow: true,
  });
  const devtools = await attach(devtoolsTarget);
  await cdp.send("Page.enable", {}, devtools);
  await cdp.send("Runtime.enable", {}, devtools);
  await cdp.send("Page.addScriptToEvaluateOnNewDocument", {
    source:
      `chrome.devtools = { inspectedWindow: { tabId: ${tabId} }, network: { onNavigated: { addListener() {} } } };`,
  }, devtools);
  await cdp.send("Page.navigate", { url: `chrome-extension://${extensionId}/panel.html` }, devtools);
  const rows = await until("the DevTools panel's component table", async () => {
    const text = await evaluate(
      devtools,
      `[...document.querySelectorAll("#components tr")].map((r) => [...r.cells].map((c) => c.textContent).join("|"))`,
    ) as string[] | undefined;
    return text?.length ? text : undefined;
  });
  assert.deepEqual(rows, ["Card|Item|.card|1", "BuyButton|Item|.card .buy|1"]);
  assert.equal(
    await evaluate(devtools, `document.getElementById("status").textContent`),
    "shop · 4 components · v1000",
  );

  // Hover the buy button.
  await cdp.send("Page.bringToFront", {}, page);
  const box = await evaluate(
    page,
    `(() => { const r = document.querySelector(".buy").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
  ) as [number, number];
  const expected = '[Card label="First" has_buy="true" title="First"] > [BuyButton text="Buy now"]';
  await until("the hover path in the side panel", async () => {
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 5, y: 5 }, page);
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box[0], y: box[1] }, page);
    const formatted = await evaluate(panel, `document.getElementById("hover").dataset.formatted`);
    return formatted === expected ? formatted : undefined;
  });
  // The overlay is drawn on the page (a closed shadow root; its host is the only trace in the page DOM).
  assert.equal(await evaluate(page, `document.querySelectorAll("#__mapper-overlay").length`), 1);

  // Click it: the content script logs the event and the side panel lists it.
  for (const type of ["mousePressed", "mouseReleased"] as const) {
    await cdp.send("Input.dispatchMouseEvent", { type, x: box[0], y: box[1], button: "left", clickCount: 1 }, page);
  }
  await until("the click log line", () => logs(page).includes(`[mapper] click ${expected}`));
  await until("the click in the side panel", async () => {
    const formatted = await evaluate(panel, `document.querySelector("#events .event")?.dataset.formatted`);
    return formatted === `click ${expected}` ? formatted : undefined;
  });
  assert.equal(await evaluate(devtools, `document.getElementById("hover").textContent`), expected);
  await until("the click in the DevTools panel", async () => {
    const line = await evaluate(devtools, `document.querySelector("#events .event .path")?.textContent`);
    return line === expected ? line : undefined;
  });

  // The version poll is conditional: once the server sent an ETag, unchanged versions cost a 304.
  await until("a 304 on /mapper/version", () => server.hits.notModified > 0, 8000);
  const fullFetches = server.hits.corpus;
  assert.equal(fullFetches, 1, "one full /mapper fetch for the whole browser, not one per tab or per tick");

  // A new version is picked up within a poll or two.
  const v2 = corpusV1();
  v2.version = 2000;
  (v2.globals as unknown[]).push({ name: "SiteHeader", selector: "#header", parentChain: [], properties: [] });
  server.set(v2);
  await until(
    "the corpus update",
    () => logs(page).includes("[mapper] corpus updated v1000 → v2000: 5 components from shop"),
    8000,
  );
  await until("the side panel status after the update", async () => {
    const text = await evaluate(panel, `document.getElementById("status")?.textContent`);
    return text === "shop · 5 components · v2000" ? text : undefined;
  });

  // A single-page navigation re-evaluates the active view: a `**` route now, with its own components.
  await evaluate(page, `history.pushState({}, "", "/other/deep/path")`);
  await until("the view after pushState", async () => {
    const after = await evaluate(panel, inspect) as { view: { name: string } | null };
    return after.view?.name === "Other" ? true : undefined;
  });
  const free = await evaluate(
    page,
    `(() => { const r = document.querySelector(".free").getBoundingClientRect(); return [r.x + 5, r.y + r.height / 2]; })()`,
  ) as [number, number];
  await until("the hover path on the ** route", async () => {
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 1, y: 1 }, page);
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: free[0], y: free[1] }, page);
    const formatted = await evaluate(panel, `document.getElementById("hover").dataset.formatted`);
    return formatted === '[Free note="see"]' ? formatted : undefined;
  });

  // The shared route-case table, run by the resolver.js the extension ships (same table as tests/resolver_test.ts).
  const failures = await evaluate(
    panel,
    `import(new URL("resolver.js", location.href).href).then(({ matchRoute, resolveView }) => {
      const table = ${JSON.stringify(routeCases)};
      const out = [];
      for (const c of table.matches) {
        const got = JSON.stringify(matchRoute(c.route, c.url));
        if (got !== JSON.stringify(c.params)) out.push(c.route + " vs " + c.url + ": " + got);
      }
      for (const c of table.resolve) {
        const views = c.routes.map((route) => ({ route }));
        const hit = resolveView({ views }, c.url);
        const got = hit === null ? null : views.indexOf(hit.view);
        if (got !== c.view) out.push(c.routes.join(" ") + " on " + c.url + ": " + got);
      }
      return out;
    })`,
  );
  assert.deepEqual(failures, []);

  // An empty corpus is loaded and shown as empty, not treated as "not ready".
  server.set({ ...corpusV1(), version: 3000, views: [] });
  await until(
    "the empty corpus",
    () => logs(page).includes("[mapper] corpus updated v2000 → v3000: 0 components from shop"),
    8000,
  );
  await until("the side panel status for an empty corpus", async () => {
    const text = await evaluate(panel, `document.getElementById("status")?.textContent`);
    return text === "shop · empty corpus (0 components) · v3000" ? text : undefined;
  });
  // Announcing another server port switches to that server at once.
  await using other = corpusServer();
  other.set({ ...corpusV1(), site: "other", version: 5 });
  await evaluate(workerSession, `chrome.storage.local.set({ serverPort: ${other.port} })`);
  await until("the switch to the announced server", async () => {
    const text = await evaluate(panel, `document.getElementById("status")?.textContent`);
    return text === "other · 4 components · v5" ? text : undefined;
  });
  await until(
    "the page to follow the switch",
    () => logs(page).includes("[mapper] corpus updated v3000 → v5: 4 components from other"),
  );

  assert.deepEqual(exceptions, [], "no uncaught exception in the worker, the page or the side panel");
});
