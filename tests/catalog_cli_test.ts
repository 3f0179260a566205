/**
 * Black-box tests of `mapper atlas serve` and `mapper atlas build`: the CLI run as a user would, with its own HOME.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, listFiles, mapperCommand, ROOT, runMapper, tempDir } from "./_helpers.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "catalog", "gallery");

/** A `mapper atlas serve` subprocess, stopped with SIGTERM on dispose. */
interface ServeProcess extends AsyncDisposable {
  /** The first stdout line. */
  readonly firstLine: string;
  readonly url: string;
  /** Sends SIGTERM (or the signal given) and collects the exit code and remaining output. */
  stop(signal?: Deno.Signal): Promise<{ code: number; stdout: string; stderr: string }>;
}

async function startServe(args: string[], home: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["atlas", "serve", ...args]),
    cwd: ROOT,
    env: { ...baseEnv(home), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
  }
  const firstLine = buffered.split("\n")[0] ?? "";
  const url = /(https?:\/\/\S+\/)/.exec(firstLine)?.[1] ?? "";
  let result: Promise<{ code: number; stdout: string; stderr: string }> | undefined;
  const stop = (signal: Deno.Signal = "SIGTERM") =>
    result ??= (async () => {
      try {
        child.kill(signal);
      } catch {
        // already exited
      }
      let rest = buffered;
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        rest += value;
      }
      const status = await child.status;
      return { code: status.code, stdout: rest, stderr: await stderrText };
    })();
  return { firstLine, url, stop, [Symbol.asyncDispose]: async () => void await stop() };
}

/** The response headers a static host must reproduce from `_headers`. */
const HOST_HEADERS = [
  "content-type",
  "cache-control",
  "access-control-allow-origin",
  "vary",
  "content-security-policy",
  "x-content-type-options",
];

/** Files of an export directory that are published paths (everything but the host rule files). */
async function exportedFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).filter((f) => f !== "_headers" && f !== "_redirects");
}

Deno.test("atlas serve - with no --gallery serves the bundled example gallery on --port 0, prints its URL, stops on SIGTERM", async () => {
  await using home = await tempDir();
  await using proc = await startServe(["--port", "0"], home.path);
  assert.match(
    proc.firstLine,
    /^Serving the bundled example gallery \(2 entries; pass --gallery DIR to serve your own\) at http:\/\/127\.0\.0\.1:\d+\/$/,
  );
  const catalog = await (await fetch(`${proc.url}api/atlas`)).json();
  assert.deepEqual(catalog.entries.map((e: { slug: string }) => e.slug), ["demo-shop", "demo-docs"]);
  const removed = await fetch(`${proc.url}api/atlas/demo-legacy`);
  assert.equal(removed.status, 404);
  await removed.body?.cancel();
  const done = await proc.stop();
  assert.equal(done.code, 0);
  assert.match(done.stderr, /\[atlas\] shutting down/);
  assert.ok(!/warning/.test(done.stderr), done.stderr);
});

Deno.test("atlas serve - --base-url sets the links; invalid entries are warned about by entry and rule", async () => {
  await using home = await tempDir();
  await using proc = await startServe(
    ["--gallery", FIXTURE, "--port", "0", "--base-url", "https://atlas.example.org/"],
    home.path,
  );
  assert.match(proc.firstLine, /^Serving gallery ".*gallery" \(4 entries\) at http:\/\/127\.0\.0\.1:\d+\/$/);
  const entry = await (await fetch(`${proc.url}api/atlas/alpha`)).json();
  assert.equal(entry.html, "https://atlas.example.org/atlas/alpha");
  const done = await proc.stop();
  assert.equal(done.code, 0);
  assert.match(done.stdout, /Links use the base URL https:\/\/atlas\.example\.org/);
  assert.match(done.stderr, /mapper atlas serve: warning: entry "bad-schema" left out \(schema\): /);
  assert.match(done.stderr, /withheld "taken-down": listed in removed\.yaml/);
});

Deno.test("atlas serve - --strict refuses to start when any entry is invalid (exit 1)", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "serve", "--gallery", FIXTURE, "--port", "0", "--strict"], {
    env: { HOME: home.path },
  });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /warning: entry "bad-schema" left out \(schema\)/);
  assert.match(r.stderr, /mapper atlas serve: 1 entry is invalid \(--strict\) — fix the entries named above/);
});

Deno.test("atlas serve - a missing gallery directory is a clear failure (exit 1)", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "serve", "--gallery", home.join("nope"), "--port", "0"], {
    env: { HOME: home.path },
  });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^mapper atlas serve: gallery ".*nope" is not a directory — pass --gallery DIR/);
  const noEntries = await runMapper(["atlas", "serve", "--gallery", home.path, "--port", "0"], {
    env: { HOME: home.path },
  });
  assert.equal(noEntries.code, 1);
  assert.match(noEntries.stderr, /has no "entries\/" directory/);
});

Deno.test("atlas serve - --cert without --key is a usage error (exit 2)", async () => {
  await using home = await tempDir();
  const r = await runMapper(["atlas", "serve", "--cert", "x.pem", "--port", "0"], { env: { HOME: home.path } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--cert and --key go together/);
});

Deno.test("atlas build - writes the snapshot, _headers and _redirects; reproducible with SOURCE_DATE_EPOCH", async () => {
  await using home = await tempDir();
  const env = { HOME: home.path, SOURCE_DATE_EPOCH: "1790000000" };
  const a = await runMapper(["atlas", "build", "--gallery", FIXTURE, "--out", home.join("a")], { env });
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /^Wrote 26 files for 4 entries to .*a \(base URL http:\/\/127\.0\.0\.1:8080\)\n$/);
  assert.match(a.stderr, /entry "bad-schema" left out \(schema\)/);
  const b = await runMapper(["atlas", "build", "--gallery", FIXTURE, "--out", home.join("b")], { env });
  assert.equal(b.code, 0);
  const files = await listFiles(home.join("a"));
  assert.deepEqual(files, await listFiles(home.join("b")));
  for (const f of files) {
    assert.deepEqual(await Deno.readFile(home.join("a", f)), await Deno.readFile(home.join("b", f)), f);
  }
  for (
    const f of [
      "_headers",
      "_redirects",
      "openapi.json",
      "api/openapi.yaml",
      "api/atlas.json",
      "api/atlas/alpha.json",
      "llms.txt",
      "atlas/index.json",
      "atlas/alpha/index.html",
      "atlas/alpha.md",
      "atlas/alpha.tar.gz",
      "index.html",
    ]
  ) {
    assert.ok(files.includes(f), f);
  }
  const index = JSON.parse(await Deno.readTextFile(home.join("a", "atlas", "index.json")));
  assert.equal(index.generated_at, "2026-09-21T14:13:20Z");
});

Deno.test("atlas build - refuses a non-empty --out and builds the bundled gallery without --gallery", async () => {
  await using home = await tempDir();
  await Deno.mkdir(home.join("full"));
  await Deno.writeTextFile(home.join("full", "keep.txt"), "mine");
  const refused = await runMapper(["atlas", "build", "--out", home.join("full")], { env: { HOME: home.path } });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /refusing to write into ".*full": the directory is not empty/);
  assert.equal(await Deno.readTextFile(home.join("full", "keep.txt")), "mine");

  const ok = await runMapper(["atlas", "build", "--out", home.join("out"), "--base-url", "https://atlas.example.org"], {
    env: { HOME: home.path },
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stderr, "");
  const catalog = JSON.parse(await Deno.readTextFile(home.join("out", "api", "atlas.json")));
  assert.deepEqual(catalog.entries.map((e: { slug: string }) => e.slug), ["demo-shop", "demo-docs"]);
  assert.equal(catalog.entries[0].archive, "https://atlas.example.org/atlas/demo-shop.tar.gz");
});

Deno.test("atlas serve - unusable --cert/--key files are a clear failure (exit 1)", async () => {
  await using home = await tempDir();
  await Deno.writeTextFile(home.join("bad.pem"), "not a certificate\n");
  const r = await runMapper(
    ["atlas", "serve", "--port", "0", "--cert", home.join("bad.pem"), "--key", home.join("bad.pem")],
    { env: { HOME: home.path } },
  );
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^mapper atlas serve: cannot serve HTTPS with --cert ".*bad\.pem" and --key/);
  const missing = await runMapper(
    ["atlas", "serve", "--port", "0", "--cert", home.join("nope.pem"), "--key", home.join("nope.pem")],
    { env: { HOME: home.path } },
  );
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read --cert ".*nope\.pem"/);
});

Deno.test("atlas build - the export equals what atlas serve answers, byte for byte and header for header, on every path", async () => {
  await using home = await tempDir();
  const env = { SOURCE_DATE_EPOCH: "1790000000" };
  const base = "https://atlas.example.org/catalog/";
  for (const gallery of [["--gallery", FIXTURE], []]) {
    const out = home.join(`out-${gallery.length}`);
    const built = await runMapper(["atlas", "build", ...gallery, "--out", out, "--base-url", base], {
      env: { HOME: home.path, ...env },
    });
    assert.equal(built.code, 0, built.stderr);
    await using proc = await startServe([...gallery, "--port", "0", "--base-url", base], home.path, env);
    assert.ok(proc.url, proc.firstLine);
    const rules = new Map<string, string[]>();
    for (const block of (await Deno.readTextFile(join(out, "_headers"))).split(/\n(?=\/)/)) {
      const [path, ...lines] = block.trim().split("\n");
      rules.set(path!, lines.map((l) => l.trim()));
    }
    const rewrites = (await Deno.readTextFile(join(out, "_redirects"))).trim().split("\n").map((l) => l.split(" "));
    const paths: Array<[string, string]> = [
      ...(await exportedFiles(out)).map((f): [string, string] => [`/${f}`, f]),
      ...rewrites.map(([from, to]): [string, string] => [from!, to!.slice(1)]),
      ["/atlas", "atlas/index.html"],
      ["/", "index.html"],
    ];
    for (const [path, file] of paths) {
      const res = await fetch(new URL(path.slice(1), proc.url), { headers: { "Accept-Encoding": "identity" } });
      assert.equal(res.status, 200, path);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), await Deno.readFile(join(out, file)), path);
      const rule = rules.get(path);
      assert.ok(rule, `_headers rule for ${path}`);
      const ruled = new Map(rule.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 2)]));
      for (const [name, value] of ruled) assert.equal(res.headers.get(name), value, `${path} ${name}`);
      for (const name of HOST_HEADERS) {
        assert.equal(ruled.get(name) ?? null, res.headers.get(name), `_headers ${path} ${name}`);
      }
    }
    const entry = JSON.parse(await Deno.readTextFile(join(out, "api", "atlas.json"))).entries[0];
    assert.match(entry.archive, /^https:\/\/atlas\.example\.org\/catalog\/atlas\/[a-z0-9-]+\.tar\.gz$/);
    // The pages link within the base URL's path too.
    const listing = await Deno.readTextFile(join(out, "atlas", "index.html"));
    assert.ok(listing.includes(`<a href="/catalog/atlas/${entry.slug}">`), "listing links under /catalog/");
    assert.ok(!/(href|src)="\/(atlas|api|llms|openapi)/.test(listing), "no link outside /catalog/");
    assert.equal((await proc.stop()).code, 0);
  }
});

Deno.test("atlas serve - stops gracefully on SIGINT (exit 0)", async () => {
  await using home = await tempDir();
  await using proc = await startServe(["--gallery", FIXTURE, "--port", "0"], home.path);
  const res = await fetch(`${proc.url}api/atlas`);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const done = await proc.stop("SIGINT");
  assert.equal(done.code, 0);
  assert.match(done.stderr, /\[atlas\] shutting down\n$/);
});

Deno.test("atlas serve - a port in use is a failure naming --port (exit 1)", async () => {
  await using home = await tempDir();
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String((listener.addr as Deno.NetAddr).port);
  const r = await runMapper(["atlas", "serve", "--gallery", FIXTURE, "--port", port], { env: { HOME: home.path } });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    new RegExp(
      `^mapper atlas serve: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use — pick another with --port`,
    ),
  );
});

Deno.test("atlas build - --strict refuses an entry with a validation error, naming entry, file:line and code", async () => {
  await using tmp = await tempDir();
  const gallery = tmp.join("gallery");
  await Deno.mkdir(join(gallery, "entries"), { recursive: true });
  for (const name of await listFiles(join(FIXTURE, "entries", "alpha"))) {
    await Deno.mkdir(join(gallery, "entries", "alpha", name, ".."), { recursive: true });
    await Deno.copyFile(join(FIXTURE, "entries", "alpha", name), join(gallery, "entries", "alpha", name));
  }
  const home = join(gallery, "entries", "alpha", ".mapper", "home.yaml");
  await Deno.writeTextFile(home, (await Deno.readTextFile(home)).replace("extract: attr=value", "extract: attr:value"));
  const r = await runMapper(["atlas", "build", "--gallery", gallery, "--out", tmp.join("out"), "--strict"], {
    env: { HOME: tmp.path },
  });
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /warning: entry "alpha" left out \(corpus\): the corpus does not load: 1 validation error\(s\), first: \.mapper\/home\.yaml:15 property-extract-invalid: unknown extract form "attr:value"/,
  );
  assert.match(r.stderr, /1 entry is invalid \(--strict\)/);
});
