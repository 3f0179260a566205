import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeUtf8, NotRegularFileError, readRegularFileCappedSync } from "./files.ts";

const tooBig = () => new RangeError("too big");

Deno.test("capped file read - the whole file, of any size up to the cap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const size of [0, 1, 4096, 70_000]) {
      const path = join(dir, `f${size}`);
      const bytes = new Uint8Array(size).map((_, i) => i % 251);
      await Deno.writeFile(path, bytes);
      assert.deepEqual(readRegularFileCappedSync(path, 70_000, tooBig), bytes, `size ${size}`);
    }
    const path = join(dir, "f70000");
    assert.throws(() => readRegularFileCappedSync(path, 69_999, tooBig), RangeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capped file read - a file longer than its size said is read on, and stopped at the cap", () => {
  // `/proc` files say size 0 and hold more: the read must go past the size found without exceeding the cap.
  const status = Deno.readTextFileSync("/proc/self/status");
  assert.ok(Deno.lstatSync("/proc/self/status").size === 0 && status.length > 100);
  const whole = new TextDecoder().decode(readRegularFileCappedSync("/proc/self/status", 1 << 20, tooBig));
  assert.match(whole, /^Name:/);
  assert.throws(() => readRegularFileCappedSync("/proc/self/status", 100, tooBig), RangeError);
});

Deno.test("capped file read - a FIFO, a link to one and a directory are refused without opening", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = join(dir, "fifo");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(made.code, 0);
    await Deno.symlink(fifo, join(dir, "link"));
    // Opening a FIFO would block until a writer comes: these return at once.
    assert.throws(() => readRegularFileCappedSync(fifo, 100, tooBig), NotRegularFileError);
    assert.throws(() => readRegularFileCappedSync(join(dir, "link"), 100, tooBig), NotRegularFileError);
    assert.throws(() => readRegularFileCappedSync(dir, 100, tooBig), NotRegularFileError);
    assert.throws(() => readRegularFileCappedSync(join(dir, "none"), 100, tooBig), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("UTF-8 decoding - malformed bytes fail; a real U+FFFD is kept", () => {
  const enc = new TextEncoder();
  assert.equal(decodeUtf8(enc.encode("plain ascii")), "plain ascii");
  assert.equal(decodeUtf8(enc.encode("é \uFFFD ok")), "é \uFFFD ok");
  assert.throws(() => decodeUtf8(new Uint8Array([0x7b, 0xe9, 0x7d])), TypeError);
  assert.throws(() => decodeUtf8(new Uint8Array([0xef, 0xbf, 0xbd, 0xff])), TypeError);
});
