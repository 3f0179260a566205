import assert from "node:assert/strict";
import { concat, gzip, gzipBomb, tar, tarGz } from "../../tests/fixtures/atlas/archive.ts";
import { ArchiveBombError, ArchiveFormatError, TarGzReader } from "./_tar.ts";

const MiB = 1024 * 1024;

Deno.test("atlas tar - a 1 MB gzip bomb (1 GiB inflated) fails at the cap without inflating it all at once", async () => {
  const bomb = gzipBomb(1024);
  assert.ok(bomb.byteLength < 1.2 * MiB);
  const before = Deno.memoryUsage().rss;
  const tar = new TarGzReader(bomb, 32 * MiB);
  let largest = 0;
  try {
    const member = await tar.next();
    assert.equal(member?.name, ".mapper/bomb.yaml");
    await assert.rejects(
      tar.readData(Number.MAX_SAFE_INTEGER, (c) => (largest = Math.max(largest, c.byteLength)), () => new Error("big")),
      (err: unknown) => err instanceof ArchiveBombError && err.message === "decompresses to more than 33554432 bytes",
    );
  } finally {
    await tar.close();
  }
  // One unbounded output chunk would be the whole GiB; sliced input keeps every chunk around a MiB or two.
  assert.ok(largest <= 4 * MiB, `largest decompressed chunk: ${largest} bytes`);
  const grown = (Deno.memoryUsage().rss - before) / MiB;
  assert.ok(grown < 256, `resident memory grew by ${grown.toFixed(0)} MiB`);
});

Deno.test("atlas tar - reads members in order and refuses data that is not gzip", async () => {
  const tar = new TarGzReader(await tarGz([{ name: ".mapper/a.yaml", data: "a: 1\n" }]), 32 * MiB);
  const m = await tar.next();
  assert.deepEqual(m, { name: ".mapper/a.yaml", nameValid: true, type: "0", size: 5 });
  const chunks: Uint8Array[] = [];
  assert.equal(await tar.readData(10, (c) => chunks.push(c.slice()), () => new Error("big")), 5);
  assert.equal(new TextDecoder().decode(chunks[0]), "a: 1\n");
  assert.equal(await tar.next(), undefined);
  await tar.close();
  assert.throws(() => new TarGzReader(new TextEncoder().encode("<html>"), MiB), ArchiveFormatError);
});

Deno.test("atlas tar - concatenated gzip members (cat a.gz b.gz, RFC 1952) are one stream, still under the cap", async () => {
  const whole = tar([{ name: ".mapper/a.yaml", data: "a: 1\n" }, { name: ".mapper/b.yaml", data: "b: 2\n" }]);
  const cut = 700; // inside the second member's header: members need not align with tar blocks
  const joined = concat([await gzip(whole.subarray(0, cut)), await gzip(whole.subarray(cut))]);
  const reader = new TarGzReader(joined, 32 * MiB);
  const names: string[] = [];
  try {
    for (let m = await reader.next(); m; m = await reader.next()) names.push(m.name);
  } finally {
    await reader.close();
  }
  assert.deepEqual(names, [".mapper/a.yaml", ".mapper/b.yaml"]);

  // The cap counts every member together: two members of 20 MiB each are over 32 MiB.
  const big = tar([{ name: ".mapper/big.txt", data: new Uint8Array(40 * MiB) }]);
  const half = 20 * MiB;
  const bomb = new TarGzReader(concat([await gzip(big.subarray(0, half)), await gzip(big.subarray(half))]), 32 * MiB);
  try {
    await bomb.next();
    await assert.rejects(
      bomb.readData(Number.MAX_SAFE_INTEGER, () => {}, () => new Error("big")),
      (err: unknown) => err instanceof ArchiveBombError,
    );
  } finally {
    await bomb.close();
  }

  // Bytes after the last member that are not another member are refused.
  const junk = new TarGzReader(concat([await gzip(whole), new TextEncoder().encode("trailing junk")]), 32 * MiB);
  try {
    await assert.rejects(
      (async () => {
        while (await junk.next());
      })(),
      (err: unknown) => err instanceof ArchiveFormatError && /the gzip stream is corrupt/.test(err.message),
    );
  } finally {
    await junk.close();
  }
});
