/**
 * One claim for every surface: the Shoelace sign-up page (web components, children inside open shadow roots) read
 * through the same corpus by `mapper snapshot` (the page engine, in a session) and by the bundled extension's
 * content script (in another headless Chromium) gives every element the same owner. Every element of the page,
 * shadow roots included, is stamped with a key naming its place in the tree (`data-mapper-key`, the same walk on
 * both pages), and every component gets a `key` property reading it, so each side names exactly which elements each
 * component owns. Two controls no component names get the same role and name on both sides.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { load } from "../src/corpus/load.ts";
import { compile } from "../src/corpus/compile.ts";
import { tempDir } from "./_helpers.ts";
import { launchWithExtension, serve, until } from "./_extension_harness.ts";
import { APP_PAGES, appCorpus, startApps } from "./apps/server.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";

/**
 * Names every element, open shadow roots included, by its path from the document (tag and index among same-tag
 * siblings, `/` into a shadow root), hashed short (property values are cut at 120 characters). A path, not a
 * position: an icon a package renders late changes no other element's key. Run in the page.
 */
const STAMP = `(() => {
  let n = 0;
  const hash = (s) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16);
  };
  const walk = (parent, path) => {
    const seen = {};
    for (const el of parent.children) {
      const tag = el.localName;
      seen[tag] = (seen[tag] ?? -1) + 1;
      const here = path + ">" + tag + "[" + seen[tag] + "]";
      el.setAttribute("data-mapper-key", hash(here));
      n++;
      walk(el, here);
      if (el.shadowRoot) walk(el.shadowRoot, here + "/");
    }
  };
  walk(document, "");
  return n;
})()`;

/** Two controls no component names, whose roles the surfaces used to disagree on (searchbox, spinbutton). */
const ORPHANS = `(() => {
  document.querySelector("main").insertAdjacentHTML("beforeend",
    '<p><input type="search" aria-label="Find" style="width:200px;height:30px">' +
    '<input type="number" aria-label="Qty" style="width:200px;height:30px"></p>');
  return 1;
})()`;

type YamlComponent = { properties?: Array<{ name: string; extract: string }>; children?: YamlComponent[] };

/** The page's corpus with a `key` property (the stamp) on every component. */
async function keyedCorpus(dir: string): Promise<void> {
  const source = join(appCorpus("signup"), "signup.yaml");
  const doc = parse(await Deno.readTextFile(source)) as {
    components?: YamlComponent[];
    views?: Array<{ components?: YamlComponent[] }>;
  };
  const add = (list: YamlComponent[] = []) => {
    for (const c of list) {
      c.properties = [...(c.properties ?? []), { name: "key", extract: "attr=data-mapper-key" }];
      add(c.children);
    }
  };
  add(doc.components);
  for (const v of doc.views ?? []) add(v.components);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "signup.yaml"), stringify(doc));
}

type SnapshotNode = { component?: string; props?: Record<string, string>; children?: SnapshotNode[] };

Deno.test({
  name: "extension owners - the extension's claim and 'mapper snapshot' give every element the same owner",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir("mapper-owners-");
  await using apps = await startApps();
  const url = apps.origin + APP_PAGES.signup;
  const corpusDir = dir.join("corpus");
  await keyedCorpus(corpusDir);

  // The page engine, as an agent sees it.
  const engine = await (async () => {
    await using s = await startSession(["--url", url], corpusDir);
    const ready = await s.run(["browser", "wait-for", "--selector", "body[data-ready]", "--timeout-ms", "20000"]);
    assert.equal(ready.code, 0, ready.stderr);
    assert.equal((await s.run(["browser", "eval", ORPHANS])).code, 0);
    assert.equal((await s.run(["browser", "eval", STAMP])).code, 0);
    const snap = await s.run(["snapshot", "--json", "--include-hidden"]);
    assert.equal(snap.code, 0, snap.stderr);
    const text = (await s.run(["snapshot"])).stdout;
    assert.match(text, /\n \d+ searchbox "Find"\n \d+ spinbutton "Qty"\n/);
    const owners: string[] = [];
    const walk = (n: SnapshotNode) => {
      if (n.component !== undefined) owners.push(`${n.component}@${n.props?.key}`);
      (n.children ?? []).forEach(walk);
    };
    walk(JSON.parse(snap.stdout).tree);
    return owners.sort();
  })();

  // The extension's content script on the same page, fed the same corpus by a loopback corpus server.
  const { corpus } = await load(corpusDir);
  const wire = compile(corpus, { site: "signup", version: 1000 });
  const cors = { "Access-Control-Allow-Origin": "*", "Content-Type": "application/json" };
  await using server = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/mapper") return new Response(JSON.stringify(wire), { headers: cors });
    if (path === "/mapper/version") return new Response(JSON.stringify({ version: wire.version }), { headers: cors });
    if (path === "/mapper/diagnostics") {
      return new Response(JSON.stringify({ ok: true, diagnostics: [] }), { headers: cors });
    }
    return new Response("not found", { status: 404 });
  });
  await using b = await launchWithExtension(dir);
  await b.announce(server.port);
  const page = await b.open(url);
  await until("the page to render", () => b.evaluate(page, "document.body?.dataset.ready === '1'"), 20_000);
  await b.evaluate(page, ORPHANS);
  await b.evaluate(page, STAMP);
  type Inspect = {
    loaded: boolean;
    view: { name: string } | null;
    components: Array<{ name: string; matches: Array<Array<[string, string]>> }>;
  };
  const inspect = `(async () => {
    const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(`${apps.origin}/*`)} });
    return await chrome.tabs.sendMessage(tab.id, { type: "inspect" });
  })()`;
  const picture = await until("the content script to have the corpus", async () => {
    const p = await b.evaluate(b.worker, inspect) as Inspect | undefined;
    return p?.loaded && p.view?.name === "Signup" ? p : undefined;
  });
  const extension = picture.components.flatMap((c) =>
    c.matches.map((props) => `${c.name}@${new Map(props).get("key")}`)
  ).sort();

  // Not a vacuous equality: the children inside shadow roots are there, on both sides.
  assert.equal(engine.filter((o) => o.startsWith("TextFieldInput@")).length, 3, engine.join("\n"));
  assert.equal(engine.filter((o) => o.startsWith("TermsBox@")).length, 1, engine.join("\n"));
  assert.ok(engine.every((o) => /@[0-9a-f]+$/.test(o)), engine.join("\n"));
  assert.equal(new Set(engine.map((o) => o.split("@")[1])).size, engine.length, "one key per element");
  assert.deepEqual(extension, engine);

  // The extension names the same controls with the same role and name as the snapshot did.
  await b.cdp.send("Page.bringToFront", {}, page);
  const expected: Array<[string, string]> = [
    ['input[type="search"]', '[mapper] click (orphaned) searchbox "Find"'],
    ['input[type="number"]', '[mapper] click (orphaned) spinbutton "Qty"'],
  ];
  for (const [selector, line] of expected) {
    const [x, y] = await b.evaluate(
      page,
      `(() => { const e = document.querySelector('${selector}'); e.scrollIntoView({ block: "center" });
        const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
    ) as [number, number];
    for (const type of ["mousePressed", "mouseReleased"] as const) {
      await b.cdp.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 }, page);
    }
    await until(`the log line ${line}`, () => b.logs(page).includes(line) || undefined);
  }
  assert.deepEqual(b.exceptions, []);
});
