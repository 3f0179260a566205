import assert from "node:assert/strict";
import {
  activeComponents,
  candidatePorts,
  claimElements,
  type Component,
  formatEvent,
  formatPath,
  isSecretField,
  normalizeCorpus,
  ownerPath,
  statusLine,
} from "../assets/extension/core.js";
import { attachShadow, claimDom, h, type Node } from "./_fake_dom.ts";

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

Deno.test("extension corpus - also reads the wire of other Sightmap servers (selectors arrays under corpus)", () => {
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

/** The component path of `target` by the claim over the whole fake document `root`. */
function pathOf(root: Node, target: Node, components: Component[]) {
  const dom = claimDom(root);
  return ownerPath(target, claimElements(components, dom).owner, components, dom);
}

Deno.test("extension resolve - a hovered element resolves to its component path with properties, outermost first", () => {
  const { root, buy } = page();
  const { path, tier } = pathOf(root, buy, cardComponents);
  assert.equal(tier, 1);
  assert.equal(
    formatPath(path),
    '[Card label="First" title="First item" buy_text="Buy now★" has_buy="true"] > [BuyButton text="Buy now★"]',
  );
});

Deno.test("extension resolve - a target inside a component is tier 2, outside every component tier 3", () => {
  const { root, icon, other } = page();
  const inside = pathOf(root, icon, cardComponents);
  assert.equal(inside.tier, 2);
  assert.deepEqual(inside.path.map((e) => e.name), ["Card", "BuyButton"]);
  const outside = pathOf(root, other, cardComponents);
  assert.equal(outside.tier, 3);
  assert.deepEqual(outside.path, []);
});

Deno.test("extension resolve - a child whose parent component does not enclose it is dropped; bad selectors are skipped", () => {
  const { root, buy } = page();
  const components = [
    component("Panel", ".panel"),
    component("Broken", "!!nope"),
    component("Empty", ""),
    component("Orphan", ".buy", { parentChain: ["Panel"] }),
    component("Plain", "button"),
  ];
  assert.deepEqual(pathOf(root, buy, components).path.map((e) => e.name), ["Plain"]);
  const { unknown } = claimElements(components, claimDom(root));
  assert.deepEqual(unknown.map((u) => u.index), [1]);
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
  const { root, buy } = page();
  const { components } = activeComponents(corpus, "/items/1");
  assert.deepEqual(pathOf(root, buy, components).path.map((e) => e.name), ["Card"]);
});

Deno.test("extension properties - values are trimmed, whitespace collapsed, cut at 120 characters, empty omitted", () => {
  const long = h("div", { class: "long", title: "  " }, `${"x ".repeat(100)}  end`);
  const root = h("body", {}, long);
  const c = component("Long", ".long", {
    properties: [{ name: "text", extract: "text" }, { name: "title", extract: "attr=title" }, {
      name: "none",
      extract: "attr=nope",
    }],
  });
  const { path } = pathOf(root, long, [c]);
  assert.deepEqual(path[0]!.properties.map(([k]) => k), ["text"]);
  assert.equal(path[0]!.properties[0]![1].length, 120);
  assert.ok(formatPath(path).includes('text="x x x'));
  assert.ok(formatPath(path).endsWith('…"]'));
  assert.equal(formatPath(path).length, '[Long text=""]'.length + 48);
});

// ---- Claim: which component owns each element

/** Names of the owners of the given elements ("-" for none). */
function ownersOf(root: Node, components: Component[], els: Node[]): string[] {
  const { owner } = claimElements(components, claimDom(root));
  return els.map((el) => {
    const i = owner.get(el);
    return i === undefined ? "-" : components[i]!.name;
  });
}

Deno.test("claim - the first declaration wins an element; the conflict is said once per pair", () => {
  const a = h("div", { class: "card promo" });
  const b = h("div", { class: "card" });
  const root = h("body", {}, a, b);
  const components = [component("Promo", ".promo"), component("Card", ".card"), component("Any", "div")];
  assert.deepEqual(ownersOf(root, components, [a, b]), ["Promo", "Card"]);
  assert.deepEqual(claimElements(components, claimDom(root)).conflicts, [
    "Promo and Card both match one element; Promo (declared first) wins",
    "Promo and Any both match one element; Promo (declared first) wins",
    "Card and Any both match one element; Card (declared first) wins",
  ]);
});

Deno.test("claim - a child is claimed only inside an element its own parent claimed (parent-chain scoping)", () => {
  // The promo card is a .card, so its button matches the composed `.card .buy`; but Promo owns that card, not Card.
  const promoBuy = h("button", { class: "buy" });
  const cardBuy = h("button", { class: "buy" });
  const root = h("body", {}, h("div", { class: "card promo" }, promoBuy), h("div", { class: "card" }, cardBuy));
  const components = [
    component("Promo", ".promo"),
    component("Card", ".card"),
    component("Buy", ".card .buy", { parentChain: ["Card"], ownSelector: ".buy" }),
  ];
  assert.deepEqual(ownersOf(root, components, [promoBuy, cardBuy]), ["-", "Buy"]);
  // A parent that is not active on this page (another view's) does not scope: the nearest active one does.
  const inView = [component("Card", ".card"), component("Buy", ".card .buy", { parentChain: ["Gone", "Card"] })];
  assert.deepEqual(ownersOf(root, inView, [promoBuy, cardBuy]), ["Buy", "Buy"]);
});

Deno.test("claim - a child's own selector is matched in its parent's open shadow roots, nested hosts too", () => {
  const input = h("input", { class: "control" });
  const deep = h("input", { class: "control" });
  const stray = h("input", { class: "control" });
  const field = h("sl-input", { name: "email" });
  attachShadow(field, h("div", { class: "base" }, input));
  const inner = h("x-inner", {});
  attachShadow(inner, deep);
  const card = h("div", { class: "card" }, inner);
  const other = h("x-other", {});
  attachShadow(other, stray);
  const root = h("body", {}, h("form", {}, field), card, other);
  const components = [
    component("Field", "sl-input"),
    component("FieldInput", "sl-input input.control", { parentChain: ["Field"], ownSelector: "input.control" }),
    component("Card", ".card"),
    component("CardInput", ".card input.control", { parentChain: ["Card"], ownSelector: "input.control" }),
  ];
  // Outside any parent's element the shadow root's input belongs to nobody.
  assert.deepEqual(ownersOf(root, components, [input, deep, stray]), ["FieldInput", "CardInput", "-"]);
  // Without its own selector a child cannot be found in a shadow root (the composed one cannot cross into it).
  const composedOnly = components.map(({ ownSelector: _, ...c }) => c);
  assert.deepEqual(ownersOf(root, composedOnly, [input, deep]), ["-", "-"]);
  // The path of the inner input crosses the shadow boundary up to its host's component.
  const { path, tier } = pathOf(root, input, components);
  assert.deepEqual([path.map((e) => e.name), tier], [["Field", "FieldInput"], 1]);
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
