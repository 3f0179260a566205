import assert from "node:assert/strict";
import { buildPageScript, PAGE_MODULES } from "./_script.ts";
import { exportedNames, importsOf, stripModule } from "../../link.ts";

Deno.test("buildPageScript - imports link to the modules before them; the script installs once", () => {
  const lib = "const hidden = 2;\nfunction twice(x) {\n  return x * hidden;\n}\nexport { twice };\n";
  const mid = 'import { twice as double } from "./lib.js";\nexport const A = 1;\nexport function four() {\n' +
    "  return double(double(A));\n}\n";
  const page = '// @ts-check\nimport { A, four } from "./dir/mid.js";\nexport function createSee() {\n' +
    "  return { v: four() + A };\n}\n";
  assert.deepEqual(exportedNames(mid), ["A", "four"]);
  assert.deepEqual(importsOf(mid), [{ from: "./lib.js", bindings: "twice: double" }]);
  assert.doesNotMatch(stripModule(mid), /export|import/);
  const script = buildPageScript([
    { url: "file:///x/dir/lib.js", source: lib },
    { url: "file:///x/dir/mid.js", source: mid },
    { url: "file:///x/page.js", source: page },
  ]);
  // A stand-in for the isolated world's global object.
  const world: { __mapperSee?: { v: number } } = {};
  const run = () => new Function("globalThis", `return ${script};`)(world);
  assert.equal(run(), true);
  assert.equal(world.__mapperSee?.v, 5);
  const first = world.__mapperSee;
  assert.equal(run(), true);
  assert.equal(world.__mapperSee, first);
});

Deno.test("buildPageScript - an import of a module not linked before it, or not a named import, is refused", () => {
  const page = 'import { A } from "./later.js";\nexport function createSee() {\n  return A;\n}\n';
  assert.throws(() => buildPageScript([{ url: "file:///x/page.js", source: page }]), /later\.js, which is not linked/);
  assert.throws(() => importsOf('import * as all from "./a.js";\n'), /only named imports/);
});

Deno.test("buildPageScript - the real modules build into one parseable script", () => {
  const script = buildPageScript();
  assert.doesNotMatch(script, /^\s*(export|import)\s/m);
  new Function(script); // parses
  for (
    const name of ["extractProperties", "resolveView", "claimElements", "computeAccessibleName", "liveDom", "createSee"]
  ) {
    assert.match(script, new RegExp(`\\b${name}\\b`));
  }
  // The extension loads the same files: the accessible-name library and the resolver are not copies.
  assert.deepEqual(PAGE_MODULES.map((m) => new URL(m.url).pathname.split("/").slice(-2).join("/")), [
    "vendor/dom_accessibility_api.js",
    "extension/resolver.js",
    "extension/live_dom.js",
    "page/page_tree.js",
    "page/page.js",
  ]);
});
