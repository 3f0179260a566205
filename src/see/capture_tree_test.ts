import assert from "node:assert/strict";
import { buildTree, MAX_TREE_NODES, treeText } from "./capture_tree.ts";
import type { SnapshotPayload } from "./page_api.ts";
import type { TreeNodeJs } from "./page/page_tree.js";

function payload(over: Partial<SnapshotPayload> = {}): SnapshotPayload {
  return {
    schema: 1,
    tab: "T",
    url: "https://shop.test/a?session=abc&q=lamp",
    title: "Shop",
    view: { name: "Catalog", route: "/a", memory: [], params: {} },
    corpus: true,
    viewConflicts: [],
    settled: true,
    page: { coverage: { interactive: 3, t1: 1, t2: 1, t3: 1, orphans: [] } } as unknown as SnapshotPayload["page"],
    unmatched: [],
    ...over,
  };
}

const el = (tag: string, attrs: Record<string, string>, ...children: TreeNodeJs[]): TreeNodeJs => ({
  id: 1,
  tag,
  attrs,
  role: "generic",
  name: "",
  visible: true,
  children,
});

Deno.test("buildTree - metadata from the snapshot; secrets redacted and listed as cut", () => {
  const root = el(
    "html",
    {},
    el("a", { href: "/x?token=t0k&tab=2", class: "c" }),
    el("input", { type: "PASSWORD", value: "hunter2", name: "pw" }),
    el("input", { type: "text", value: "kept" }),
    el("iframe", {}),
  );
  (root.children[3] as TreeNodeJs).children.push({
    frame: "cross-origin",
    url: "https://o.test/?auth=1",
    children: [],
  });
  const tree = buildTree(payload(), { root, nodes: 5, viewport: { width: 800, height: 600, dpr: 1 } }, new Date(0));
  assert.equal(tree.kind, "mapper-tree");
  assert.equal(tree.url, "https://shop.test/a?session=REDACTED&q=lamp");
  assert.deepEqual(tree.view, { name: "Catalog", route: "/a" });
  assert.deepEqual(tree.coverage, { interactive: 3, t1: 1, t2: 1, t3: 1 });
  assert.equal(tree.capturedAt, "1970-01-01T00:00:00.000Z");
  const [a, pw, text, frame] = tree.root.children as TreeNodeJs[];
  assert.deepEqual([a!.attrs.href, a!.cut], ["/x?token=REDACTED&tab=2", ["href"]]);
  assert.deepEqual([pw!.attrs.value, pw!.cut], ["", ["value"]]);
  assert.deepEqual([text!.attrs.value, text!.cut], ["kept", undefined]);
  assert.deepEqual(frame!.children, [{ frame: "cross-origin", url: "https://o.test/?auth=REDACTED", children: [] }]);
  assert.doesNotMatch(treeText(tree), /t0k|hunter2|abc/);
  assert.equal(
    buildTree(payload({ corpus: false }), { root, nodes: 1, viewport: tree.viewport }, new Date()).coverage,
    null,
  );
});

Deno.test("buildTree - a page over the node cap is refused with what to do", () => {
  assert.throws(
    () => buildTree(payload(), { tooLarge: MAX_TREE_NODES + 1 }, new Date()),
    (err: Error & { hint?: string; code?: string }) =>
      err.code === "too_large" && /too large to capture/.test(err.message) && /smaller state/.test(err.hint ?? ""),
  );
});
