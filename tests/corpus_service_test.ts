// The live corpus service on loopback: endpoints, headers, caching, compression, and recompiles driven by real
// file-system events. Watcher tests wait for log lines, versions, watcher events or the service being idle with
// generous timeouts, never fixed sleeps (not even to show that nothing happens).
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type CorpusService,
  type CorpusServiceOptions,
  type CorpusSnapshot,
  startCorpusService,
  type WireCorpus,
} from "../src/corpus/mod.ts";
import { assertWireSchema, tempCorpus, waitFor } from "../src/corpus/_testing.ts";

const BASE = {
  "shared.yaml": "version: 1\nmemory: [base]\ncomponents:\n  - {name: Header, selector: header}\n",
  "views/home.yaml":
    "version: 1\nviews:\n  - name: Home\n    route: /\n    components:\n      - {name: Hero, selector: .hero}\n",
};

/** A bigger corpus so `/mapper` is large enough to be compressed. */
function bigCorpus(): Record<string, string> {
  const lines = ["version: 1", "components:"];
  for (let i = 0; i < 60; i++) lines.push(`  - {name: C${i}, selector: '.component-number-${i} > .child'}`);
  return { ...BASE, "big.yaml": lines.join("\n") + "\n" };
}

interface Harness extends AsyncDisposable {
  service: CorpusService;
  url: string;
  logs: string[];
  write(relative: string, text: string): Promise<void>;
  dir: string;
}

async function harness(
  files: Record<string, string>,
  options: Pick<CorpusServiceOptions, "now" | "onWatchEvent"> = {},
): Promise<Harness> {
  const corpus = await tempCorpus(files);
  const logs: string[] = [];
  const service = await startCorpusService({
    dir: corpus.dir,
    site: "site",
    log: (line) => logs.push(line),
    ...options,
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => service.handle(req) ?? new Response("not ours", { status: 404 }),
  );
  return {
    service,
    url: `http://127.0.0.1:${server.addr.port}/mapper`,
    logs,
    write: corpus.write,
    dir: corpus.dir,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await service[Symbol.asyncDispose]();
      await corpus[Symbol.asyncDispose]();
    },
  };
}

/** Resolves with the next version, or fails after a generous timeout. */
async function nextVersion(service: CorpusService, timeoutMs = 20_000): Promise<CorpusSnapshot> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out waiting for a recompile")), timeoutMs);
  });
  try {
    return await Promise.race([service.nextVersion(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `path` exists now (no link followed). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

const recompiles = (logs: string[]) => logs.filter((l) => /^\[serve-mapper\] recompiled \(v\d+\)$/.test(l)).length;

Deno.test("corpus service - /mapper serves the compiled corpus with CORS, JSON type, ETag and no-cache", async () => {
  await using h = await harness(BASE);
  const res = await fetch(h.url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-cache");
  assert.match(res.headers.get("etag") ?? "", /^"\d+(-gz)?"$/);
  const wire = await res.json() as WireCorpus;
  assertWireSchema(wire);
  assert.equal(wire.site, "site");
  assert.deepEqual(wire.memory, ["base"]);
  assert.equal(wire.version, h.service.current().version);
  assert.equal(wire.views[0]!.components[0]!.selector, ".hero");
});

Deno.test("corpus service - /mapper/version answers the same integer version", async () => {
  await using h = await harness(BASE);
  const res = await fetch(`${h.url}/version`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  const body = await res.text();
  assert.equal(body, `{"version":${h.service.current().version}}`);
  const corpus = await (await fetch(`${h.url}?x=1`)).json() as WireCorpus;
  assert.equal(corpus.version, JSON.parse(body).version);
});

Deno.test("corpus service - If-None-Match with the current ETag gives 304 on both endpoints", async () => {
  await using h = await harness(BASE);
  for (const url of [h.url, `${h.url}/version`]) {
    const first = await fetch(url);
    await first.body?.cancel();
    const etag = first.headers.get("etag")!;
    const again = await fetch(url, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304, url);
    assert.equal(again.headers.get("etag"), etag);
    assert.equal(again.headers.get("access-control-allow-origin"), "*");
    assert.equal(await again.text(), "");
    const stale = await fetch(url, { headers: { "if-none-match": '"1"' } });
    assert.equal(stale.status, 200);
    await stale.body?.cancel();
  }
});

Deno.test("corpus service - a weak W/ tag, a list with the current tag, or * in If-None-Match gives 304 on /mapper", async () => {
  await using h = await harness(bigCorpus());
  for (const encoding of ["identity", "gzip"]) {
    const first = await fetch(h.url, { headers: { "accept-encoding": encoding } });
    await first.body?.cancel();
    const etag = first.headers.get("etag")!;
    for (const header of [`W/${etag}`, `"1", W/"2", ${etag}`, "*"]) {
      const again = await fetch(h.url, { headers: { "if-none-match": header, "accept-encoding": encoding } });
      assert.equal(again.status, 304, `${encoding}: ${header}`);
      assert.equal(await again.text(), "");
    }
    const other = await fetch(h.url, { headers: { "if-none-match": `W/"0", "1"`, "accept-encoding": encoding } });
    assert.equal(other.status, 200, encoding);
    await other.body?.cancel();
  }
});

Deno.test("corpus service - gzip is sent only when Accept-Encoding allows it, once made (nobody waits for it)", async () => {
  await using h = await harness(bigCorpus());
  const plain = h.service.handle(new Request(h.url, { headers: { "accept-encoding": "identity" } }))!;
  assert.equal(plain.headers.get("content-encoding"), null);
  const plainText = await plain.text();
  // The first answer that could be compressed goes out plain, with its length, and starts the compression.
  const first = h.service.handle(new Request(h.url, { headers: { "accept-encoding": "gzip" } }))!;
  assert.equal(first.headers.get("content-encoding"), null);
  assert.equal(first.headers.get("etag"), plain.headers.get("etag"));
  assert.equal(await first.text(), plainText);
  // Its length is sent on the wire (the runtime measures the text it encodes), and HEAD says the same length.
  const wire = await fetch(h.url, { headers: { "accept-encoding": "identity" } });
  const length = String(new TextEncoder().encode(plainText).length);
  assert.equal(wire.headers.get("content-length"), length);
  await wire.body?.cancel();
  const head = h.service.handle(new Request(h.url, { method: "HEAD", headers: { "accept-encoding": "identity" } }))!;
  assert.equal(head.headers.get("content-length"), length);
  const gzipReady = async () => {
    for (let i = 0; i < 200; i++) {
      const res = h.service.handle(new Request(h.url, { method: "HEAD", headers: { "accept-encoding": "gzip" } }))!;
      if (res.headers.get("content-encoding") === "gzip") return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail("the gzip form was never made");
  };
  await gzipReady();
  for (const header of ["gzip", "br, gzip;q=0.5", "*"]) {
    const res = h.service.handle(new Request(h.url, { headers: { "accept-encoding": header } }))!;
    assert.equal(res.headers.get("content-encoding"), "gzip", header);
    assert.equal(res.headers.get("vary"), "Accept-Encoding");
    assert.notEqual(res.headers.get("etag"), plain.headers.get("etag"));
    const unzipped = await new Response(res.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    assert.equal(unzipped, plainText);
  }
  const refused = h.service.handle(new Request(h.url, { headers: { "accept-encoding": "gzip;q=0" } }))!;
  assert.equal(refused.headers.get("content-encoding"), null);
  await refused.body?.cancel();
  // Over the wire too: fetch asks for gzip and decodes it transparently.
  const res = await fetch(h.url);
  assert.equal((await res.json() as WireCorpus).globals.length, 61);
});

Deno.test("corpus service - HEAD has headers only; OPTIONS answers a CORS preflight", async () => {
  await using h = await harness(BASE);
  const head = await fetch(h.url, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.ok(Number(head.headers.get("content-length")) > 0);
  assert.equal(await head.text(), "");
  const pre = await fetch(`${h.url}/version`, {
    method: "OPTIONS",
    headers: {
      origin: "https://shop.example",
      "access-control-request-method": "GET",
      "access-control-request-headers": "if-none-match",
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods") ?? "", /GET/);
  assert.equal(pre.headers.get("access-control-allow-headers"), "if-none-match");
  await pre.body?.cancel();
});

Deno.test("corpus service - other methods get 405 JSON; other paths are left to the host (undefined)", async () => {
  await using h = await harness(BASE);
  const post = await fetch(h.url, { method: "POST", body: "{}" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD, OPTIONS");
  assert.equal(post.headers.get("access-control-allow-origin"), "*");
  assert.equal((await post.json()).error.code, "method_not_allowed");
  for (const path of ["/", "/mapper/", "/mapperx", "/MAPPER", "/mapper/version/", "/mapper/other"]) {
    assert.equal(h.service.handle(new Request(new URL(path, h.url))), undefined, path);
  }
});

Deno.test("corpus service - an edit recompiles: new version, new content, one log line", async () => {
  await using h = await harness(BASE);
  const before = h.service.current().version;
  const next = nextVersion(h.service);
  await h.write("shared.yaml", "version: 1\nmemory: [edited]\n");
  const snap = await next;
  assert.ok(snap.version > before);
  const wire = await (await fetch(h.url)).json() as WireCorpus;
  assert.deepEqual(wire.memory, ["edited"]);
  assert.equal(wire.version, snap.version);
  assert.ok(h.logs.includes(`[serve-mapper] recompiled (v${snap.version})`), h.logs.join("\n"));
});

Deno.test("corpus service - a burst of writes gives one recompile", async () => {
  await using h = await harness(BASE);
  const next = nextVersion(h.service);
  for (let i = 0; i < 6; i++) await h.write("shared.yaml", `version: 1\nmemory: [burst ${i}]\n`);
  const snap = await next;
  assert.deepEqual(snap.wire.memory, ["burst 5"]);
  // Every write's events arrived before the quiet period ended; a stray second compile would keep it busy.
  await h.service.idle();
  assert.equal(recompiles(h.logs), 1, h.logs.join("\n"));
});

Deno.test("corpus service - broken YAML keeps the last good corpus and logs each problem, then recovers", async () => {
  await using h = await harness(BASE);
  const good = h.service.current();
  await h.write("shared.yaml", "version: 1\nmemory: [\n");
  await h.write("views/home.yaml", "views: hello\n");
  await waitFor(
    "compile errors for both files",
    () =>
      h.logs.some((l) => /^\[serve-mapper\] compile error: .*shared\.yaml:\d+:\d+: /.test(l)) &&
      h.logs.some((l) => /^\[serve-mapper\] compile error: .*home\.yaml:1:8: "views" must be a list/.test(l)),
  ).catch((err) => {
    throw new Error(`${err.message}; logs:\n${h.logs.join("\n")}`);
  });
  assert.equal(h.service.current().version, good.version);
  const served = await (await fetch(h.url)).json() as WireCorpus;
  assert.deepEqual(served, good.wire);
  const next = nextVersion(h.service);
  await h.write("shared.yaml", "version: 1\nmemory: [fixed]\n");
  await h.write("views/home.yaml", "version: 1\n");
  const snap = await next;
  assert.ok(snap.version > good.version);
  assert.deepEqual(snap.wire.memory, ["fixed"]);
});

Deno.test("corpus service - edits under snapshots/ and review/ and non-YAML files are ignored", async () => {
  const seen = new Map<string, boolean>();
  await using h = await harness({ ...BASE, "snapshots/keep.txt": "", "views/review/keep.txt": "" }, {
    onWatchEvent: (path, relevant) => seen.set(path, (seen.get(path) ?? false) || relevant),
  });
  const ignored = ["snapshots/home.yaml", "views/review/todo.yml", "notes.md"].map((f) => join(h.dir, f));
  await h.write("snapshots/home.yaml", "views: [\n");
  await h.write("views/review/todo.yml", "- item\n");
  await h.write("notes.md", "# notes\n");
  await waitFor("the watcher to see every ignored edit", () => ignored.every((p) => seen.has(p)));
  assert.deepEqual(ignored.map((p) => seen.get(p)), [false, false, false]);
  await h.service.idle();
  assert.equal(recompiles(h.logs), 0, h.logs.join("\n"));
  // The watcher is alive: a real edit still recompiles.
  const next = nextVersion(h.service);
  await h.write("views/home.yaml", "version: 1\nmemory: [alive]\n");
  assert.deepEqual((await next).wire.memory, ["base", "alive"]);
});

Deno.test("corpus service - recompiles read what the watcher named: an edit, a new, a deleted and a renamed file", async () => {
  await using c = await tempCorpus({
    "a.yaml": "version: 1\nmemory: [alpha]\n",
    "b.yaml": "version: 1\nmemory: [bravo]\n",
  });
  // Old files, before the first load: a size-and-time check alone would call the first edit below "unchanged".
  const then = new Date(Date.now() - 60_000);
  for (const name of ["a.yaml", "b.yaml"]) await Deno.utime(join(c.dir, name), then, then);
  await using service = await startCorpusService({ dir: c.dir, site: "site", log: () => {} });
  const memory = () => service.current().wire.memory;
  const becomes = async (what: string, expected: string[]) => {
    await waitFor(what, () => JSON.stringify(memory()) === JSON.stringify(expected)).catch((err) => {
      throw new Error(`${err.message}: memory is ${JSON.stringify(memory())}`);
    });
    // Nothing still scheduled may land between the next change and its check.
    await service.idle();
  };
  await Deno.writeTextFile(join(c.dir, "b.yaml"), "version: 1\nmemory: [BRAVO]\n");
  await Deno.utime(join(c.dir, "b.yaml"), then, then);
  await becomes("the edit (same size, same time)", ["alpha", "BRAVO"]);
  await c.write("c.yaml", "version: 1\nmemory: [charlie]\n");
  await becomes("the new file", ["alpha", "BRAVO", "charlie"]);
  await Deno.remove(join(c.dir, "a.yaml"));
  await becomes("the deleted file to be gone", ["BRAVO", "charlie"]);
  await Deno.rename(join(c.dir, "c.yaml"), join(c.dir, "0.yaml"));
  await becomes("the renamed file in its new place in load order", ["charlie", "BRAVO"]);
  await Deno.writeTextFile(join(c.dir, "0.yaml"), "version: 1\nmemory: [CHARLIE]\n");
  await becomes("an edit of the renamed file", ["CHARLIE", "BRAVO"]);
  // An edit and a new file in the same quiet period.
  await c.write("b.yaml", "version: 1\nmemory: [bravo]\n");
  await c.write("d.yaml", "version: 1\nmemory: [delta]\n");
  await becomes("the edit and the new file", ["CHARLIE", "bravo", "delta"]);
});

Deno.test("corpus service - a subdirectory created later is watched", async () => {
  await using h = await harness(BASE);
  const memory = () => h.service.current().wire.memory;
  await Deno.mkdir(join(h.dir, "later", "deeper"), { recursive: true });
  await h.write("later/deeper/new.yaml", "version: 1\nmemory: [from new dir]\n");
  await waitFor("the file in the new directory to be compiled", () => memory().includes("from new dir"));
  // Let any compile still scheduled by the directory events run, so the next edit is the only trigger.
  await h.service.idle();
  await h.write("later/deeper/new.yaml", "version: 1\nmemory: [edited in new dir]\n");
  await waitFor("an edit inside the new directory to be compiled", () => memory().includes("edited in new dir"));
});

Deno.test("corpus service - a subdirectory moved out and back in (with a dotted name) is noticed", async () => {
  await using h = await harness(BASE);
  const views = () => h.service.current().wire.views.map((v) => v.name);
  assert.deepEqual(views(), ["Home"]);
  const outside = join(h.dir, "..", "parked-views");
  await Deno.rename(join(h.dir, "views"), outside);
  await waitFor("the moved-out view to disappear", () => views().length === 0);
  await Deno.rename(outside, join(h.dir, "views.v2"));
  await waitFor("the moved-in view to reappear", () => views().includes("Home"));
});

Deno.test("corpus service - a directory compiled after the start, then moved out, is noticed (what was read is never stale)", async () => {
  // Whether a vanished path matters is told from the files the last compile read. That list is made on first
  // need and must be made again after every compile: here it is first made before the directory exists.
  let goneSeen = false;
  await using h = await harness(BASE, {
    onWatchEvent: (abs) => {
      if (abs.endsWith("gone.txt") && !exists(abs)) goneSeen = true;
    },
  });
  const memory = () => h.service.current().wire.memory;
  await Deno.writeTextFile(join(h.dir, "gone.txt"), "not corpus\n");
  await Deno.remove(join(h.dir, "gone.txt"));
  await waitFor("a vanished non-YAML path to be looked up", () => goneSeen);
  await Deno.mkdir(join(h.dir, "later"));
  await h.write("later/b.yaml", "version: 1\nmemory: [bee]\n");
  await waitFor("the new directory's file to be compiled", () => memory().includes("bee"));
  await h.service.idle();
  await Deno.rename(join(h.dir, "later"), join(h.dir, "..", "parked-later"));
  await waitFor("the moved-out directory's file to be dropped", () => !memory().includes("bee"));
  assert.deepEqual(memory(), ["base"]);
});

Deno.test("corpus service - the corpus directory deleted and re-created keeps working", async () => {
  await using h = await harness(BASE);
  const good = h.service.current();
  await Deno.remove(h.dir, { recursive: true });
  await waitFor(
    "a compile error about the missing directory",
    () => h.logs.some((l) => /compile error: .*does not exist/.test(l)),
  );
  assert.equal(h.service.current().version, good.version);
  await Deno.mkdir(h.dir);
  await h.write("shared.yaml", "version: 1\nmemory: [reborn]\n");
  await waitFor("the re-created file to be compiled", () => h.service.current().wire.memory.includes("reborn"));
  await h.service.idle();
  // And the new directory is watched.
  const again = nextVersion(h.service);
  await h.write("shared.yaml", "version: 1\nmemory: [watched again]\n");
  assert.deepEqual((await again).wire.memory, ["watched again"]);
});

Deno.test("corpus service - versions strictly increase even within one millisecond", async () => {
  await using h = await harness(BASE, { now: () => 1_700_000_000_000 });
  assert.equal(h.service.current().version, 1_700_000_000_000);
  const next = nextVersion(h.service);
  await h.write("shared.yaml", "version: 1\n");
  assert.equal((await next).version, 1_700_000_000_001);
});

Deno.test("corpus service - a deferred watch: no event before watch(), an edit made before it is recompiled after it", async () => {
  // Files written just before the start, as a user's or a tool's last save: their stamps cannot vouch for them.
  await using c = await tempCorpus(BASE);
  const logs: string[] = [];
  const seen: string[] = [];
  await using service = await startCorpusService({
    dir: c.dir,
    site: "site",
    log: (line) => logs.push(line),
    deferWatch: true,
    onWatchEvent: (abs) => seen.push(abs),
  });
  const first = service.current().version;
  // Arming with nothing changed costs no recompile, even though every file was written a moment before the load.
  await service.watch();
  await service.idle();
  assert.equal(service.current().version, first, logs.join("\n"));
  assert.deepEqual(logs, []);

  await using d = await tempCorpus(BASE);
  await using deferred = await startCorpusService({
    dir: d.dir,
    site: "site",
    log: () => {},
    deferWatch: true,
    onWatchEvent: (abs) => seen.push(abs),
  });
  await d.write("shared.yaml", "version: 1\nmemory: [before the watch]\n");
  const next = nextVersion(deferred);
  await deferred.watch();
  assert.deepEqual((await next).wire.memory, ["before the watch"]);
  assert.deepEqual(seen, [], "no watch saw that edit: the comparison after arming did");
  // Armed now: the next edit comes as an event.
  const after = nextVersion(deferred);
  await d.write("shared.yaml", "version: 1\nmemory: [after]\n");
  assert.deepEqual((await after).wire.memory, ["after"]);
  assert.ok(seen.length > 0);
});

Deno.test("corpus service - deferred checks: the first corpus is served, and its report still has the checks across files", async () => {
  await using c = await tempCorpus({
    ...BASE,
    "views/start.yaml": "version: 1\nviews:\n  - name: Start\n    route: /\n",
  });
  await using service = await startCorpusService({ dir: c.dir, site: "site", log: () => {}, deferChecks: true });
  const res = service.handle(new Request("http://127.0.0.1/mapper/diagnostics"))!;
  const report = await res.json() as { diagnostics: Array<{ code: string }> };
  assert.deepEqual(report.diagnostics.map((d) => d.code), ["route-conflict"]);
  assert.deepEqual(service.current().diagnostics.map((d) => d.code), ["route-conflict"]);
});

Deno.test("corpus service - lenient start serves an empty corpus until the directory appears", async () => {
  await using c = await tempCorpus();
  const dir = join(c.root, "later");
  const logs: string[] = [];
  await using service = await startCorpusService({
    dir,
    site: "site",
    log: (line) => logs.push(line),
    lenient: true,
    logPrefix: "[browser]",
  });
  assert.deepEqual(service.current().wire.views, []);
  assert.ok(
    logs.some((l) => /^\[browser\] compile error: .*later: corpus directory .* does not exist$/.test(l)),
    logs.join("\n"),
  );
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "a.yaml"), "version: 1\nmemory: [arrived]\n");
  await waitFor("the new directory to be compiled", () => service.current().wire.memory.includes("arrived"));
  const refused = await startCorpusService({ dir: join(c.root, "nope"), site: "s", log: () => {} }).then(
    () => "started",
    (err: unknown) => (err as Error).name,
  );
  assert.equal(refused, "CorpusLoadError");
});

Deno.test("corpus service - scanning mode (no file-system events) still recompiles on edits and recreation", async () => {
  await using c = await tempCorpus(BASE);
  const logs: string[] = [];
  await using service = await startCorpusService({
    dir: c.dir,
    site: "site",
    log: (line) => logs.push(line),
    pollIntervalMs: 100,
  });
  await c.write("shared.yaml", "version: 1\nmemory: [scanned edit]\n");
  await waitFor("a scanned edit to be compiled", () => service.current().wire.memory.includes("scanned edit"));
  await c.write("snapshots/x.yaml", "views: [\n");
  await Deno.remove(c.dir, { recursive: true });
  await waitFor("a compile error for the missing directory", () => logs.some((l) => /does not exist/.test(l)));
  await c.write("a.yaml", "version: 1\nmemory: [back]\n");
  await waitFor("the re-created corpus to be compiled", () => service.current().wire.memory.includes("back"));
});

Deno.test("corpus service - /mapper/diagnostics serves the validate envelope with CORS, ETag and 304", async () => {
  await using h = await harness({
    ...BASE,
    "bad.yaml": "version: 1\ncomponents:\n  - name: Grid\n    selector: 'div[[['\n",
  });
  const res = await fetch(`${h.url}/diagnostics`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  const etag = res.headers.get("etag");
  assert.ok(etag);
  const report = await res.json();
  const version = h.service.current().version;
  assert.deepEqual(
    {
      ...report,
      diagnostics: report.diagnostics.map((d: { code: string; file: string; line: number }) =>
        `${d.code} ${d.file}:${d.line}`
      ),
    },
    {
      ok: false,
      diagnostics: ["selector-invalid bad.yaml:4"],
      result: { files: 3, errors: 1, warnings: 0 },
      version,
      servedVersion: version,
      stale: false,
    },
  );
  const again = await fetch(`${h.url}/diagnostics`, { headers: { "if-none-match": etag } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get("access-control-allow-origin"), "*");
  await again.body?.cancel();
});

Deno.test("corpus service - a failed recompile shows in /mapper/diagnostics (stale, parse-error at file:line)", async () => {
  await using h = await harness(BASE);
  const good = h.service.current();
  const before = await (await fetch(`${h.url}/diagnostics`)).json();
  assert.equal(before.ok, true);
  await h.write("shared.yaml", "version: 1\nmemory: [\n");
  await waitFor("a failed recompile", () => h.service.diagnostics().stale);
  const report = await (await fetch(`${h.url}/diagnostics`)).json();
  assert.equal(report.ok, false);
  assert.equal(report.stale, true);
  assert.equal(report.servedVersion, good.version);
  assert.ok(report.version > good.version);
  assert.deepEqual(report.diagnostics.map((d: { code: string; file: string }) => `${d.code} ${d.file}`), [
    "parse-error shared.yaml",
  ]);
  assert.equal(report.diagnostics[0].line, 3);
  assert.deepEqual((await (await fetch(h.url)).json() as WireCorpus).version, good.version);
  const next = nextVersion(h.service);
  await h.write("shared.yaml", "version: 1\nmemory: [fixed]\n");
  const snap = await next;
  const fixed = await (await fetch(`${h.url}/diagnostics`)).json();
  assert.deepEqual([fixed.ok, fixed.stale, fixed.version, fixed.servedVersion], [
    true,
    false,
    snap.version,
    snap.version,
  ]);
});
