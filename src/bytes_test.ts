import assert from "node:assert/strict";
import { concatBytes, readAllCapped, readPrefix } from "./bytes.ts";

/** A stream of `chunks`, recording whether it was cancelled. */
function source(chunks: number[][]): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const next = chunks[i++];
      if (next) c.enqueue(new Uint8Array(next));
      else c.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

Deno.test("bytes - concatBytes joins chunks in order (size given or counted)", () => {
  const chunks = [new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])];
  assert.deepEqual([...concatBytes(chunks)], [1, 2, 3]);
  assert.deepEqual([...concatBytes(chunks, 3)], [1, 2, 3]);
  assert.equal(concatBytes([]).byteLength, 0);
});

Deno.test("bytes - readAllCapped reads a stream of exactly the cap whole", async () => {
  const { stream } = source([[1, 2], [3, 4]]);
  assert.deepEqual([...await readAllCapped(stream, 4, () => new Error("too big"))], [1, 2, 3, 4]);
});

Deno.test("bytes - readAllCapped throws the caller's error one byte over the cap and cancels the stream", async () => {
  const { stream, cancelled } = source([[1, 2], [3, 4], [5]]);
  await assert.rejects(readAllCapped(stream, 4, () => new RangeError("over 4")), RangeError, "over 4");
  assert.ok(cancelled());
});

Deno.test("bytes - readAllCapped reads any async iterable, and ends it early when the cap is passed", async () => {
  let closed = false;
  async function* chunks() {
    try {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
      yield new Uint8Array([4, 5]);
      yield new Uint8Array([6]);
    } finally {
      closed = true;
    }
  }
  assert.deepEqual([...await readAllCapped(chunks(), 6, () => new Error("too big"))], [1, 2, 3, 4, 5, 6]);
  closed = false;
  await assert.rejects(readAllCapped(chunks(), 4, () => new RangeError("over 4")), RangeError, "over 4");
  assert.ok(closed);
});

Deno.test("readPrefix - the first bytes up to the cap, whether there was more, and the source stopped", async () => {
  let cancelled = false;
  let pulls = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      pulls++;
      c.enqueue(new Uint8Array(1000).fill(7));
    },
    cancel() {
      cancelled = true;
    },
  });
  const { bytes, cut } = await readPrefix(endless, 2500);
  assert.equal(bytes.length, 2500);
  assert.equal(cut, true);
  assert.equal(cancelled, true);
  assert.ok(pulls <= 4, `${pulls} pulls`);
  const short = await readPrefix(new Blob(["abc"]).stream(), 10);
  assert.deepEqual([new TextDecoder().decode(short.bytes), short.cut], ["abc", false]);
  const exact = await readPrefix(new Blob(["abc"]).stream(), 3);
  assert.deepEqual([exact.bytes.length, exact.cut], [3, false]);
});
