/**
 * Watchers that cannot go deaf, on real file-system events: a corpus directory re-created in one breath, FIFOs in
 * the corpus (never opened, never blocking a compile or SIGTERM), and a gallery replaced by rename under
 * `atlas serve --watch` with a takedown applied. Each waits for the event it expects, never for a fixed time.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startCatalogServer } from "../src/catalog/mod.ts";
import { type CorpusSnapshot, startCorpusService } from "../src/corpus/mod.ts";
import { tempCorpus, waitFor } from "../src/corpus/_testing.ts";
import { baseEnv, mapperCommand, ROOT, tempDir } from "./_helpers.ts";

const canFifo = Deno.build.os !== "windows";

/** Resolves with `p`, or fails after a generous timeout naming `what`. */
async function within<T>(what: string, p: Promise<T>, ms = 20_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(out.success, `mkfifo ${path}`);
}

Deno.test("serve-mapper watcher - rm -rf, mkdir and a write in one breath, then every later edit is compiled", async () => {
  await using c = await tempCorpus({ "a.yaml": "version: 1\nmemory: [first]\n" });
  const logs: string[] = [];
  await using service = await startCorpusService({ dir: c.dir, site: "s", log: (l) => logs.push(l) });
  // No pause anywhere: the new directory exists (maybe with the old inode number) before the watcher hears a thing.
  await Deno.remove(c.dir, { recursive: true });
  await Deno.mkdir(c.dir);
  await Deno.writeTextFile(join(c.dir, "a.yaml"), "version: 1\nmemory: [reborn]\n");
  await waitFor("the re-created corpus", () => service.current().wire.memory.includes("reborn"));
  for (const word of ["second", "third"]) {
    const next: Promise<CorpusSnapshot> = service.nextVersion();
    await Deno.writeTextFile(join(c.dir, "a.yaml"), `version: 1\nmemory: [${word}]\n`);
    assert.deepEqual((await within(`the edit "${word}"`, next)).wire.memory, [word], logs.join("\n"));
  }
});

Deno.test({
  name: "serve-mapper watcher - a FIFO in the corpus (even x.yaml) never blocks a compile",
  ignore: !canFifo,
  fn: async () => {
    await using c = await tempCorpus({ "a.yaml": "version: 1\nmemory: [one]\n" });
    await mkfifo(join(c.dir, "pipe.txt"));
    await mkfifo(join(c.dir, "x.yaml"));
    const logs: string[] = [];
    await using service = await startCorpusService({ dir: c.dir, site: "s", log: (l) => logs.push(l) });
    assert.deepEqual(service.current().wire.memory, ["one"]);
    const next = service.nextVersion();
    await c.write("a.yaml", "version: 1\nmemory: [two]\n");
    assert.deepEqual((await within("a compile beside the FIFOs", next)).wire.memory, ["two"]);
    // A FIFO appearing later (an event of its own) is skipped as well.
    await mkfifo(join(c.dir, "late.yml"));
    const after = service.nextVersion();
    await c.write("a.yaml", "version: 1\nmemory: [three]\n");
    assert.deepEqual((await within("a compile after a new FIFO", after)).wire.memory, ["three"]);
  },
});

Deno.test({
  // A subprocess: the Deno watcher a FIFO stops is abandoned, stuck, for the rest of the process (see src/watch.ts).
  name: "serve-mapper - a FIFO created while watching is logged, edits still recompile, SIGTERM still exits 0",
  ignore: !canFifo,
  fn: async () => {
    await using dir = await tempDir();
    const corpus = dir.join(".mapper");
    await Deno.mkdir(corpus);
    await Deno.writeTextFile(join(corpus, "a.yaml"), "version: 1\nmemory: [one]\n");
    const child = new Deno.Command(Deno.execPath(), {
      args: mapperCommand(["serve-mapper", "--port", "0"]),
      cwd: dir.path,
      env: baseEnv(dir.path),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const decoder = new TextDecoder();
    let err = "";
    const errDone = (async () => {
      for await (const chunk of child.stderr) err += decoder.decode(chunk);
    })();
    let out = "";
    const outDone = (async () => {
      for await (const chunk of child.stdout) out += decoder.decode(chunk);
    })();
    try {
      await waitFor("serve-mapper to start", () => /serving/.test(out + err));
      await mkfifo(join(corpus, "late.yaml")); // created while watching: Deno's own watcher stops at it
      await waitFor("the fallback to be logged", () => /watcher: late\.yaml is a FIFO/.test(err));
      await Deno.writeTextFile(join(corpus, "a.yaml"), "version: 1\nmemory: [two]\n");
      await waitFor("the recompile", () => /recompiled/.test(out + err));
    } finally {
      child.kill("SIGTERM");
    }
    const status = await within("serve-mapper to exit on SIGTERM", child.status);
    await outDone;
    await errDone;
    assert.equal(status.code, 0, out + err);
    assert.match(
      err,
      /\[serve-mapper\] watcher: late\.yaml is a FIFO, which stops file-system events; checking for changes every 1 s instead\n/,
    );
    assert.ok(!/Uncaught|at .*\.ts:\d+/.test(out + err), out + err);
  },
});

/** Copies a directory tree (regular files and directories). */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test("atlas serve --watch - a gallery replaced by rename is followed, its takedown applied, later edits too", async () => {
  await using tmp = await tempDir("mapper-watch-");
  const gallery = tmp.join("gallery");
  await copyTree(join(ROOT, "tests", "fixtures", "catalog", "gallery"), gallery);
  const logs: string[] = [];
  await using server = await startCatalogServer({
    gallery,
    port: 0,
    host: "127.0.0.1",
    now: () => 0,
    git: false,
    watch: true,
    debounceMs: 50,
    log: (l) => logs.push(l),
  });
  const slugs = () => server.current().slugs;
  assert.ok(slugs().includes("alpha"), slugs().join());
  // A deploy that builds the new gallery beside the old one and swaps it in by rename, with a takedown of alpha.
  await copyTree(gallery, tmp.join("gallery.new"));
  await Deno.writeTextFile(tmp.join("gallery.new", "removed.yaml"), "- slug: alpha\n  reason: owner-request\n");
  let rebuilt = server.nextRebuild();
  await Deno.rename(gallery, tmp.join("gallery.old"));
  await Deno.rename(tmp.join("gallery.new"), gallery);
  await within("the rebuild after the swap", rebuilt.catch(() => undefined));
  await waitFor("alpha taken down", () => !slugs().includes("alpha"));
  const res = await fetch(new URL("api/atlas/alpha", server.url));
  await res.body?.cancel();
  assert.equal(res.status, 404);
  // The swapped-in directory is watched: a second takedown there is applied too.
  rebuilt = server.nextRebuild();
  await Deno.writeTextFile(join(gallery, "removed.yaml"), "- slug: alpha\n- slug: beta\n");
  await within("the rebuild after a later edit", rebuilt);
  await waitFor("beta taken down", () => !slugs().includes("beta"), 5000);
  assert.ok(!logs.some((l) => /rebuild failed/.test(l)), logs.join("\n"));
});
