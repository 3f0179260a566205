/**
 * The offline coverage commands as a user runs them, without a browser: the public tree-matching conformance
 * fixtures (`tests/fixtures/tree-matching/`, the other implementation's trees) through `mapper coverage`, and
 * hostile capture folders (a link planted as a capture, an oversized file, a broken one, a view name with path
 * characters) through `coverage`, `report` and `multi-coverage`. The browser-made captures are covered in
 * `capture_cli_test.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT, tempDir } from "./_helpers.ts";
import { firstOfEachCommand } from "./_in_process.ts";

/** Each command's first call of the file runs as a subprocess, its later calls in this process. */
const run = firstOfEachCommand();

const FIXTURES = join(ROOT, "tests", "fixtures", "tree-matching");
const names = [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory).map((e) => e.name).sort();

Deno.test("coverage - every conformance fixture's claim comes out of 'mapper coverage' as expected", async () => {
  await using tmp = await tempDir();
  for (const name of names) {
    const dir = join(FIXTURES, name);
    const components = parse(await Deno.readTextFile(join(dir, "sightmap.yaml"))) as Array<
      { name: string; selectors: string[] }
    >;
    const expected = JSON.parse(await Deno.readTextFile(join(dir, "expected-matches.json"))) as Record<
      string,
      string[]
    >;
    const corpus = join(tmp.path, name, ".mapper");
    await Deno.mkdir(corpus, { recursive: true });
    const yaml = "version: 1\ncomponents:\n" +
      components.map((c) => `  - name: ${c.name}\n    selector: ${JSON.stringify(c.selectors.join(", "))}\n`).join("");
    await Deno.writeTextFile(join(corpus, "map.yaml"), yaml);
    const r = await run(
      ["coverage", join(dir, "component-tree.json"), "--include-hidden", "--json", "--dir", corpus],
      { cwd: tmp.path },
    );
    assert.equal(r.stderr, "", name);
    const j = JSON.parse(r.stdout);
    assert.equal(j.schema, 1);
    const want = Object.fromEntries(
      Object.entries(expected).filter(([, ids]) => ids.length > 0).map(([c, ids]) => [c, ids.length]),
    );
    assert.deepEqual(j.captures[0].claimed, want, name);
    assert.equal(r.code, j.captures[0].t3 > 0 || j.captures[0].interactive === 0 ? 1 : 0, name);
  }
});

const TREE = (url: string, view: string | null, body: string) =>
  `{"schema":1,"kind":"mapper-tree","mapper":"0","url":${JSON.stringify(url)},"title":"","view":${
    view === null ? "null" : JSON.stringify({ name: view, route: "/" })
  },"capturedAt":"2026-06-07T19:30:00.000Z","viewport":{"width":800,"height":600,"dpr":1},"settled":true,` +
  `"coverage":null,"root":{"id":1,"tag":"html","attrs":{},"role":"document","name":"","visible":true,"children":[` +
  `{"id":2,"tag":"body","attrs":{},"role":"generic","name":"","visible":true,"children":[${body}]}]}}`;
const BUTTON = (id: number, cls: string) =>
  `{"id":${id},"tag":"button","attrs":{"class":"${cls}"},"role":"button","name":"B${id}","visible":true,"interactive":true,"children":[]}`;

async function project(tmp: { path: string }) {
  const corpus = join(tmp.path, ".mapper");
  const snaps = join(corpus, "snapshots");
  await Deno.mkdir(join(snaps, "Shop"), { recursive: true });
  await Deno.writeTextFile(
    join(corpus, "views.yaml"),
    "version: 1\nviews:\n  - name: Shop\n    route: /shop\n    url: https://shop.test/shop\n    components:\n" +
      "      - name: Buy\n        selector: button.buy\n      - name: Gone\n        selector: button.gone\n" +
      "      - name: Scoped\n        selector: footer button.buy\n" +
      "  - name: Cart\n    route: /cart\n    url: https://shop.test/cart\n    components:\n" +
      "      - name: Buy\n        selector: button.buy\n  - name: Docs\n    route: /docs\n",
  );
  await Deno.writeTextFile(
    join(snaps, "Shop", "20260607T193000Z.snap.tree.json"),
    TREE("https://shop.test/shop", "Shop", `${BUTTON(3, "buy")},${BUTTON(4, "other")}`),
  );
  await Deno.writeTextFile(
    join(snaps, "Shop", "20260607T193100Z.snap.tree.json"),
    TREE("https://shop.test/cart", "Shop", BUTTON(5, "buy")),
  );
  return { corpus, snaps };
}

Deno.test("coverage - tiers per capture, dead components by kind, presence, stale captures left out; --trace clusters", async () => {
  await using tmp = await tempDir();
  await project(tmp);
  const r = await run(["coverage", "--trace"], { cwd: tmp.path });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    "[Coverage] snapshots/Shop/20260607T193000Z.snap.tree.json — Shop — 2 interactive · T1 50% · T2 0% · T3 1 ✗\n" +
      '  1× button "B4"  in the page  button.other\n' +
      "[Coverage] snapshots/Shop/20260607T193100Z.snap.tree.json — stale: captured as Shop, its URL is Cart now; left out\n" +
      "\n[View: Shop] 1 capture\n[Dead]\n" +
      "  Gone  absent: button.gone matches nothing\n" +
      "  Scoped  broken scope: button.buy matches 1, footer button.buy none\n" +
      "[Presence]\n  Buy  1/1  last 20260607T193000Z\n  Gone  0/1\n  Scoped  0/1\n",
  );
});

Deno.test("report and multi-coverage - rows for every view, missing and url-less ones; the matrix and stale warning", async () => {
  await using tmp = await tempDir();
  await project(tmp);
  const r = await run(["report"], { cwd: tmp.path });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    " View  Route  url  Caps  Last              T1   T2  T3  Dead  Largest T2\n" +
      " Shop  /shop  ✓    1     2026-06-07 19:30  50%  0%  1   2     -\n" +
      " Cart  /cart  ✓    0     -                                    missing: mapper capture --all\n" +
      " Docs  /docs  -    -     -                                    no url:\n" +
      " 0/3 views ✓ · 1 missing · 1 without url: · avg T1 50%\n" +
      "stale: snapshots/Shop/20260607T193100Z.snap.tree.json (captured as Shop, now Cart)\n",
  );
  const j = JSON.parse((await run(["report", "--json"], { cwd: tmp.path })).stdout);
  assert.equal(j.schema, 1);
  assert.deepEqual(j.views.map((v: { status: string }) => v.status), ["attention", "missing", "no url"]);
  const m = await run(["multi-coverage"], { cwd: tmp.path });
  assert.equal(m.code, 0, m.stderr);
  assert.equal(
    m.stdout,
    " Component  Shop\n Buy        1\n\npromote Buy (button.buy) to a global: declared alike in Shop, Cart\n" +
      "⚠ stale, left out: snapshots/Shop/20260607T193100Z.snap.tree.json (captured as Shop, now Cart)\n",
  );
});

Deno.test("coverage - hostile capture folders: a planted link, an oversized and a broken file are named, never read", async () => {
  await using tmp = await tempDir();
  const { snaps } = await project(tmp);
  const secret = join(tmp.path, "secret.json");
  await Deno.writeTextFile(secret, TREE("https://shop.test/shop", "Shop", BUTTON(9, "buy")));
  await Deno.symlink(secret, join(snaps, "Shop", "20260607T193200Z.snap.tree.json"));
  const big = await Deno.open(join(snaps, "Shop", "20260607T193300Z.snap.tree.json"), { write: true, create: true });
  await big.truncate(16 * 1024 * 1024 + 1);
  big.close();
  await Deno.writeTextFile(join(snaps, "Shop", "20260607T193400Z.snap.tree.json"), '{"kind":"mapper-tree"');
  await Deno.mkdir(join(snaps, "..%2F..%2Fetc"), { recursive: true });
  const r = await run(["coverage", "--json"], { cwd: tmp.path });
  assert.equal(r.code, 1);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.unreadable.map((u: { shown: string }) => u.shown.split("/").pop()), [
    "20260607T193200Z.snap.tree.json",
    "20260607T193300Z.snap.tree.json",
    "20260607T193400Z.snap.tree.json",
  ]);
  assert.match(j.unreadable[0].reason, /symbolic link/);
  assert.match(j.unreadable[1].reason, /16 MiB/);
  assert.match(j.unreadable[2].reason, /not JSON/);
  assert.equal(j.captures.length, 2);
  const none = await run(["coverage", "nope.snap.tree.json"], { cwd: tmp.path });
  assert.equal(none.code, 1);
  assert.match(none.stdout, /nope\.snap\.tree\.json — unreadable: /);
  const nodir = await run(["report", "--dir", "missing"], { cwd: tmp.path });
  assert.equal(nodir.code, 2);
  assert.equal(
    nodir.stderr,
    'mapper report: corpus directory "missing" does not exist or is not a directory — pass the .mapper/ directory with --dir\n',
  );
});

Deno.test("report - properties with no value in any capture where their component matched, and what it cannot judge", async () => {
  await using tmp = await tempDir();
  const corpus = join(tmp.path, ".mapper");
  const snaps = join(corpus, "snapshots", "Shop");
  await Deno.mkdir(snaps, { recursive: true });
  await Deno.writeTextFile(
    join(corpus, "views.yaml"),
    "version: 1\ncomponents:\n  - name: Header\n    selector: header\n    properties:\n" +
      "      - {name: title, extract: h1}\n      - {name: home, extract: attr=data-home}\n" +
      "views:\n  - name: Shop\n    route: /shop\n    url: https://shop.test/shop\n    components:\n" +
      "      - name: Card\n        selector: li.card\n        properties:\n" +
      "          - {name: name, extract: text}\n          - {name: sku, extract: attr=data-sku}\n" +
      "          - {name: price, extract: .price, transform: first_dollar}\n" +
      "          - {name: hot, extract: 'button:hover'}\n          - {name: note, extract: p.note}\n" +
      "          - {name: sale, extract: 'exists:.sale'}\n" +
      "      - name: Promo\n        selector: aside.promo\n        properties:\n          - {name: text, extract: text}\n" +
      "      - name: Gone\n        selector: div.gone\n        properties:\n          - {name: text, extract: text}\n",
  );
  const el = (id: number, tag: string, attrs: Record<string, string>, children: string, visible = true) =>
    `{"id":${id},"tag":"${tag}","attrs":${JSON.stringify(attrs)},"role":"generic","name":"","visible":${visible},` +
    `"children":[${children}]}`;
  const card = (id: number, name: string) =>
    el(
      id,
      "li",
      { class: "card" },
      [
        name === "" ? "" : JSON.stringify(name),
        el(id + 1, "p", { class: "note" }, '"members only"', false),
        el(id + 2, "span", { class: "price" }, '"$3"'),
      ].filter((c) => c !== "").join(","),
    );
  const header = el(20, "header", {}, el(21, "a", { href: "/" }, '"Home"'));
  await Deno.writeTextFile(
    join(snaps, "20260607T193000Z.snap.tree.json"),
    TREE("https://shop.test/shop", "Shop", [header, card(3, ""), BUTTON(9, "buy")].join(",")),
  );
  await Deno.writeTextFile(
    join(snaps, "20260607T193100Z.snap.tree.json"),
    TREE(
      "https://shop.test/shop",
      "Shop",
      [header, card(3, "Lamp"), el(10, "aside", { class: "promo" }, '"  "'), BUTTON(11, "buy")].join(","),
    ),
  );
  const r = await run(["report"], { cwd: tmp.path });
  assert.equal(r.stderr, "");
  assert.equal(
    r.stdout.split("\n").filter((l) => /^(always empty|cannot be judged)/.test(l)).join("\n"),
    "always empty: Shop > Card > sku (extract: attr=data-sku) in all 2 captures where Card matched\n" +
      'cannot be judged offline: Shop > Card > hot (extract: button:hover): selector "button:hover" uses :hover, ' +
      "which only matches during user interaction; drop it so the component matches the page at rest\n" +
      "cannot be judged offline: Shop > Card > note (extract: p.note): inner_text of a hidden <p>: whether it " +
      "renders depends on style a capture does not record\n" +
      "always empty: Shop > Promo > text (extract: text) in the 1 capture where Promo matched\n" +
      "always empty: (globals) > Header > title (extract: h1) in all 2 captures where Header matched\n" +
      "always empty: (globals) > Header > home (extract: attr=data-home) in all 2 captures where Header matched",
  );
  const j = JSON.parse((await run(["report", "--json"], { cwd: tmp.path })).stdout);
  assert.deepEqual(j.views[0].emptyProperties[0], {
    component: "Card",
    property: "sku",
    extract: "attr=data-sku",
    captures: 2,
  });
  assert.equal(j.globals.emptyProperties.length, 2);
});

Deno.test("coverage and multi-coverage - the other implementation's trees filed under snapshots/ are read", async () => {
  await using tmp = await tempDir();
  const corpus = join(tmp.path, ".mapper");
  await Deno.mkdir(join(corpus, "snapshots", "Legacy"), { recursive: true });
  await Deno.writeTextFile(
    join(corpus, "map.yaml"),
    'version: 1\ncomponents:\n  - name: ProductCard\n    selector: "div.product-card"\n',
  );
  await Deno.copyFile(
    join(FIXTURES, "002-class-selector", "component-tree.json"),
    join(corpus, "snapshots", "Legacy", "20260101T000000Z.snap.tree.json"),
  );
  const r = await run(["coverage", "--include-hidden", "--json"], { cwd: tmp.path });
  assert.equal(r.stderr, "");
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.unreadable, []);
  assert.deepEqual(j.captures.map((c: { file: string }) => c.file), [
    "snapshots/Legacy/20260101T000000Z.snap.tree.json",
  ]);
  assert.deepEqual(j.captures[0].claimed, { ProductCard: 2 });
  const m = await run(["multi-coverage"], { cwd: tmp.path });
  assert.equal(m.code, 0, m.stderr);
  assert.match(m.stdout, /^ ProductCard g +2$/m);
});

Deno.test("capture-prune - --dry-run over one view or --all lists what would go and removes nothing", async () => {
  await using tmp = await tempDir();
  const { snaps } = await project(tmp);
  // A third Shop capture that adds nothing to the first (the second is stale: its URL is Cart's now).
  await Deno.writeTextFile(
    join(snaps, "Shop", "20260607T193200Z.snap.tree.json"),
    TREE("https://shop.test/shop", "Shop", `${BUTTON(3, "buy")},${BUTTON(4, "other")}`),
  );
  await Deno.mkdir(join(snaps, "Cart"));
  for (const stamp of ["20260607T193000Z", "20260607T193100Z"]) {
    await Deno.writeTextFile(
      join(snaps, "Cart", `${stamp}.snap.tree.json`),
      TREE("https://shop.test/cart", "Cart", BUTTON(3, "buy")),
    );
  }
  const listing = async () => {
    const out: string[] = [];
    for (const view of ["Shop", "Cart"]) {
      for await (const e of Deno.readDir(join(snaps, view))) out.push(`${view}/${e.name}`);
    }
    return out.sort();
  };
  const before = await listing();
  const one = await run(["capture-prune", "Shop", "--dry-run"], { cwd: tmp.path });
  assert.equal(one.stderr, "");
  assert.equal(one.code, 0);
  assert.equal(one.stdout, "Shop: would prune 1 of 2 (20260607T193000Z)\n");
  const all = await run(["capture-prune", "--all", "--dry-run"], { cwd: tmp.path });
  assert.equal(all.code, 0, all.stderr);
  assert.equal(
    all.stdout,
    "Shop: would prune 1 of 2 (20260607T193000Z)\nCart: would prune 1 of 2 (20260607T193000Z)\n",
  );
  assert.deepEqual(await listing(), before);
  const real = await run(["capture-prune", "--all"], { cwd: tmp.path });
  assert.equal(real.code, 0, real.stderr);
  assert.deepEqual(await listing(), before.filter((f) => !/^(Shop|Cart)\/20260607T193000Z/.test(f)));
});
