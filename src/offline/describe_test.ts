import assert from "node:assert/strict";
import { describeElement } from "./describe.ts";
import { h } from "./_testing.ts";

Deno.test("describe element - tag, id, three classes, test ids first, long values shortened", () => {
  assert.equal(
    describeElement(h("li", { id: "p-1", class: "card a b c", href: "/x", "data-sku": "2", "data-testid": "card" })),
    'li#p-1.card.a.b…[data-testid="card"][data-sku="2"][href="/x"]',
  );
  assert.equal(describeElement(h("input", { disabled: "", name: "q" })), 'input[name="q"]');
  assert.equal(describeElement(h("UIButton", { label: "Add to Cart" })), 'UIButton[label="Add to Cart"]');
  assert.equal(describeElement(h("a", { "aria-label": "x".repeat(40) })), `a[aria-label="${"x".repeat(29)}…"]`);
  assert.equal(describeElement(h("b", { id: "1 2", class: "9x" })), 'b[id="1 2"][class~="9x"]');
});

Deno.test("describe element - page text cannot act on the terminal or reorder the line", () => {
  const shown = describeElement(h("a", { title: "x\u001b[31m\u202eevil\n" }));
  for (const c of ["\u001b", "\u202e", "\n"]) assert.ok(!shown.includes(c), JSON.stringify(c));
  assert.match(shown, /\\u001b\[31m\\u202eevil\\n/);
});
