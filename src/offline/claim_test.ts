import assert from "node:assert/strict";
import { claimElements } from "./claim.ts";
import { createEngine } from "./engine.ts";
import { indexTree } from "./dom.ts";
import { h, shadow, tree } from "./_testing.ts";

const engine = await createEngine();

/** Component name → claimed ids, for a tree and components `[name, selector, parentChain]`. */
function claim(root: ReturnType<typeof h>, components: Array<[string, string, string[]?]>) {
  const doc = indexTree(tree(root));
  const list = components.map(([name, selector, parentChain = []]) => ({ name, selector, parentChain }));
  const result = claimElements(list, engine.claimDom(doc));
  const owned: Record<string, Array<number | string>> = {};
  for (const [el, i] of result.owner) (owned[list[i]!.name] ??= []).push(el.node.id);
  return { owned, conflicts: result.conflicts, unknown: result.unknown };
}

const page = () =>
  h(
    "html",
    {},
    h(
      "body",
      {},
      h("ul", { class: "cards" }, h("li", { class: "card" }, h("button")), h("li", { class: "card" }, h("button"))),
      h("aside", {}, h("li", { class: "card" }, h("button"))),
      h("x-field", { class: "field" }, shadow(h("input", { class: "control" }))),
      h("input", { class: "control" }),
    ),
  );

Deno.test("claim - the first declaration wins, and the clash is reported once per pair", () => {
  const { owned, conflicts } = claim(page(), [["Card", "li.card"], ["Item", "li"], ["Button", "button"]]);
  assert.deepEqual(owned, { Card: [4, 6, 9], Button: [5, 7, 10] });
  assert.deepEqual(conflicts, ["Card and Item both match 3 elements; Card (declared first) wins"]);
});

Deno.test("claim - a child is claimed only inside an element its parent component owns", () => {
  const { owned } = claim(page(), [["Cards", "ul.cards"], ["Card", "ul.cards li.card", ["Cards"]]]);
  assert.deepEqual(owned, { Cards: [3], Card: [4, 6] });
  // The child's own elements outside every parent element are not claimed, even when its selector matches them.
  const loose = claim(page(), [["Cards", "ul.cards"], ["Card", "li.card", ["Cards"]]]);
  assert.deepEqual(loose.owned, { Cards: [3], Card: [4, 6] });
});

Deno.test("claim - a child inside its parent's open shadow root is claimed (the parent walk crosses to the host)", () => {
  const { owned } = claim(page(), [["Field", "x-field"], ["FieldInput", "input.control", ["Field"]]]);
  assert.deepEqual(owned, { Field: [11], FieldInput: [12] });
});

Deno.test("claim - a parent that is not active is skipped; the nearest active one scopes", () => {
  const { owned } = claim(page(), [["Cards", "ul.cards"], ["Button", "button", ["Cards", "NotHere"]]]);
  assert.deepEqual(owned, { Cards: [3], Button: [5, 7] });
});

Deno.test("claim - a selector that cannot be answered is unknown, claims nothing, and the rest go on", () => {
  const { owned, unknown } = claim(page(), [["Hovered", "li:hover"], ["Bad", "li["], ["Card", "li.card"]]);
  assert.deepEqual(owned, { Card: [4, 6, 9] });
  assert.deepEqual(unknown.map((u) => u.index), [0, 1]);
  assert.match(unknown[0]!.reason, /:hover/);
});
