import assert from "node:assert/strict";
import { join } from "node:path";
import { replaceDirectory, replaceFile, type SwapOps } from "./staged.ts";
import { listFiles, tempDir } from "../tests/_helpers.ts";

/** Renames that fail on the calls listed (1-based), and succeed otherwise. */
function failingOn(...failing: number[]): SwapOps {
  let calls = 0;
  return {
    rename: async (from, to) => {
      if (failing.includes(++calls)) throw new Error(`simulated failure on rename ${calls}`);
      await Deno.rename(from, to);
    },
  };
}

const modes = { dirMode: 0o755, fileMode: 0o644 };

Deno.test("replaceDirectory - a new directory gets exactly the files, nested ones included", async () => {
  await using tmp = await tempDir();
  await replaceDirectory(tmp.join("d"), [["a.txt", "a"], ["sub/b.txt", "b"]], modes);
  assert.deepEqual(await listFiles(tmp.path), ["d/a.txt", "d/sub/b.txt"]);
});

Deno.test("replaceDirectory - an old copy is replaced whole: files it had and the new one lacks are gone", async () => {
  await using tmp = await tempDir();
  await replaceDirectory(tmp.join("d"), [["a.txt", "1"], ["stale.txt", "x"]], modes);
  await replaceDirectory(tmp.join("d"), [["a.txt", "2"]], modes);
  assert.deepEqual(await listFiles(tmp.path), ["d/a.txt"]);
  assert.equal(await Deno.readTextFile(join(tmp.path, "d", "a.txt")), "2");
});

Deno.test("replaceDirectory - a failed swap puts the old copy back and leaves nothing else", async () => {
  await using tmp = await tempDir();
  await replaceDirectory(tmp.join("d"), [["a.txt", "old"]], modes);
  await assert.rejects(
    replaceDirectory(tmp.join("d"), [["a.txt", "new"]], { ...modes, ops: failingOn(2) }),
    /rename 2/,
  );
  assert.deepEqual(await listFiles(tmp.path), ["d/a.txt"]);
  assert.equal(await Deno.readTextFile(join(tmp.path, "d", "a.txt")), "old");
});

Deno.test("replaceDirectory - when putting the old copy back fails too, the error says where it is", async () => {
  await using tmp = await tempDir();
  await replaceDirectory(tmp.join("d"), [["a.txt", "old"]], modes);
  const err = await replaceDirectory(tmp.join("d"), [["a.txt", "new"]], { ...modes, ops: failingOn(2, 3) })
    .then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof Error);
  const where = /the previous copy is at "([^"]+)"/.exec(err.message)?.[1];
  assert.ok(where, err.message);
  assert.equal(await Deno.readTextFile(join(where, "a.txt")), "old");
  assert.deepEqual(await listFiles(tmp.path), [`${where.slice(tmp.path.length + 1)}/a.txt`], "no staging left");
});

Deno.test("replaceDirectory - a failure before the swap leaves the old copy untouched and no staging", async () => {
  await using tmp = await tempDir();
  await replaceDirectory(tmp.join("d"), [["a.txt", "old"]], modes);
  await assert.rejects(
    replaceDirectory(tmp.join("d"), [["a.txt", "new"]], { ...modes, ops: failingOn(1) }),
    /rename 1/,
  );
  assert.deepEqual(await listFiles(tmp.path), ["d/a.txt"]);
  assert.equal(await Deno.readTextFile(join(tmp.path, "d", "a.txt")), "old");
});

Deno.test("replaceFile - replaces a symlink instead of following it; 0600 when new, the old mode kept or forced", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(tmp.join("target"), "keep");
  await Deno.symlink(tmp.join("target"), tmp.join("out"));
  await replaceFile(tmp.join("out"), "new");
  assert.equal(await Deno.readTextFile(tmp.join("target")), "keep");
  assert.equal(await Deno.readTextFile(tmp.join("out")), "new");
  assert.ok(!(await Deno.lstat(tmp.join("out"))).isSymlink);
  if (Deno.build.os === "windows") return;
  assert.equal((await Deno.stat(tmp.join("out"))).mode! & 0o777, 0o600);
  await Deno.chmod(tmp.join("out"), 0o644);
  await replaceFile(tmp.join("out"), new Uint8Array([1]));
  assert.equal((await Deno.stat(tmp.join("out"))).mode! & 0o777, 0o644);
  await replaceFile(tmp.join("out"), "x", { mode: 0o600, forceMode: true });
  assert.equal((await Deno.stat(tmp.join("out"))).mode! & 0o777, 0o600);
});

Deno.test("replaceFile - a failed write leaves the old file as it was and no temporary file", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(tmp.join("dir"));
  await assert.rejects(replaceFile(tmp.join("dir"), "x"), Deno.errors.IsADirectory);
  await assert.rejects(replaceFile(tmp.join("missing", "f"), "x"), Deno.errors.NotFound);
  assert.deepEqual(await listFiles(tmp.path), []);
});
