import assert from "node:assert/strict";
import { buildPageScript, exportedNames, stripModule } from "./_script.ts";

Deno.test("buildPageScript - the resolver's exports reach the page API; the script installs once", () => {
  const resolver = "export const A = 1;\nexport function twice(x) {\n  return x * 2;\n}\nfunction hidden() {}\n";
  const page = "// @ts-check\nexport function createSee(R) {\n  return { v: R.twice(R.A) };\n}\n";
  assert.deepEqual(exportedNames(resolver), ["A", "twice"]);
  assert.doesNotMatch(stripModule(resolver), /export/);
  const script = buildPageScript(resolver, page);
  // A stand-in for the isolated world's global object.
  const world: { __mapperSee?: { v: number } } = {};
  const run = () => new Function("globalThis", `return ${script};`)(world);
  assert.equal(run(), true);
  assert.equal(world.__mapperSee?.v, 2);
  const first = world.__mapperSee;
  assert.equal(run(), true);
  assert.equal(world.__mapperSee, first);
});

Deno.test("buildPageScript - the real resolver and page modules build into one parseable script", () => {
  const script = buildPageScript();
  assert.doesNotMatch(script, /^\s*(export|import)\s/m);
  new Function(script); // parses
  for (const name of ["extractProperties", "resolveView", "matchRoute"]) {
    assert.match(script, new RegExp(`\\b${name}\\b`));
  }
});
