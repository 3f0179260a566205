import assert from "node:assert/strict";
import { escapeControls, toJson } from "./terminal.ts";

Deno.test("escapeControls() - shows C0, DEL and C1 controls as \\xHH and keeps everything else", () => {
  assert.equal(escapeControls("a\u001b[31mb\u007fc\u009bd é 日本"), "a\\x1b[31mb\\x7fc\\x9bd é 日本");
  assert.equal(escapeControls("line\nnext\ttab"), "line\\x0anext\\x09tab");
});

Deno.test("escapeControls() - keepNewlines keeps \\n and \\t but still escapes \\r and ESC", () => {
  assert.equal(escapeControls("a\nb\tc\rd\u001be", { keepNewlines: true }), "a\nb\tc\\x0dd\\x1be");
});

Deno.test("escapeControls() - bidi overrides are shown only when asked", () => {
  assert.equal(escapeControls("x\u202ey"), "x\u202ey");
  assert.equal(escapeControls("x\u202ey\u2066z", { bidi: true }), "x\\u202ey\\u2066z");
});

Deno.test("escapeControls() - unpaired surrogates become U+FFFD, pairs are kept", () => {
  assert.equal(escapeControls("a\ud800b\u{1F600}"), "a\ufffdb\u{1F600}");
});

Deno.test("toJson - escapes C1 controls and bidi overrides from page text, values unchanged", () => {
  const value = { text: "pay\u009b31m \u202eevil\u2066 <b>" };
  const text = toJson(value);
  assert.ok(!/[\u0080-\u009f\u202a-\u202e\u2066-\u2069<>]/.test(text), text);
  assert.equal(text, '{\n  "text": "pay\\u009b31m \\u202eevil\\u2066 \\u003cb\\u003e"\n}\n');
  assert.deepEqual(JSON.parse(text), value);
});
