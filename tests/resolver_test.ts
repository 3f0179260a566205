/**
 * The one resolver (`assets/extension/resolver.js`): the shared route-case table, view precedence, active
 * components, extract forms and transforms on a fake DOM, and the extract-form check `validate` uses.
 */
import assert from "node:assert/strict";
import {
  activeComponents,
  applyTransform,
  checkExtract,
  checkTransform,
  type Component,
  extractProperties,
  matchRoute,
  matchViews,
  normalizeCorpus,
  resolveView,
  routeKey,
  routeScore,
} from "../assets/extension/resolver.js";
import { dom, h } from "./_fake_dom.ts";
import cases from "./fixtures/route_cases.json" with { type: "json" };

// ---- The route-case table (also run by the extension e2e test in Chromium)

Deno.test("resolver routes - every case of the shared table matches or not, with its parameters", () => {
  const failures = cases.matches.flatMap((c) => {
    const got = matchRoute(c.route, c.url);
    return JSON.stringify(got) === JSON.stringify(c.params)
      ? []
      : [`${c.route} vs ${c.url}: got ${JSON.stringify(got)}, want ${JSON.stringify(c.params)}`];
  });
  assert.deepEqual(failures, []);
});

Deno.test("resolver routes - specificity is the sum of segment scores (literal 3, :param 2, * 1, ** 0, / 1)", () => {
  assert.deepEqual(
    cases.scores.map((c) => [c.route, routeScore(c.route)]),
    cases.scores.map((c) => [c.route, c.score]),
  );
});

Deno.test("resolver routes - routeKey: routes that match the same URLs share one key (route-conflict)", () => {
  assert.deepEqual(cases.keys.map((c) => [c.route, routeKey(c.route)]), cases.keys.map((c) => [c.route, c.key]));
});

Deno.test("resolver views - the single most specific view wins, ties go to the first declared", () => {
  for (const c of cases.resolve) {
    const views = c.routes.map((route, i) => ({ name: `v${i}`, route }));
    const hit = resolveView({ views }, c.url);
    assert.equal(hit === null ? null : views.indexOf(hit.view), c.view, `${c.routes.join(" ")} on ${c.url}`);
  }
});

Deno.test("resolver views - matchViews lists every match, winner first, and skips views without a route", () => {
  const views = [{ name: "Any", route: "/**" }, { name: "None" }, { name: "Item", route: "/items/:id" }, {
    name: "Empty",
    route: "",
  }];
  assert.deepEqual(matchViews(views, "/items/5").map((m) => [m.view.name, m.score, m.params]), [
    ["Item", 5, { id: "5" }],
    ["Any", 0, {}],
  ]);
});

const wire = {
  site: "shop",
  version: 7,
  globals: [
    { name: "Header", selector: "#header", parentChain: [], properties: [] },
    { name: "Footer", selector: "#footer", parentChain: [], properties: [] },
  ],
  views: [
    { name: "Catalogue", route: "/shop/**", components: [{ name: "Grid", selector: ".grid" }] },
    {
      name: "Item",
      route: "/shop/items/:id",
      components: [{ name: "Header", selector: "#header.item" }, { name: "Card", selector: ".card" }],
    },
  ],
};

Deno.test("resolver views - active components are the unshadowed globals, then the one view's own", () => {
  const corpus = normalizeCorpus(wire)!;
  const item = activeComponents(corpus, "https://shop.example/shop/items/9?x#y");
  assert.deepEqual(item.view, { name: "Item", route: "/shop/items/:id", params: { id: "9" } });
  assert.deepEqual(item.components.map((c) => `${c.name}@${c.view ?? "global"}`), [
    "Footer@global",
    "Header@Item",
    "Card@Item",
  ]);
  const list = activeComponents(corpus, "/shop");
  assert.equal(list.view?.name, "Catalogue");
  assert.deepEqual(list.components.map((c) => c.name), ["Header", "Footer", "Grid"]);
  const none = activeComponents(corpus, "/about");
  assert.equal(none.view, null);
  assert.deepEqual(none.components.map((c) => c.name), ["Header", "Footer"]);
});

// ---- Extract forms and transforms

function product() {
  const price = h("span", { class: "price" }, " $1,299.00 ");
  const icon = h("img", { alt: "star" }, "ALT");
  const title = h("h3", { class: "title" }, "  Red   Shoe ", icon);
  const sku = h("div", { class: "sku", "data-sku": "SKU-42" }, "SKU-42");
  const card = h("article", { class: "card", "data-id": "p1" }, title, price, sku, h("p", {}, "Line one"));
  h("body", {}, card);
  return card;
}

const card: Component = {
  name: "Card",
  selector: ".card",
  parentChain: [],
  view: null,
  properties: [],
};
const price: Component = {
  name: "Price",
  selector: ".card .price",
  parentChain: ["Card"],
  view: null,
  properties: [{ name: "amount", extract: "text", transform: "first_dollar" }],
};

function props(properties: Component["properties"]): Record<string, string> {
  const c = { ...card, properties };
  const byName = new Map([c, price].map((x) => [x.name, x]));
  return Object.fromEntries(extractProperties(product(), c, byName, dom));
}

Deno.test("resolver extract - keywords read the element itself", () => {
  assert.deepEqual(
    props([
      { name: "text", extract: "text" },
      { name: "raw", extract: "raw_text" },
      { name: "inner", extract: "inner_text" },
      { name: "only", extract: "text_only" },
      { name: "html", extract: "inner_html" },
    ]),
    {
      text: "Red Shoe ALT $1,299.00 SKU-42Line one",
      raw: "Red   Shoe ALT $1,299.00 SKU-42Line one",
      inner: "Red Shoe ALT $1,299.00 SKU-42 Line one",
      only: "Red Shoe $1,299.00 SKU-42Line one",
      html: ('<h3 class="title"> Red Shoe <img alt="star">ALT</img></h3><span class="price"> $1,299.00 </span><div ' +
        'class="sku" data-sku="SKU-42">SKU-42</div><p>Line one</p>').slice(0, 120),
    },
  );
});

Deno.test("resolver extract - attr=, exists:, component paths and CSS sub-selectors", () => {
  assert.deepEqual(
    props([
      { name: "id", extract: "attr=data-id" },
      { name: "absent", extract: "attr=data-nope" },
      { name: "has_price", extract: "exists:Price" },
      { name: "has_sku", extract: "exists:.sku" },
      { name: "has_none", extract: "exists:.missing" },
      { name: "amount", extract: "Price.amount" },
      { name: "price_text", extract: "Price.text" },
      { name: "title", extract: "h3.title" },
      { name: "sku", extract: ".sku" },
      { name: "bad", extract: "attr:data-sku" },
    ]),
    {
      id: "p1",
      has_price: "true",
      has_sku: "true",
      amount: "$1,299.00",
      price_text: "$1,299.00",
      title: "Red Shoe\nALT".replace(/\s+/g, " "),
      sku: "SKU-42",
    },
  );
});

Deno.test("resolver extract - transforms run after cleaning; a transform that finds nothing omits the value", () => {
  const t = (transform: string, extract = "text") => props([{ name: "v", extract, transform }]).v;
  assert.equal(t("first_word", "h3"), "Red");
  assert.equal(t("last_word", "h3"), "ALT");
  assert.equal(t("first_number", ".price"), "1,299.00");
  assert.equal(t("number", ".price"), "1299");
  assert.equal(t("first_dollar"), "$1,299.00");
  assert.equal(t("slug", "h3"), "red-shoe-alt");
  assert.equal(t("match:SKU-(\\d+)", ".sku"), "42");
  assert.equal(t("match:SKU", ".sku"), "SKU");
  assert.equal(t("match:nothing", ".sku"), "SKU-42");
  assert.equal(t("match:([", ".sku"), "SKU-42");
  assert.equal(t("unknown_thing", ".sku"), "SKU-42");
  assert.equal(t("first_number", "attr=data-id"), "1");
  assert.equal(t("number", "h3"), undefined);
  assert.equal(applyTransform("Café au lait", "slug"), "cafe-au-lait");
  assert.equal(applyTransform("-3.5 degrees", "number"), "-3.5");
});

Deno.test("resolver extract - values are cut at 120 characters after the transform", () => {
  const long = h("div", { class: "card" }, "word ".repeat(60));
  h("body", {}, long);
  const c = {
    ...card,
    properties: [{ name: "v", extract: "text" }, { name: "s", extract: "text", transform: "slug" }],
  };
  const [[, v], [, s]] = extractProperties(long, c, new Map([[c.name, c]]), dom) as [
    [string, string],
    [string, string],
  ];
  assert.equal(v.length, 120);
  assert.equal(s.length, 120);
  assert.ok(s.startsWith("word-word"));
});

// ---- checkExtract / checkTransform (validate's property-extract-invalid and property-transform-invalid)

const ACCEPTED =
  "(accepted: text, raw_text, inner_text, text_only, inner_html, attr=NAME, exists:SELECTOR|PATH, PATH.prop, or a CSS selector)";

Deno.test("resolver check - every accepted form passes", () => {
  const names = ["Card", "Price", "BuyButton"];
  for (
    const expr of [
      "text",
      "raw_text",
      "inner_text",
      "text_only",
      "inner_html",
      "attr=href",
      "attr=data-product-id",
      "exists:BuyButton",
      "exists:Card.Price",
      "exists:.sold-out",
      'exists:[aria-label="Sold Out"]',
      "Price.amount",
      "Card.Price.text",
      "h3",
      "h3.title",
      ".price > span:first-child",
      "a[href^='/p/']",
      "my-widget .label",
      "li:nth-child(2)",
    ]
  ) assert.equal(checkExtract(expr, names), null, expr);
});

Deno.test("resolver check - unknown forms name the accepted ones and a likely fix", () => {
  const names = ["Card", "Price"];
  const check = (expr: string) => checkExtract(expr, names);
  assert.deepEqual(check("attr:data-sku"), {
    message: `unknown extract form "attr:data-sku" ${ACCEPTED}`,
    suggestion: "attr=data-sku",
  });
  assert.equal(check("text:h3")?.suggestion, "h3");
  assert.equal(check("raw_txt")?.suggestion, "raw_text");
  assert.equal(check("innerText")?.suggestion, "inner_text");
  assert.equal(check("value")?.suggestion, "attr=value");
  assert.equal(check("bogus")?.message, `unknown extract form "bogus" ${ACCEPTED}`);
  assert.equal(check("exists=.x")?.suggestion, "exists:.x");
  assert.equal(check("li:nth-chld(2)")?.suggestion, null);
  assert.match(check("Card.Nope.text")!.message, /names no component "Nope"/);
  assert.match(check("attr=")!.message, /names no attribute/);
  assert.match(check("exists:")!.message, /needs a selector or component path/);
  assert.match(check("exists:((")!.message, /neither a component path nor a CSS selector/);
  assert.deepEqual(checkExtract(".ok", [], { isSelector: () => false })?.suggestion, null);
});

Deno.test("resolver check - transforms: the named ones and match: with a valid regex", () => {
  for (const t of ["first_word", "last_word", "first_number", "first_dollar", "number", "slug", "match:(\\d+)"]) {
    assert.equal(checkTransform(t), null, t);
  }
  assert.deepEqual(checkTransform("first_wrd"), {
    message: 'unknown transform "first_wrd" (accepted: first_word, last_word, first_number, first_dollar, number, ' +
      "slug, match:REGEX)",
    suggestion: "first_word",
  });
  assert.match(checkTransform("match:([")!.message, /invalid regular expression/);
  assert.match(checkTransform("match:")!.message, /needs a regular expression/);
});

Deno.test("resolver script - with exports stripped it runs as a classic script, defining no global", async () => {
  const source = await Deno.readTextFile(new URL("../assets/extension/resolver.js", import.meta.url));
  const names = [...source.matchAll(/^export (?:function|const) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);
  const script = `(() => {\n${source.replace(/^export /gm, "")}\nreturn { ${names.join(", ")} };\n})()`;
  // A fresh worker: its globals are untouched by this test's own import of the module.
  const probe = `const before = new Set(Object.getOwnPropertyNames(globalThis));
    const api = (0, eval)(${JSON.stringify(script)});
    const added = Object.getOwnPropertyNames(globalThis).filter((n) => !before.has(n));
    const hit = api.resolveView({ views: [{ route: "/a/**" }, { route: "/*/b" }] }, "/a/b");
    postMessage({ added, keys: Object.keys(api).sort(), route: hit.view.route });`;
  const url = URL.createObjectURL(new Blob([probe], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  try {
    const got = await new Promise<{ added: string[]; keys: string[]; route: string }>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
    });
    const module = await import("../assets/extension/resolver.js");
    assert.deepEqual(got.added, []);
    assert.deepEqual(got.keys, Object.keys(module).sort(), "every export is a top-level declaration");
    assert.equal(got.route, "/*/b");
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});
