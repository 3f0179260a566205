import assert from "node:assert/strict";
import { compareCodePoints, escapeTerminal, quote, truncate } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { pathEscape, slugProblem } from "./slug.ts";
import { decodeUtf8Marked, parseLocated } from "./_json.ts";

Deno.test("atlas text - escapes control characters as \\xHH and keeps everything else", () => {
  assert.equal(escapeTerminal("Evil\x1b]0;pwned\x07 \u0085 \u007f"), "Evil\\x1b]0;pwned\\x07 \\x85 \\x7f");
  assert.equal(escapeTerminal("zw\u200b ls\u2028 emoji 🎉"), "zw\\u200b ls\\u2028 emoji 🎉");
  assert.equal(escapeTerminal("lone \ud800"), "lone \ufffd");
});

Deno.test("atlas text - quotes values Go-style after escaping", () => {
  assert.equal(quote('a"b\tc\\d é\u200bz'), '"a\\"b\\tc\\\\d é\\u200bz"');
});

Deno.test("atlas text - truncates by code points and sorts by UTF-8 byte order", () => {
  assert.equal(truncate("🎉".repeat(201)), "🎉".repeat(200) + "…");
  assert.equal(truncate("x".repeat(200)), "x".repeat(200));
  const sorted = ["dupe", "café", " spaced", "%2e", ".", "Dupe", "\uffff", "😀"].sort(compareCodePoints);
  assert.deepEqual(sorted, [" spaced", "%2e", ".", "Dupe", "café", "dupe", "\uffff", "😀"]);
});

Deno.test("atlas slug - the slug rule and path-segment escaping", () => {
  assert.equal(slugProblem(""), "is empty");
  assert.equal(slugProblem("a\x1bb"), "contains a control character");
  assert.equal(slugProblem("../x"), "contains a path separator");
  assert.equal(slugProblem("a\\b"), "contains a path separator");
  assert.equal(slugProblem("a..b"), 'contains ".."');
  for (const ok of ["café", "Dupe", ".", "%2e%2e", 'quote"slug', " spaced slug "]) {
    assert.equal(slugProblem(ok), undefined);
  }
  const cases: Array<[string, string]> = [
    ["café", "caf%C3%A9"],
    ["a b", "a%20b"],
    ['q"s', "q%22s"],
    ["%2e", "%252e"],
    ["x?y", "x%3Fy"],
    ["h#t", "h%23t"],
    ["c:o@l&m=n+$,;", "c:o@l&m=n+$%2C%3B"],
    ["it's", "it%27s"],
    ["~tilde", "~tilde"],
  ];
  for (const [slug, escaped] of cases) assert.equal(pathEscape(slug), escaped);
});

Deno.test("atlas json - records lines and non-integer numbers; marks invalid UTF-8", () => {
  const doc = parseLocated('{\n  "a": [\n    1,\n    2.0\n  ]\n}');
  assert.equal(doc.lines.get("a[1]"), 4);
  assert.ok(doc.nonIntegers.has("a[1]"));
  assert.throws(() => parseLocated('{"a": 1} x'), /after the top-level value/);
  const marked = decodeUtf8Marked(new Uint8Array([0x61, 0xff, 0xc3, 0xa9]));
  assert.equal(marked.valid, false);
  assert.equal(marked.text, "a\udcffé");
});

Deno.test("atlas text - JSON output escapes HTML-sensitive characters, DEL and C1 controls, values unchanged", () => {
  const value = { q: "a<b>&c\u2028\u007f\u009b[31m\u00a0é" };
  const text = toJson(value);
  assert.equal(text, '{\n  "q": "a\\u003cb\\u003e\\u0026c\\u2028\\u007f\\u009b[31m\u00a0é"\n}\n');
  assert.deepEqual(JSON.parse(text), value);
});
