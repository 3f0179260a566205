/**
 * The surfaces people look at, in a real headless Chromium with the bundled extension: the side panel's corpus
 * health (amber for warnings, red for a failed recompile, `file:line` for each problem) and component table (match
 * counts, first-match values, zero-match and invalid selectors marked, a click outlines every match); the overlay
 * (labelled ancestor outlines, a tooltip that never covers the hovered target, hover cleared on navigation, typed
 * values logged with passwords masked, `text` joining block elements with spaces); and the extension staying on the
 * server `mapper browser start` announced when it stops. Screenshots go to `$MAPPER_SCREENSHOTS` when it is set
 * (`MAPPER_SCREENSHOTS=/tmp/shots deno test -A tests/extension_surfaces_test.ts`), else to the test's temp dir.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CdpConnection } from "../src/browser/cdp.ts";
import { tempDir } from "./_helpers.ts";
import { type ExtensionBrowser, launchWithExtension, serve, until } from "./_extension_harness.ts";
import { skipBrowserTests } from "./site/harness.ts";

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Shop</title></head>
<body style="margin:0;font:16px sans-serif">
  <header id="top" style="padding:6px 10px;background:#eee">Shop header</header>
  <main style="padding:40px 30px">
    <section class="list" style="display:flex;gap:24px;padding:30px 10px 10px">
      <div class="card" style="border:1px solid #ccc;padding:24px 12px;width:220px">
        <div class="title">Red</div><div class="sub">shoe</div><button class="buy">Buy</button>
      </div>
      <div class="card" style="border:1px solid #ccc;padding:24px 12px;width:220px">
        <div class="title">Blue</div><div class="sub">boot</div><button class="buy">Buy</button>
      </div>
    </section>
    <form style="margin-top:30px"><input id="q" placeholder="Search"> <input id="pw" type="password"></form>
  </main>
</body></html>`;

const component = (name: string, selector: string, parentChain: string[] = [], properties: unknown[] = []) => ({
  name,
  selector,
  parentChain,
  properties,
});

function corpus(site = "shop", version = 1000) {
  return {
    site,
    version,
    memory: [],
    globals: [component("SiteHeader", "#top", [], [{ name: "text", extract: "text" }])],
    views: [{
      name: "Shop",
      route: "/shop/**",
      memory: [],
      requests: [],
      components: [
        component("List", ".list"),
        component("Card", ".list .card", ["List"], [
          { name: "name", extract: "text" }, // <div>Red</div><div>shoe</div><button>Buy</button>
          { name: "title", extract: ".title" },
        ]),
        component("BuyButton", ".list .card .buy", ["List", "Card"]),
        component("Missing", ".nope"),
        component("Broken", "div:oops"),
        component("Search", "#q"),
        component("Password", "#pw"),
      ],
    }],
    requests: [],
    messages: [],
  };
}

const WARNING = {
  ok: true,
  diagnostics: [{
    code: "unknown-field",
    severity: "warning",
    message: 'unknown field "colour"',
    file: "views/shop.yaml",
    line: 7,
    column: 5,
  }],
  result: { files: 1, errors: 0, warnings: 1 },
  version: 1000,
  servedVersion: 1000,
  stale: false,
};

const STALE = {
  ok: false,
  diagnostics: [{
    code: "yaml-syntax",
    severity: "error",
    message: "bad indentation of a mapping entry",
    file: "views/shop.yaml",
    line: 12,
    column: 3,
  }],
  result: { files: 1, errors: 1, warnings: 0 },
  version: 1001,
  servedVersion: 1000,
  stale: true,
};

/** A corpus server like `mapper serve-mapper`: `/mapper`, `/mapper/version`, `/mapper/diagnostics`, and the page. */
function corpusServer(site = "shop", port = 0, version = 1000) {
  const state = { corpus: corpus(site, version), diagnostics: WARNING as unknown, hits: 0 };
  const cors = { "Access-Control-Allow-Origin": "*", "Content-Type": "application/json" };
  const json = (body: unknown, req: Request) => {
    const etag = `"${JSON.stringify(body).length}-${state.corpus.version}-${(body as { version?: number }).version}"`;
    if (req.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
    return new Response(JSON.stringify(body), { headers: { ...cors, ETag: etag } });
  };
  const server = serve((req) => {
    state.hits++;
    const path = new URL(req.url).pathname;
    if (path === "/mapper") return json(state.corpus, req);
    if (path === "/mapper/version") return json({ version: state.corpus.version }, req);
    if (path === "/mapper/diagnostics") return json(state.diagnostics, req);
    if (path.startsWith("/shop/")) return new Response(PAGE, { headers: { "Content-Type": "text/html" } });
    return new Response("not found", { status: 404 });
  }, port);
  return Object.assign(server, { state });
}

/** Screenshots land in `$MAPPER_SCREENSHOTS` when set (to look at them), else in the test's temp dir. */
function shotPath(fallback: string, name: string): string {
  const dir = Deno.env.get("MAPPER_SCREENSHOTS");
  if (dir) Deno.mkdirSync(dir, { recursive: true });
  return join(dir ?? fallback, name);
}

/** One node of the overlay's closed shadow root (reached through CDP, which sees closed roots). */
interface OverlayNode {
  nodeId: number;
  classes: string[];
  hidden: boolean;
  text: string;
}

type DomNode = {
  nodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
};

/** Every element in the overlay's shadow root, with its classes, `hidden` and text. */
async function overlayNodes(cdp: CdpConnection, page: string): Promise<OverlayNode[]> {
  const { root } = await cdp.send<{ root: DomNode }>("DOM.getDocument", { depth: -1, pierce: true }, page);
  const find = (n: DomNode): DomNode | undefined =>
    n.nodeName === "MAPPER-OVERLAY" ? n : (n.children ?? []).map(find).find((x) => x !== undefined);
  const host = find(root);
  const out: OverlayNode[] = [];
  const text = (n: DomNode): string => n.nodeType === 3 ? n.nodeValue ?? "" : (n.children ?? []).map(text).join("");
  const walk = (n: DomNode) => {
    const attrs = n.attributes ?? [];
    const cls = attrs[attrs.indexOf("class") + 1];
    if (attrs.includes("class") && cls !== undefined) {
      out.push({ nodeId: n.nodeId, classes: cls.split(" "), hidden: attrs.includes("hidden"), text: text(n) });
    }
    for (const c of n.children ?? []) walk(c);
  };
  for (const shadow of host?.shadowRoots ?? []) walk(shadow);
  return out;
}

/** The viewport rectangle of a node (its border box). */
async function rectOf(cdp: CdpConnection, page: string, nodeId: number) {
  const { model } = await cdp.send<{ model: { border: number[] } }>("DOM.getBoxModel", { nodeId }, page);
  const [x1, y1, , , x2, y2] = model.border as [number, number, number, number, number, number];
  return { left: x1, top: y1, right: x2, bottom: y2 };
}

/**
 * The overlay nodes `pick` chooses, each with its rectangle. The overlay may redraw between reading its tree and
 * measuring a node (the node ids then vanish), so both are read again together until one pass succeeds.
 */
async function overlayRects(
  b: ExtensionBrowser,
  page: string,
  what: string,
  pick: (nodes: OverlayNode[]) => OverlayNode[] | undefined,
) {
  return await until(what, async () => {
    const nodes = pick(await overlayNodes(b.cdp, page));
    if (nodes === undefined) return undefined;
    return await Promise.all(nodes.map(async (node) => ({ node, rect: await rectOf(b.cdp, page, node.nodeId) })));
  });
}

/** Center of an element of the page (viewport coordinates), and its rectangle. */
async function box(b: ExtensionBrowser, page: string, selector: string) {
  return await b.evaluate(
    page,
    `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })()`,
  ) as { x: number; y: number; left: number; top: number; right: number; bottom: number };
}

/** Opens the test page and the side panel; waits until the page has the corpus and the panel its status. */
async function openShop(b: ExtensionBrowser, port: number) {
  await b.announce(port);
  const page = await b.open(`http://127.0.0.1:${port}/shop/list`);
  await until("the content script to load the corpus", () => b.logs(page).some((l) => l.includes("[mapper] loaded")));
  // Headless Chromium has no side-panel UI: the panel opens as a page of its own window, where "the active tab of
  // the current window" would be the panel itself; it is pointed at the shop tab, as the real side panel would be.
  const panel = await b.open("about:blank");
  await b.cdp.send("Page.addScriptToEvaluateOnNewDocument", {
    source: `if (globalThis.chrome?.tabs) {
      const query = chrome.tabs.query.bind(chrome.tabs);
      chrome.tabs.query = (info) => query(info.active ? { url: "http://127.0.0.1/*" } : info);
    }`,
  }, panel);
  await b.cdp.send("Page.navigate", { url: `chrome-extension://${b.extensionId}/side-panel.html` }, panel);
  await until("the side panel status", async () => {
    const text = await b.evaluate(panel, `document.getElementById("status")?.textContent`) as string;
    return text?.startsWith("shop · 8 components · v1000") ? text : undefined;
  });
  await b.cdp.send("Emulation.setDeviceMetricsOverride", {
    width: 420,
    height: 760,
    deviceScaleFactor: 1,
    mobile: false,
  }, panel);
  return { page, panel };
}

const panelText = (b: ExtensionBrowser, panel: string, id: string) =>
  b.evaluate(panel, `document.getElementById(${JSON.stringify(id)})?.textContent`) as Promise<string>;

Deno.test({
  name: "extension side panel - corpus problems turn it amber or red with file:line, the component table lists " +
    "counts, values, zero-match and invalid rows, and a click outlines every match",
  ignore: skipBrowserTests(),
}, async () => {
  await using dir = await tempDir("mapper-ext-panel-");
  await using server = corpusServer();
  await using b = await launchWithExtension(dir);
  const { page, panel } = await openShop(b, server.port);

  // Warnings: amber, counted in the status line, each listed as file:line:col.
  await until(
    "the amber state",
    async () => (await panelText(b, panel, "status")).includes("corpus: 0 errors, 1 warning"),
  );
  assert.match(await b.evaluate(panel, `document.getElementById("dot").className`) as string, /\bwarn\b/);
  assert.equal(
    await panelText(b, panel, "problems"),
    'views/shop.yaml:7:5 warning unknown-field: unknown field "colour"',
  );

  // The component table: every active component (the global first), its count and first-match values.
  const readRows = () =>
    b.evaluate(
      panel,
      `[...document.querySelectorAll("#components tbody tr.component")].map((r) =>
        [r.className.replace("component", "").trim(), ...[...r.cells].map((c) => c.textContent.trim())].join(" | "))`,
    ) as Promise<string[]>;
  const rows = await until("the component table", async () => {
    const r = await readRows();
    return r.length === 8 ? r : undefined;
  });
  assert.deepEqual(rows, [
    ' | SiteHeader global | 1 | text="Shop header"',
    " | List Shop | 1 | (no properties)",
    ' | Card Shop | 2 | name="Red shoe Buy"title="Red"',
    " | BuyButton Shop | 2 | (no properties)",
    "zero | Missing Shop | 0 ✗ | no match on this page",
    "invalid | Broken Shop | invalid | selector div:oops does not parse",
    " | Search Shop | 1 | (no properties)",
    " | Password Shop | 1 | (no properties)",
  ]);

  // A click on a row outlines every match on the page, labelled; a second click clears them.
  const outlines = async () => (await overlayNodes(b.cdp, page)).filter((n) => n.classes.includes("match"));
  await b.evaluate(panel, `document.querySelector('#components tr[data-name="Card"]').click()`);
  const drawn = await until("the outlines of every Card", async () => {
    const o = await outlines();
    return o.length === 2 ? o : undefined;
  });
  assert.deepEqual(drawn.map((n) => n.text), ["Card 1", "Card 2"]);
  const cards = await b.evaluate(
    page,
    `[...document.querySelectorAll(".card")].map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.top]; })`,
  ) as Array<[number, number]>;
  const placed = await overlayRects(b, page, "the Card outlines' rectangles", (all) => {
    const o = all.filter((n) => n.classes.includes("match"));
    return o.length === 2 ? o : undefined;
  });
  for (const [i, { rect: r }] of placed.entries()) {
    assert.deepEqual([Math.round(r.left), Math.round(r.top)], cards[i]!.map(Math.round), "outline on its card");
  }
  await until("the outlined row marked", async () => {
    const cls = await b.evaluate(panel, `document.querySelector('#components tr[data-name="Card"]').className`);
    return /\boutlined\b/.test(cls as string);
  });
  await b.cdp.send("Page.bringToFront", {}, page);
  await b.screenshot(page, shotPath(dir.path, "page-outlines.png"));
  await b.screenshot(panel, shotPath(dir.path, "side-panel-amber-table.png"));
  await b.evaluate(panel, `document.querySelector('#components tr[data-name="Card"]').click()`);
  await until("the outlines to go", async () => (await outlines()).length === 0);

  // A failed recompile: red, the stale corpus said, the error at its file:line.
  server.state.diagnostics = STALE;
  await until("the red state", async () => (await panelText(b, panel, "status")).includes("did not compile"));
  assert.match(await b.evaluate(panel, `document.getElementById("dot").className`) as string, /\berror\b/);
  assert.match(
    await panelText(b, panel, "problems"),
    /views\/shop\.yaml:12:3 error yaml-syntax: bad indentation/,
  );
  await b.screenshot(panel, shotPath(dir.path, "side-panel-red.png"));
  assert.deepEqual(b.exceptions, []);
});

Deno.test({
  name: "extension overlay - labelled ancestor outlines, a tooltip beside the target, hover cleared on navigation, " +
    "typed values logged with passwords masked",
  ignore: skipBrowserTests(),
}, async () => {
  await using dir = await tempDir("mapper-ext-overlay-");
  await using server = corpusServer();
  await using b = await launchWithExtension(dir);
  const { page, panel } = await openShop(b, server.port);
  await b.cdp.send("Page.bringToFront", {}, page);
  const hoverFormatted = () => b.evaluate(panel, `document.getElementById("hover").dataset.formatted`);
  const hover = async (selector: string, expected: string) => {
    const at = await box(b, page, selector);
    await until(`the hover path of ${selector}`, async () => {
      await b.cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 400, y: 700 }, page);
      await b.cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: at.x, y: at.y }, page);
      return await hoverFormatted() === expected;
    });
    return at;
  };

  // Hover a button two components deep: each ancestor outlined and labelled, the innermost solid.
  const buy = await hover(".card .buy", '[List] > [Card name="Red shoe Buy" title="Red"] > [BuyButton]');
  const nodes = await until("the overlay boxes", async () => {
    const n = (await overlayNodes(b.cdp, page)).filter((x) => x.classes.includes("box"));
    return n.length === 3 ? n : undefined;
  });
  assert.deepEqual(nodes.map((n) => [n.text, n.classes.includes("inner")]), [
    ["List", false],
    ["Card", false],
    ["BuyButton", true],
  ]);
  const tipOf = (all: OverlayNode[]) => {
    const t = all.find((n) => n.classes.includes("tip"));
    return t ? [t] : undefined;
  };
  const { node: tip, rect: tipRect } = (await overlayRects(b, page, "the tooltip", tipOf))[0]!;
  assert.equal(tip.hidden, false);
  const overlaps = (a: { left: number; top: number; right: number; bottom: number }, r: typeof a) =>
    a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom;
  assert.ok(!overlaps(tipRect, buy), `the tooltip ${JSON.stringify(tipRect)} covers the target ${JSON.stringify(buy)}`);
  await b.screenshot(page, shotPath(dir.path, "overlay-hover.png"));

  // A target touching the top edge: the tooltip goes below it, still inside the viewport.
  const header = await hover("#top", '[SiteHeader text="Shop header"]');
  const { rect: tipRect2 } = (await overlayRects(b, page, "the tooltip", tipOf))[0]!;
  assert.ok(!overlaps(tipRect2, header), `the tooltip covers the header: ${JSON.stringify([tipRect2, header])}`);
  assert.ok(tipRect2.top >= 0 && tipRect2.left >= 0, "inside the viewport");
  await b.screenshot(page, shotPath(dir.path, "overlay-hover-top.png"));

  // A single-page navigation clears the hover: no boxes, no tooltip, and the side panel forgets the path.
  await b.evaluate(page, `history.pushState({}, "", "/shop/elsewhere")`);
  await until("the hover cleared after pushState", async () => await hoverFormatted() === "");
  const after = await overlayNodes(b.cdp, page);
  assert.equal(after.filter((n) => n.classes.includes("box")).length, 0);
  assert.equal(after.find((n) => n.classes.includes("tip"))?.hidden, true);
  assert.equal(await panelText(b, panel, "hover"), "hover the page");

  // So does a full load.
  await hover(".card .buy", '[List] > [Card name="Red shoe Buy" title="Red"] > [BuyButton]');
  await b.cdp.send("Page.navigate", { url: `http://127.0.0.1:${server.port}/shop/list` }, page);
  await until("the hover cleared after a full load", async () => await hoverFormatted() === "");

  // Typing is logged with the value typed; a password's value is masked.
  await until(
    "the corpus on the new page",
    () => b.logs(page).filter((l) => l.includes("[mapper] loaded")).length >= 2,
  );
  await b.evaluate(page, `document.getElementById("q").focus()`);
  await b.cdp.send("Input.insertText", { text: "red shoes" }, page);
  await until("the typed value in the log", () => b.logs(page).includes('[mapper] input [Search] value="red shoes"'));
  await b.evaluate(page, `document.getElementById("pw").focus()`);
  await b.cdp.send("Input.insertText", { text: "hunter2" }, page);
  await until("the masked password", () => b.logs(page).includes('[mapper] input [Password] value="••••••"'));
  assert.ok(!b.logs(page).some((l) => l.includes("hunter2")), "the password never reaches the log");
  const card = await until("the typed value in the side panel", async () => {
    const t = await b.evaluate(
      panel,
      `[...document.querySelectorAll("#events .event .value")].map((e) => e.textContent)`,
    );
    return (t as string[]).length >= 2 ? t : undefined;
  });
  assert.deepEqual(card, ['value="••••••"', 'value="red shoes"']);
  await b.screenshot(panel, shotPath(dir.path, "side-panel-events.png"));
  assert.deepEqual(b.exceptions, []);
});

/** A server on the first free port of 7891–7900 (another project's, as far as the extension knows), or null. */
function serverOnTheRange() {
  for (let port = 7891; port <= 7900; port++) {
    try {
      return corpusServer("intruder", port);
    } catch {
      // taken: try the next
    }
  }
  return null;
}

Deno.test({
  name: "extension server - stays on the announced server when it stops, says it went away, never switches to " +
    "another server on 7891-7900, and reconnects when it is back",
  ignore: skipBrowserTests(),
}, async () => {
  await using dir = await tempDir("mapper-ext-server-");
  await using other = serverOnTheRange();
  const server = corpusServer();
  const port = server.port;
  await using b = await launchWithExtension(dir);
  let panel: string, page: string;
  try {
    ({ panel, page } = await openShop(b, port));
  } finally {
    await server[Symbol.asyncDispose]();
  }
  // Every status line the panel shows from here on, and the page's corpus log from here on: the other server
  // (which the extension may have found before the announcement) must never come back. Its hit count proves
  // nothing on a shared machine: other sessions' extensions, with nothing announced, probe the range too.
  await b.evaluate(
    panel,
    `globalThis.seen = []; new MutationObserver(() => seen.push(document.getElementById("status").textContent))
      .observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true })`,
  );
  const pageLogs = b.logs(page).length;
  const gone = `server on 127.0.0.1:${port} went away`;
  await until("the went-away line", async () => (await panelText(b, panel, "status")).endsWith(gone), 15_000);
  assert.equal(await panelText(b, panel, "status"), `shop · 8 components · v1000 · ${gone}`);
  assert.match(await b.evaluate(panel, `document.getElementById("dot").className`) as string, /\boffline\b/);
  await b.screenshot(panel, shotPath(dir.path, "side-panel-went-away.png"));

  // While the port answers but is not ready (503), the extension keeps retrying it and nothing else: two retries
  // observed (no clock involved) give a wandering extension two chances to reach the range.
  {
    let probes = 0;
    await using _starting = serve(() => {
      probes++;
      return new Response("starting", { status: 503 });
    }, port);
    await until("two retries of the announced port", () => probes >= 2, 15_000);
  }

  // The same project's server back on its port (a new version): picked up again, the other server never asked.
  await using back = corpusServer("shop", port, 2000);
  await until(
    "the reconnect",
    async () => (await panelText(b, panel, "status")).startsWith("shop · 8 components · v2000"),
    15_000,
  );
  assert.ok(back.state.hits > 0);
  const seen = await b.evaluate(panel, "seen") as string[];
  assert.ok(seen.some((l) => l.endsWith(gone)), seen.join("\n"));
  // Never another project's corpus: not the one this test put on the range, nor any other server there.
  assert.deepEqual(seen.filter((l) => !l.startsWith("shop · ")), [], "never switched to another server");
  assert.deepEqual(b.logs(page).slice(pageLogs).filter((l) => / from (?!shop\b)/.test(l)), []);
  assert.ok(other === null || other.state.corpus.site === "intruder");
  assert.deepEqual(b.exceptions, []);
});
