import assert from "node:assert/strict";
import { join } from "node:path";
import { replaceDirectory, type SwapOps, writeUserFile } from "./user_file.ts";
import { FileError } from "./errors.ts";
import { listFiles, tempDir } from "../tests/_helpers.ts";

async function inTemp(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const posix = Deno.build.os !== "windows";

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out;
}

Deno.test("user file - a new file is written whole, mode 0600, nothing left beside it", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "out.json");
    await writeUserFile(path, "{}\n");
    assert.equal(await Deno.readTextFile(path), "{}\n");
    if (posix) assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.deepEqual(await names(dir), ["out.json"]);
  });
});

Deno.test("user file - parts are written in turn: texts across the write buffer, multi-byte characters, bytes", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "parts.bin");
    // Texts that end mid-buffer and cross its 64 KiB edge with 2-, 3- and 4-byte characters; bytes larger than it, and
    // small bytes copied into it.
    const parts: (string | Uint8Array)[] = [
      "a".repeat(65_535),
      "é€😀".repeat(30_000),
      new Uint8Array(200_000).map((_, i) => i % 251),
      new Uint8Array([1, 2, 3]),
      "é",
      new Uint8Array(65_530).fill(7),
      "",
      "end",
    ];
    await writeUserFile(path, parts);
    const encoder = new TextEncoder();
    const expected = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
    const whole = new Uint8Array(expected.reduce((n, p) => n + p.length, 0));
    expected.reduce((at, p) => (whole.set(p, at), at + p.length), 0);
    const got = await Deno.readFile(path);
    assert.equal(got.length, whole.length);
    // The first byte that differs, not a diff of ~800 KB (which would exhaust memory before it said anything).
    assert.equal(got.findIndex((b, i) => b !== whole[i]), -1);
  });
});

Deno.test("user file - an existing file is replaced and keeps its own mode", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "out.json");
    await Deno.writeTextFile(path, "old and longer");
    if (posix) await Deno.chmod(path, 0o644);
    await writeUserFile(path, "new");
    assert.equal(await Deno.readTextFile(path), "new");
    if (posix) assert.equal((await Deno.stat(path)).mode! & 0o777, 0o644);
  });
});

Deno.test({
  name: "user file - a symbolic link planted at the path is replaced, its target never written",
  ignore: !posix,
  fn: async () => {
    await inTemp(async (dir) => {
      const victim = join(dir, "victim");
      await Deno.writeTextFile(victim, "precious");
      const path = join(dir, "out.json");
      await Deno.symlink(victim, path);
      await writeUserFile(path, "export");
      assert.equal(await Deno.readTextFile(victim), "precious");
      assert.equal((await Deno.lstat(path)).isSymlink, false);
      assert.equal(await Deno.readTextFile(path), "export");
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      // A dangling link too.
      const dangling = join(dir, "d.json");
      await Deno.symlink(join(dir, "nowhere", "x"), dangling);
      await writeUserFile(dangling, "x");
      assert.equal(await Deno.readTextFile(dangling), "x");
    });
  },
});

Deno.test("user file - a directory, a FIFO or a missing directory is refused in one line, nothing left", async () => {
  await inTemp(async (dir) => {
    await assert.rejects(writeUserFile(dir, "x", "the-dir"), (err: unknown) => {
      assert.ok(err instanceof FileError);
      assert.equal(err.message, 'cannot write "the-dir": it is a directory');
      return true;
    });
    if (posix) {
      const fifo = join(dir, "fifo");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success);
      await assert.rejects(writeUserFile(fifo, "x", "fifo"), /cannot write "fifo": it is not a regular file/);
    }
    await assert.rejects(
      writeUserFile(join(dir, "no", "x.json"), "x", "no/x.json"),
      /^FileError: cannot write "no\/x\.json": /,
    );
    assert.deepEqual((await names(dir)).filter((n) => n.includes(".tmp")), []);
  });
});

Deno.test("user file - forceMode gives a file mapper owns its mode whatever it had", {
  ignore: !posix,
}, async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "session.json");
    await Deno.writeTextFile(path, "{}");
    await Deno.chmod(path, 0o644);
    await writeUserFile(path, "{}\n", path, { forceMode: true });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("user file - createOnly writes nothing where a file, a link or a dangling link already is", async () => {
  await inTemp(async (dir) => {
    const path = join(dir, "new.yaml");
    assert.equal(await writeUserFile(path, "a", path, { createOnly: true }), true);
    assert.equal(await Deno.readTextFile(path), "a");
    if (posix) assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal(await writeUserFile(path, "b", path, { createOnly: true }), false);
    assert.equal(await Deno.readTextFile(path), "a");
    if (posix) {
      const victim = join(dir, "victim");
      await Deno.symlink(victim, join(dir, "planted.yaml"));
      assert.equal(await writeUserFile(join(dir, "planted.yaml"), "x", "planted.yaml", { createOnly: true }), false);
      await assert.rejects(Deno.lstat(victim), Deno.errors.NotFound);
    }
    assert.deepEqual((await names(dir)).filter((n) => n.includes(".tmp")), []);
  });
});

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
