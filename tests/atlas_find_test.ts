/**
 * `mapper atlas find` / `list`: layouts and JSON (golden files), no-match messages, the transport policy against a
 * real loopback HTTPS server (redirects, refused hops, 404, non-200, body cap), the cache (hit, miss, expired,
 * corrupt, other source, --refresh) and the stale fallback, and local-file catalogs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../src/cli/run.ts";
import { testIo } from "../src/io.ts";
import { installCommand } from "../src/atlas/find.ts";
import { assertGolden, ROOT, runMapper, tempDir } from "./_helpers.ts";
import { httpsServer } from "./_https.ts";

const FIXTURE = join(ROOT, "tests/fixtures/atlas/search.json");
const catalogText = await Deno.readTextFile(FIXTURE);
const NOW = Date.parse("2026-11-21T21:25:27Z");
const HOUR = 3600_000;

/** The catalog server: `/search.json`, redirect chains, refused hops, statuses, padded bodies, a flaky source. */
async function catalogServer() {
  const state = { down: false };
  const srv = await httpsServer((req) => {
    const url = new URL(req.url);
    const p = url.pathname;
    if (p === "/search.json" || p === "/other.json") return new Response(catalogText);
    if (p === "/flaky.json") return state.down ? new Response("oops", { status: 503 }) : new Response(catalogText);
    let m = /^\/hop\/(\d+)$/.exec(p);
    if (m) {
      const n = Number(m[1]);
      return new Response(null, { status: 302, headers: { location: n === 0 ? "/search.json" : `/hop/${n - 1}` } });
    }
    if (p === "/to-http") {
      return new Response(null, { status: 302, headers: { location: "http://127.0.0.2:1/evil.json" } });
    }
    if (p === "/to-loopback-http") {
      return new Response(null, { status: 301, headers: { location: "http://127.0.0.1:1/x.json" } });
    }
    m = /^\/status\/(\d+)$/.exec(p);
    if (m) return new Response(null, { status: Number(m[1]) });
    m = /^\/big\/(\d+)$/.exec(p);
    if (m) {
      const n = Number(m[1]);
      const body = '{"schema_version":1,"entries":[]}';
      return new Response(body + " ".repeat(n - body.length));
    }
    if (p === "/v2.json") return new Response('{"schema_version":2,"entries":"restructured"}');
    if (p === "/badtype.json") return new Response('{"schema_version":1,"entries":[{"slug":"a","domains":"a.test"}]}');
    return new Response("not found", { status: 404 });
  });
  return Object.assign(srv, { state });
}

/** Runs the CLI in-process with a fixed clock and the server's CA. */
async function run(args: string[], home: string, fetchFn: typeof fetch, now = NOW) {
  const io = testIo({ cwd: home, home, env: { HOME: home }, fetch: fetchFn, now: () => now });
  const code = await runCli(["atlas", ...args], io);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

function portless(text: string, url: string): string {
  return text.replaceAll(url, "https://127.0.0.1:PORT/");
}

Deno.test("atlas list - text layout of every entry (escaped, truncated, details) matches the golden file", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const r = await runMapper(["atlas", "list", "--limit", "0", "--index", `${srv.url}search.json`], {
    env: { HOME: home.path },
    denoFlags: ["--cert", srv.caFile],
  });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  await assertGolden("atlas/list-all.txt", portless(r.stdout, srv.url));
  assert.ok(!r.stdout.includes("\x1b"), "no raw escape sequence reaches the terminal");
  // The second run is served from the cache and says so.
  const again = await runMapper(["atlas", "find", "square", "--index", `${srv.url}search.json`], {
    env: { HOME: home.path },
    denoFlags: ["--cert", srv.caFile],
  });
  assert.equal(again.code, 0);
  assert.match(
    again.stdout,
    /\n2 matches\.\nCatalog cached \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Pass --refresh to re-fetch\.\n$/,
  );
  assert.equal(srv.requests(), 1);
});

Deno.test("atlas find - --json carries every entry field plus matched_on and install (golden)", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const index = `${srv.url}search.json`;
  const r = await run(["find", "com", "--json", "--index", index], home.path, srv.fetch);
  assert.equal(r.code, 0);
  await assertGolden("atlas/find-com.json", portless(r.stdout, srv.url));
  const list = await run(["list", "--json", "--limit", "2", "--index", index], home.path, srv.fetch);
  await assertGolden("atlas/list-limit2-cached.json", portless(list.stdout, srv.url));
  const amp = await run(["find", "amp<&>", "--json", "--index", index], home.path, srv.fetch);
  assert.match(amp.stdout, /"query": "amp\\u003c\\u0026\\u003e"/);
  assert.match(amp.stdout, /"name": "A \\u0026 B \\u003cC\\u003e"/);
  // Catalog text is escaped when the catalog is decoded: U+2028 arrives as the visible text \u2028, in JSON too.
  assert.match(amp.stdout, /"description": "x\\\\u2028y"/);
});

Deno.test("atlas find - text for a partial list and the limit summary (golden)", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const r = await run(["find", "pos", "--limit", "2", "--index", `${srv.url}search.json`], home.path, srv.fetch);
  assert.equal(r.code, 0);
  await assertGolden("atlas/find-pos-limit2.txt", portless(r.stdout, srv.url));
});

Deno.test("installCommand() - names a non-default catalog as one shell word so the line can be copied", () => {
  assert.equal(installCommand("stripe"), "mapper atlas add stripe");
  assert.equal(
    installCommand("stripe", "https://mirror.example/atlas/index.json"),
    "mapper atlas add stripe --index https://mirror.example/atlas/index.json",
  );
  assert.equal(
    installCommand("stripe", "my catalogs/it's.json"),
    "mapper atlas add stripe --index 'my catalogs/it'\\''s.json'",
  );
  assert.equal(installCommand("stripe", "x\u001b[31m.json"), "mapper atlas add stripe --index 'x\\x1b[31m.json'");
});

Deno.test("atlas find - no match exits 0 and names every applied constraint", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const index = `${srv.url}search.json`;
  const second = `Run mapper atlas list --index ${index} to see everything that catalog publishes, or map the site ` +
    "yourself (mapper skills install gives your agent the authoring playbook).\n";
  let r = await run(["find", "stripe.com", "--index", index], home.path, srv.fetch);
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, `No atlas entry matches "stripe.com".\n${second}`, ""]);
  r = await run(["list", "--category", "aerospace", "--index", index], home.path, srv.fetch);
  assert.equal(r.stdout, `No atlas entry is in category "aerospace".\n${second}`);
  r = await run(["find", "squareup.com", "--category", "aerospace", "--index", index], home.path, srv.fetch);
  assert.equal(r.stdout, `No atlas entry matches "squareup.com" and is in category "aerospace".\n${second}`);
  r = await run(["find", 'a"b\tc\\d é\u200bz', "--index", index], home.path, srv.fetch);
  assert.equal(r.stdout, `No atlas entry matches "a\\"b\\tc\\\\d é\\u200bz".\n${second}`);
  r = await run(["find", "  Stripe.com  ", "--category", " X ", "--json", "--index", index], home.path, srv.fetch);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual([doc.schema, doc.query, doc.category, doc.total, doc.shown, doc.results], [
    1,
    "  Stripe.com  ",
    " X ",
    0,
    0,
    [],
  ]);
});

Deno.test("atlas find - transport policy: redirects, refused hops, statuses and the body cap", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const list = (path: string) => run(["list", "--refresh", "--index", `${srv.url}${path}`], home.path, srv.fetch);
  let r = await list("hop/4"); // 5 redirects: allowed
  assert.equal(r.code, 0, r.stderr);
  r = await list("hop/5"); // 6 redirects: refused
  assert.equal(
    portless(r.stderr, srv.url),
    'mapper atlas list: GET https://127.0.0.1:PORT/hop/5: stopped after 5 redirects (the next one pointed at "https://127.0.0.1:PORT/search.json")\n',
  );
  assert.equal(r.code, 1);
  r = await list("to-http");
  assert.match(
    r.stderr,
    /redirected to a URL the atlas policy refuses: refusing "http:\/\/127\.0\.0\.2:1\/evil\.json": only HTTPS is allowed/,
  );
  r = await list("missing.json");
  assert.match(
    r.stderr,
    /^mapper atlas list: no catalog at https:\/\/127\.0\.0\.1:\d+\/missing\.json \(HTTP 404 Not Found\)/,
  );
  r = await list("status/204");
  assert.match(r.stderr, /GET https:\/\/127\.0\.0\.1:\d+\/status\/204: HTTP 204 No Content\n$/);
  r = await list(`big/${8 * 1024 * 1024}`);
  assert.equal(r.code, 0, r.stderr);
  r = await list(`big/${8 * 1024 * 1024 + 1}`);
  assert.match(r.stderr, /the response exceeds the 8388608-byte limit — refusing to use it\n$/);
  assert.equal(r.code, 1);
  r = await list("v2.json");
  assert.match(r.stderr, /the catalog has schema_version 2, but this mapper understands 1 — upgrade mapper/);
  r = await list("badtype.json");
  assert.match(r.stderr, /cannot be used: entries\[0\]\.domains: expected an array of strings, found a string/);
  for (
    const bad of ["http://example.com/i.json", "http://LOCALHOST:1/i.json", "http://127.0.0.2/i.json", "ftp://x/i.json"]
  ) {
    const before = srv.requests();
    r = await run(["list", "--index", bad], home.path, srv.fetch);
    assert.match(r.stderr, /only HTTPS is allowed|host is written in a form URL parsers read differently/, bad);
    assert.equal(r.code, 1);
    assert.equal(srv.requests(), before);
  }
});

Deno.test("atlas find - cache: hit, expired, corrupt, other source, --refresh", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const index = `${srv.url}search.json`;
  const cacheFile = join(home.path, ".mapper/atlas/index.json");
  const find = (now: number, ...extra: string[]) =>
    run(["find", "zillow", "--index", index, ...extra], home.path, srv.fetch, now);

  let r = await find(NOW); // miss → fetch → write
  assert.equal(srv.requests(), 1);
  assert.ok(!r.stdout.includes("Catalog cached"));
  const envelope = JSON.parse(await Deno.readTextFile(cacheFile));
  assert.equal(envelope.source, index);
  assert.equal(envelope.fetched_at, "2026-11-21T21:25:27.000Z");
  assert.equal(envelope.index.entries.length, 12);

  r = await find(NOW + 23.9 * HOUR); // hit
  assert.equal(srv.requests(), 1);
  assert.match(r.stdout, /Catalog cached 2026-11-21 21:25 UTC\. Pass --refresh to re-fetch\.\n$/);

  r = await find(NOW + 24 * HOUR + 5000); // expired → fetch
  assert.equal(srv.requests(), 2);
  assert.ok(!r.stdout.includes("Catalog cached"));

  r = await find(NOW + 25 * HOUR, "--refresh"); // fresh, but bypassed
  assert.equal(srv.requests(), 3);

  await Deno.writeTextFile(cacheFile, "{not json");
  r = await find(NOW + 25 * HOUR); // corrupt → miss
  assert.equal(srv.requests(), 4);
  assert.equal(r.code, 0);

  r = await run(["find", "zillow", "--index", `${srv.url}other.json`], home.path, srv.fetch, NOW + 25 * HOUR);
  assert.equal(srv.requests(), 5); // other source → miss (and it takes the slot)
  r = await find(NOW + 25 * HOUR);
  assert.equal(srv.requests(), 6);

  // A fetched_at in the future counts as fresh; a missing one is a miss.
  envelope.fetched_at = "2030-01-01T00:00:00Z";
  await Deno.writeTextFile(cacheFile, JSON.stringify(envelope));
  r = await find(NOW);
  assert.equal(srv.requests(), 6);
  assert.match(r.stdout, /Catalog cached 2030-01-01 00:00 UTC\. Pass --refresh to re-fetch\.\n$/);
  delete envelope.fetched_at;
  await Deno.writeTextFile(cacheFile, JSON.stringify(envelope));
  r = await find(NOW);
  assert.equal(srv.requests(), 7);
});

Deno.test("atlas find - falls back to a stale cache with a warning saying how old it is", async () => {
  await using srv = await catalogServer();
  await using home = await tempDir();
  const index = `${srv.url}flaky.json`;
  await run(["find", "zillow", "--index", index], home.path, srv.fetch, NOW);
  srv.state.down = true;
  const r = await run(["find", "zillow", "--index", index], home.path, srv.fetch, NOW + 30 * HOUR);
  assert.equal(r.code, 0);
  assert.match(
    r.stderr,
    /^mapper atlas: warning: could not refresh the catalog \(GET https:\/\/127\.0\.0\.1:\d+\/flaky\.json: HTTP 503 Service Unavailable\); using the cached copy from 2026-11-21 21:25 UTC, 30 hours old\n$/,
  );
  assert.match(r.stdout, /^zillow {2}Zillow\n/);
  assert.match(
    r.stdout,
    /Catalog cached 2026-11-21 21:25 UTC \(stale: the refresh failed\)\. Pass --refresh to re-fetch\.\n$/,
  );
  const json = await run(["find", "zillow", "--json", "--index", index], home.path, srv.fetch, NOW + 30 * HOUR);
  assert.deepEqual(JSON.parse(json.stdout).index.stale, true);
  // --refresh asks for a fresh catalog: no fallback.
  const refresh = await run(["find", "zillow", "--refresh", "--index", index], home.path, srv.fetch, NOW + 30 * HOUR);
  assert.equal(refresh.code, 1);
  assert.match(refresh.stderr, /HTTP 503/);
});

Deno.test("atlas find - a local index.json is read directly and never cached", async () => {
  await using home = await tempDir();
  const r = await run(["find", "https://www.zillow.com/homes", "--index", FIXTURE], home.path, () => {
    throw new Error("no network");
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^zillow {2}Zillow\n/);
  await assert.rejects(Deno.stat(join(home.path, ".mapper")));
  // Without HOME (home falls back to the working directory) nothing is cached into the project either.
  await using srv = await catalogServer();
  const noHome = testIo({ cwd: home.path, home: home.path, fetch: srv.fetch });
  assert.equal(await runCli(["atlas", "list", "--index", `${srv.url}search.json`], noHome), 0);
  await assert.rejects(Deno.stat(join(home.path, ".mapper")));
  const env = testIo({ cwd: home.path, home: home.path, env: { MAPPER_ATLAS_INDEX: FIXTURE } });
  assert.equal(await runCli(["atlas", "find", "zillow"], env), 0);
  assert.match(env.stdout.text(), /^zillow {2}Zillow\n/);
  await Deno.writeTextFile(home.join("neg.json"), '{"schema_version":-3,"entries":[{"slug":"../evil"}]}');
  const none = await run(["list", "--index", "neg.json"], home.path, fetch);
  assert.deepEqual([none.code, none.stdout], [0, 'The atlas catalog at "neg.json" publishes no entries.\n']);
  const missing = await run(["list", "--index", "nope.json"], home.path, fetch);
  assert.equal(
    missing.stderr,
    'mapper atlas list: no catalog file at "nope.json" — pass an HTTPS URL or the path of an index.json to --index\n',
  );
});

Deno.test("atlas find - an unreachable catalog is one line naming the catalog and the offline way out", async () => {
  await using home = await tempDir();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close(); // nothing listens there now: the connection is refused
  const index = `http://127.0.0.1:${port}/index.json`;
  const r = await runMapper(["atlas", "find", "shop", "--index", index], { env: { HOME: home.path } });
  assert.equal(r.stdout, "");
  assert.equal(r.code, 1);
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, new RegExp(`^mapper atlas find: cannot fetch the catalog ${index.replaceAll(".", "\\.")}: `));
  assert.match(lines[0]!, / — offline\? pass --index FILE \(a saved index\.json\), or run once online/);
  assert.doesNotMatch(lines[0]!, /error sending request|client error/);
});
