/**
 * The one-parse transport rule, black-box: `atlas add` / `atlas find` run as a user would, against two plain-HTTP
 * servers on loopback — 127.0.0.1 (allowed) and 127.0.0.2 (a "foreign" host plain HTTP must never reach). Every
 * parser confusion is refused before any byte is fetched from either, and a redirect hop is checked the same way.
 */
import assert from "node:assert/strict";
import { runMapper, tempDir } from "./_helpers.ts";
import { runInProcess } from "./_in_process.ts";
import { goodCorpus, tarGz } from "./fixtures/atlas/archive.ts";
import { httpsServer } from "./_https.ts";

/** A plain-HTTP server on `hostname` that counts requests and answers from `route`. */
function server(hostname: string, route: (url: URL) => Response) {
  const seen: string[] = [];
  const srv = Deno.serve({ hostname, port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname);
    return route(url);
  });
  return {
    seen,
    port: srv.addr.port,
    async [Symbol.asyncDispose]() {
      await srv.shutdown();
    },
  };
}

Deno.test("atlas add - a URL parsers read differently never reaches the non-loopback host it names", async () => {
  const archive = await tarGz(goodCorpus());
  const serve = (url: URL) => {
    if (url.pathname === "/good.tar.gz") return new Response(archive as Uint8Array<ArrayBuffer>);
    if (url.pathname === "/index.json") return Response.json({ entries: [] });
    return new Response("nope", { status: 404 });
  };
  await using local = server("127.0.0.1", serve);
  await using foreign = server("127.0.0.2", serve);
  await using dir = await tempDir();
  const L = local.port;
  const F = foreign.port;
  const run = (args: string[], env: Record<string, string> = {}) =>
    runMapper(args, { cwd: dir.path, env: { HOME: dir.path, ...env } });
  // The same command line through the CLI's one top-level handler, in this process: the matrix below runs 45 of
  // them, and a subprocess each (a Deno start) would be most of this file's time. Each way in runs once as a
  // subprocess too, for the whole program as a user starts it.
  const inProcess = (args: string[], env: Record<string, string> = {}) =>
    runInProcess(args, { cwd: dir.path, env: { HOME: dir.path, ...env } });

  const hostile = [
    `http://127.0.0.2:${F}\\@127.0.0.1:${L}/{slug}.tar.gz`,
    `http://127.0.0.2:${F}\\\\127.0.0.1:${L}/{slug}.tar.gz`,
    `http:\\\\127.0.0.2:${F}/{slug}.tar.gz`,
    `http://127.0.0.1:${L}@127.0.0.2:${F}/{slug}.tar.gz`,
    `http://user:pass@127.0.0.1:${L}/{slug}.tar.gz`,
    `http://127.0.0.2%40127.0.0.1:${L}/{slug}.tar.gz`,
    `http://2130706434:${F}/{slug}.tar.gz`, // 127.0.0.2 in decimal
    `http://0x7f.2:${F}/{slug}.tar.gz`,
    `http://[::ffff:127.0.0.2]:${F}/{slug}.tar.gz`,
  ];
  for (const [i, source] of hostile.entries()) {
    const target = `t${i}`;
    for (
      const [args, env] of [
        [["atlas", "add", "good", "--target", target, "--source", source], {}],
        [["atlas", "add", "good", "--target", target], { MAPPER_ATLAS_SOURCE: source }],
        [["atlas", "add", "good", "--target", target, "--index", source.replace("{slug}.tar.gz", "index.json")], {}],
        [["atlas", "find", "x", "--index", source.replace("{slug}.tar.gz", "index.json")], {}],
        [["atlas", "find", "x"], { MAPPER_ATLAS_INDEX: source.replace("{slug}.tar.gz", "index.json") }],
      ] as Array<[string[], Record<string, string>]>
    ) {
      const r = await (i === 0 ? run : inProcess)(args, env);
      const what = `${args.join(" ")} ${JSON.stringify(env)}`;
      assert.equal(r.code, 1, `${what}: ${r.stderr}`);
      assert.equal(r.stdout, "", what);
      assert.match(r.stderr, /^mapper atlas (add|find): refusing "[^\n]*": [^\n]+ — [^\n]+\n$/, what);
      assert.ok(!r.stderr.includes("at "), `no stack trace: ${r.stderr}`);
    }
    await assert.rejects(Deno.lstat(dir.join(target)), Deno.errors.NotFound);
  }
  assert.deepEqual(foreign.seen, [], "nothing was fetched from 127.0.0.2");
  assert.deepEqual(local.seen, [], "nothing was fetched at all: refused before any I/O");

  // The control: the same servers and command do install from the loopback host written plainly, and the lock
  // records the URL as fetched.
  const ok = await run(["atlas", "add", "good", "--target", "fine", "--source", `http://127.0.0.1:${L}/{slug}.tar.gz`]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(local.seen, ["/good.tar.gz"]);
  const lock = JSON.parse(await Deno.readTextFile(dir.join("fine/atlas-lock.json")));
  assert.equal(lock.source, `http://127.0.0.1:${L}/good.tar.gz`);
});

Deno.test("atlas add - a redirect hop to a URL parsers read differently is refused before it is fetched", async () => {
  let foreignPort = 0;
  await using foreign = server("127.0.0.2", () => new Response("should never be asked"));
  foreignPort = foreign.port;
  await using local = server("127.0.0.1", (url) => {
    const hops: Record<string, string> = {
      "/a.tar.gz": `/\\127.0.0.2:${foreignPort}/a.tar.gz`,
      "/b.tar.gz": `//127.0.0.2:${foreignPort}/b.tar.gz`,
      "/c.tar.gz": `http://2130706434:${foreignPort}/c.tar.gz`,
      "/d.tar.gz": `http://127.0.0.1:1@127.0.0.2:${foreignPort}/d.tar.gz`,
    };
    const to = hops[url.pathname];
    return to ? new Response(null, { status: 302, headers: { location: to } }) : new Response("", { status: 404 });
  });
  await using dir = await tempDir();
  for (const slug of ["a", "b", "c", "d"]) {
    const r = await runMapper(
      ["atlas", "add", slug, "--target", slug, "--source", `http://127.0.0.1:${local.port}/{slug}.tar.gz`],
      { cwd: dir.path, env: { HOME: dir.path } },
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^mapper atlas add: GET "?http:\/\/127\.0\.0\.1:\d+\/.\.tar\.gz"?: redirected to a URL the atlas policy refuses: refusing "/,
    );
    assert.equal(r.stderr.split("\n").length, 2, r.stderr);
  }
  assert.deepEqual(foreign.seen, []);
  assert.deepEqual(local.seen, ["/a.tar.gz", "/b.tar.gz", "/c.tar.gz", "/d.tar.gz"]);
});

Deno.test("atlas add - an HTTPS source that redirects to a plain-HTTP loopback service is refused before it is asked", async () => {
  const archive = await tarGz(goodCorpus());
  await using local = server("127.0.0.1", () => new Response(archive as Uint8Array<ArrayBuffer>));
  await using secure = await httpsServer((req) =>
    Response.redirect(`http://127.0.0.1:${local.port}${new URL(req.url).pathname}`, 302)
  );
  await using dir = await tempDir();
  const r = await runMapper(
    ["atlas", "add", "shop", "--target", "shop", "--source", `${secure.url}{slug}.tar.gz`],
    { cwd: dir.path, env: { HOME: dir.path }, denoFlags: ["--cert", secure.caFile] },
  );
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    `mapper atlas add: GET ${secure.url}shop.tar.gz: redirected to a URL the atlas policy refuses: refusing "http://127.0.0.1:${local.port}/shop.tar.gz": an HTTPS download never follows a redirect to plain HTTP\n`,
  );
  assert.equal(r.code, 1);
  assert.deepEqual(local.seen, []);
  assert.equal(secure.requests(), 1);
  await assert.rejects(Deno.lstat(`${dir.path}/shop`), Deno.errors.NotFound);
});
