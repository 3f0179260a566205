/**
 * The catalog's HTML pages as a person sees them, in real Chromium: no page wider than a 390 or 320 px phone, and
 * the listing's search and category filter working in the page (no server round trip).
 *
 * The pages are rendered by the same snapshot `atlas serve` answers from; a small loopback server replays them to
 * a headless Chromium with phone emulation, measured over the DevTools pipe once each page's `load` event fired.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildSnapshot, type Snapshot } from "../src/catalog/snapshot.ts";
import { handle } from "../src/catalog/handler.ts";
import { copyTree, ROOT, tempDir } from "./_helpers.ts";
import { requireBrowser, skipBrowserTests } from "./site/harness.ts";
import { PipeCdp } from "./_pipe_cdp.ts";

const FIXTURE = join(ROOT, "tests/fixtures/catalog/gallery");
/** One entry whose every string (name, slug, URLs, domains, view names, routes, README) is as long as allowed. */
const WIDE = join(ROOT, "tests/fixtures/catalog/wide");
const WIDE_SLUG = "long-routes-and-names-that-test-how-catalog-pages-fit-on-a-phone";
const PHONE = 390;
const SMALL_PHONE = 320;

/** Serves the snapshot as `atlas serve` does, stripping the base URL's path as a CDN in front of it would. */
function serve(snapshot: Snapshot, prefix = "") {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (prefix && url.pathname.startsWith(prefix)) url.pathname = url.pathname.slice(prefix.length) || "/";
    return handle(snapshot, new Request(url, { headers: req.headers }));
  });
}

/** A page in headless Chromium emulating a phone `width` px wide, driven over the DevTools pipe. */
async function phone(width = PHONE) {
  const profile = await tempDir("mapper-pages-profile-");
  const cdp = await PipeCdp.launch(requireBrowser(), profile.path);
  const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  const on = (method: string, params: Record<string, unknown> = {}) => cdp.send(method, params, sessionId);
  await on("Emulation.setDeviceMetricsOverride", { width, height: 844, deviceScaleFactor: 1, mobile: true });
  await on("Page.enable");
  return {
    async open(url: string): Promise<void> {
      const loaded = cdp.once("Page.loadEventFired", sessionId);
      await on("Page.navigate", { url });
      await loaded;
    },
    async eval<T>(expression: string): Promise<T> {
      const r = await on("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }) as {
        result: { value: T };
      };
      return r.result.value;
    },
    async [Symbol.asyncDispose]() {
      await cdp.close();
      await profile[Symbol.asyncDispose]();
    },
  };
}

const SHOWN =
  `[...document.querySelectorAll(".entry")].filter((li) => !li.hidden).map((li) => li.querySelector("a").textContent)`;

async function snapshotOf(baseUrl: string, gallery = FIXTURE): Promise<Snapshot> {
  return await buildSnapshot(gallery, { baseUrl, now: () => Date.parse("2026-11-21T00:00:00Z"), git: false });
}

Deno.test({
  name: "catalog pages - every page fits a 390 and a 320 px phone, however long the entry's routes and names",
  ignore: skipBrowserTests(),
  async fn() {
    await using tmp = await tempDir();
    await copyTree(FIXTURE, tmp.path);
    await copyTree(WIDE, tmp.path);
    // A long base URL makes the install commands as long as they get.
    const prefix = "/some/deep/catalog/path";
    const snapshot = await snapshotOf(`https://a-rather-long-catalog-host-name.example.org${prefix}`, tmp.path);
    assert.ok(snapshot.slugs.includes(WIDE_SLUG), `the long entry is published: ${JSON.stringify(snapshot.warnings)}`);
    const paths = [
      ...[...snapshot.resources].filter(([, r]) => r.type.startsWith("text/html")).map(([path]) => path),
      "/atlas/no-such-entry",
    ];
    assert.ok(paths.includes(`/atlas/${WIDE_SLUG}`) && paths.includes("/atlas"), paths.join(" "));
    await using server = serve(snapshot, prefix);
    const tooWide: string[] = [];
    const scrolled = new Map<number, number>();
    for (const viewport of [PHONE, SMALL_PHONE]) {
      await using page = await phone(viewport);
      for (const path of paths) {
        await page.open(`http://127.0.0.1:${server.addr.port}${prefix}${path}`);
        assert.equal(await page.eval<number>("screen.width"), viewport, "the phone is emulated");
        // A phone lays an overflowing page out wider than the screen (and zooms out): scrollWidth shows it.
        const width = await page.eval<number>("document.documentElement.scrollWidth");
        if (width > viewport) tooWide.push(`${path} is ${width} px wide at a ${viewport} px viewport`);
        if (path === `/atlas/${WIDE_SLUG}`) {
          const boxes = `[...document.querySelectorAll(".scroll")].filter((d) => d.scrollWidth > ${viewport}).length`;
          scrolled.set(viewport, await page.eval<number>(boxes));
        }
      }
    }
    assert.deepEqual(tooWide, [], tooWide.join("\n"));
    // The long entry's tables (views, and the README's) really are wider than the phone: they scroll in their boxes.
    assert.deepEqual(Object.fromEntries(scrolled), { [PHONE]: 2, [SMALL_PHONE]: 2 }, "tables scrolling in a box");
  },
});

Deno.test({
  name: "catalog pages - the listing filters by text and category in the page, and ?q= opens it filtered",
  ignore: skipBrowserTests(),
  async fn() {
    // One entry gets a second category, so picking it narrows the list.
    await using tmp = await tempDir();
    await copyTree(FIXTURE, tmp.path);
    const readme = tmp.join("entries", "beta", "README.md");
    await Deno.writeTextFile(readme, (await Deno.readTextFile(readme)).replace("[devtools]", "[devtools, commerce]"));
    const snapshot = await snapshotOf("http://127.0.0.1:8080", tmp.path);
    await using server = serve(snapshot);
    await using page = await phone();
    const root = `http://127.0.0.1:${server.addr.port}`;
    await page.open(`${root}/atlas`);
    const all = await page.eval<string[]>(SHOWN);
    assert.ok(all.length >= 3, `every entry listed: ${all}`);
    assert.equal(await page.eval("document.getElementById('filters').hidden"), false, "the controls show with scripts");
    // Typing filters at once, without a request.
    const typed = await page.eval<string[]>(
      `(() => { const q = document.getElementById("q"); q.value = "BETA"; q.dispatchEvent(new Event("input"));
        return ${SHOWN}; })()`,
    );
    assert.equal(typed.length, 1, `only the matching entry: ${typed}`);
    assert.match(await page.eval<string>("document.getElementById('shown').textContent"), /^1 of \d+ entries shown$/);
    await page.open(`${root}/atlas?q=zzzz-nothing`);
    assert.deepEqual(await page.eval<string[]>(SHOWN), []);
    // The category filter: only the entries of the picked category stay.
    const picked = await page.eval<{ category: string; shown: number; total: number; carry: boolean }>(
      `(() => { document.getElementById("q").value = ""; const c = document.getElementById("category");
        c.value = "commerce"; c.dispatchEvent(new Event("change"));
        const shown = [...document.querySelectorAll(".entry")].filter((li) => !li.hidden);
        return { category: c.value, shown: shown.length, total: document.querySelectorAll(".entry").length,
          carry: shown.every((li) => li.dataset.categories.split("\\n").includes(c.value)) }; })()`,
    );
    assert.equal(picked.category, "commerce");
    assert.ok(picked.shown === 1 && picked.total > 1, JSON.stringify(picked));
    assert.ok(picked.carry, JSON.stringify(picked));
  },
});
