import assert from "node:assert/strict";
import { join } from "node:path";
import { writeUserFile } from "./user_file.ts";
import { FileError } from "./errors.ts";

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
