/**
 * `mapper report` and `mapper coverage` keep their output byte for byte while their pipeline is made faster: a
 * corpus and a few captures of a few hundred elements each (big enough for the engine's key index; shadow roots, a
 * frame, hidden and interactive elements, a cut attribute value, a stale capture), their text and `--json` outputs
 * compared with the files in `tests/golden/report/`, written by the pipeline before it changed (a deliberate change
 * of output rewrites them: `UPDATE_GOLDEN=1`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, runMapper, tempDir } from "./_helpers.ts";
import { mulberry32 } from "./_random.ts";

const CORPUS = `version: 1
components:
  - name: Header
    selector: header.site
    properties:
      - {name: title, extract: h1}
      - {name: home, extract: attr=data-home}
      - {name: link, extract: a.home}
views:
  - name: Catalog
    route: /c/:id
    url: https://shop.test/c/1
    components:
      - name: Nav
        selector: nav.main
        properties:
          - {name: label, extract: text}
        children:
          - name: NavLink
            selector: a.nav-link
            properties:
              - {name: href, extract: attr=href}
              - {name: current, extract: attr=aria-current}
      - name: Section
        selector: main section.products
        children:
          - name: Card
            selector: li.card[data-sku]
            properties:
              - {name: sku, extract: attr=data-sku}
              - {name: title, extract: h3.title}
              - {name: price, extract: .price, transform: first_dollar}
              - {name: badge, extract: span.badge}
              - {name: rating, extract: attr=data-rating}
              - {name: sale, extract: 'exists:.sale'}
              - {name: note, extract: p.note}
              - {name: hot, extract: 'button:hover'}
      - name: AddButton
        selector: li.card .actions button.add:not([disabled])
      - name: Featured
        selector: li.card.featured
        properties:
          - {name: text, extract: inner_text}
      - name: Star
        selector: x-rating button.star
        properties:
          - {name: label, extract: attr=aria-label}
      - name: Ad
        selector: a.ad[href]
      - name: Filler
        selector: div.filler > span:only-child
        properties:
          - {name: text, extract: text_only}
      - name: Missing
        selector: aside.promo .banner
      - name: Shadowed
        selector: nav.main
      - name: Pager
        selector: div.pager button
      - name: Titled
        selector: header.site[title^=x], li.card[title]
  - name: Help
    route: /help
    url: https://shop.test/help
    components:
      - name: Faq
        selector: dl.faq
`;

type Node = Record<string, unknown>;

/** One capture: a catalogue page of a few hundred elements, varied by `seed`. */
function capture(seed: number, url: string, view: string, cut: boolean): string {
  const rnd = mulberry32(seed);
  let id = 0;
  const el = (tag: string, attrs: Record<string, string> = {}, children: unknown[] = [], extra: Node = {}): Node => ({
    id: ++id,
    tag,
    attrs,
    role: "generic",
    name: "",
    visible: rnd() > 0.08,
    children,
    ...extra,
  });
  const button = (attrs: Record<string, string>, name: string) =>
    el("button", attrs, [name], { role: "button", name, interactive: true, visible: rnd() > 0.1 });
  const nav = el(
    "nav",
    { class: "main" },
    Array.from(
      { length: 8 },
      (_, i) =>
        el("a", { class: "nav-link", href: `/c/${i}`, ...(i === seed % 8 ? { "aria-current": "page" } : {}) }, [
          `Link ${i}`,
        ], { role: "link", name: `Link ${i}`, interactive: true }),
    ),
  );
  const card = (s: number, c: number) =>
    el("li", { class: rnd() > 0.8 ? "card featured" : "card", "data-sku": `${s}-${c}` }, [
      el("img", { src: `/i/${c}.jpg`, alt: `Item ${c}` }),
      el("h3", { class: "title" }, [`Item ${c}`]),
      el("p", { class: "price" }, [el("span", { class: "amount" }, [`$${c}.99`])]),
      el("p", { class: "note" }, ["members only"], { visible: false }),
      ...(rnd() > 0.7 ? [el("span", { class: "sale" }, ["Sale"])] : []),
      el("div", { class: "actions" }, [
        button({ class: "add", type: "button", ...(rnd() > 0.9 ? { disabled: "" } : {}) }, "Add"),
        el("a", { href: `/p/${s}-${c}` }, ["View"], { role: "link", name: "View", interactive: true }),
      ]),
    ]);
  const sections = Array.from({ length: 4 }, (_, s) =>
    el("section", { class: `products s${s}` }, [
      el("h2", {}, [`Section ${s}`], { role: "heading", name: `Section ${s}` }),
      el("ul", { class: "list" }, Array.from({ length: 6 + Math.floor(rnd() * 4) }, (_, c) => card(s, c))),
    ]));
  const rating = el("x-rating", { class: "rating" }, [{
    shadow: "open",
    children: [
      el(
        "div",
        { class: "stars" },
        Array.from({ length: 70 }, (_, i) => button({ class: "star", "aria-label": `${i + 1}` }, `${i + 1}`)),
      ),
    ],
  }]);
  const frame = el("iframe", { src: "/ad" }, [{
    frame: "same-origin",
    url: "https://shop.test/ad",
    children: [el("html", {}, [el("body", {}, [el("a", { class: "ad", href: "/promo" }, ["Promo"])])])],
  }]);
  const filler = Array.from({ length: 30 }, (_, i) => el("div", { class: "filler" }, [el("span", {}, [`f${i}`])]));
  const pager = el("div", { class: "pager" }, [button({ class: "next" }, "Next"), button({ class: "prev" }, "Prev")]);
  const header = el("header", { class: "site", ...(cut ? { title: "x".repeat(20) } : {}) }, [
    el("a", { class: "home", href: "/" }, ["Home"], { role: "link", name: "Home", interactive: true }),
  ], cut ? { cut: ["title"] } : {});
  const root = el("html", { lang: "en" }, [
    el("body", {}, [header, nav, el("main", {}, [...sections, rating, frame, ...filler]), pager, button({}, "Chat")]),
  ]);
  return JSON.stringify({
    schema: 1,
    kind: "mapper-tree",
    mapper: "test",
    url,
    title: "Catalog",
    view: { name: view, route: "/c/:id" },
    capturedAt: "2026-06-07T19:30:00.000Z",
    viewport: { width: 1280, height: 800, dpr: 1 },
    settled: true,
    coverage: null,
    root,
  });
}

const RUNS: Array<{ file: string; args: string[] }> = [
  { file: "report.txt", args: ["report"] },
  { file: "report.json", args: ["report", "--json"] },
  { file: "coverage.txt", args: ["coverage", "--trace"] },
  { file: "coverage.json", args: ["coverage", "--json"] },
];

Deno.test("report and coverage - the same bytes as before the pipeline was made faster", async () => {
  await using tmp = await tempDir();
  const corpus = join(tmp.path, ".mapper");
  const snaps = join(corpus, "snapshots", "Catalog");
  await Deno.mkdir(snaps, { recursive: true });
  await Deno.writeTextFile(join(corpus, "catalog.yaml"), CORPUS);
  for (let i = 1; i <= 5; i++) {
    // The last capture is stale: recorded as Catalog, its URL is Help's now.
    const url = i === 5 ? "https://shop.test/help" : `https://shop.test/c/${i}`;
    await Deno.writeTextFile(
      join(snaps, `2026060${i}T193000Z.snap.tree.json`),
      capture(i, url, "Catalog", i === 3),
    );
  }
  for (const run of RUNS) {
    const r = await runMapper(run.args, { cwd: tmp.path });
    assert.equal(r.stderr, "", run.args.join(" "));
    await assertGolden(`report/${run.file}`, r.stdout);
  }
});
