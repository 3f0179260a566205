/**
 * `mapper export` as a user runs it, and attacked: the JSON equals what the corpus service serves on `/mapper`; a
 * corpus with errors is refused; `-o` writes atomically without following a planted link; `--url` POSTs to a real
 * HTTPS server trusted through a throwaway CA — and refuses an untrusted certificate, a redirect (the target never
 * hears from it), plain HTTP off loopback, credentials in the URL, and reads at most 64 KiB of a huge reply.
 * Secrets in the URL's query are never printed.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";
import { runMapper, tempDir } from "./_helpers.ts";
import { httpsServer } from "./_https.ts";
import { startCorpusService } from "../src/corpus/mod.ts";

const HOME = `version: 1
views:
  - name: Home
    route: /
    description: authoring-only text <b>
    components:
      - name: Buy
        selector: button.buy
  - name: Product
    route: /p/:id
`;

async function withCorpus(run: (dir: { path: string; join: (...p: string[]) => string }) => Promise<void>) {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(dir.join(".mapper", "home.yaml"), HOME);
  await run(dir);
}

const exportCmd = (args: string[], cwd: string, denoFlags: string[] = []) =>
  runMapper(["export", ...args], { cwd, env: { HOME: cwd }, denoFlags });

/** What the corpus service (serve-mapper's) serves on /mapper for that directory, without its version. */
async function served(cwd: string): Promise<unknown> {
  await using service = await startCorpusService({
    dir: `${cwd}/.mapper`,
    site: basename(cwd),
    log: () => {},
    watch: false,
  });
  const res = service.handle(new Request("http://127.0.0.1/mapper"))!;
  const { version: _version, ...rest } = await res.json();
  return rest;
}

const withoutVersion = (text: string) => {
  const { version, ...rest } = JSON.parse(text);
  assert.equal(typeof version, "number");
  return rest;
};

Deno.test("export - prints the corpus exactly as serve-mapper serves it; -o writes the same bytes, 0600", async () => {
  await withCorpus(async (dir) => {
    const r = await exportCmd([], dir.path);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.deepEqual(withoutVersion(r.stdout), await served(dir.path));
    // Terminal-safe on stdout: `<` is written \u003c (same value).
    assert.ok(!r.stdout.includes("<"), r.stdout);
    const o = await exportCmd(["-o", "corpus.json"], dir.path);
    assert.equal(o.code, 0, o.stderr);
    assert.equal(o.stdout, `saved corpus.json (${(await Deno.stat(dir.join("corpus.json"))).size} bytes, 2 views)\n`);
    const written = await Deno.readTextFile(dir.join("corpus.json"));
    assert.deepEqual(withoutVersion(written), await served(dir.path));
    assert.ok(!written.endsWith("\n"), "the file is the served body, byte for byte");
    if (Deno.build.os !== "windows") assert.equal((await Deno.stat(dir.join("corpus.json"))).mode! & 0o777, 0o600);
  });
});

Deno.test({
  name: "export - -o replaces a symbolic link planted at the path; the link's target is never written",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withCorpus(async (dir) => {
      await Deno.writeTextFile(dir.join("victim"), "precious");
      await Deno.symlink(dir.join("victim"), dir.join("corpus.json"));
      const r = await exportCmd(["-o", "corpus.json"], dir.path);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await Deno.readTextFile(dir.join("victim")), "precious");
      assert.equal((await Deno.lstat(dir.join("corpus.json"))).isSymlink, false);
    });
  },
});

Deno.test("export - a corpus with errors is refused, listing them, and nothing is written or sent", async () => {
  await withCorpus(async (dir) => {
    await Deno.writeTextFile(
      dir.join(".mapper", "bad.yaml"),
      "version: 1\nviews:\n  - name: Bad\n    route: /b\n    components:\n      - name: X\n        selector: 'a['\n",
    );
    await using srv = await httpsServer(() => new Response("ok"));
    for (const args of [["-o", "corpus.json"], ["--url", `${srv.url}up`]]) {
      const r = await exportCmd(args, dir.path, ["--cert", srv.caFile]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /bad\.yaml:7:19: .*a\[.* \[selector-invalid\]\n/);
      assert.match(r.stderr, /mapper export: refusing to export ".*": 1 error \(listed above\) — fix them/);
    }
    await assert.rejects(Deno.lstat(dir.join("corpus.json")), Deno.errors.NotFound);
    assert.equal(srv.requests(), 0);
  });
});

Deno.test("export - --url POSTs the JSON over HTTPS with the certificate checked; the token in the URL is not printed", async () => {
  await withCorpus(async (dir) => {
    const got: Array<{ method: string; type: string | null; body: string; url: string }> = [];
    await using srv = await httpsServer(async (req) => {
      got.push({ method: req.method, type: req.headers.get("content-type"), body: await req.text(), url: req.url });
      return new Response('{"ok":true}', { status: 201, statusText: "Created" });
    });
    const url = `${srv.url}corpora/up?token=s3cr3t&team=web`;
    const r = await exportCmd(["--url", url], dir.path, ["--cert", srv.caFile]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `^sent \\d+(\\.\\d)? (B|KB) \\(2 views\\) to ${srv.url}corpora/up\\?token=REDACTED&team=web → 201 Created\\n$`,
      ),
    );
    assert.ok(!(r.stdout + r.stderr).includes("s3cr3t"));
    assert.equal(got.length, 1);
    assert.equal(got[0]!.method, "POST");
    assert.equal(got[0]!.type, "application/json");
    assert.equal(got[0]!.url, url, "sent where asked, token included");
    assert.deepEqual(withoutVersion(got[0]!.body), await served(dir.path));
    // Without the CA the certificate is not trusted: nothing is sent (no switch turns the check off).
    const untrusted = await exportCmd(["--url", url], dir.path);
    assert.equal(untrusted.code, 1);
    assert.match(untrusted.stderr, /^mapper export: POST .*token=REDACTED.*: .*(certificate|UnknownIssuer)/i);
    assert.ok(!untrusted.stderr.includes("s3cr3t"));
    assert.equal(got.length, 1);
  });
});

Deno.test("export - a redirect is never followed: 307 fails naming where it pointed, the target hears nothing", async () => {
  await withCorpus(async (dir) => {
    let hit = 0;
    await using target = await httpsServer(() => {
      hit++;
      return new Response("stolen", { status: 201 });
    });
    await using srv = await httpsServer(() =>
      new Response(null, { status: 307, headers: { location: `${target.url}collect?key=k` } })
    );
    const r = await exportCmd(["--url", `${srv.url}up`], dir.path, ["--cert", srv.caFile]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      `mapper export: POST ${srv.url}up: the server answered 307 Temporary Redirect (a redirect to ` +
        `https://127.0.0.1:${target.port}); redirects are never followed — send it to the final address yourself, ` +
        `if you trust it\n`,
    );
    assert.equal(hit, 0);
  });
});

Deno.test("export - refused before anything is read or sent: plain HTTP off loopback, credentials, -o with --url", async () => {
  await withCorpus(async (dir) => {
    await using srv = await httpsServer(() => new Response("ok"));
    const http = await exportCmd(["--url", "http://example.com/up?token=abc"], dir.path);
    assert.equal(http.code, 1);
    assert.equal(
      http.stderr,
      'mapper export: refusing "http://example.com/up?token=REDACTED": only HTTPS is allowed (plain HTTP only for ' +
        "localhost, 127.0.0.1 and [::1]) — use an https:// URL, or plain http:// to 127.0.0.1 or [::1]\n",
    );
    // The atlas lets plain HTTP reach the name localhost; the corpus goes in clear text only to a literal address.
    const named = await exportCmd(["--url", `http://localhost:${srv.port}/up`], dir.path);
    assert.deepEqual([named.code, named.stdout], [1, ""]);
    assert.equal(
      named.stderr,
      `mapper export: refusing "http://localhost:${srv.port}/up": plain HTTP is sent only to a literal loopback ` +
        "address, not to the name localhost — use an https:// URL, or plain http:// to 127.0.0.1 or [::1]\n",
    );
    for (const host of ["LOCALHOST", "localhost.", "127.1", "0x7f000001"]) {
      const other = await exportCmd(["--url", `http://${host}:${srv.port}/up`], dir.path);
      assert.deepEqual([other.code, other.stdout], [1, ""], host);
      assert.match(other.stderr, /^mapper export: refusing "http:\/\//, host);
    }
    const creds = await exportCmd(["--url", `https://ada:hunter2@127.0.0.1:${srv.port}/up`], dir.path, [
      "--cert",
      srv.caFile,
    ]);
    assert.equal(creds.code, 1);
    assert.match(creds.stderr, /credentials/);
    assert.ok(!creds.stderr.includes("hunter2"), creds.stderr);
    const both = await exportCmd(["-o", "x.json", "--url", srv.url], dir.path);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^mapper export: -o and --url conflict — /);
    assert.equal(srv.requests(), 0);
    await assert.rejects(Deno.lstat(dir.join("x.json")), Deno.errors.NotFound);
  });
});

Deno.test("export - a huge reply is read only up to 64 KiB; a failure shows the start of the reply", async () => {
  await withCorpus(async (dir) => {
    let status = 200;
    await using srv = await httpsServer(() => {
      // 64 MiB, streamed: reading it whole would take long and a lot of memory.
      let left = 1024;
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (left-- <= 0) controller.close();
          else controller.enqueue(chunk);
        },
      });
      return new Response(body, { status });
    });
    const ok = await exportCmd(["--url", `${srv.url}up`], dir.path, ["--cert", srv.caFile]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /→ 200 OK\n$/);
    assert.equal(ok.stderr, "note: the reply was longer than 64 KiB; the rest was not read\n");
    status = 500;
    const failed = await exportCmd(["--url", `${srv.url}up`], dir.path, ["--cert", srv.caFile]);
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr,
      `mapper export: POST ${srv.url}up → 500 Internal Server Error: ${"a".repeat(200)} — the corpus was not ` +
        "accepted; check the URL and what the server expects\n",
    );
  });
});

Deno.test("export - plain HTTP reaches a literal loopback address; an HTTPS server redirecting to it is not followed", async () => {
  await withCorpus(async (dir) => {
    const heard: string[] = [];
    await using plain = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
      heard.push(`${req.method} ${new URL(req.url).pathname} ${(await req.text()).length > 0}`);
      return new Response("ok", { status: 200 });
    });
    const direct = await exportCmd(["--url", `http://127.0.0.1:${plain.addr.port}/in`], dir.path);
    assert.equal(direct.code, 0, direct.stderr);
    assert.match(direct.stdout, new RegExp(`^sent .* to http://127\\.0\\.0\\.1:${plain.addr.port}/in → 200 OK\\n$`));
    assert.deepEqual(heard, ["POST /in true"]);
    // A hostile HTTPS server answering with a downgrade to plain HTTP: refused, the plain server hears nothing more.
    await using srv = await httpsServer(() =>
      new Response(null, { status: 308, headers: { location: `http://127.0.0.1:${plain.addr.port}/stolen` } })
    );
    const r = await exportCmd(["--url", `${srv.url}up`], dir.path, ["--cert", srv.caFile]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /answered 308 .*redirects are never followed/);
    assert.deepEqual(heard, ["POST /in true"]);
  });
});
