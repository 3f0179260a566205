// The synthetic captures `offline_bench.ts` measures: ~2,000-element catalogue pages varied per tree, and ~30
// components as a corpus compiles them.
import { join } from "node:path";
import type { TreeChild, TreeNode } from "../src/offline/mod.ts";
import { sized } from "./_smoke.ts";

/** How many trees the bench writes. */
export const TREES = sized(100, 3);

/** A small deterministic random source (mulberry32), so every run measures the same trees. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One synthetic page of about 2,000 elements. */
export function page(seed: number): { tree: unknown; elements: number } {
  const rnd = random(seed);
  let id = 0;
  const el = (tag: string, attrs: Record<string, string> = {}, ...children: TreeChild[]): TreeNode => ({
    id: ++id,
    tag,
    attrs,
    role: "generic",
    name: "",
    visible: rnd() > 0.05,
    children,
  });
  const nav = el(
    "nav",
    { class: "main-nav" },
    ...Array.from({ length: 20 }, (_, i) => el("a", { href: `/c/${i}`, class: "nav-link" }, `Link ${i}`)),
  );
  const sections = Array.from({ length: 10 }, (_, s) =>
    el(
      "section",
      { class: `products s${s}`, "data-section": String(s) },
      el("h2", {}, `Section ${s}`),
      el(
        "ul",
        { class: "list" },
        ...Array.from({ length: 15 + Math.floor(rnd() * 3) }, (_, c) =>
          el(
            "li",
            { class: rnd() > 0.8 ? "card featured" : "card", "data-sku": `${s}-${c}` },
            el("img", { src: `/i/${s}/${c}.jpg`, alt: `Item ${c}` }),
            el("h3", { class: "title" }, `Item ${c}`),
            el("p", { class: "price" }, el("span", { class: "amount" }, `$${c}.99`)),
            el(
              "div",
              { class: "actions" },
              el("button", { class: "add", type: "button" }, "Add"),
              el("a", { href: `/p/${s}-${c}` }, "View"),
            ),
          )),
      ),
    ));
  const widget = el("x-rating", { class: "rating" }, {
    shadow: "open",
    children: [
      el(
        "div",
        { class: "stars" },
        ...Array.from({ length: 5 }, (_, i) => el("button", { class: "star", "aria-label": `${i + 1}` })),
      ),
    ],
  });
  const frame = el("iframe", { src: "/ad" }, {
    frame: "same-origin",
    url: "https://shop.test/ad",
    children: [el("html", {}, el("body", {}, el("a", { class: "ad", href: "/promo" }, "Promo")))],
  });
  const filler = Array.from({ length: 310 }, (_, i) => el("div", { class: "filler" }, el("span", {}, `f${i}`)));
  const footer = el(
    "footer",
    { class: "site" },
    ...Array.from({ length: 30 }, (_, i) => el("a", { href: `/f/${i}` }, `F${i}`)),
  );
  const root = el(
    "html",
    { lang: "en" },
    el(
      "body",
      {},
      el(
        "header",
        { id: "site-header" },
        nav,
        el("form", { class: "search" }, el("input", { type: "search", name: "q" })),
      ),
      el("main", {}, ...sections, widget, frame, ...filler),
      footer,
    ),
  );
  const tree = {
    schema: 1,
    kind: "mapper-tree",
    mapper: "bench",
    url: `https://shop.test/c/${seed}`,
    title: "Catalog",
    view: { name: "Catalog", route: "/c/:id" },
    capturedAt: "2026-06-07T19:30:00.000Z",
    viewport: { width: 1280, height: 800, dpr: 1 },
    settled: true,
    coverage: null,
    root,
  };
  return { tree, elements: id };
}

/** About 30 components as a corpus compiles them (children composed under their parents). */
export const COMPONENTS = [
  ["SiteHeader", "#site-header, header.site", []],
  ["MainNav", "#site-header nav.main-nav, header.site nav.main-nav", ["SiteHeader"]],
  ["NavLink", "#site-header nav.main-nav a.nav-link, header.site nav.main-nav a.nav-link", ["SiteHeader", "MainNav"]],
  ["SearchForm", "form.search", []],
  ["SearchBox", "form.search input[type=search]", ["SearchForm"]],
  ["ProductSection", "main section.products", []],
  ["SectionTitle", "main section.products > h2", ["ProductSection"]],
  ["ProductList", "main section.products ul.list", ["ProductSection"]],
  ["FeaturedCard", "li.card.featured", []],
  ["ProductCard", "main section.products ul.list li.card[data-sku]", ["ProductSection", "ProductList"]],
  ["CardImage", "li.card > img[alt]", []],
  ["CardTitle", "li.card h3.title", []],
  ["CardPrice", "li.card p.price:has(> span.amount)", []],
  ["AddToCart", "li.card .actions button.add:not([disabled])", []],
  ["ViewLink", "li.card .actions button + a[href^='/p/']", []],
  ["FirstCard", "ul.list > li:first-child", []],
  ["EvenCard", "ul.list > li:nth-child(2n)", []],
  ["LastCards", "ul.list > li:nth-last-child(-n+2)", []],
  ["Rating", "x-rating.rating", []],
  ["Star", "div.stars > button.star", ["Rating"]],
  ["AdLink", "a.ad[href]", []],
  ["Frame", "iframe[src]", []],
  ["Filler", "main > div.filler", []],
  ["FillerText", "div.filler > span:only-child", []],
  ["Footer", "footer.site", []],
  ["FooterLink", "footer.site a[href^='/f/']", ["Footer"]],
  ["AnyImage", "img:not([alt=''])", []],
  ["Heading", ":is(h2, h3):not(.hidden)", []],
  ["Links", "a[href]:where(:not(.nav-link))", []],
  ["Missing", "aside.promo .banner", []],
].map(([name, selector, parentChain]) => ({ name, selector, parentChain })) as Array<
  { name: string; selector: string; parentChain: string[] }
>;

/** Writes {@linkcode TREES} trees into `dir`; returns their paths and sizes. */
export async function writeTrees(dir: string): Promise<{ files: string[]; elements: number; bytes: number }> {
  let elements = 0;
  let bytes = 0;
  const files: string[] = [];
  for (let i = 0; i < TREES; i++) {
    const { tree, elements: n } = page(i + 1);
    const text = JSON.stringify(tree);
    const file = join(dir, `t${i}.snap.tree.json`);
    await Deno.writeTextFile(file, text);
    files.push(file);
    elements += n;
    bytes += text.length;
  }
  return { files, elements, bytes };
}
