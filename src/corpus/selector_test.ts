import assert from "node:assert/strict";
import { composeSelectors, splitSelectors } from "./selector.ts";

Deno.test("splitSelectors - splits on top-level commas only and trims", () => {
  assert.deepEqual(splitSelectors(" a ,, b , "), ["a", "b"]);
  assert.deepEqual(splitSelectors("div:is(.a, .b), span"), ["div:is(.a, .b)", "span"]);
  assert.deepEqual(splitSelectors('d[x="1,2"], e:not(.f, .g)'), ['d[x="1,2"]', "e:not(.f, .g)"]);
});

Deno.test("splitSelectors - quotes are opaque and a backslash escapes the next character", () => {
  assert.deepEqual(splitSelectors("a[title='x,y'], b\\,c, d"), ["a[title='x,y']", "b\\,c", "d"]);
  assert.deepEqual(splitSelectors(`a[title="it's, fine"], b`), [`a[title="it's, fine"]`, "b"]);
  assert.deepEqual(splitSelectors(`a[title="say \\"hi, there\\""], b`), [`a[title="say \\"hi, there\\""]`, "b"]);
  // Brackets and parentheses inside quotes do not nest: the comma after them is still top-level.
  assert.deepEqual(splitSelectors(`a[title="(, ["], b[x=')'], c`), [`a[title="(, ["]`, `b[x=')']`, "c"]);
  // An escaped quote does not open a string.
  assert.deepEqual(splitSelectors(`a\\"b, c`), [`a\\"b`, "c"]);
});

Deno.test("splitSelectors - nested brackets and parentheses keep their commas", () => {
  assert.deepEqual(splitSelectors(":is(a, :not([x='1,2'], b)), c"), [":is(a, :not([x='1,2'], b))", "c"]);
});

Deno.test("splitSelectors - only separators gives nothing", () => {
  assert.deepEqual(splitSelectors(" , , "), []);
  assert.deepEqual(splitSelectors(""), []);
});

Deno.test("composeSelectors - parent alternatives are the outer loop of the cross product", () => {
  assert.deepEqual(
    composeSelectors(["#ac-globalfooter", "#global-footersection"], [".ac-gf-sosumi", ".as-globalfooter-sosumi"]),
    [
      "#ac-globalfooter .ac-gf-sosumi",
      "#ac-globalfooter .as-globalfooter-sosumi",
      "#global-footersection .ac-gf-sosumi",
      "#global-footersection .as-globalfooter-sosumi",
    ],
  );
  assert.deepEqual(composeSelectors([], ["a", "b"]), ["a", "b"]);
});
