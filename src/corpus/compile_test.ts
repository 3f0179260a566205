import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, ROOT } from "../../tests/_helpers.ts";
import { compile, load, type WireComponent } from "./mod.ts";
import { assertWireSchema, tempCorpus } from "./_testing.ts";

const SHOP = join(ROOT, "tests", "fixtures", "corpus", "shop");

Deno.test("compile - the shop fixture compiles to the golden wire format", async () => {
  const { corpus, diagnostics } = await load(SHOP);
  const wire = compile(corpus, { site: "shop", version: 1795297721289 });
  assertWireSchema(wire);
  await assertGolden("corpus/shop.compiled.json", JSON.stringify(wire, null, 2) + "\n");
  assert.deepEqual(diagnostics.map((d) => d.code), []);
});

Deno.test("compile - every component has a comma-joined selector and array parentChain and properties", async () => {
  const { corpus } = await load(SHOP);
  const wire = compile(corpus, { site: "shop", version: 1 });
  const all: WireComponent[] = [...wire.globals, ...wire.views.flatMap((v) => v.components)];
  assert.ok(all.length > 5);
  for (const c of all) {
    assert.equal(typeof c.selector, "string");
    assert.ok(Array.isArray(c.parentChain));
    assert.ok(Array.isArray(c.properties));
  }
  const heroLink = all.find((c) => c.name === "HeroLink")!;
  assert.equal(
    heroLink.selector,
    '.hero a.cta, .hero a[title="Buy, now"], [data-testid="hero"] a.cta, [data-testid="hero"] a[title="Buy, now"]',
  );
});

Deno.test("compile - authoring-only fields never reach the wire", async () => {
  const { corpus } = await load(SHOP);
  const text = JSON.stringify(compile(corpus, { site: "shop", version: 1 }));
  assert.ok(!text.includes("Authoring-only"), "component description leaked");
  assert.ok(!text.includes("https://shop.example/"), "view url leaked");
  assert.ok(!text.includes('"uncertain"'), "view stability leaked");
  assert.ok(!text.includes("shop-profile"), "config.yaml content leaked");
  assert.ok(!text.includes('"location"'), "source locations leaked");
  assert.ok(text.includes("Capitalised Snapshots/"), "Snapshots/ (capitalised) should load");
  assert.ok(!text.includes("SHOULD NOT LOAD"), "snapshots/ or review/ was loaded");
});

Deno.test("compile - an empty corpus has every top-level key", async () => {
  await using c = await tempCorpus();
  const { corpus } = await load(c.dir);
  const wire = compile(corpus, { site: "site", version: 7 });
  assertWireSchema(wire);
  assert.deepEqual(wire, { site: "site", version: 7, memory: [], globals: [], views: [], requests: [], messages: [] });
  assert.deepEqual(Object.keys(wire), ["site", "version", "memory", "globals", "views", "requests", "messages"]);
});

Deno.test("compile - the schema rejects a newer envelope and string versions", () => {
  assert.throws(() => assertWireSchema({ site: "x", version: "1795297721289", corpus: {} }));
  assert.throws(() =>
    assertWireSchema({
      site: "x",
      version: 1,
      memory: [],
      globals: [{ name: "A", selectors: ["a"] }],
      views: [],
      requests: [],
      messages: [],
    })
  );
});
