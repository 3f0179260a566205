import assert from "node:assert/strict";
import { join } from "node:path";
import { compile, load } from "../corpus/mod.ts";
import {
  loadEngine,
  type MapperTree,
  MAX_TREE_BYTES,
  parseTree,
  type TreeChild,
  type TreeNode,
} from "../offline/mod.ts";
import { captureStamp, novelty, readCaptures, rematch, saveCapture, SNAPSHOTS_DIR, viewDirName } from "./captures.ts";
import { prunable } from "./capture.ts";

const engine = await loadEngine();
let nextId = 1;

function el(tag: string, attrs: Record<string, string> = {}, ...children: TreeChild[]): TreeNode {
  const interactive = tag === "button" || tag === "a";
  return {
    id: nextId++,
    tag,
    attrs,
    role: tag === "button" ? "button" : tag === "a" ? "link" : "generic",
    name: "",
    visible: true,
    ...(interactive ? { interactive: true as const } : {}),
    children,
  };
}

function page(body: TreeNode[], url = "https://shop.test/shop"): MapperTree {
  return {
    schema: 1,
    kind: "mapper-tree",
    mapper: "0",
    url,
    title: "",
    view: { name: "Catalog", route: "/shop" },
    capturedAt: "2026-06-07T19:30:00.000Z",
    viewport: { width: 800, height: 600, dpr: 1 },
    settled: true,
    coverage: null,
    root: el("html", {}, el("body", {}, ...body)),
  };
}

const corpusDir = await Deno.makeTempDir();
await Deno.writeTextFile(
  join(corpusDir, "views.yaml"),
  "version: 1\nviews:\n  - name: Catalog\n    route: /shop\n    components:\n      - name: Card\n" +
    "        selector: li.card\n  - name: Other\n    route: /other\n",
);
const wire = compile((await load(corpusDir)).corpus, { site: "t", version: 1 });
await Deno.remove(corpusDir, { recursive: true });

const captured = (t: MapperTree) => parseTree(JSON.stringify(t), "t.json");

Deno.test("viewDirName - safe names as is; path characters and names clashing by case get a slug and a hash", async () => {
  assert.equal(await viewDirName("Catalog"), "Catalog");
  assert.equal(await viewDirName("v1.2_a-b"), "v1.2_a-b");
  assert.match(await viewDirName("../Help Frame"), /^Help-Frame-[0-9a-f]{8}$/);
  assert.match(await viewDirName(".."), /^view-[0-9a-f]{8}$/);
  assert.match(await viewDirName("a/b\\c"), /^a-b-c-[0-9a-f]{8}$/);
  const [a, b] = [await viewDirName("Cart", ["Cart", "cart"]), await viewDirName("cart", ["Cart", "cart"])];
  assert.match(a, /^Cart-[0-9a-f]{8}$/);
  assert.notEqual(a.toLowerCase(), b.toLowerCase());
  assert.equal(captureStamp(new Date("2026-06-07T19:30:00.123Z")), "20260607T193000Z");
});

Deno.test("rematch - tiers, claimed counts and orphan slots at the recorded URL; a URL now elsewhere is stale", () => {
  const t = page([
    el("ul", {}, el("li", { class: "card" }, el("button", { class: "buy" })), el("li", { class: "card" })),
    el("footer", {}, el("a", { href: "/a" }), el("a", { href: "/b" })),
  ]);
  const r = rematch(captured(t), wire, engine);
  assert.equal(r.view, "Catalog");
  assert.equal(r.stale, false);
  assert.deepEqual([...r.claimed], [["Card", 2]]);
  assert.deepEqual([r.interactive, r.t1, r.t2, r.orphans.length], [3, 0, 1, 2]);
  assert.deepEqual([...r.slots], ["link in footer: a"]);
  const moved = rematch(captured(page([], "https://shop.test/other")), wire, engine);
  assert.deepEqual([moved.view, moved.stale], ["Other", true]);
});

Deno.test("novelty and prunable - a new component or orphan slot is new; the covered oldest go, never the last", () => {
  const base = rematch(captured(page([el("li", { class: "card" })])), wire, engine);
  const same = rematch(captured(page([el("li", { class: "card" })])), wire, engine);
  const more = rematch(
    captured(page([el("li", { class: "card" }), el("nav", {}, el("a", { href: "/" }))])),
    wire,
    engine,
  );
  assert.deepEqual(novelty(same, [base]), { components: [], slots: [] });
  assert.deepEqual(novelty(more, [base]), { components: [], slots: ["link in nav: a"] });
  const none = rematch(captured(page([])), wire, engine);
  assert.deepEqual(novelty(base, [none]), { components: ["Card"], slots: [] });
  const set = [{ r: base, n: 1 }, { r: same, n: 2 }, { r: more, n: 3 }];
  assert.deepEqual(prunable(set).map((x) => x.n), [1, 2]);
  assert.deepEqual(prunable([{ r: base, n: 1 }]).map((x) => x.n), []);
});

Deno.test("readCaptures - links, FIFOs, oversized and broken files are listed as unreadable; the rest are read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const at = new Date("2026-06-07T19:30:00Z");
    const text = JSON.stringify(page([el("li", { class: "card" })]));
    const first = await saveCapture(dir, "Catalog", { snap: "x\n", tree: text }, at);
    const second = await saveCapture(dir, "Catalog", { snap: "x\n", tree: text }, at);
    assert.deepEqual([first.stamp, second.stamp], ["20260607T193000Z", "20260607T193000Z-2"]);
    const folder = join(dir, SNAPSHOTS_DIR, "Catalog");
    const outside = join(dir, "outside.json");
    await Deno.writeTextFile(outside, text);
    await Deno.symlink(outside, join(folder, "link.snap.tree.json"));
    await Deno.writeTextFile(join(folder, "broken.snap.tree.json"), "{");
    const big = await Deno.open(join(folder, "big.snap.tree.json"), { write: true, create: true });
    await big.truncate(MAX_TREE_BYTES + 1);
    big.close();
    if (Deno.build.os !== "windows") {
      await new Deno.Command("mkfifo", { args: [join(folder, "fifo.snap.tree.json")] }).output();
    }
    const { captures, unreadable } = await readCaptures(dir);
    assert.deepEqual(captures.map((c) => c.stamp), ["20260607T193000Z", "20260607T193000Z-2"]);
    const why = Object.fromEntries(unreadable.map((u) => [u.shown.split("/").pop(), u.reason]));
    assert.match(why["link.snap.tree.json"]!, /symbolic link/);
    assert.match(why["broken.snap.tree.json"]!, /not JSON/);
    assert.match(why["big.snap.tree.json"]!, /16 MiB|larger|too large|over/i);
    if (Deno.build.os !== "windows") assert.match(why["fifo.snap.tree.json"]!, /not a regular file/);
    // A folder planted as a link is never written through.
    await Deno.symlink(join(dir, "elsewhere"), join(dir, SNAPSHOTS_DIR, "Linked"));
    await assert.rejects(() => saveCapture(dir, "Linked", { snap: "", tree: text }, at), /is not a directory/);
    await assert.rejects(() => saveCapture(dir, "../x", { snap: "", tree: text }, at), /cannot name a capture folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
