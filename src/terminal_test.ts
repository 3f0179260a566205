import assert from "node:assert/strict";
import { escapeControls, indentedBlock, quote, toJson } from "./terminal.ts";
import { INVISIBLE_CLASSES } from "../tests/_invisible.ts";

Deno.test("escapeControls() - shows C0, DEL and C1 controls as \\n, \\r, \\t or \\xHH and keeps everything else", () => {
  assert.equal(escapeControls("a\u001b[31mb\u007fc\u009bd é 日本 👨‍"), "a\\x1b[31mb\\x7fc\\x9bd é 日本 👨\\u200d");
  assert.equal(escapeControls("line\nnext\ttab\rback"), "line\\nnext\\ttab\\rback");
});

Deno.test("escapeControls() - keepNewlines keeps \\n and \\t but still escapes \\r and ESC", () => {
  assert.equal(escapeControls("a\nb\tc\rd\u001be", { keepNewlines: true }), "a\nb\tc\\rd\\x1be");
});

Deno.test("escapeControls() - every line separator and format character is shown, with or without keepNewlines", () => {
  for (const [raw, shown] of INVISIBLE_CLASSES) {
    assert.equal(escapeControls(`a${raw}b`), `a${shown}b`, JSON.stringify(raw));
    if (raw !== "\n") assert.equal(escapeControls(`a${raw}b`, { keepNewlines: true }), `a${shown}b`);
  }
});

Deno.test("escapeControls() - ASCII text is kept whole only when every character is printable", () => {
  const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join("");
  assert.equal(escapeControls(printable), printable);
  // The edges of the printable range, alone in otherwise plain ASCII text.
  assert.equal(escapeControls("a\u001fb"), "a\\x1fb");
  assert.equal(escapeControls("a\u007fb"), "a\\x7fb");
  assert.equal(escapeControls("a\nb\tc"), "a\\nb\\tc");
  assert.equal(escapeControls("a\nb\u0000", { keepNewlines: true }), "a\nb\\x00");
});

Deno.test("indentedBlock() - every line of a multi-line text is indented, separators other than \\n escaped", () => {
  assert.equal(indentedBlock("one\n[2] log forged\u2028[3] x"), "  one\n  [2] log forged\\u2028[3] x");
});

Deno.test("quote() - backslashes and quotes escaped once, then controls and invisible characters shown", () => {
  assert.equal(quote('a"b\tc\\d é\u200bz\u{e0041}\u00a0'), '"a\\"b\\tc\\\\d é\\u200bz\\U000e0041\\u00a0"');
});

Deno.test("escapeControls() - unpaired surrogates become U+FFFD, pairs are kept", () => {
  assert.equal(escapeControls("a\ud800b\u{1F600}"), "a\ufffdb\u{1F600}");
});

Deno.test("toJson - escapes C1 controls, line separators and format characters from page text, values unchanged", () => {
  const value = {
    text: "pay\u009b31m \u202eevil\u2066 <b>",
    invisible: INVISIBLE_CLASSES.map(([raw]) => raw).join("|"),
  };
  const text = toJson(value);
  assert.ok(
    !/[\u0080-\u009f\u202a-\u202e\u2066-\u2069<>\u2028\u2029\u200b-\u200f\u2060-\u2064\ufeff]/.test(text),
    text,
  );
  assert.ok(!/[\u{e0000}-\u{e007f}]/u.test(text), text);
  assert.ok(text.includes('"pay\\u009b31m \\u202eevil\\u2066 \\u003cb\\u003e"'), text);
  assert.ok(text.includes("\\udb40\\udc41"), text);
  assert.deepEqual(JSON.parse(text), value);
});
