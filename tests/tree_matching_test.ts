/**
 * The public tree-matching conformance fixtures (`tests/fixtures/tree-matching/`, from the sightmap project):
 * every expected claim reproduced by mapper's reader of the other implementation's trees, the offline engine and
 * the claim, and every fixture selector answered by `mapper sel-check` as a user runs it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT, runMapper } from "./_helpers.ts";
import { claimElements, indexTree, loadEngine, readTreeFile } from "../src/offline/mod.ts";
import { runSelCheck } from "../src/offline/sel_check.ts";
import { testIo } from "../src/io.ts";

const FIXTURES = join(ROOT, "tests", "fixtures", "tree-matching");
const names = [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory).map((e) => e.name).sort();

interface Fixture {
  name: string;
  tree: string;
  components: Array<{ name: string; selectors: string[] }>;
  expected: Record<string, string[]>;
}

function fixture(name: string): Fixture {
  const dir = join(FIXTURES, name);
  return {
    name,
    tree: join(dir, "component-tree.json"),
    components: parse(Deno.readTextFileSync(join(dir, "sightmap.yaml"))),
    expected: JSON.parse(Deno.readTextFileSync(join(dir, "expected-matches.json"))),
  };
}

const engine = await loadEngine();

Deno.test("tree matching - the twelve conformance fixtures are all here", () => {
  assert.equal(names.length, 12, names.join(" "));
});

for (const name of names) {
  Deno.test(`tree matching - ${name}: first-declaration-wins claim equals the expected ids`, async () => {
    const f = fixture(name);
    const captured = await readTreeFile(f.tree);
    assert.equal(captured.format, "sightmap");
    const doc = indexTree(captured);
    const components = f.components.map((c) => ({ name: c.name, selector: c.selectors.join(", "), parentChain: [] }));
    const { owner, unknown } = claimElements(components, engine.claimDom(doc));
    assert.deepEqual(unknown, []);
    const got: Record<string, string[]> = {};
    for (const [el, index] of owner) (got[components[index]!.name] ??= []).push(String(el.node.id));
    for (const ids of Object.values(got)) ids.sort();
    assert.deepEqual(got, f.expected);
  });
}

Deno.test("tree matching - every fixture selector through sel-check lists at least what it claims", async () => {
  // In-process (the command's own function, with captured output); the subprocess run below shows the same path
  // works as a user calls it.
  for (const name of names) {
    const f = fixture(name);
    for (const c of f.components) {
      const selector = c.selectors.join(", ");
      const io = testIo();
      const code = await runSelCheck({ selector, files: [f.tree], limit: 100, includeHidden: true, json: true }, io);
      assert.equal(code, 0, `${name} ${selector}`);
      const ids = JSON.parse(io.stdout.text()).files[0].matches.map((m: { id: string }) => String(m.id));
      for (const id of f.expected[c.name] ?? []) {
        assert.ok(ids.includes(id), `${name}: ${selector} lists ${id} (got ${ids})`);
      }
    }
  }
  const r = await runMapper(["sel-check", '[lang|="en"]', fixture("003-attribute-selectors").tree]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^1 match$/m);
  assert.match(r.stdout, /^ d2 {2}div\[lang="en-US"\] {2}generic$/m);
});
