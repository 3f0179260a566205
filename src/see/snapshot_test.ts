import assert from "node:assert/strict";
import type { SeeNode, SnapshotPayload } from "./api.ts";
import { coverageLine, cutTree, formatSnapshot, guide, nodeText } from "./snapshot.ts";

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
    "4 interactive · 2 direct T1 (50%) · 2 scoped T2 (50%) · 0 orphaned T3 ✓",
  );
  assert.equal(coverageLine({ interactive: 0, t1: 0, t2: 0, t3: 0, orphans: [] }), "0 interactive ∅");
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
      tree: [node(1, { role: "button", name: "Go", interactive: true })],
      counts: {},
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
