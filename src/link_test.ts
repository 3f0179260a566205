import assert from "node:assert/strict";
import { exportedNames, importsOf, linkScript, stripModule } from "./link.ts";

Deno.test("link - a re-export links like an import and is exported under its (new) name", () => {
  const core = 'export { a, b as c } from "./lib.js";\nexport const d = 4;\n';
  assert.deepEqual(importsOf(core), [{ from: "./lib.js", bindings: "a, b: c" }]);
  assert.deepEqual(exportedNames(core), ["d", "a", "c"]);
  assert.doesNotMatch(stripModule(core), /export|from/);
});

Deno.test("link - linkScript runs every module once, in order, in strict mode, defining no global", () => {
  const lib = "export const a = 1;\nexport function b() {\n  return 2;\n}\n";
  const core = 'export { a, b as c } from "./lib.js";\n';
  const entry = 'import { a, c } from "./core.js";\nlog.push(a + c(), (function () {\n  return this;\n})());\n';
  const script = linkScript([
    { url: "file:///e/lib.js", source: lib },
    { url: "file:///e/core.js", source: core },
    { url: "file:///e/content.js", source: entry },
  ]);
  const log: unknown[] = [];
  const world: Record<string, unknown> = {};
  new Function("log", "globalThis", script)(log, world);
  assert.deepEqual(log, [3, undefined], "the entry ran once, with `this` undefined as in a module");
  assert.deepEqual(Object.keys(world), []);
  assert.throws(
    () => linkScript([{ url: "file:///e/content.js", source: entry }]),
    /core\.js, which is not linked before it/,
  );
});
