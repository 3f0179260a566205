import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "./load.ts";
import { type CorpusSnapshot, LiveCorpus } from "./service.ts";
import { BUILD_SOURCE_DIRS, startCachePath } from "./start_cache.ts";
import { type TempCorpus, tempCorpus, waitFor } from "./_testing.ts";
import type { Timers } from "../watch.ts";

const FILES = {
  "a.yaml": `memory: [alpha]
messages:
${Array.from({ length: 30 }, (_, i) => `  - name: Message${i}\n    selector: ".message-${i}"`).join("\n")}
components:
  - name: Card
    selector: .card
    properties:
      - name: title
        selector: h2
views:
  - name: Home
    route: /
    components:
      - $ref: Card
      - name: Broken
        selector: "div["
`,
  "nested/b.yaml": "memory: [bravo]\nrequests:\n  - name: Items\n    route: GET /api/items\n",
};

/** Timers the test fires itself: the recompile delay and the delayed start-cache write. */
function manualTimers() {
  const scheduled = new Map<number, () => void>();
  let seq = 0;
  const timers: Timers = {
    setTimeout: (fn) => (scheduled.set(++seq, fn), seq),
    clearTimeout: (id) => void scheduled.delete(id as number),
  };
  const fire = () => {
    const fns = [...scheduled.values()];
    scheduled.clear();
    for (const fn of fns) fn();
  };
  return { timers, fire, scheduled };
}

/** What a started service served: its bodies and diagnostics, and how many loads it ran. */
interface Served {
  loads: number;
  version: number;
  body: string;
  gzip: string;
  diagnostics: { diagnostics: unknown[] };
  wire: unknown;
  counts: [number, number];
}

function answer(service: LiveCorpus, path: string, gzip = false): Response {
  const headers: Record<string, string> = gzip ? { "accept-encoding": "gzip" } : {};
  const res = service.handle(new Request(`http://127.0.0.1${path}`, { headers }))!;
  assert.equal(res.status, 200);
  return res;
}

/** Starts a service on `c` with the start cache under `home`, records what it serves, writes its cache, stops it. */
async function serve(c: TempCorpus, home: string, options: { site?: string } = {}): Promise<Served> {
  let loads = 0;
  const loader: typeof load = (dir, o) => (loads++, load(dir, o));
  const clock = manualTimers();
  const service = new LiveCorpus(
    { dir: c.dir, site: options.site ?? "site", log: () => {}, watch: false, startCacheHome: home },
    loader,
    clock.timers,
  );
  await service.start();
  try {
    const body = await (answer(service, "/mapper")).text();
    // The gzip form of a compiled snapshot is made on first use, in a later turn: answers are plain until it is.
    let gzip = body.length < 1024 ? body : ""; // a small body is never compressed
    for (let tries = 0; gzip === ""; tries++) {
      assert.ok(tries < 500, "a compressed answer within 5 s");
      const res = await answer(service, "/mapper", true);
      const raw = await res.arrayBuffer();
      if (res.headers.get("content-encoding") === "gzip") {
        gzip = await new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
      } else {
        clock.fire();
        await delay(10);
      }
    }
    const diagnostics = await (answer(service, "/mapper/diagnostics")).json();
    const snap = service.current();
    const served = {
      loads,
      version: snap.version,
      body,
      gzip,
      diagnostics,
      wire: snap.wire,
      counts: [snap.views, snap.components] as [number, number],
    };
    clock.fire(); // the start-cache write, when one is due (disposal waits for it)
    return served;
  } finally {
    await service[Symbol.asyncDispose]();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `cache` with its header changed by `edit` and, given `diagnostics`, that diagnostics section instead, and its decoded
 * files changed by `decoded` (the first line's header length and the section lengths follow).
 */
function withHeader(
  cache: Uint8Array,
  edit: (header: Record<string, unknown>) => void,
  diagnostics?: string,
  decoded?: (files: [unknown, unknown[]][]) => void,
): Uint8Array {
  const end = cache.indexOf(0x0a) + 1;
  const lead = new TextDecoder().decode(cache.subarray(0, end));
  const headerBytes = Number(/(\d+)\n$/.exec(lead)![1]);
  const header = JSON.parse(new TextDecoder().decode(cache.subarray(end, end + headerBytes)));
  const sections = header.sections as number[];
  let rest = cache.subarray(end + headerBytes);
  if (diagnostics !== undefined) {
    const bytes = new TextEncoder().encode(diagnostics);
    const after = rest.subarray(sections[0]);
    rest = new Uint8Array(bytes.length + after.length);
    rest.set(bytes);
    rest.set(after, bytes.length);
    sections[0] = bytes.length;
  }
  if (decoded) {
    const at = rest.length - sections[3]!;
    const files = JSON.parse(new TextDecoder().decode(rest.subarray(at)));
    decoded(files);
    const bytes = new TextEncoder().encode(JSON.stringify(files));
    const before = rest.subarray(0, at);
    rest = new Uint8Array(before.length + bytes.length);
    rest.set(before);
    rest.set(bytes, before.length);
    sections[3] = bytes.length;
  }
  edit(header);
  const bytes = new TextEncoder().encode(JSON.stringify(header));
  const head = new TextEncoder().encode(lead.replace(/\d+\n$/, `${String(bytes.length).padStart(12, "0")}\n`));
  const out = new Uint8Array(head.length + bytes.length + rest.length);
  out.set(head);
  out.set(bytes, head.length);
  out.set(rest, head.length + bytes.length);
  return out;
}

/**
 * Starts a service on `c` that must serve the start cache under `home` (`body`, when given) without decoding a file,
 * makes `change`, and returns the snapshot of the recompile it causes.
 */
async function warmThenRecompiled(
  c: TempCorpus,
  home: string,
  change: () => Promise<void>,
  body?: string,
): Promise<CorpusSnapshot> {
  const clock = manualTimers();
  let loads = 0;
  const loader: typeof load = (dir, o) => (loads++, load(dir, o));
  await using service = new LiveCorpus(
    { dir: c.dir, site: "site", log: () => {}, startCacheHome: home },
    loader,
    clock.timers,
  );
  await service.start();
  assert.equal(loads, 0, "served from the cache");
  if (body !== undefined) assert.equal(await (answer(service, "/mapper")).text(), body);
  const next = service.nextVersion();
  await change();
  await waitFor("the recompile to be scheduled", () => clock.scheduled.size > 0);
  for (let tries = 0;; tries++) {
    assert.ok(tries < 250, "a recompile within 5 s");
    clock.fire();
    if (await Promise.race([next.then(() => true), delay(20).then(() => false)])) break;
  }
  return await next;
}

/** The corpus's files were written long enough ago for a stat to vouch for them (see `entryUnchanged`). */
async function settle(): Promise<void> {
  await delay(3_100);
}

Deno.test("start cache - a corpus written moments ago is decoded again: a stat cannot vouch for it yet", async () => {
  await using c = await tempCorpus(FILES);
  const home = await Deno.makeTempDir();
  try {
    const first = await serve(c, home);
    assert.equal(first.loads, 1);
    assert.ok((await Deno.lstat(await startCachePath(home, c.dir))).isFile, "the cache was written");
    const second = await serve(c, home);
    assert.equal(second.loads, 1, "decoded again");
    assert.deepEqual({ ...second.wire as object, version: 0 }, { ...first.wire as object, version: 0 });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("start cache - serves exactly the cold compile; refuses what it cannot trust; sees every change", async (t) => {
  await using c = await tempCorpus(FILES);
  const home = await Deno.makeTempDir();
  try {
    await settle();
    const cold = await serve(c, home);
    assert.equal(cold.loads, 1);
    assert.ok(cold.diagnostics.diagnostics.length >= 3, "a corpus with problems");
    const path = await startCachePath(home, c.dir);
    const good = await Deno.readFile(path);
    assert.equal((await Deno.lstat(path)).mode! & 0o777, 0o600);

    await t.step("a start with nothing changed serves the cached compile without decoding a file", async () => {
      const warm = await serve(c, home);
      assert.equal(warm.loads, 0, "nothing decoded");
      assert.equal(warm.body, cold.body);
      assert.equal(warm.gzip, cold.body);
      assert.equal(warm.version, cold.version, "the same corpus keeps its version");
      assert.deepEqual(warm.diagnostics, cold.diagnostics);
      assert.deepEqual(warm.wire, cold.wire);
      assert.deepEqual(warm.counts, cold.counts);
    });

    /** Starts once with the cache as `damage` left it, expects a full decode serving the cold compile, restores it. */
    const refused = async (damage: () => Promise<void>) => {
      await Deno.remove(path).catch(() => {});
      await Deno.writeFile(path, good, { mode: 0o600 });
      await Deno.chmod(path, 0o600);
      await damage();
      const again = await serve(c, home);
      assert.equal(again.loads, 1, "decoded again");
      assert.equal(again.body.replace(/"version":\d+/, ""), cold.body.replace(/"version":\d+/, ""));
      assert.deepEqual(again.diagnostics.diagnostics, cold.diagnostics.diagnostics);
      await Deno.remove(path, { recursive: true }).catch(() => {});
      await Deno.writeFile(path, good, { mode: 0o600 });
      await Deno.chmod(path, 0o600);
    };

    await t.step("a cache readable by others is not used", async () => {
      await refused(() => Deno.chmod(path, 0o644));
    });
    await t.step("a cache in a directory others can write is neither used nor written", async () => {
      const dir = join(home, ".mapper", "cache");
      await Deno.chmod(dir, 0o777);
      try {
        await Deno.remove(path);
        await serve(c, home);
        await assert.rejects(Deno.lstat(path), Deno.errors.NotFound);
        await refused(async () => {});
      } finally {
        await Deno.chmod(dir, 0o700);
      }
    });
    await t.step("a ~/.mapper made with umask 002 (writable by the user's own group) keeps the cache", async () => {
      const dir = join(home, ".mapper");
      await Deno.chmod(dir, 0o775);
      try {
        const warm = await serve(c, home);
        assert.equal(warm.loads, 0, "served from the cache");
        if (Deno.uid() === 0) {
          // The same mode, but a group other users are in: refused.
          await Deno.chown(dir, null, 65534);
          await refused(async () => {});
        }
      } finally {
        await Deno.chown(dir, null, Deno.gid()).catch(() => {});
        await Deno.chmod(dir, 0o700);
      }
    });
    await t.step(
      "a killed writer's staged copy is swept by the next write; a recent one and other files stay",
      async () => {
        const dir = join(home, ".mapper", "cache", "corpus");
        const name = (hex: string) => join(dir, `.${path.split("/").at(-1)}.mapper-${hex}.tmp`);
        const old = new Date(Date.now() - 60 * 60_000);
        for (const file of [name("0123456789ab"), name("ba9876543210"), join(dir, "notes.tmp")]) {
          await Deno.writeTextFile(file, "partial");
        }
        await Deno.utime(name("0123456789ab"), old, old);
        await Deno.utime(join(dir, "notes.tmp"), old, old);
        await Deno.remove(path);
        assert.equal((await serve(c, home)).loads, 1);
        await assert.rejects(Deno.lstat(name("0123456789ab")), Deno.errors.NotFound);
        assert.ok((await Deno.lstat(name("ba9876543210"))).isFile, "a write that may be under way is left alone");
        assert.ok((await Deno.lstat(join(dir, "notes.tmp"))).isFile, "only staged copies are swept");
        await Deno.remove(name("ba9876543210"));
        await Deno.remove(join(dir, "notes.tmp"));
        await Deno.writeFile(path, good, { mode: 0o600 });
        await Deno.chmod(path, 0o600);
      },
    );
    await t.step("a link at the cache's path is not followed", async () => {
      await refused(async () => {
        const elsewhere = join(home, "planted.cache");
        await Deno.writeFile(elsewhere, good, { mode: 0o600 });
        await Deno.remove(path);
        await Deno.symlink(elsewhere, path);
      });
    });
    if (Deno.uid() === 0) {
      await t.step("another user's cache is not used", async () => {
        await refused(() => Deno.chown(path, 65534, 65534));
      });
    }
    await t.step("a truncated or foreign cache is not used", async () => {
      await refused(() => Deno.truncate(path, good.length - 10));
      await refused(() => Deno.writeTextFile(path, "mapper start cache 9 000000000002\n{}"));
      // Another corpus's cache copied to this one's name.
      await using other = await tempCorpus({ "a.yaml": "memory: [other]\n" });
      const otherHome = await Deno.makeTempDir();
      try {
        await serve(other, otherHome);
        const foreign = await Deno.readFile(await startCachePath(otherHome, other.dir));
        await refused(() => Deno.writeFile(path, foreign));
      } finally {
        await Deno.remove(otherHome, { recursive: true });
      }
    });
    await t.step("a FIFO or a directory at the cache's path is not opened (no start waits on it)", async () => {
      await refused(async () => {
        await Deno.remove(path);
        await Deno.mkdir(path);
      });
      if (Deno.build.os !== "windows") {
        await refused(async () => {
          await Deno.remove(path);
          assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success, "mkfifo");
        });
      }
    });
    await t.step("a cache of this build whose header is malformed is not used", async () => {
      await refused(() => Deno.writeFile(path, withHeader(good, (h) => h.read = null)));
      await refused(() => Deno.writeFile(path, withHeader(good, (h) => h.version = "v1")));
      await refused(() => Deno.writeFile(path, withHeader(good, (h) => h.files = [[1, 2, 3]])));
      await refused(() => Deno.writeFile(path, withHeader(good, () => {}, "[null]")));
      await refused(() => Deno.writeFile(path, withHeader(good, () => {}, '[{"code":"x","location":{}}]')));
      await refused(() =>
        Deno.writeFile(
          path,
          withHeader(good, (h) => {
            const s = h.sections as number[];
            h.sections = [s[0], s[1], -1, s[3]! + s[2]! + 1]; // the same total
          }),
        )
      );
    });
    await t.step("the same directory served under another site label is compiled again", async () => {
      const other = await serve(c, home, { site: "elsewhere" });
      assert.equal(other.loads, 1);
      assert.equal((other.wire as { site: string }).site, "elsewhere");
      await Deno.writeFile(path, good);
    });
    await t.step("a decoded file that breaks the first recompile is dropped: it decodes every file", async () => {
      const damaged = (files: [unknown, unknown[]][]) =>
        (files[0]![0] as { components: unknown[] }).components = [null];
      await Deno.writeFile(path, withHeader(good, () => {}, undefined, damaged));
      try {
        // A new file: the files already read keep their stamps.
        const snap = await warmThenRecompiled(c, home, () => c.write("nested/c.yaml", "memory: [charlie]\n"));
        assert.deepEqual((snap.wire as { memory: string[] }).memory, ["alpha", "bravo", "charlie"]);
      } finally {
        await Deno.remove(join(c.dir, "nested", "c.yaml"));
      }
    });
    await t.step(
      "unreadable decoded files: served from the cache, and the first recompile decodes every file",
      async () => {
        const broken = new Uint8Array(good);
        broken.fill(0x20, broken.length - 40); // the end of the decoded files' section
        await Deno.writeFile(path, broken);
        const snap = await warmThenRecompiled(
          c,
          home,
          () => c.write("nested/b.yaml", "memory: [bravo, charlie]\n"),
          cold.body,
        );
        assert.ok(snap.version > cold.version, "a recompile's version comes after the cached one");
        assert.deepEqual((snap.wire as { memory: string[] }).memory, ["alpha", "bravo", "charlie"]);
        await c.write("nested/b.yaml", FILES["nested/b.yaml"]);
      },
    );
    await t.step("a decoded file's malformed form or warnings are not reused when another file changed", async () => {
      await c.write("nested/b.yaml", "memory: [bravo, delta]\n");
      try {
        for (
          const damage of [
            (files: [unknown, unknown[]][]) => files[0]![1] = [null],
            (files: [unknown, unknown[]][]) => (files[0]![0] as { components: unknown[] }).components = [null],
          ]
        ) {
          await Deno.writeFile(path, withHeader(good, () => {}, undefined, damage));
          const again = await serve(c, home);
          assert.ok(again.loads >= 1, "decoded again (a load the damage broke runs again on an empty cache)");
          assert.deepEqual((again.wire as { memory: string[] }).memory, ["alpha", "bravo", "delta"]);
          assert.deepEqual(again.diagnostics.diagnostics, cold.diagnostics.diagnostics);
        }
      } finally {
        await c.write("nested/b.yaml", FILES["nested/b.yaml"]);
      }
    });
    await t.step("a file rewritten with its size and modification time put back is decoded again", async () => {
      await Deno.writeFile(path, good);
      const file = join(c.dir, "a.yaml");
      const before = await Deno.stat(file);
      await Deno.writeTextFile(file, FILES["a.yaml"].replace("alpha", "ALPHA"));
      await Deno.utime(file, before.atime!, before.mtime!);
      const after = await serve(c, home);
      assert.equal(after.loads, 1);
      assert.deepEqual((after.wire as { memory: string[] }).memory, ["ALPHA", "bravo"]);
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("start cache - the build stamp of a run from source covers every module a load or compile runs", async () => {
  // The modules a compile runs: the service and what it loads lazily (the parse pool and its workers, the
  // cross-file and CSS checks, the YAML library). An edit of any of them must make a cache made before it foreign.
  const entries = ["service.ts", "_crosscheck.ts", "_css.ts", "_parse_pool.ts", "_parse_worker.ts", "_yaml_library.ts"];
  const stamped = new Set(BUILD_SOURCE_DIRS.map((u) => u.href));
  const missed = new Set<string>();
  for (const entry of entries) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", new URL(entry, import.meta.url).href],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    assert.ok(out.success, `deno info ${entry}`);
    const { modules } = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: { specifier: string }[] };
    for (const { specifier } of modules) {
      if (!specifier.startsWith("file:")) continue;
      const dir = new URL(".", specifier).href;
      if (!stamped.has(dir)) missed.add(specifier);
    }
  }
  assert.deepEqual([...missed], [], "modules whose edits the build stamp does not see");
});

Deno.test("start cache - a restart sees a link retargeted to an older file and a link to a directory added", async () => {
  // Changes that leave every read file's own stat old: only the walk and the stamps' inode and times tell.
  await using c = await tempCorpus({ "x.yaml": "memory: [ex]\n", "y.yaml": "memory: [wy]\n" });
  // The two targets differ only by inode and status-change time: the same size and modification time.
  for (const name of ["x.yaml", "y.yaml"]) await Deno.utime(join(c.dir, name), 1_600_000_000, 1_600_000_000);
  await Deno.symlink("x.yaml", join(c.dir, "link.yaml"));
  await Deno.mkdir(join(c.dir, "elsewhere"));
  const home = await Deno.makeTempDir();
  const cold = async () => {
    const fresh = await Deno.makeTempDir();
    try {
      return await serve(c, fresh);
    } finally {
      await Deno.remove(fresh, { recursive: true });
    }
  };
  const same = (a: Served, b: Served) =>
    assert.equal(a.body.replace(/"version":\d+/, ""), b.body.replace(/"version":\d+/, ""));
  try {
    await settle();
    assert.equal((await serve(c, home)).loads, 1);
    assert.equal((await serve(c, home)).loads, 0, "an unchanged corpus starts from the cache");

    await Deno.remove(join(c.dir, "link.yaml"));
    await Deno.symlink("y.yaml", join(c.dir, "link.yaml"));
    const retargeted = await serve(c, home);
    assert.equal(retargeted.loads, 1, "decoded again");
    same(retargeted, await cold());
    assert.equal((await serve(c, home)).loads, 0, "the new cache is used");

    await Deno.symlink("elsewhere", join(c.dir, "dir-link"));
    const linked = await serve(c, home);
    assert.equal(linked.loads, 1, "decoded again");
    assert.deepEqual(linked.diagnostics.diagnostics, (await cold()).diagnostics.diagnostics);
    assert.ok(JSON.stringify(linked.diagnostics).includes("symlink-dir-skipped"));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
