import assert from "node:assert/strict";
import type { SeeNode, SnapshotPayload } from "./page_api.ts";
import { coverageLine, cutTree, formatSnapshot, guide, nameCarried, nodeText, snapshotJson } from "./snapshot.ts";

const node = (id: number, extra: Partial<SeeNode>): SeeNode => ({
  id,
  role: "generic",
  name: "",
  tag: "div",
  inViewport: true,
  ...extra,
});

Deno.test("nodeText - component with sorted props, the name only when no prop carries it, states, value", () => {
  assert.equal(
    nodeText(node(1, { component: "ProductCard", props: [["name", "Lamp"], ["id", "2"]], name: "Lamp" })),
    '[ProductCard id="2" name="Lamp"]',
  );
  assert.equal(
    nodeText(node(2, { component: "AddToCartButton", role: "button", name: "Add to cart", states: ["disabled"] })),
    '[AddToCartButton "Add to cart" disabled]',
  );
  assert.equal(
    nodeText(node(3, { role: "textbox", name: "Promo", value: "SPRING" })),
    'textbox "Promo" value="SPRING"',
  );
  assert.equal(nodeText(node(4, { role: "main" })), "main");
  assert.equal(nodeText(node(5, { role: "link", name: 'say "hi"\u001b[31m' })), 'link "say \\"hi\\"\\x1b[31m"');
  assert.equal(nodeText(node(6, { role: "link", name: "x", hidden: true })), 'link "x" hidden');
});

Deno.test("cutTree - --interactive keeps interactive nodes and the components around them; --depth cuts levels", () => {
  const tree = [
    node(1, {
      role: "main",
      children: [
        node(2, { role: "heading", name: "Catalog" }),
        node(3, { component: "Card", children: [node(4, { role: "button", interactive: true })] }),
        node(5, { component: "Empty" }),
      ],
    }),
  ];
  assert.deepEqual(cutTree(tree, { interactive: true }).map((n) => n.id), [3]);
  assert.deepEqual(cutTree(tree, { interactive: true })[0]!.children?.map((n) => n.id), [4]);
  assert.equal(cutTree(tree, { depth: 0 })[0]!.children, undefined);
  assert.deepEqual(cutTree(tree, { depth: 1 })[0]!.children?.map((n) => n.id), [2, 3, 5]);
});

Deno.test("guide and coverage - most frequent first, ties by name; ✓ only without orphans; ∅ on none", () => {
  assert.deepEqual(guide({ B: 2, A: 2, C: 5 }), [["C", 5], ["A", 2], ["B", 2]]);
  assert.equal(
    coverageLine({ interactive: 4, t1: 2, t2: 2, t3: 0, orphans: [] }),
    "[Coverage] 4 interactive: 2 T1 direct · 2 T2 scoped · 0 T3 orphaned ✓",
  );
  assert.equal(
    coverageLine({ interactive: 4, t1: 2, t2: 1, t3: 1, orphans: [] }),
    "[Coverage] 4 interactive: 2 T1 direct · 1 T2 scoped · 1 T3 orphaned ✗",
  );
  assert.equal(coverageLine({ interactive: 0, t1: 0, t2: 0, t3: 0, orphans: [] }), "[Coverage] 0 interactive ∅");
});

Deno.test("formatSnapshot - no view and no corpus are said, unsettled pages are flagged", () => {
  const base: SnapshotPayload = {
    schema: 1,
    tab: "T",
    url: "http://x/a",
    title: "",
    view: null,
    corpus: false,
    viewConflicts: [],
    settled: false,
    unmatched: [],
    page: {
      url: "http://x/a",
      title: "",
      readyState: "complete",
      tree: node(9, { role: "document", children: [node(1, { role: "button", name: "Go", interactive: true })] }),
      counts: {},
      matched: {},
      blocked: null,
      coverage: { interactive: 1, t1: 0, t2: 0, t3: 1, orphans: [] },
      conflicts: [],
      elements: 3,
      nextId: 4,
    },
  };
  const text = formatSnapshot(base);
  assert.match(text, /^\[No corpus\] http:\/\/x\/a — roles and names only/);
  assert.match(text, /\n\[Unsettled\] /);
  assert.match(text, /\n--- component tree ---\n1 button "Go"\n/);
  assert.match(formatSnapshot({ ...base, corpus: true }), /^\[No view matched\] http:\/\/x\/a\n/);
});

Deno.test("nodeText - text from the page never reaches the terminal raw (role attributes included)", () => {
  const hostile = node(7, { role: "button\u001b]0;pwned\u0007", name: "\u202eevil", value: "\u001b[2J" });
  const text = nodeText(hostile);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u001f\u007f\u202e]/);
  assert.equal(text, 'button\\x1b]0;pwned\\x07 "\\u202eevil" value="\\x1b[2J"');
});

Deno.test("nodeText - a name made only of the property values (a grid row) is not printed again", () => {
  const row = (name: string) =>
    nodeText(
      node(8, {
        component: "PersonRow",
        role: "row",
        name,
        props: [["name", "Ada Lovelace"], ["city", "London"], ["age", "20"]],
      }),
    );
  assert.equal(row("Ada Lovelace London 20"), '[PersonRow age="20" city="London" name="Ada Lovelace"]');
  assert.equal(row("20 · Ada Lovelace, London"), '[PersonRow age="20" city="London" name="Ada Lovelace"]');
  // A word of its own keeps the whole name; a value counts only as whole words, once.
  assert.equal(
    row("Ada Lovelace London 20 Engineer"),
    '[PersonRow age="20" city="London" name="Ada Lovelace" "Ada Lovelace London 20 Engineer"]',
  );
  assert.equal(
    row("Ada Lovelace Londoner"),
    '[PersonRow age="20" city="London" name="Ada Lovelace" "Ada Lovelace Londoner"]',
  );
  assert.equal(row("London London"), '[PersonRow age="20" city="London" name="Ada Lovelace" "London London"]');
  assert.equal(nameCarried("", ["x"]), false);
  // Punctuation alone is no property value: a "»" link keeps its name.
  assert.equal(nodeText(node(9, { role: "link", name: "»" })), 'link "»"');
});

Deno.test("nameCarried - letters and digits of any script make words, punctuation of any script does not", () => {
  assert.equal(nameCarried("(Ada) [20]!", ["Ada", "20"]), true);
  assert.equal(nameCarried("Ada 20x", ["Ada", "20"]), false);
  assert.equal(nameCarried("Ada_20", ["Ada_20"]), true);
  assert.equal(nameCarried("Ada _20_", ["Ada", "20"]), true);
  assert.equal(nameCarried("«Zoë» — Paris, ²2024", ["Zoë", "Paris", "²2024"]), true);
  assert.equal(nameCarried("日本 東京。", ["東京", "日本"]), true);
  assert.equal(nameCarried("Zoë Paris", ["Zo", "Paris"]), false);
});

Deno.test("formatSnapshot --coverage - properties whose extract found nothing are listed as (empty)", () => {
  const payload = {
    tab: "T",
    url: "https://h/",
    title: "",
    view: null,
    corpus: true,
    settled: true,
    unmatched: [],
    viewConflicts: [],
    page: {
      url: "https://h/",
      title: "",
      readyState: "complete",
      tree: [],
      counts: {},
      blocked: null,
      coverage: {
        interactive: 0,
        t1: 0,
        t2: 0,
        t3: 0,
        orphans: [],
        empty: [{ component: "Card", property: "price", extract: ".price\u001b", count: 2, of: 3 }],
      },
      conflicts: [],
      elements: 0,
      nextId: 1,
    },
  } as unknown as Parameters<typeof formatSnapshot>[0];
  const out = formatSnapshot(payload, { coverage: true });
  assert.match(
    out,
    /\n\[Empty properties\] \(visible matches whose extract found nothing\)\n {2}Card\.price \(empty\) on 2 of 3 — extract "\.price\\x1b"\n/,
  );
  assert.doesNotMatch(formatSnapshot(payload), /Empty properties/);
});

/** A payload around `children` (the page's top-level nodes), with the component counts the page reports. */
function pagePayload(children: SeeNode[], counts: Record<string, number>, extra: Partial<SnapshotPayload> = {}) {
  return {
    schema: 1,
    tab: "T",
    url: "http://x/shop",
    title: "Shop",
    view: { name: "Catalog", route: "/shop", memory: [], params: {} },
    corpus: true,
    viewConflicts: [],
    settled: true,
    unmatched: [],
    page: {
      url: "http://x/shop",
      title: "Shop",
      readyState: "complete",
      tree: node(900, { role: "document", children }),
      counts,
      matched: counts,
      blocked: null,
      coverage: { interactive: 1, t1: 1, t2: 0, t3: 0, orphans: [] },
      conflicts: [],
      elements: 10,
      nextId: 901,
    },
    ...extra,
  } as SnapshotPayload;
}

/** The tree lines of a text snapshot (between the tree header and the next blank line). */
function treeOf(text: string): string[] {
  const start = text.indexOf("--- component tree ---\n") + "--- component tree ---\n".length;
  return text.slice(start, text.indexOf("\n\n", start)).split("\n");
}

const card = (id: number, name: string, button: Partial<SeeNode> = {}) =>
  node(id, {
    component: "ProductCard",
    role: "article",
    props: [["name", name], ["id", String(id)]],
    children: [
      node(id + 1, { role: "link", name, interactive: true }),
      node(id + 2, { component: "AddToCartButton", role: "button", name: "Add to cart", interactive: true, ...button }),
    ],
  });

Deno.test("formatSnapshot - a name the component around says is left off its line; states stay", () => {
  const filter = (id: number, label: string, extra: Partial<SeeNode> = {}) =>
    node(id, {
      component: "FilterCheckbox",
      role: "generic",
      props: [["label", label]],
      children: [node(id + 1, { role: "checkbox", name: label, interactive: true, ...extra })],
    });
  const text = formatSnapshot(pagePayload([
    filter(10, "Oak", { states: ["checked"] }),
    filter(20, "Pine"),
    // A name with a word of its own is kept whole; a group without props carries nothing.
    filter(30, "Ash", { name: "Ash wood" }),
    node(40, { role: "group", name: "Extra", children: [node(41, { role: "checkbox", name: "Extra" })] }),
  ], { FilterCheckbox: 3 }));
  assert.deepEqual(treeOf(text), [
    '10 [FilterCheckbox label="Oak"]',
    " 11 checkbox checked",
    '20 [FilterCheckbox label="Pine"]',
    " 21 checkbox",
    '30 [FilterCheckbox label="Ash"]',
    ' 31 checkbox "Ash wood"',
    '40 group "Extra"',
    ' 41 checkbox "Extra"',
  ]);
  // Of two nodes of one kind, neither leaves its name to the component around: which tab is "Settings" stays said.
  const tabs = formatSnapshot(pagePayload([
    node(50, {
      component: "Tabs",
      role: "tablist",
      props: [["selected", "Settings"]],
      children: [
        node(51, { component: "Tab", role: "tab", name: "Profile", interactive: true }),
        node(52, { component: "Tab", role: "tab", name: "Settings", states: ["selected"], interactive: true }),
        node(53, { role: "button", name: "Settings", interactive: true }),
      ],
    }),
  ], { Tabs: 1, Tab: 2 }));
  assert.deepEqual(treeOf(tabs), [
    '50 [Tabs selected="Settings"]',
    ' 51 [Tab "Profile"]',
    ' 52 [Tab "Settings" selected]',
    " 53 button",
  ]);
  // The JSON keeps every name.
  const json = JSON.stringify(snapshotJson(pagePayload([filter(10, "Oak")], { FilterCheckbox: 1 })));
  assert.match(json, /"role":"checkbox","name":"Oak"/);
});

Deno.test("formatSnapshot - a name every line of a component shares is said once, in [Guide]", () => {
  const text = formatSnapshot(pagePayload([card(10, "Lamp"), card(20, "Mug", { states: ["disabled"] })], {
    ProductCard: 2,
    AddToCartButton: 2,
  }));
  assert.match(text, /\n\[Guide\]\nAddToCartButton 2 "Add to cart"\n\n--- component tree ---\n/);
  assert.deepEqual(treeOf(text), [
    '10 [ProductCard id="10" name="Lamp"]',
    " 11 link",
    " 12 [AddToCartButton]",
    '20 [ProductCard id="20" name="Mug"]',
    " 21 link",
    " 22 [AddToCartButton disabled]",
  ]);
  // One line with another name: every line says its own, and [Guide] has nothing to add.
  const mixed = formatSnapshot(pagePayload([card(10, "Lamp"), card(20, "Mug", { name: "Sold out" })], {
    ProductCard: 2,
    AddToCartButton: 2,
  }));
  assert.doesNotMatch(mixed, /\[Guide\]/);
  assert.match(mixed, /\n 12 \[AddToCartButton "Add to cart"\]\n/);
  assert.match(mixed, /\n 22 \[AddToCartButton "Sold out"\]\n/);
  // A single line keeps its name.
  const one = formatSnapshot(pagePayload([card(10, "Lamp")], { ProductCard: 1, AddToCartButton: 1 }));
  assert.doesNotMatch(one, /\[Guide\]/);
  assert.match(one, /\n 12 \[AddToCartButton "Add to cart"\]\n/);
});

Deno.test("formatSnapshot - [Guide] lists a component the cut tree shows fewer of than the page has", () => {
  const payload = pagePayload([card(10, "Lamp"), card(20, "Mug")], { ProductCard: 2, AddToCartButton: 2 });
  const cut = formatSnapshot(payload, { depth: 0 });
  assert.match(cut, /\n\[Guide\]\nAddToCartButton 2\n\n/);
  assert.deepEqual(treeOf(cut), ['10 [ProductCard id="10" name="Lamp"]', '20 [ProductCard id="20" name="Mug"]']);
  // Hidden matches are not counted on the page, so a hidden line does not hide a missing one.
  const hidden = formatSnapshot(
    pagePayload([node(5, { component: "Menu", role: "menu", hidden: true })], { Menu: 1 }),
  );
  assert.match(hidden, /\n\[Guide\]\nMenu 1\n/);
});

Deno.test("formatSnapshot - [Warnings]: one line per kind, globals apart", () => {
  const text = formatSnapshot(pagePayload([], {}, {
    unmatched: [
      { name: "CookieConsent", view: null },
      { name: "OrderSummary", view: "Catalog" },
      { name: "Promo", view: "Catalog" },
      { name: "MegaMenu", view: null, hidden: 2 },
      { name: "PlanOption", view: "Catalog", hidden: 3 },
    ],
  }));
  assert.match(
    text,
    /\n\[Warnings\]\n {2}matched nothing: OrderSummary, Promo; global: CookieConsent\n {2}matched only hidden elements: PlanOption \(3\); global: MegaMenu \(2\)\n/,
  );
});

Deno.test("formatSnapshot - every component keeps its id, distinguishing properties and state", () => {
  const tree = [
    card(10, "Lamp"),
    card(20, "Mug", { states: ["disabled"] }),
    node(30, {
      component: "Picker",
      role: "combobox",
      name: "Country",
      props: [["label", "Country"]],
      states: ["expanded"],
      interactive: true,
      children: [
        node(31, {
          component: "Choice",
          role: "option",
          name: "France",
          props: [["value", "fr"]],
          states: ["selected"],
        }),
      ],
    }),
    node(40, {
      component: "Terms",
      role: "checkbox",
      name: "I agree",
      states: ["checked", "required"],
      interactive: true,
    }),
    node(50, { component: "Email", role: "textbox", name: "Email", value: "a@b.c", interactive: true }),
  ];
  const text = formatSnapshot(
    pagePayload(tree, { ProductCard: 2, AddToCartButton: 2, Picker: 1, Choice: 1, Terms: 1, Email: 1 }),
  );
  const lines = treeOf(text);
  for (
    const fact of [
      /^10 \[ProductCard id="10" name="Lamp"\]$/,
      /^20 \[ProductCard id="20" name="Mug"\]$/,
      /^ 12 \[AddToCartButton\]$/,
      /^ 22 \[AddToCartButton disabled\]$/,
      /^30 \[Picker label="Country" expanded\]$/,
      /^ 31 \[Choice value="fr" "France" selected\]$/,
      /^40 \[Terms "I agree" checked required\]$/,
      /^50 \[Email "Email" value="a@b\.c"\]$/,
    ]
  ) {
    assert.ok(lines.some((l) => fact.test(l)), `${fact} in:\n${lines.join("\n")}`);
  }
  assert.match(text, /\nAddToCartButton 2 "Add to cart"\n/);
});
