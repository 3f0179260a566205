import assert from "node:assert/strict";
import { capText, LATE_STRING_CAP, NulFramer, STRING_CAP, truncatedSize, truncationMarker } from "./_pipe.ts";

const enc = new TextEncoder();

function frame(chunks: Uint8Array[]): unknown[] {
  const got: unknown[] = [];
  const f = new NulFramer((text) => got.push(JSON.parse(text)));
  for (const c of chunks) f.push(c);
  return got;
}

/** The bytes of `messages`, NUL-terminated, split into chunks of `size`. */
function wire(messages: unknown[], size: number): Uint8Array[] {
  const all = enc.encode(messages.map((m) => JSON.stringify(m) + "\u0000").join(""));
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size));
  return out;
}

Deno.test("pipe framing - splits NUL-terminated messages whatever the chunking", () => {
  const msgs = [{ id: 1, result: {} }, { method: "A.b", params: { x: "é\u0000?" } }, { id: 2, result: { v: [1, 2] } }];
  for (const size of [1, 3, 7, 1000]) assert.deepEqual(frame(wire(msgs, size)), msgs);
});

Deno.test("pipe framing - a huge event string is cut at the cap with a marker naming its original size", () => {
  const big = "x".repeat(3_000_000);
  const msgs = [{ method: "Runtime.consoleAPICalled", params: { args: [{ type: "string", value: big }] } }, {
    id: 7,
    result: { ok: true },
  }];
  for (const size of [65536, 1 << 20, 4097]) {
    const [ev, after] = frame(wire(msgs, size)) as Array<{ params?: { args: Array<{ value: string }> } }>;
    const value = ev!.params!.args[0]!.value;
    assert.equal(value, "x".repeat(STRING_CAP) + truncationMarker(3_000_000));
    assert.equal(truncatedSize(value), 3_000_000);
    assert.deepEqual(after, { id: 7, result: { ok: true } }, "the next message is intact");
  }
});

Deno.test("pipe framing - cuts never split an escape or a UTF-8 character; sizes count the decoded bytes", () => {
  const big = "é\n\u2028😀".repeat(200_000); // 2 + 1 + 3 + 4 bytes per repeat
  const [ev] = frame(wire([{ method: "M", params: { s: big } }], 9999)) as Array<{ params: { s: string } }>;
  const s = ev!.params.s;
  assert.equal(truncatedSize(s), 10 * 200_000);
  const kept = s.slice(0, s.indexOf("\u2026 [truncated"));
  assert.ok(big.startsWith(kept), "the kept part is a prefix of the original, characters intact");
  assert.ok(enc.encode(kept).length >= STRING_CAP && enc.encode(kept).length < STRING_CAP + 8);
});

Deno.test("pipe framing - command answers are never cut (a body asked for arrives whole)", () => {
  const body = "b".repeat(2_000_000);
  const [res] = frame(wire([{ id: 3, result: { body, base64Encoded: false } }], 65536)) as Array<
    { result: { body: string } }
  >;
  assert.equal(res!.result.body, body);
});

Deno.test("pipe framing - once a message's budget is spent, later strings are cut short", () => {
  const args = Array.from({ length: 40 }, () => ({ type: "string", value: "y".repeat(100_000) }));
  const [ev] = frame(wire([{ method: "M", params: { args } }], 65536)) as Array<
    { params: { args: Array<{ value: string }> } }
  >;
  const values = ev!.params.args.map((a) => a.value);
  assert.equal(values.length, 40, "the structure is kept");
  assert.ok(values.every((v) => truncatedSize(v) === 100_000));
  assert.equal(values.at(-1), "y".repeat(LATE_STRING_CAP) + truncationMarker(100_000));
  assert.ok(JSON.stringify(ev).length < 2_000_000);
});

Deno.test("capText - cuts at the cap, keeps the original size an earlier cut announced", () => {
  assert.equal(capText("short", 10), "short");
  assert.equal(capText("abcdef", 3), "abc" + truncationMarker(6));
  assert.equal(capText("a".repeat(10) + truncationMarker(999), 4), "aaaa" + truncationMarker(999));
  assert.equal(capText("ab😀", 3), "ab" + truncationMarker(6), "a surrogate pair is not split");
});
