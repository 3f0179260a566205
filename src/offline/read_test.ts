import assert from "node:assert/strict";
import { join } from "node:path";
import { parseTree, readTreeFile } from "./read.ts";
import { indexTree } from "./dom.ts";
import { h, shadow, tree } from "./_testing.ts";
import { MAX_TREE_BYTES } from "./tree.ts";
import { DataError, NotFoundError } from "../errors.ts";

const good = () => tree(h("html", {}, h("body", {}, h("x-a", {}, shadow(h("b")), "hi")))).tree;

function refused(value: unknown, message: string | RegExp): void {
  assert.throws(
    () => parseTree(typeof value === "string" ? value : JSON.stringify(value), "t.json"),
    (err: unknown) => {
      assert.ok(err instanceof DataError, String(err));
      if (typeof message === "string") assert.equal(err.message, message);
      else assert.match(err.message, message);
      return true;
    },
  );
}

Deno.test("tree reader - reads mapper's own tree as it is, marked as recording states and text", () => {
  const captured = parseTree(JSON.stringify(good()), "t.json");
  assert.equal(captured.format, "mapper");
  assert.deepEqual(captured.recorded, { states: true, text: true });
  assert.deepEqual(captured.tree, good());
});

Deno.test("tree reader - a malformed tree is refused naming the file and the place in the JSON", () => {
  const t = good() as unknown as { root: { children: Array<{ children: unknown[] }> } };
  const bad = structuredClone(t);
  (bad.root.children[0]!.children[0] as { attrs: unknown }).attrs = { class: 12 };
  refused(bad, 't.json: root.children[0].children[0].attrs["class"]: expected a string, found 12');
  const shadowBad = structuredClone(t);
  ((shadowBad.root.children[0]!.children[0] as { children: Array<{ shadow: string }> }).children[0]!).shadow = "closed";
  refused(shadowBad, 't.json: root.children[0].children[0].children[0].shadow: expected "open", found "closed"');
  const inShadow = structuredClone(t) as unknown as {
    root: { children: Array<{ children: Array<{ children: Array<{ children: Array<{ role: unknown }> }> }> }> };
  };
  inShadow.root.children[0]!.children[0]!.children[0]!.children[0]!.role = 7;
  refused(inShadow, "t.json: root.children[0].children[0].children[0].children[0].role: expected a string, found 7");
  refused({ ...good(), schema: 2 }, "t.json: schema: schema 2 is newer than this mapper reads (1); update mapper");
  refused({ ...good(), view: "Home" }, 't.json: view: expected {name, route} or null, found "Home"');
  refused({ ...good(), kind: "other" }, 't.json: kind: expected "mapper-tree", found "other"');
  refused({ ...good(), root: { ...good().root, states: ["hovered"] } }, /root\.states\[0\]: unknown state "hovered"/);
  refused({ ...good(), root: { ...good().root, visible: "yes" } }, /root\.visible: expected true, false or "boxless"/);
  refused("{", /^t\.json: not JSON \(/);
  refused([], "t.json: expected a tree object, found an array");
  refused({ hello: 1 }, /^t\.json: not a captured tree/);
});

Deno.test("tree reader - a very deep tree is checked and indexed without exhausting the stack", () => {
  const depth = 20_000;
  const node = (id: number, children: string) =>
    `{"id":${id},"tag":"div","attrs":{},"role":"generic","name":"","visible":true,"children":[${children}]}`;
  let text = node(depth + 1, "");
  for (let i = depth; i >= 1; i--) text = node(i, text);
  const { root: _root, ...meta } = good();
  const captured = parseTree(JSON.stringify(meta).replace(/}$/, `,"root":${text}}`), "deep.json");
  assert.equal(indexTree(captured).elements.length, depth + 1);
});

Deno.test("tree reader - the other implementation's component tree becomes a tree: id/classes as attributes", () => {
  const component = {
    id: "root",
    role: "generic",
    name: "",
    isVisible: true,
    element: { tag: "div" },
    children: [
      { id: "t", role: "StaticText", name: "Hello", isVisible: true },
      {
        id: "v",
        role: "group",
        name: "",
        isVisible: true,
        children: [{
          id: "b",
          role: "button",
          name: "Go",
          isVisible: false,
          isInteractive: true,
          element: { tag: "BUTTON", id: "go", classes: ["a", "b"], attrs: { type: "submit" } },
          bounds: { x: 1, y: 2, width: 3, height: 4 },
        }],
      },
      { id: "c", role: "generic", name: "", isVisible: true, element: { tag: "span" } },
    ],
  };
  for (const wrapped of [component, { url: "https://x.test/", tree: component }, { root: component }]) {
    const captured = parseTree(JSON.stringify(wrapped), "component-tree.json");
    assert.equal(captured.format, "sightmap");
    assert.deepEqual(captured.recorded, { states: false, text: false });
    const root = captured.tree.root;
    // The virtual node ("v") hands its child to the list it sits in, in its place; StaticText is text.
    assert.deepEqual(root.children.map((c) => typeof c === "string" ? c : "tag" in c ? c.id : "?"), [
      "Hello",
      "b",
      "c",
    ]);
    assert.deepEqual(root.children[1], {
      id: "b",
      tag: "BUTTON",
      attrs: { type: "submit", id: "go", class: "a b" },
      role: "button",
      name: "Go",
      visible: false,
      interactive: true,
      box: [1, 2, 3, 4],
      children: [],
    });
  }
  assert.equal(parseTree(JSON.stringify({ url: "https://x.test/", tree: component }), "x").tree.url, "https://x.test/");
  refused(
    { ...component, element: { tag: "div", classes: "a b" } },
    't.json: element.classes: expected a list of strings, found "a b"',
  );
  refused(
    { ...component, children: [{ id: "q", element: { tag: "p", attrs: { x: 1 } } }] },
    /children\[0\]\.element\.attrs\["x"\]: expected a string, found 1/,
  );
  refused({ id: "x", role: "group", children: [] }, /the top node has no element/);
});

Deno.test("tree reader - files: over 16 MiB, missing, not regular, not UTF-8 are refused in one line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const big = join(dir, "big.json");
    using f = await Deno.open(big, { write: true, create: true });
    await f.truncate(MAX_TREE_BYTES + 1);
    await assert.rejects(
      readTreeFile(big, "big.json"),
      /^DataError: big\.json: larger than the 16 MiB limit of a tree$/,
    );
    await assert.rejects(readTreeFile(join(dir, "nope.json"), "nope.json"), NotFoundError);
    await assert.rejects(readTreeFile(dir, "dir"), /cannot read "dir": it is a directory, not a regular file/);
    const latin = join(dir, "latin.json");
    await Deno.writeFile(latin, new Uint8Array([0x7b, 0xe9, 0x7d]));
    await assert.rejects(readTreeFile(latin, "latin.json"), /latin\.json: not UTF-8 text/);
    const ok = join(dir, "ok.json");
    await Deno.writeTextFile(ok, JSON.stringify(good()));
    assert.equal((await readTreeFile(ok)).file, ok);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
