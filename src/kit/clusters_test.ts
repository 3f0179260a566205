import assert from "node:assert/strict";
import { indexTree } from "../offline/mod.ts";
import { frame, h, shadow, tree } from "../offline/_testing.ts";
import { clusterNodes, leafShape } from "./clusters.ts";

const button = (attrs: Record<string, string>, name: string) => h("button", { ...attrs, $: { role: "button", name } });
const link = (href: string, name: string) => h("a", { href, $: { role: "link", name } });

function page() {
  return indexTree(tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h(
          "ul",
          { class: "grid" },
          ...Array.from(
            { length: 4 },
            (_, i) => h("li", { class: `card css-a1b2c${i}` }, button({ class: "btn", type: "button" }, `Add ${i}`)),
          ),
        ),
        h("footer", {}, h("div", {}, link("/privacy", "Privacy"), link("/terms", "Terms"))),
        h(
          "x-rating",
          {},
          shadow(button({ class: "star", "data-v": "1" }, "1"), button({ class: "star", "data-v": "2" }, "2")),
        ),
        h("iframe", {}, frame("https://shop.test/help", h("html", {}, h("body", {}, button({ id: "ask" }, "Ask us"))))),
        h("input", { type: "checkbox", name: "red", $: { role: "checkbox" } }),
        h("input", { type: "checkbox", name: "blue", $: { role: "checkbox" } }),
      ),
    ),
  ));
}

Deno.test("clusters - same role, hooked ancestor and shape make one cluster, never split by name", () => {
  const doc = page();
  const interactive = doc.elements.filter((e) => ["button", "link", "checkbox"].includes(e.node.role));
  const clusters = clusterNodes(interactive);
  const summary = clusters.map((c) => [c.role, c.ancestorHook, c.boundary, c.shape, c.nodes.length]);
  assert.deepEqual(summary, [
    ["button", "li.card", null, "button.btn[type=button]", 4],
    ["link", "footer", null, "a", 2],
    ["button", "x-rating", "shadow", "button.star[data-v]", 2],
    ["button", "iframe", "frame", "button", 1],
    ["checkbox", null, null, "input[type=checkbox]", 2],
  ]);
});

Deno.test("clusters - a different hooked ancestor or a different shape splits a cluster", () => {
  const doc = indexTree(tree(
    h(
      "html",
      {},
      h(
        "body",
        {},
        h("nav", {}, link("/a", "A")),
        h("footer", {}, link("/a", "A")),
        h("footer", {}, h("a", { href: "/b", class: "more", $: { role: "link", name: "B" } })),
      ),
    ),
  ));
  const clusters = clusterNodes(doc.elements.filter((e) => e.name === "a"));
  assert.deepEqual(clusters.map((c) => [c.ancestorHook, c.shape, c.nodes.length]), [
    ["nav", "a", 1],
    ["footer", "a", 1],
    ["footer", "a.more", 1],
  ]);
});

Deno.test("clusters - the shape leaves out values and generated classes", () => {
  const doc = indexTree(tree(h("html", {}, h("body", {}, h("li", { class: "entry sc-bdVaJa", "data-sku": "A1" })))));
  assert.equal(leafShape(doc.elements[2]!), "li.entry[data-sku]");
});
