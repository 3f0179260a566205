import assert from "node:assert/strict";
import { indexTree, loadEngine, type OfflineDocument, type OfflineElement } from "../offline/mod.ts";
import { h, shadow, tree } from "../offline/_testing.ts";
import { candidatesFor, compoundsOf, isGenerated } from "./candidates.ts";
import { cssIdent, cssString } from "./escape.ts";

const engine = await loadEngine();

const byId = (doc: OfflineDocument, id: number) => doc.elements.find((e) => e.node.id === id)!;
const where = (doc: OfflineDocument, test: (e: OfflineElement) => boolean) => doc.elements.filter(test);

/** A shop page: 6 cards with generated classes and test ids, a header, a footer with two links. */
function shop() {
  const cards = Array.from({ length: 6 }, (_, i) =>
    h(
      "li",
      { class: `card css-1x9f2a${i} sc-bdVaJa`, "data-testid": `product-card-${i + 1}`, "data-sku": `A${i}` },
      h("h3", {}, `Item ${i}`),
      h("button", { class: "btn jsx-2231", type: "button" }, "Add to cart"),
    ));
  return indexTree(tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h("header", {}, h("a", { href: "/", class: "logo" }, "Home"), h("button", { id: "menu" }, "Menu")),
        h("ul", { class: "grid" }, ...cards),
        h("footer", {}, h("a", { href: "/privacy" }, "Privacy"), h("a", { href: "/terms" }, "Terms")),
        h(
          "x-rating",
          {},
          shadow(h("button", { class: "star", "data-v": "1" }), h("button", { class: "star", "data-v": "2" })),
        ),
      ),
    ),
  ));
}

Deno.test("candidates - generated tokens are recognized and stable ones kept", () => {
  for (const t of ["css-1x9f2ab", "sc-bdVaJa", "jsx-2231", "svelte-xyz12", "Button_primary__3xY9z", "bZkfAO"]) {
    assert.equal(isGenerated(t), true, t);
  }
  for (const t of ["_ngcontent-abc-c12", "deadbeef12", "item-20231105", ":r1:", "card-1x9f2a"]) {
    assert.equal(isGenerated(t), true, t);
  }
  for (const t of ["card", "productCard", "btn-primary", "tab-15", "nav__link", "is-active", "h-12"]) {
    assert.equal(isGenerated(t), false, t);
  }
});

Deno.test("candidates - values are escaped as CSS identifiers and strings", () => {
  assert.equal(cssIdent("1a"), "\\31 a");
  assert.equal(cssIdent("a.b:c"), "a\\.b\\:c");
  assert.equal(cssIdent("-"), "\\-");
  assert.equal(cssString('say "hi"\\'), '"say \\"hi\\"\\\\"');
  const doc = indexTree(tree(h("html", {}, h("body", {}, h("button", { id: "9lives", "data-testid": 'a"b' })))));
  const [best] = candidatesFor(doc, [byId(doc, 3)], engine);
  assert.equal(best?.selector, '[data-testid="a\\"b"]');
  assert.equal(best?.count, 1);
  // The escaped id is a valid selector that finds the element.
  assert.deepEqual(engine.query(doc, compoundsOf(byId(doc, 3)).find((c) => c.kind === "id")!.selector).all.length, 1);
});

Deno.test("candidates - a test id comes first and a repeated set gets its shared prefix, never a generated class", () => {
  const doc = shop();
  const cards = where(doc, (e) => e.name === "li");
  const list = candidatesFor(doc, cards, engine, { max: 6 });
  assert.equal(list[0]?.selector, '[data-testid^="product-card-"]');
  assert.ok(list.every((c) => c.exact && c.count === 6 && c.covers === 6));
  assert.ok(list.every((c) => !/css-|sc-|jsx-/.test(c.selector)), JSON.stringify(list));
  assert.ok(list.some((c) => c.selector === "li.card"));
});

Deno.test("candidates - a leaf that takes in others gets an ancestor hook in front", () => {
  const doc = shop();
  const buttons = where(doc, (e) => e.name === "button" && e.root.kind === "document" && e.attrs.id === undefined);
  const list = candidatesFor(doc, buttons, engine);
  assert.equal(list.length, 3);
  const first = list[0]!;
  assert.equal(first.exact, true);
  assert.equal(first.count, 6);
  // `button.btn` alone is exact here (the menu button has no class); the scoped ones follow it.
  assert.equal(first.selector, "button.btn");
  const footer = where(doc, (e) => e.name === "a" && e.parent?.name === "footer");
  const links = candidatesFor(doc, footer, engine);
  assert.equal(links[0]?.selector, "footer a");
  assert.deepEqual([links[0]?.count, links[0]?.covers, links[0]?.extra], [2, 2, 0]);
});

Deno.test("candidates - a single link gets its href segment and a test id beats it", () => {
  const doc = shop();
  const privacy = where(doc, (e) => e.attrs.href === "/privacy");
  const list = candidatesFor(doc, privacy, engine);
  assert.equal(list[0]?.selector, 'a[href$="/privacy"]');
  assert.equal(list[0]?.count, 1);
});

Deno.test("candidates - elements in a shadow root are matched inside it, not through the host", () => {
  const doc = shop();
  const stars = where(doc, (e) => e.root.kind === "shadow");
  const list = candidatesFor(doc, stars, engine);
  assert.equal(list[0]?.selector, "button[data-v]");
  assert.equal(list[0]?.count, 2);
  assert.ok(list.every((c) => !c.selector.startsWith("x-rating ")), JSON.stringify(list));
});

Deno.test("candidates - :nth-child only when nothing else is exact, and marked positional", () => {
  const doc = indexTree(tree(
    h(
      "html",
      {},
      h("body", {}, h("div", { class: "row" }, h("span", {}, "a"), h("span", {}, "b"), h("span", {}, "c"))),
    ),
  ));
  const second = where(doc, (e) => e.name === "span").slice(1, 2);
  const list = candidatesFor(doc, second, engine);
  const exact = list.filter((c) => c.exact);
  assert.ok(exact.length > 0);
  assert.ok(exact.every((c) => c.positional && c.selector.includes(":nth-child(2)")), JSON.stringify(list));
  assert.equal(exact[0]?.selector, "div.row > span:nth-child(2)");
  // With a hook there, no positional candidate is offered.
  const hooked = indexTree(tree(h("html", {}, h("body", {}, h("span", {}), h("span", { "data-testid": "b" })))));
  assert.ok(candidatesFor(hooked, [byId(hooked, 4)], engine).every((c) => !c.positional));
});

Deno.test("candidates - every candidate's counts are what the engine finds", () => {
  const doc = shop();
  for (const el of doc.elements) {
    for (const c of candidatesFor(doc, [el], engine)) {
      const found = engine.query(doc, c.selector).all;
      assert.equal(found.length, c.count, c.selector);
      assert.equal(found.includes(el) ? 1 : 0, c.covers, c.selector);
    }
  }
});
