import assert from "node:assert/strict";
import { join } from "node:path";
import { load, LoadCache } from "./mod.ts";
import { tempCorpus } from "./_testing.ts";

const FILES = {
  "a.yaml": "memory: [alpha]\ncomponents:\n  - name: A\n    selector: .a\n",
  "b.yaml": "memory: [bravo]\n",
};

/** The decoded entries the cache holds for each file (identity tells whether a file was parsed again). */
function decodedByFile(cache: LoadCache): Map<string, unknown> {
  return new Map([...cache.entries].map(([path, entry]) => [path.split("/").pop()!, entry.raw]));
}

/** Sets a file's modification time `ageMs` into the past (an "old" file, outside the racy window). */
async function age(path: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await Deno.utime(path, then, then);
}

Deno.test("load cache - an unchanged file is parsed once per session; only the edited one is parsed again", async () => {
  await using c = await tempCorpus(FILES);
  for (const name of Object.keys(FILES)) await age(join(c.dir, name), 60_000);
  const cache = new LoadCache();
  await load(c.dir, { cache });
  const first = decodedByFile(cache);
  await c.write("b.yaml", "memory: [bravo, charlie]\n");
  const { corpus } = await load(c.dir, { cache });
  assert.deepEqual(corpus.memory, ["alpha", "bravo", "charlie"]);
  const second = decodedByFile(cache);
  assert.equal(second.get("a.yaml"), first.get("a.yaml"), "a.yaml reused, not parsed again");
  assert.notEqual(second.get("b.yaml"), first.get("b.yaml"), "b.yaml parsed again");
});

Deno.test("load cache - an edit of the same size and modification time just after a read is still seen", async () => {
  await using c = await tempCorpus(FILES);
  const cache = new LoadCache();
  const path = join(c.dir, "b.yaml");
  await load(c.dir, { cache });
  const { mtime } = await Deno.stat(path);
  // Same length, same timestamp: only the "modified just before it was read" rule catches this.
  await Deno.writeTextFile(path, "memory: [BRAVO]\n");
  await Deno.utime(path, mtime!, mtime!);
  const { corpus } = await load(c.dir, { cache });
  assert.deepEqual(corpus.memory, ["alpha", "BRAVO"]);
});

Deno.test("load cache - a file rewritten with its old size and modification time put back is read again", async () => {
  await using c = await tempCorpus(FILES);
  const path = join(c.dir, "b.yaml");
  await age(path, 60_000);
  const cache = new LoadCache();
  await load(c.dir, { cache });
  const { mtime } = await Deno.stat(path);
  // Rewritten behind the cache's back with the same size and timestamp (`cp -p`, `tar x`): its status-change time,
  // which no user can set, moved.
  await Deno.writeTextFile(path, "memory: [BRAVO]\n");
  await Deno.utime(path, mtime!, mtime!);
  assert.deepEqual((await load(c.dir, { cache })).corpus.memory, ["alpha", "BRAVO"]);
  // A fresh session reads it.
  assert.deepEqual((await load(c.dir)).corpus.memory, ["alpha", "BRAVO"]);
});

Deno.test("load cache - a file that vanished or failed leaves the cache; a fixed file is parsed again", async () => {
  await using c = await tempCorpus(FILES);
  const cache = new LoadCache();
  await load(c.dir, { cache });
  await Deno.remove(join(c.dir, "a.yaml"));
  await c.write("b.yaml", "memory: [unclosed\n");
  await assert.rejects(load(c.dir, { cache }));
  assert.deepEqual([...cache.entries.keys()], []);
  await c.write("b.yaml", "memory: [fixed]\n");
  assert.deepEqual((await load(c.dir, { cache })).corpus.memory, ["fixed"]);
});

Deno.test("load cache - told which existing files changed, it reads only those and walks nothing", async () => {
  await using c = await tempCorpus(FILES);
  const b = join(c.dir, "b.yaml");
  for (const name of Object.keys(FILES)) await age(join(c.dir, name), 60_000);
  const cache = new LoadCache();
  await load(c.dir, { cache });
  // Same size and timestamp (a stat would say "unchanged"), but the watcher says it changed: it is read.
  const { mtime } = await Deno.stat(b);
  await Deno.writeTextFile(b, "memory: [BRAVO]\n");
  await Deno.utime(b, mtime!, mtime!);
  // A file the watcher did not mention is not discovered: no walk happened.
  await c.write("c.yaml", "memory: [unseen]\n");
  assert.deepEqual((await load(c.dir, { cache, changed: [b] })).corpus.memory, ["alpha", "BRAVO"]);
  assert.deepEqual((await load(c.dir, { cache })).corpus.memory, ["alpha", "BRAVO", "unseen"]);
});

Deno.test("load cache - a changed path that is new, removed or a directory makes the load walk everything", async () => {
  await using c = await tempCorpus(FILES);
  const cache = new LoadCache();
  await load(c.dir, { cache });
  await c.write("c.yaml", "memory: [charlie]\n");
  assert.deepEqual((await load(c.dir, { cache, changed: [join(c.dir, "c.yaml")] })).corpus.memory, [
    "alpha",
    "bravo",
    "charlie",
  ]);
  await Deno.remove(join(c.dir, "a.yaml"));
  assert.deepEqual((await load(c.dir, { cache, changed: [join(c.dir, "a.yaml")] })).corpus.memory, [
    "bravo",
    "charlie",
  ]);
  await c.write("sub/d.yaml", "memory: [delta]\n");
  assert.deepEqual((await load(c.dir, { cache, changed: [join(c.dir, "sub")] })).corpus.memory, [
    "bravo",
    "charlie",
    "delta",
  ]);
  assert.deepEqual((await load(c.dir, { cache, changed: [] })).corpus.memory, ["bravo", "charlie", "delta"]);
  // A known file and a new one together: still a walk.
  await c.write("b.yaml", "memory: [BRAVO]\n");
  await c.write("e.yaml", "memory: [echo]\n");
  const both = [join(c.dir, "b.yaml"), join(c.dir, "e.yaml")];
  assert.deepEqual((await load(c.dir, { cache, changed: both })).corpus.memory, ["BRAVO", "charlie", "echo", "delta"]);
});
