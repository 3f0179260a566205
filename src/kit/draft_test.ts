import assert from "node:assert/strict";
import { loadEngine, type TreeNode } from "../offline/mod.ts";
import { h, shadow, tree } from "../offline/_testing.ts";
import { KitPage, type LiveAnswer } from "./page.ts";
import { draft, draftYaml, formatDraftReport, routeOf } from "./draft.ts";
import { parse } from "yaml";

const engine = await loadEngine();

const act = (n: TreeNode) => {
  n.interactive = true;
  return n;
};
const btn = (attrs: Record<string, string>, name: string) =>
  act(h("button", { ...attrs, $: { role: "button", name } }, name));
const link = (href: string, name: string) => act(h("a", { href, $: { role: "link", name } }, name));

function shop() {
  const cards = Array.from({ length: 5 }, (_, i) =>
    h(
      "li",
      { class: `card css-9f${i}x2ab`, "data-sku": `S${i}`, $: { role: "listitem" } },
      h("h3", { $: { role: "heading" } }, `Mug ${i}`),
      h("ul", { class: "details" }, h("li", {}, "Hand made"), h("li", {}, "Ships fast"), h("li", {}, "Returns")),
      btn({ class: "add sc-bdVaJa" }, "Add to cart"),
    ));
  return tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h(
          "header",
          { class: "site", $: { role: "banner" } },
          btn({ id: "menu" }, "Menu"),
          h("nav", { "aria-label": "Main", $: { role: "navigation" } }, link("/", "Home"), link("/help", "Help")),
        ),
        h("main", { $: { role: "main" } }, h("h1", {}, "Our mugs"), h("ul", { class: "grid" }, ...cards)),
        h(
          "x-rating",
          {},
          shadow(btn({ class: "star", "data-v": "1" }, "1"), btn({ class: "star", "data-v": "2" }, "2")),
        ),
        h(
          "footer",
          { $: { role: "contentinfo" } },
          btn({ id: "top" }, "Top"),
          btn({}, "Prev"),
          btn({}, "Next"),
        ),
      ),
    ),
    "https://shop.test/catalog/mugs-2024/7",
  );
}

function page(components: Array<[string, string]> = [], view: { name: string; route: string } | null = null) {
  const captured = shop();
  captured.tree.view = view;
  let calls = 0;
  const p = new KitPage({
    tree: captured.tree,
    tab: "ABCDEF1234",
    components: components.map(([name, selector]) => ({ name, selector, parentChain: [] })),
    live(selectors): Promise<LiveAnswer[]> {
      calls++;
      return Promise.resolve(selectors.map((s) => ({ ids: engine.query(p.doc, s).all.map((e) => Number(e.node.id)) })));
    },
  }, engine);
  return { page: p, calls: () => calls };
}

/** A page of `captured` with no corpus, its live answers counted by the offline engine. */
function plainPage(captured: ReturnType<typeof tree>): KitPage {
  const p: KitPage = new KitPage({
    tree: captured.tree,
    tab: "T",
    components: [],
    live(selectors): Promise<LiveAnswer[]> {
      return Promise.resolve(selectors.map((s) => ({ ids: engine.query(p.doc, s).all.map((e) => Number(e.node.id)) })));
    },
  }, engine);
  return p;
}

Deno.test("routeOf - ids, hex runs, UUIDs and slugs holding a digit fold to :id; words stay", () => {
  assert.equal(routeOf("http://h/products/2"), "/products/:id");
  assert.equal(routeOf("http://h/p/3f2a1c9e8b7d/edit"), "/p/:id/edit");
  assert.equal(routeOf("http://h/o/123e4567-e89b-12d3-a456-426614174000"), "/o/:id");
  assert.equal(routeOf("http://h/blog/my-post-2?x=1#top"), "/blog/:id");
  assert.equal(routeOf("http://h/shop/"), "/shop/");
  assert.equal(routeOf("http://h/signup.html"), "/signup.html");
  assert.equal(routeOf("http://h/about-us"), "/about-us");
  assert.equal(routeOf("http://h"), "/");
});

Deno.test("draft - every selector exact and claimed as intended, one live call, repeated ones told apart", async () => {
  const { page: p, calls } = page([["SiteHeader", "header.site"]]);
  const r = await draft(p, { taken: ["SiteHeader"] });
  assert.equal(calls(), 1);
  assert.deepEqual(r.view, { name: "OurMugs", route: "/catalog/:id/:id" });
  for (const c of r.components) {
    assert.equal(c.live, c.intended, `${c.name} ${c.selector}`);
    assert.equal(c.claimed, c.intended, `${c.name} claimed`);
    assert.equal(c.offline, true);
    assert.doesNotMatch(c.selector, /css-|sc-|:nth-/);
  }
  assert.deepEqual(r.checks, { exact: [], distinct: [] });
  const card = r.components.find((c) => c.kind === "repeated" && c.intended === 5)!;
  assert.equal(card.name, "Card");
  assert.deepEqual(card.properties[0], { name: "sku", extract: "attr=data-sku", distinct: 5, of: 5 });
  // The details list repeated inside one card is that card's own: never a component named by a card's value.
  assert.ok(!r.components.some((c) => /data-sku="/.test(c.selector)), JSON.stringify(r.components));
  const add = r.components.find((c) => c.name === "AddToCartButton")!;
  assert.equal(add.parent, "Card");
  assert.equal(add.written, "button.add");
  // The corpus's header is left to it; what is inside it and no component yet is drafted.
  assert.deepEqual(r.known, [{ name: "SiteHeader", by: "SiteHeader" }]);
  assert.ok(r.components.some((c) => c.name === "MenuButton"));
  const links = r.components.find((c) => c.parent === "MainNav")!;
  assert.equal(links.name, "MainNavLink");
  assert.equal(links.written, "a");
  // A child is written inside its parent: the parent's part of the page-wide selector is left out.
  const footer = r.components.find((c) => c.selector === "footer button")!;
  assert.equal(footer.parent, "SiteFooter");
  assert.equal(footer.written, "button");
  // The shadow-root stars: found through their own selector, inside the host.
  assert.ok(
    r.components.some((c) => c.selector === "button[data-v]" && c.name === "XRatingButton" && c.intended === 2),
  );
  assert.equal(r.coverage.before.t1, 0);
  assert.equal(r.coverage.after.t3, 0);
  assert.equal(r.coverage.after.t1 + r.gaveUp.length, r.coverage.after.interactive);
});

Deno.test("draft - buttons only their position tells apart are given up on and listed, never positional", async () => {
  // The corpus has the top button; the two others share its shape and nothing else tells them apart.
  const { page: p } = page([["TopButton", "#top"]]);
  const r = await draft(p);
  assert.deepEqual(r.gaveUp.map((g) => g.name), ["Prev", "Next"]);
  assert.match(r.gaveUp[0]!.why, /give (it|them) a hook/);
  assert.ok(!r.yaml.includes("nth-"));
  const text = formatDraftReport(r, null);
  assert.match(text, /gave up on 2 interactive nodes:\n {4}#\d+ button "Prev" button — /);
  assert.match(text, /coverage after: {2}\d+ interactive · T1 \d+ \(\d+%\) · T2 2 · T3 0 ✓/);
});

Deno.test("draft - the same page gives the same file; names never reuse the corpus's", async () => {
  const a = await draft(page().page, { taken: ["Card", "OurMugs"] });
  const b = await draft(page().page, { taken: ["Card", "OurMugs"] });
  assert.equal(a.yaml, b.yaml);
  assert.equal(a.view.name, "OurMugs2");
  assert.ok(a.components.some((c) => c.name === "Card2"));
  assert.ok(!a.components.some((c) => c.name === "Card"));
});

Deno.test("draft - odd and even rows of a grid are one component, told apart by a property", async () => {
  const rows = Array.from({ length: 6 }, (_, i) =>
    h(
      "div",
      { class: `tabulator-row tabulator-selectable tabulator-row-${i % 2 ? "even" : "odd"}`, $: { role: "row" } },
      h("div", { class: "tabulator-cell", $: { role: "gridcell" } }, `Person ${i}`),
      h("div", { class: "tabulator-cell", $: { role: "gridcell" } }, `${20 + i}`),
    ));
  const captured = tree(
    h(
      "html",
      {},
      h("body", {}, h("main", { $: { role: "main" } }, h("h1", {}, "People"), h("div", { class: "rows" }, ...rows))),
    ),
    "https://grid.test/people",
  );
  const r = await draft(plainPage(captured));
  const repeated = r.components.filter((c) => c.kind === "repeated");
  assert.deepEqual(repeated.map((c) => [c.name, c.intended]), [["TabulatorRow", 6]], JSON.stringify(r.components));
  assert.doesNotMatch(repeated[0]!.selector, /odd|even/);
  assert.equal(repeated[0]!.properties[0]?.distinct, 6);
  assert.deepEqual(r.checks, { exact: [], distinct: [] });
});

Deno.test("draft - a page a view serves gets additions to that view, never a second view or a copy", async () => {
  const view = { name: "Mugs", route: "/catalog/:slug/:id" };
  const { page: p } = page([["SiteHeader", "header.site"], ["Card", "li.card"]], view);
  const r = await draft(p, { taken: ["Mugs", "SiteHeader", "Card"] });
  assert.deepEqual(r.extends, view);
  assert.deepEqual(r.view, view);
  // A list of components to add, no view around them; nothing the view has is there again.
  assert.match(r.yaml, /^- name: /);
  assert.doesNotMatch(r.yaml, /views:|route:|name: Card\n|li\.card'/);
  assert.deepEqual(r.known.map((k) => k.by), ["SiteHeader", "Card"]);
  assert.ok(r.components.some((c) => c.name === "AddToCartButton"));
  assert.match(formatDraftReport(r, null), /^draft: additions to view Mugs \(\/catalog\/:slug\/:id\), which serves /);
  // A catch-all swallows structurally different pages: the page gets a view of its own.
  const wide = await draft(page([], { name: "Everything", route: "/**" }).page, { taken: ["Everything"] });
  assert.equal(wide.extends, null);
  assert.equal(wide.view.route, "/catalog/:id/:id");
  assert.match(wide.yaml, /^version: 1\n\nviews:\n {2}- name: OurMugs\n/);
});

Deno.test("draft - test ids that differ per item without a number name the items by the words they share", async () => {
  const market = (ids: string[]) => {
    const items = ids.map((id) =>
      h(
        "li",
        { "data-testid": id, $: { role: "listitem" } },
        h("span", {}, id),
        btn({ class: "buy" }, "Buy"),
      )
    );
    const captured = tree(
      h("html", {}, h("body", {}, h("main", { $: { role: "main" } }, h("h1", {}, "Market"), h("ul", {}, ...items)))),
      "https://x.test/market",
    );
    const p = plainPage(captured);
    return draft(p, { taken: [] });
  };
  const named = (await market(["fruit-apple", "fruit-pear", "fruit-plum"])).components;
  assert.deepEqual(named.filter((c) => c.kind === "repeated").map((c) => [c.name, c.selector]), [
    ["Fruit", "li[data-testid]"],
  ]);
  // Nothing shared: named by their role, never by the attribute ("LiDataTestid").
  const bare = (await market(["apple", "pear", "plum"])).components;
  assert.deepEqual(bare.filter((c) => c.kind === "repeated").map((c) => c.name), ["MainContentListItem"]);
});

Deno.test("draft - a property only where it has a value: a field's placeholder, never a text no field has", async () => {
  // Shadow-DOM fields (a design system's inputs): the inner inputs hold no text and nothing but, at most, a placeholder.
  const fields = async (placeholders: Array<string | undefined>) => {
    const field = (label: string, placeholder: string | undefined) =>
      h(
        "x-field",
        { label },
        shadow(h(
          "div",
          { class: "input" },
          act(h("input", {
            type: "text",
            ...(placeholder === undefined ? {} : { placeholder }),
            $: { role: "textbox", name: label },
          })),
        )),
      );
    const captured = tree(
      h(
        "html",
        {},
        h(
          "body",
          {},
          h(
            "main",
            { $: { role: "main" } },
            h("h1", {}, "Sign up"),
            h(
              "form",
              {},
              ...placeholders.map((ph, i) => field(`Field ${i}`, ph)),
            ),
          ),
        ),
      ),
      "https://x.test/signup",
    );
    const p = plainPage(captured);
    const r = await draft(p, {});
    const inputs = r.components.find((c) => c.selector.includes("input"))!;
    assert.equal(inputs.intended, placeholders.length, r.yaml);
    return inputs.properties;
  };
  assert.deepEqual(await fields(["you@example.com", "+1 555 0100"]), [
    { name: "placeholder", extract: "attr=placeholder", distinct: 2, of: 2 },
  ]);
  // Nothing tells them apart and none has text: no property (the snapshot names each by its label anyway).
  assert.deepEqual(await fields([undefined, undefined]), []);
  assert.deepEqual(await fields(["you@example.com", undefined]), []);
});

Deno.test("draft - a lone control without text gets no text property, and its name says its role once", async () => {
  const captured = tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        act(h("input", { class: "q", $: { role: "searchbox", name: "Search" } })),
        btn({ class: "go" }, "Go"),
        h("main", { $: { role: "main" } }, h("h1", {}, "Find")),
      ),
    ),
    "https://x.test/find",
  );
  const p = plainPage(captured);
  const r = await draft(p, {});
  assert.deepEqual(
    r.components.filter((c) => c.kind === "cluster").map((
      c,
    ) => [c.name, c.selector, c.properties.map((q) => q.extract)]),
    [["SearchInput", "input.q", []], ["GoButton", "button.go", ["text"]]],
  );
});

Deno.test("draftYaml - names YAML would read as something else are quoted: they read back as written", () => {
  for (const name of ["Null", "True", "No", "Shop # sale: now", "- &a *b !c | >", "'q' \"r\" \\s", " Edge ", "a\tb"]) {
    const c = {
      name,
      parent: null,
      kind: "cluster",
      selector: "#go",
      written: "#go",
      intended: 1,
      live: 1,
      offline: true,
      claimed: 1,
      properties: [{ name, extract: "text", distinct: 1, of: 1 }],
    };
    const doc = parse(draftYaml({ name, route: "/", url: "https://shop.test/" }, [c])) as {
      views: Array<{ name: unknown; components: Array<{ name: unknown; properties: Array<{ name: unknown }> }> }>;
    };
    assert.equal(doc.views[0]!.name, name);
    assert.equal(doc.views[0]!.components[0]!.name, name);
    assert.equal(doc.views[0]!.components[0]!.properties[0]!.name, name);
  }
});
