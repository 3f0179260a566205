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

Deno.test("tree matching - every fixture selector through 'mapper sel-check' matches at least what it claims", async () => {
  for (const name of names) {
    const f = fixture(name);
    for (const c of f.components) {
      const selector = c.selectors.join(", ");
      const r = await runMapper(["sel-check", selector, f.tree, "--json", "--include-hidden"]);
      const expected = f.expected[c.name] ?? [];
      assert.equal(r.code, expected.length > 0 || name === "008-first-match-wins" ? 0 : 1, `${name} ${selector}`);
      const out = JSON.parse(r.stdout);
      const ids = out.files[0].matches.map((m: { id: string }) => String(m.id));
      for (const id of expected) assert.ok(ids.includes(id), `${name}: ${selector} lists ${id} (got ${ids})`);
    }
  }
});
