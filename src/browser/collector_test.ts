import assert from "node:assert/strict";
import { Ring } from "./collector.ts";

Deno.test("ring - keeps the newest entries, indices monotonic, cumulative drops", () => {
  const ring = new Ring<{ index: number }>(3);
  const evicted: number[] = [];
  ring.onEvict = (e) => evicted.push(e.index);
  assert.equal(ring.first, 0);
  assert.equal(ring.last, -1);
  for (let i = 0; i < 5; i++) ring.push({ index: ring.nextIndex() });
  assert.deepEqual(ring.all().map((e) => e.index), [2, 3, 4]);
  assert.equal(ring.dropped, 2);
  assert.deepEqual(evicted, [0, 1]);
  assert.equal(ring.get(1), undefined);
  assert.equal(ring.get(3)?.index, 3);
  assert.equal(ring.get(5), undefined);
  assert.equal(ring.first, 2);
  assert.equal(ring.last, 4);
});
