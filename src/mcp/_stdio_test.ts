import assert from "node:assert/strict";
import { idOf, LineSplitter, LineTransport } from "./_stdio.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** What the splitter made of `chunks`: each line's text, or `too-large:<size>`. */
function split(max: number, chunks: string[]): string[] {
  const s = new LineSplitter(max);
  return chunks.flatMap((c) => s.push(enc.encode(c))).map((e) =>
    e.kind === "line" ? dec.decode(e.bytes) : `too-large:${e.size}`
  );
}

Deno.test("LineSplitter - lines across chunk boundaries, several per chunk, empty ones; an unfinished line waits", () => {
  assert.deepEqual(split(100, ["ab", "c\nde\n\nf", "g\n", "h"]), ["abc", "de", "", "fg"]);
});

Deno.test("LineSplitter - a line over the cap is dropped whole (not cut) and the next line is read as usual", () => {
  assert.deepEqual(split(5, ["12345\n", "123", "456", "789\nok\n"]), ["12345", "too-large:9", "ok"]);
  assert.deepEqual(split(5, ["1234567\nnext\n"]), ["too-large:7", "next"]);
});

Deno.test("LineSplitter - keeps the two ends of an oversized line, for its id", () => {
  const s = new LineSplitter(10);
  const events = [
    s.push(enc.encode('{"id":7,"x":"')),
    s.push(enc.encode("y".repeat(5000))),
    s.push(enc.encode('","id":8}\n')),
  ]
    .flat();
  assert.equal(events.length, 1);
  const e = events[0]!;
  assert.ok(e.kind === "too-large");
  assert.ok(dec.decode(e.head).startsWith('{"id":7'));
  assert.ok(dec.decode(e.tail).endsWith('"id":8}'));
  assert.ok(e.head.length <= 512 && e.tail.length <= 512);
});

Deno.test("idOf - the id written first or last in the outermost object, else null", () => {
  const id = (text: string) => idOf(enc.encode(text.slice(0, 512)), enc.encode(text.slice(-512)));
  assert.equal(id('{"id":5,"method":"x","params":{}}'), 5);
  assert.equal(id('{"jsonrpc":"2.0","id":"a\\"b","method":"x"}'), 'a"b');
  assert.equal(id('{"method":"x","params":{"s":"' + "z".repeat(2000) + '"},"jsonrpc":"2.0","id":42}'), 42);
  assert.equal(id('{"method":"x","params":{"id":3}}'), null, "a nested id is not the message's");
  assert.equal(id('{"method":"x","params":{"s":"' + "z".repeat(2000) + '"}}'), null);
});

Deno.test("LineTransport - hands on messages, answers an oversized one with a JSON-RPC error, logs garbage", async () => {
  const lines = [
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    "not json",
    JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { pad: "p".repeat(100) }, id: 2 }),
    JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
  ];
  const input = enc.encode(lines.join("\n") + "\n");
  let at = 0;
  const reader = {
    read(buffer: Uint8Array): Promise<number | null> {
      if (at >= input.length) return Promise.resolve(null);
      const n = Math.min(7, buffer.length, input.length - at); // small reads: lines span many of them
      buffer.set(input.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
  };
  let written = "";
  const writer = { write: (b: Uint8Array) => Promise.resolve((written += dec.decode(b), b.length)) };
  const t = new LineTransport(reader, writer, 80);
  const got: unknown[] = [];
  const errors: string[] = [];
  t.onmessage = (m) => got.push(m);
  t.onerror = (e) => errors.push(e.message);
  await t.start();
  await t.ended;
  assert.deepEqual(got, [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 3, method: "ping" }]);
  await t.send({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual(written.trimEnd().split("\n").map((l) => JSON.parse(l)), [
    {
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32600, message: `request too large: ${lines[2]!.length} bytes; the limit is 80 bytes` },
    },
    { jsonrpc: "2.0", id: 1, result: {} },
  ]);
  assert.equal(errors.length, 2, errors.join("\n"));
});

Deno.test("LineTransport - drained() waits for an answer to every request read, whenever its reader was ready", async () => {
  const input = enc.encode(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }) + "\n");
  let done = false;
  const reader = {
    read(buffer: Uint8Array): Promise<number | null> {
      if (done) return Promise.resolve(null);
      done = true;
      buffer.set(input);
      return Promise.resolve(input.length);
    },
  };
  const t = new LineTransport(reader, { write: (b: Uint8Array) => Promise.resolve(b.length) });
  await t.start();
  await t.ended;
  let drained = false;
  const waiting = t.drained().then(() => (drained = true));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(drained, false, "the request read is not answered yet");
  await t.send({ jsonrpc: "2.0", id: 7, result: {} });
  await waiting;
  assert.equal(drained, true);
});
