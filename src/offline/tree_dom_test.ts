import assert from "node:assert/strict";
import { propertyValue } from "../../assets/extension/resolver.js";
import { createEngine } from "./engine.ts";
import { indexTree } from "./dom.ts";
import { h, shadow, SVG, tree } from "./_testing.ts";

const engine = await createEngine();

/** A card: text in light DOM, a hidden note, a script, an icon, a shadow-root price, a cut and a plain attribute. */
const page = (recordedText = true) => {
  const t = tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h(
          "li",
          { class: "card", "data-sku": "A-1", "data-long": "x".repeat(10), $: { cut: ["data-long"] } },
          h("h3", { class: "title" }, "  Lamp\n ", h("img", { alt: "lamp" }), h("svg", { $: { ns: SVG } }, "icon")),
          h("p", { class: "note", $: { visible: false } }, "Only for members"),
          h("script", {}, " "),
          h("x-price", { class: "price" }, shadow(h("span", { class: "amount" }, "$3"))),
          h("span", { class: "empty" }),
          h("button", { class: "buy", $: { states: ["disabled"] } }, "Buy"),
        ),
        h("span", { class: "amount" }, "$99 outside the card"),
      ),
    ),
  );
  t.recorded.text = recordedText;
  return indexTree(t);
};

/** The value of one extract on the card, and the doubt it left (when any). */
function extract(extract: string, transform?: string, recordedText = true) {
  const doc = page(recordedText);
  const dom = engine.claimDom(doc);
  const card = doc.elements.find((e) => e.name === "li")!;
  const byName = new Map([
    ["Card", { name: "Card", selector: "li.card", parentChain: [], view: null, properties: [] }],
    ["Price", {
      name: "Price",
      selector: "x-price",
      parentChain: [],
      view: null,
      properties: [{ name: "amount", extract: ".amount" }],
    }],
  ]);
  const value = propertyValue(card, { name: "p", extract, ...(transform ? { transform } : {}) }, byName, dom);
  return { value, doubt: dom.takeDoubt() };
}

Deno.test("tree dom - the resolver's extract forms on a captured tree answer as on the page", () => {
  assert.deepEqual(extract("text"), { value: "Lamp icon Only for members Buy", doubt: undefined });
  assert.deepEqual(extract("text_only"), { value: "Lamp Only for members Buy", doubt: undefined });
  assert.deepEqual(extract("attr=data-sku"), { value: "A-1", doubt: undefined });
  assert.deepEqual(extract("attr=DATA-SKU"), { value: "A-1", doubt: undefined });
  assert.deepEqual(extract("attr=data-long"), { value: "xxxxxxxxxx", doubt: undefined });
  assert.deepEqual(extract("attr=href"), { value: "", doubt: undefined });
  assert.deepEqual(extract("h3.title", "first_word"), { value: "Lamp", doubt: undefined });
  // Strictly inside the element, light DOM first, then the open shadow roots below: never the page's other match.
  assert.deepEqual(extract(".amount", "first_dollar"), { value: "$3", doubt: undefined });
  assert.deepEqual(extract("Price.amount"), { value: "$3", doubt: undefined });
  assert.deepEqual(extract("exists:button:disabled"), { value: "true", doubt: undefined });
  assert.deepEqual(extract("exists:button:checked"), { value: "", doubt: undefined });
  assert.deepEqual(extract(".nothing"), { value: "", doubt: undefined });
  assert.deepEqual(extract("span.empty"), { value: "", doubt: undefined });
  // Invalid CSS: the browser throws too, and the resolver calls that no value: not a doubt.
  assert.deepEqual(extract("p[["), { value: "", doubt: undefined });
  assert.match(
    extract("inner_html").value,
    /^<h3 class="title"> Lamp <img alt="lamp"><svg>icon<\/svg><\/h3><p class="note">/,
  );
});

Deno.test("tree dom - what a capture cannot tell is a doubt, never an empty value", () => {
  const hover = extract("button:hover");
  assert.equal(hover.value, "");
  assert.match(hover.doubt ?? "", /:hover, which only matches during user interaction/);
  const cut = extract('exists:[data-long="x"]');
  assert.equal(cut.value, "");
  assert.match(cut.doubt ?? "", /cut/);
  const hidden = extract("p.note", undefined);
  assert.equal(hidden.value, "");
  assert.match(hidden.doubt ?? "", /inner_text of a hidden <p>/);
  const childless = extract("span.empty");
  assert.equal(childless.doubt, undefined);
  const noText = extract("text", undefined, false);
  assert.deepEqual(noText, { value: "", doubt: "this capture records no text" });
  // Visible text decides inner_text without style: a visible title renders.
  assert.deepEqual(extract("inner_text"), { value: "Lamp icon Buy", doubt: undefined });
});
