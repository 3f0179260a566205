import assert from "node:assert/strict";
import { CaptureCannotAnswer, createEngine, SelectorNotEvaluable } from "./engine.ts";
import { indexTree, type OfflineDocument } from "./dom.ts";
import { frame, h, shadow, SVG, tree } from "./_testing.ts";
import type { CapturedTree } from "./tree.ts";

const engine = await createEngine();

/** Ids matched per root (document first), as `root.querySelectorAll` would give them. */
function perRoot(doc: OfflineDocument, selector: string): Array<Array<number | string>> {
  return engine.query(doc, selector).roots.map((r) => r.elements.map((e) => e.node.id));
}
const all = (doc: OfflineDocument, selector: string) => engine.query(doc, selector).all.map((e) => e.node.id);

function page(): OfflineDocument {
  const root = h(
    "html",
    {},
    h(
      "body",
      {},
      h(
        "div",
        { id: "x1", class: "Foo" },
        h(
          "svg",
          { viewBox: "0 0 1 1", $: { ns: SVG } },
          h("foreignObject", { $: { ns: SVG } }),
          h("a", { href: "#", $: { ns: SVG } }),
          h("rect", { type: "TEXT", $: { ns: SVG } }),
        ),
        h("input", { type: "TEXT" }),
        h("a", { href: "/q" }, "q"),
        h("link", { rel: "stylesheet", href: "/s.css" }),
        h("p", { id: "e1" }, " "),
        h("p", { id: "e2" }),
        h("p", { id: "e3" }, ""),
      ),
      h("div", { id: "host" }, shadow(h("span", { id: "a" }), h("span", { id: "b" }), h("p")), h("em")),
    ),
  );
  return indexTree(tree(root));
}

const ids = (doc: OfflineDocument, selector: string) =>
  engine.query(doc, selector).all.map((e) => e.node.attrs.id ?? e.node.tag);

Deno.test("offline engine - names match as in Chromium: tags and attribute names case-insensitive, SVG too", () => {
  const doc = page();
  for (const s of ["foreignObject", "foreignobject", "FOREIGNOBJECT"]) {
    assert.deepEqual(ids(doc, s), ["foreignObject"], s);
  }
  for (const s of ["[viewbox]", "[viewBox]", "[VIEWBOX]"]) assert.deepEqual(ids(doc, s), ["svg"], s);
  assert.deepEqual(ids(doc, "DIV"), ["x1", "host"]);
  // Class names stay case-sensitive (a no-quirks document).
  assert.deepEqual(ids(doc, ".Foo"), ["x1"]);
  assert.deepEqual(ids(doc, ".foo"), []);
  assert.deepEqual(ids(doc, "[class=foo]"), []);
});

Deno.test("offline engine - HTML's case-insensitive attribute values hold on HTML elements only", () => {
  const doc = page();
  assert.deepEqual(ids(doc, '[type="text"]'), ["input"]);
  assert.deepEqual(ids(doc, 'rect[type="text"]'), []);
  assert.deepEqual(ids(doc, 'rect[type="TEXT"]'), ["rect"]);
  // Chromium refuses the `s` flag: never answered as if it held.
  assert.throws(() => ids(doc, '[type="text" s]'), /the attribute flag s/);
  assert.deepEqual(ids(doc, 'rect[type="text" i]'), ["rect"]);
  assert.deepEqual(ids(doc, ':nth-child(1 of [type="text"])'), ["input"]);
  assert.deepEqual(ids(doc, 'rect:nth-child(1 of [type="TEXT"])'), ["rect"]);
});

Deno.test("offline engine - case-insensitive attribute tests fold ASCII letters only, as Chromium does", () => {
  const doc = indexTree(
    tree(
      h(
        "html",
        {},
        h("body", {}, h("b", { id: "u", title: "Ämber" }), h("i", { id: "a", title: "AMBER", lang: "DE" })),
      ),
    ),
  );
  assert.deepEqual(ids(doc, '[title="ämber" i]'), []);
  assert.deepEqual(ids(doc, '[title="Ämber" i]'), ["u"]);
  assert.deepEqual(ids(doc, '[title="ÄMBER" i]'), ["u"]);
  assert.deepEqual(ids(doc, '[title="äMBER" i]'), []);
  assert.deepEqual(ids(doc, '[title="amber" i]'), ["a"]);
  assert.deepEqual(ids(doc, '[title^="am" i]'), ["a"]);
  // An empty word is never in a list, even an empty one.
  assert.deepEqual(ids(doc, '[title~=""], [title~="" i], [lang~=""]'), []);
  assert.deepEqual(ids(doc, '[title*="MB" i]'), ["u", "a"]);
  // `lang` is one of HTML's case-insensitive values: folded the same way without a flag.
  assert.deepEqual(ids(doc, '[lang="de"]'), ["a"]);
});

Deno.test("offline engine - :empty counts whitespace text; :any-link is a and area with href, SVG a included", () => {
  const doc = page();
  assert.deepEqual(ids(doc, "p:empty"), ["e2", "e3", "p"]);
  assert.deepEqual(ids(doc, ":any-link"), ["a", "a"]);
  assert.deepEqual(ids(doc, "link:any-link, link:link"), []);
});

Deno.test("offline engine - one query per root: a shadow tree is its own scope, its top elements have no parent", () => {
  const doc = page();
  assert.deepEqual(perRoot(doc, "span").map((r) => r.length), [0, 2]);
  assert.deepEqual(perRoot(doc, "#host span").map((r) => r.length), [0, 0]);
  assert.deepEqual(perRoot(doc, "div > span").map((r) => r.length), [0, 0]);
  assert.deepEqual(perRoot(doc, "span:first-child").map((r) => r.length), [0, 1]);
  assert.deepEqual(perRoot(doc, "span:nth-child(2)").map((r) => r.length), [0, 1]);
  assert.deepEqual(perRoot(doc, "span + span").map((r) => r.length), [0, 1]);
  assert.deepEqual(perRoot(doc, ":root").map((r) => r.length), [1, 0]);
  assert.deepEqual(perRoot(doc, ":scope").map((r) => r.length), [1, 0]);
  assert.deepEqual(perRoot(doc, "html:first-child").map((r) => r.length), [1, 0]);
  // The host's children are its light DOM: `:has()` and `>` see the <em>, never the shadow tree.
  assert.deepEqual(ids(doc, "#host > em"), ["em"]);
  assert.deepEqual(ids(doc, "div:has(span)"), []);
  assert.deepEqual(ids(doc, "div:has(> em)"), ["host"]);
  assert.deepEqual(perRoot(doc, "p:empty").map((r) => r.length), [2, 1]);
});

Deno.test("offline engine - combinators and functional pseudo-classes, as css-select answers them", () => {
  const doc = indexTree(tree(h(
    "html",
    {},
    h(
      "body",
      {},
      h("label", { for: "q" }, "Search"),
      h("input", { id: "q" }),
      h("ul", {}, h("li", { class: "x" }), h("li"), h("li", { class: "x" }, h("a", { href: "/3" }))),
      h("p", { class: "a" }, h("span", { class: "b" })),
    ),
  )));
  assert.deepEqual(ids(doc, "label + input"), ["q"]);
  assert.deepEqual(ids(doc, "label ~ ul li:nth-child(2 of .x)").length, 1);
  assert.deepEqual(ids(doc, "li:has(> a)").length, 1);
  assert.deepEqual(ids(doc, "span:not(.a .b)"), []);
  assert.deepEqual(ids(doc, "span:not(.a > .c)").length, 1);
  assert.deepEqual(ids(doc, ":is(ul, p) > :where(.x, .b)").length, 3);
  assert.deepEqual(ids(doc, "li:nth-last-of-type(1)").length, 1);
});

Deno.test("offline engine - a same-origin frame is a root of its own; nothing crosses into it", () => {
  const doc = indexTree(tree(h(
    "html",
    {},
    h("body", {}, h("iframe", { src: "/f" }, frame("https://shop.test/f", h("html", {}, h("body", {}, h("a")))))),
  )));
  assert.deepEqual(perRoot(doc, "a").map((r) => r.length), [0, 1]);
  assert.deepEqual(perRoot(doc, "iframe a").map((r) => r.length), [0, 0]);
  assert.deepEqual(perRoot(doc, ":root").map((r) => r.length), [1, 1]);
  assert.deepEqual(perRoot(doc, "iframe:empty").map((r) => r.length), [1, 0]);
});

Deno.test("offline engine - state pseudo-classes come from the recorded flags, not from attributes", () => {
  const doc = indexTree(tree(h(
    "html",
    {},
    h(
      "body",
      {},
      h("input", { type: "checkbox", $: { states: ["checked", "enabled", "optional"] } }),
      h("input", { type: "checkbox", checked: "", $: { states: ["enabled", "optional"] } }),
      h("input", { $: { states: ["read-write", "enabled", "placeholder-shown"] } }),
      h("x-widget", { $: { states: ["not-defined"] } }),
      h("dialog", { $: { states: ["open", "modal"] } }),
      h("svg", { $: { ns: SVG } }),
    ),
  )));
  assert.deepEqual(all(doc, ":checked"), [3]);
  assert.deepEqual(all(doc, "input:not(:checked)"), [4, 5]);
  assert.deepEqual(all(doc, "input:read-only"), [3, 4]);
  assert.deepEqual(all(doc, "body > :read-only"), [3, 4, 6, 7]);
  assert.deepEqual(all(doc, ":read-write, :placeholder-shown"), [5]);
  assert.deepEqual(all(doc, ":not(:defined)"), [6]);
  // (`:open` is valid in Chromium 156, but `validate` still calls it invalid: the engine follows validate.)
  assert.deepEqual(all(doc, "dialog:modal"), [7]);
  assert.deepEqual(all(doc, ":disabled"), []);
});

/** A tree as the other implementation's files convert: no states, no text recorded. */
function foreign(t: CapturedTree): CapturedTree {
  return { ...t, format: "sightmap", recorded: { states: false, text: false } };
}

Deno.test("offline engine - what the capture does not record is 'cannot answer', never 0", () => {
  const doc = indexTree(foreign(tree(h(
    "html",
    {},
    h("body", {}, h("input", { type: "checkbox" }), h("p"), h("div", { "data-x": "ab", $: { cut: ["data-x"] } })),
  ))));
  assert.throws(() => engine.query(doc, ":checked"), CaptureCannotAnswer);
  assert.throws(() => engine.query(doc, "input:not(:disabled)"), /does not record element states \(:disabled\)/);
  assert.throws(() => engine.query(doc, "p:empty"), /does not record text/);
  // An element with element children is not empty, whatever the text.
  assert.deepEqual(all(doc, "body:empty"), []);
  assert.throws(() => engine.query(doc, '[data-x^="a"]'), /value of "data-x" on <div> #5 was cut/);
  // Presence does not depend on the value.
  assert.deepEqual(all(doc, "[data-x]"), [5]);
  // The same question asked again gets the same answer (memoized results must keep the doubt).
  assert.throws(() => engine.query(doc, '[data-x^="a"]'), CaptureCannotAnswer);
});

Deno.test("offline engine - invalid CSS is refused with its position; what no capture can answer is refused too", () => {
  const invalid = (s: string, position: number) => {
    assert.throws(() => engine.compile(s), (err: unknown) => {
      assert.ok(err instanceof SelectorNotEvaluable, String(err));
      assert.equal(err.invalid, true, s);
      assert.equal(err.position, position, `${s}: ${err.message}`);
      return true;
    });
  };
  invalid("a[", 1);
  invalid("div >", 4);
  invalid("a:contains(x)", 10);
  invalid(":checkbox", 8);
  for (const s of ["a:hover", "p::before", ":lang(en)", ":dir(ltr)", ":host", "svg|a", "[xlink|href]", "a:target"]) {
    assert.throws(() => engine.compile(s), (err: unknown) => {
      assert.ok(err instanceof SelectorNotEvaluable && !err.invalid, `${s}: ${err}`);
      return true;
    });
  }
});

Deno.test("offline engine - claimDom: roots, per-root answers, parents across a shadow host but not a frame", () => {
  const doc = indexTree(tree(h(
    "html",
    {},
    h(
      "body",
      {},
      h("x-card", {}, shadow(h("button"))),
      h("iframe", {}, frame("https://shop.test/f", h("html", {}, h("body", {}, h("button"))))),
    ),
  )));
  const dom = engine.claimDom(doc);
  const roots = [...dom.roots()];
  assert.deepEqual(roots.map((r) => r.kind), ["document", "shadow", "frame"]);
  const [inShadow] = [...dom.queryAll(roots[1]!, "button")];
  assert.equal(dom.parent(inShadow!)?.node.tag, "x-card");
  const [inFrame] = [...dom.queryAll(roots[2]!, "button")];
  assert.equal(dom.parent(inFrame!)?.node.tag, "body");
  assert.equal(dom.parent(dom.parent(dom.parent(inFrame!)!)!), null);
});

/** A page of a few hundred elements in two roots (the key index serves roots of 64 elements and more). */
function bigPage(): OfflineDocument {
  const classes = ["card", "card featured", "a a", "a\tb", "a\u00a0b", "", "Card", " title  price ", "b"];
  const tags = ["li", "p", "span", "LI", "div"];
  const items = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      h(
        tags[i % tags.length]!,
        {
          class: classes[i % classes.length]!,
          ...(i % 7 === 0 ? { id: `${prefix}${i % 21}` } : {}),
          ...(i % 11 === 0 ? { ID: "upper" } : {}),
        },
        h("span", { class: i % 3 === 0 ? "amount" : "title" }, `t${i}`),
      ));
  const root = h(
    "html",
    {},
    h(
      "body",
      {},
      h("ul", { class: "list" }, ...items("x", 120)),
      h("svg", { $: { ns: SVG } }, h("foreignObject", { class: "card", $: { ns: SVG } }), h("A", { $: { ns: SVG } })),
      h("div", { id: "host" }, shadow(h("ul", { class: "list" }, ...items("s", 80)))),
    ),
  );
  return indexTree(tree(root));
}

Deno.test("offline engine - the key index answers as testing every element", () => {
  const doc = bigPage();
  const selectors = [
    "li",
    "LI",
    "span",
    ".card",
    ".Card",
    ".a",
    ".b",
    ".title",
    ".price",
    "#x0",
    "#X0",
    "#s7, #x14",
    "[id=x7]",
    "[class~=card]",
    "[class~='a b']",
    ".a.b",
    "li.card",
    "ul > li.card:not(.featured)",
    "div .card, span#x3",
    "ul.list li.card span.amount",
    "li.card + p",
    "p ~ li.featured",
    "*",
    ".card, *",
    ":is(li, p)",
    "li:nth-child(2n of .card)",
    "p:has(> span.amount)",
    "foreignObject",
    "svg a",
    "#nope, li",
    ".nope",
    "li#x0.card",
  ];
  for (const selector of selectors) {
    const compiled = engine.compile(selector);
    const expected = doc.roots.map((root) => root.elements.filter((el) => compiled.query(el)).map((e) => e.node.id));
    assert.deepEqual(perRoot(doc, selector), expected, selector);
  }
});
