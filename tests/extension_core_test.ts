import assert from "node:assert/strict";
import {
  candidatePorts,
  formatEvent,
  formatPath,
  isSecretField,
  roleOf,
  statusLine,
} from "../assets/extension/core.js";
import { activeComponents, type Component, normalizeCorpus, resolvePath } from "../assets/extension/resolver.js";
import { dom, h } from "./_fake_dom.ts";

function component(name: string, selector: string, extra: Partial<Component> = {}): Component {
  return { name, selector, parentChain: [], properties: [], view: null, ...extra };
}

// ---- Discovery

Deno.test("extension discovery - only the announced port; 7891-7900 only when none was announced", () => {
  assert.deepEqual(candidatePorts(undefined), [7891, 7892, 7893, 7894, 7895, 7896, 7897, 7898, 7899, 7900]);
  assert.deepEqual(candidatePorts(43210), [43210]);
  assert.deepEqual(candidatePorts(7895), [7895]);
  assert.deepEqual(candidatePorts("nope").length, 10);
  assert.deepEqual(candidatePorts(70000).length, 10);
  assert.deepEqual(candidatePorts("").length, 10);
});

// ---- Corpus

const wire = {
  site: "shop",
  version: 1795297721289,
  memory: [],
  globals: [{ name: "SiteHeader", selector: "#header", parentChain: [], properties: [] }],
  views: [
    {
      name: "Item",
      route: "/items/:id",
      memory: [],
      requests: [],
      components: [
        { name: "SiteHeader", selector: "#header.item", parentChain: [], properties: [] },
        {
          name: "Card",
          selector: ".card",
          parentChain: [],
          properties: [{ name: "label", extract: "attr=data-label" }],
        },
      ],
    },
    { name: "Home", route: "/", memory: [], requests: [], components: [] },
    { name: "Routeless", memory: [], requests: [], components: [] },
  ],
  requests: [],
  messages: [],
};

Deno.test("extension corpus - normalises mapper's wire and counts every component", () => {
  const corpus = normalizeCorpus(wire)!;
  assert.equal(corpus.site, "shop");
  assert.equal(corpus.version, 1795297721289);
  assert.equal(corpus.componentCount, 3);
  assert.equal(corpus.views[1]!.route, "/");
  assert.equal(corpus.views[2]!.route, null);
  assert.equal(corpus.views[0]!.components[1]!.view, "Item");
});

Deno.test("extension corpus - an empty corpus is a loaded corpus with zero components, not a failure", () => {
  const corpus = normalizeCorpus({ site: "new", version: 5, memory: [], globals: [], views: [], requests: [] });
  assert.ok(corpus);
  assert.equal(corpus.componentCount, 0);
  assert.equal(
    statusLine({ state: "loaded", site: "new", version: 5, componentCount: 0 }),
    "new · empty corpus (0 components) · v5",
  );
  assert.equal(normalizeCorpus("not json"), null);
  assert.equal(normalizeCorpus({ site: "x" }), null);
});

Deno.test("extension corpus - also reads the reference wire (selectors arrays under corpus)", () => {
  const corpus = normalizeCorpus({
    site: "github",
    version: "1795297721289",
    corpus: { globals: [{ name: "A", selectors: ["a", " b "] }] },
  })!;
  assert.equal(corpus.version, 1795297721289);
  assert.deepEqual(corpus.globals[0], { name: "A", selector: "a, b", parentChain: [], properties: [], view: null });
});

Deno.test("extension corpus - the one resolved view's components follow the globals it does not shadow", () => {
  const corpus = normalizeCorpus(wire)!;
  const item = activeComponents(corpus, "/items/42/");
  assert.deepEqual(item.view, { name: "Item", route: "/items/:id", params: { id: "42" } });
  assert.deepEqual(item.components.map((c) => [c.name, c.selector]), [["SiteHeader", "#header.item"], [
    "Card",
    ".card",
  ]]);
  const home = activeComponents(corpus, "/");
  assert.equal(home.view?.name, "Home");
  assert.deepEqual(home.components.map((c) => c.name), ["SiteHeader"]);
});

// ---- Resolution and properties

function page() {
  const buy = h("button", { class: "buy", "aria-label": "Buy it" }, "Buy  now");
  const icon = h("span", { class: "icon" }, "★");
  buy.children.push(icon);
  icon.parent = buy;
  const card = h(
    "div",
    { class: "card", "data-label": "First" },
    h("h2", { class: "title" }, "  First\n  item "),
    h("div", { class: "actions" }, buy),
  );
  const other = h("p", { class: "free" }, "Nothing here");
  const root = h("html", {}, h("body", {}, card, other));
  return { root, card, buy, icon, other };
}

const cardComponents: Component[] = [
  component("Card", ".card", {
    properties: [
      { name: "label", extract: "attr=data-label" },
      { name: "title", extract: "Title.text" },
      { name: "buy_text", extract: "BuyButton.text" },
      { name: "has_buy", extract: "exists:BuyButton" },
      { name: "has_missing", extract: "exists:.missing" },
      { name: "unknown", extract: "raw:whatever" },
    ],
  }),
  component("Title", ".card .title", { parentChain: ["Card"], properties: [{ name: "text", extract: "text" }] }),
  component("BuyButton", ".card .buy", { parentChain: ["Card"], properties: [{ name: "text", extract: "text" }] }),
];

Deno.test("extension resolve - a hovered element resolves to its component path with properties, outermost first", () => {
  const { buy } = page();
  const { path, tier } = resolvePath(buy, cardComponents, dom);
  assert.equal(tier, 1);
  assert.equal(
    formatPath(path),
    '[Card label="First" title="First item" buy_text="Buy now★" has_buy="true"] > [BuyButton text="Buy now★"]',
  );
});

Deno.test("extension resolve - a target inside a component is tier 2, outside every component tier 3", () => {
  const { icon, other } = page();
  const inside = resolvePath(icon, cardComponents, dom);
  assert.equal(inside.tier, 2);
  assert.deepEqual(inside.path.map((e) => e.name), ["Card", "BuyButton"]);
  const outside = resolvePath(other, cardComponents, dom);
  assert.equal(outside.tier, 3);
  assert.deepEqual(outside.path, []);
});

Deno.test("extension resolve - a child whose parent component does not enclose it is dropped; bad selectors are skipped", () => {
  const { buy } = page();
  const components = [
    component("Panel", ".panel"),
    component("Broken", "!!nope"),
    component("Empty", ""),
    component("Orphan", ".buy", { parentChain: ["Panel"] }),
    component("Plain", "button"),
  ];
  assert.deepEqual(resolvePath(buy, components, dom).path.map((e) => e.name), ["Plain"]);
});

Deno.test("extension resolve - works with no globals at all (only view components)", () => {
  const corpus = normalizeCorpus({
    site: "s",
    version: 1,
    globals: [],
    views: [{
      name: "V",
      route: "/items/:id",
      components: [{ name: "Card", selector: ".card", parentChain: [], properties: [] }],
    }],
  })!;
  const { buy } = page();
  const { components } = activeComponents(corpus, "/items/1");
  assert.deepEqual(resolvePath(buy, components, dom).path.map((e) => e.name), ["Card"]);
});

Deno.test("extension properties - values are trimmed, whitespace collapsed, cut at 120 characters, empty omitted", () => {
  const long = h("div", { class: "long", title: "  " }, `${"x ".repeat(100)}  end`);
  h("body", {}, long);
  const c = component("Long", ".long", {
    properties: [{ name: "text", extract: "text" }, { name: "title", extract: "attr=title" }, {
      name: "none",
      extract: "attr=nope",
    }],
  });
  const { path } = resolvePath(long, [c], dom);
  assert.deepEqual(path[0]!.properties.map(([k]) => k), ["text"]);
  assert.equal(path[0]!.properties[0]![1].length, 120);
  assert.ok(formatPath(path).includes('text="x x x'));
  assert.ok(formatPath(path).endsWith('…"]'));
  assert.equal(formatPath(path).length, '[Long text=""]'.length + 48);
});

// ---- Formatting

Deno.test("extension format - events name the path, or the orphaned element's role and accessible name", () => {
  const path = [{ name: "Card", properties: [["label", 'Say "hi"']] as Array<[string, string]> }, {
    name: "Buy",
    properties: [],
  }];
  assert.equal(
    formatEvent("click", path, { role: "button", name: "Buy" }),
    'click [Card label="Say \\"hi\\""] > [Buy]',
  );
  assert.equal(formatEvent("input", [], { role: "textbox", name: "Search" }), 'input (orphaned) textbox "Search"');
  assert.equal(formatEvent("click", [], { role: "div", name: "" }), "click (orphaned) div");
});

Deno.test("extension events - typing shows the value typed; secret fields are masked by type or autocomplete", () => {
  const path = [{ name: "Search", properties: [] as Array<[string, string]> }];
  assert.equal(
    formatEvent("input", path, { role: "searchbox", name: "" }, 'red "shoes"'),
    'input [Search] value="red \\"shoes\\""',
  );
  assert.equal(
    formatEvent("input", [], { role: "textbox", name: "Name" }, "Ada"),
    'input (orphaned) textbox "Name" value="Ada"',
  );
  assert.equal(isSecretField({ type: "PASSWORD" }), true);
  assert.equal(isSecretField({ type: "text", autocomplete: "billing cc-number" }), true);
  assert.equal(isSecretField({ type: "text", autocomplete: "email" }), false);
  assert.equal(isSecretField({}), false);
  assert.equal(roleOf("A", { href: true }), "link");
  assert.equal(roleOf("input", { type: "checkbox" }), "checkbox");
  assert.equal(roleOf("div", { role: "tab" }), "tab");
});

Deno.test("extension format - status lines for searching, loaded and offline", () => {
  assert.match(statusLine({ state: "searching" }), /waiting for a mapper server/);
  assert.equal(statusLine({ state: "loaded", site: "gh", version: 9, componentCount: 1 }), "gh · 1 component · v9");
  assert.equal(
    statusLine({ state: "offline", site: "gh", version: 9, componentCount: 2 }),
    "gh · 2 components · v9 · server went away",
  );
  assert.equal(
    statusLine({ state: "offline", site: "gh", version: 9, componentCount: 2, announced: 7893 }),
    "gh · 2 components · v9 · server on 127.0.0.1:7893 went away",
  );
  assert.match(statusLine({ state: "searching", announced: 7893 }), /on 127\.0\.0\.1:7893 \(announced/);
});
