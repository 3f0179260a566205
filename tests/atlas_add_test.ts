/**
 * `mapper atlas add`: order of checks, the hostile-archive suite (each refused with its own message, exit 1,
 * nothing written), the lock file and `atlas verify`. Archives are built by the tests and served by a real loopback
 * HTTPS server with a throwaway CA.
 */
import assert from "node:assert/strict";
import { runCli } from "../src/cli/run.ts";
import { testIo } from "../src/io.ts";
import { assertGolden, listFiles, runMapper, tempDir } from "./_helpers.ts";
import { httpsServer } from "./_https.ts";
import { concat, goodCorpus, gzip, type Member, tar, tarGz } from "./fixtures/atlas/archive.ts";

const MiB = 1024 * 1024;

/** A server answering `/a/<name>.tar.gz` from a map; anything else 404. */
async function archiveServer(archives: Map<string, Uint8Array>) {
  return await httpsServer((req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    const m = /^\/a\/(.+)\.tar\.gz$/.exec(path);
    const body = m ? archives.get(m[1] ?? "") : undefined;
    if (!body) return new Response("not found", { status: 404 });
    return new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/gzip" } });
  });
}

/** Runs `mapper atlas add` in-process against the server. */
async function add(args: string[], cwd: string, fetchFn: typeof fetch) {
  const io = testIo({ cwd, home: cwd, fetch: fetchFn, env: {} });
  const code = await runCli(["atlas", "add", ...args], io);
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

const tests: Array<[string, () => Promise<Uint8Array> | Uint8Array, string]> = [
  [
    "zip-slip",
    () => tarGz([{ name: ".mapper/../../../etc/passwd", data: "x" }]),
    'unsafe path ".mapper/../../../etc/passwd"',
  ],
  ["absolute", () => tarGz([{ name: "/etc/passwd", data: "x" }]), 'unsafe path "/etc/passwd": it is absolute'],
  ["backslash", () => tarGz([{ name: ".mapper/..\\..\\evil.yaml", data: "x" }]), "it contains a backslash"],
  ["control", () => tarGz([{ name: ".mapper/\x1b[2Kconfig.yaml", data: "x" }]), "it contains a control character"],
  ["emptyseg", () => tarGz([{ name: ".mapper//config.yaml", data: "x" }]), "it has an empty segment"],
  ["symlink", () => tarGz([{ name: ".mapper/escape", type: "2", linkname: "/etc" }]), "which is a symbolic link"],
  ["hardlink", () => tarGz([{ name: ".mapper/h", type: "1", linkname: "/etc/passwd" }]), "which is a hard link"],
  ["device", () => tarGz([{ name: ".mapper/dev", type: "3" }]), "which is a character device"],
  ["fifo", () => tarGz([{ name: ".mapper/fifo", type: "6" }]), "which is a FIFO"],
  [
    "duplicate",
    () => tarGz([{ name: ".mapper/config.yaml", data: "a: 1\n" }, { name: ".mapper/config.yaml", data: "a: 2\n" }]),
    'publishes "config.yaml" twice',
  ],
  [
    "casecollide",
    () => tarGz([{ name: ".mapper/Config.yaml", data: "a: 1\n" }, { name: ".mapper/config.yaml", data: "a: 2\n" }]),
    'publishes "Config.yaml" and "config.yaml", which collide on case-insensitive file systems',
  ],
  [
    "nfccollide",
    () =>
      tarGz([{ name: ".mapper/caf\u00e9.yaml", data: "a: 1\n" }, { name: ".mapper/cafe\u0301.yaml", data: "a: 2\n" }]),
    "twice in different Unicode normalisations, which collide on Unicode-normalising file systems",
  ],
  [
    "filedir",
    () => tarGz([{ name: ".mapper/views", data: "x" }, { name: ".mapper/views/a.yaml", data: "a: 1\n" }]),
    'publishes "views" both as a file and as a directory',
  ],
  [
    "dircollide",
    () => tarGz([{ name: ".mapper/Views/a.yaml", data: "a: 1\n" }, { name: ".mapper/views/b.yaml", data: "b: 1\n" }]),
    'publishes "Views" and "views", which collide on case-insensitive file systems',
  ],
  ["contiguous", () => tarGz([{ name: ".mapper/c.yaml", type: "7", data: "a: 1\n" }]), "which is a contiguous file"],
  [
    "gnulongescape",
    () => tarGz([{ name: ".mapper/ok.yaml", data: "a: 1\n", gnuLongName: ".mapper/../../escape.yaml" }]),
    'unsafe path ".mapper/../../escape.yaml": it has a ".." segment',
  ],
  [
    "session",
    () => tarGz([...goodCorpus(), { name: ".mapper/.session", data: '{"daemonPid": 1, "chromePid": 1}' }]),
    'publishes ".session", a name mapper reserves for its own record (.session: the running browser session\'s record)',
  ],
  [
    "sessioncase",
    () => tarGz([...goodCorpus(), { name: ".mapper/.Session", data: "{}" }]),
    'publishes ".Session", a name mapper reserves for its own record (.session:',
  ],
  [
    "sessiondir",
    () => tarGz([...goodCorpus(), { name: ".mapper/.session/", type: "5" }]),
    'publishes ".session", a name mapper reserves for its own record (.session:',
  ],
  [
    "lockfile",
    () => tarGz([...goodCorpus(), { name: ".mapper/Atlas-Lock.json", data: "{}" }]),
    'publishes "Atlas-Lock.json", a name mapper reserves for its own record',
  ],
  ["winreserved", () => tarGz([{ name: ".mapper/views/CON.yaml", data: "a: 1\n" }]), "is a reserved name on Windows"],
  [
    "paxescape",
    () => tarGz([{ name: ".mapper/ok.yaml", data: "a: 1\n", pax: { path: ".mapper/../../escape.yaml" } }]),
    'unsafe path ".mapper/../../escape.yaml"',
  ],
  ["paxglobal", () => tarGz([{ name: "pax_global_header", type: "g", data: "" }]), "PAX global header"],
  [
    "oversize",
    () => tarGz([{ name: ".mapper/big.yaml", data: new Uint8Array(4 * MiB + 1) }]),
    'publishes "big.yaml" over the 4194304-byte file limit',
  ],
  [
    "lyingheader",
    async () => {
      const t = tar([{ name: ".mapper/a.yaml", data: "a: 1\n", headerSize: 5000 }]);
      return await gzip(t.subarray(0, 1024));
    },
    'the archive ends in the middle of ".mapper/a.yaml"',
  ],
  [
    "lyingsmall",
    () =>
      tarGz([
        { name: ".mapper/a.yaml", data: "a: 1\n".repeat(300), headerSize: 10 },
        { name: ".mapper/b.yaml", data: "b: 1\n" },
      ]),
    'a tar header after ".mapper/a.yaml" is corrupt (bad checksum)',
  ],
  [
    "n513",
    () =>
      tarGz([
        { name: ".mapper/", type: "5" },
        ...Array.from({ length: 512 }, (_, i): Member => ({ name: `.mapper/f${i}.txt`, data: "x" })),
      ]),
    "holds more than 512 members",
  ],
  [
    "bomb",
    () =>
      tarGz(
        Array.from(
          { length: 9 },
          (_, i): Member => ({ name: `.mapper/big${i}.txt`, data: new Uint8Array(4 * MiB - 1024) }),
        ),
      ),
    "decompresses to more than 33554432 bytes",
  ],
  [
    "badcrc",
    async () => {
      const gz = await tarGz(goodCorpus());
      const bad = gz.slice();
      const i = bad.length - 8;
      bad[i] = (bad[i] ?? 0) ^ 0xff;
      return bad;
    },
    "the gzip stream is corrupt",
  ],
  ["notgzip", () => new TextEncoder().encode("<!doctype html><title>Oops</title>"), "is not gzip-compressed"],
  ["nottar", () => gzip(new TextEncoder().encode("just some text\n".repeat(100))), "is not a tar archive"],
  ["rootfile", () => tarGz([{ name: ".mapper", data: "x" }]), "publishes .mapper/ as a file"],
  [
    "outside",
    () => tarGz([...goodCorpus(), { name: "README.md", data: "x" }]),
    'publishes "README.md", which is not under .mapper/',
  ],
  [
    "nofiles",
    () => tarGz([{ name: ".mapper/", type: "5" }, { name: ".mapper/views/", type: "5" }]),
    "publishes no files under .mapper/",
  ],
  ["empty", () => gzip(new Uint8Array(1024)), "publishes no files under .mapper/"],
  [
    "badyaml",
    () =>
      tarGz([{ name: ".mapper/config.yaml", data: "a: 1\n" }, {
        name: ".mapper/views/checkout.yaml",
        data: "views:\n\t- x\n",
      }]),
    "publishes a corpus that does not load: deep/er/.mapper/views/checkout.yaml:2: Tabs are not allowed as indentation",
  ],
  [
    "badtype",
    () => tarGz([{ name: ".mapper/v.yaml", data: 'views: "not a list"\n' }]),
    "publishes a corpus that does not load: deep/er/.mapper/v.yaml:1",
  ],
];

Deno.test("atlas add - refuses every hostile archive with its own message, exit 1, nothing written", async (t) => {
  const archives = new Map<string, Uint8Array>();
  for (const [name, build] of tests) archives.set(name, await build());
  await using srv = await archiveServer(archives);
  const source = `${srv.url}a/{slug}.tar.gz`;
  const seen = new Set<string>();
  for (const [name, , expected] of tests) {
    await t.step(name, async () => {
      await using dir = await tempDir();
      // A nested target: the parents this run creates must go too.
      const r = await add([name, "--source", source, "--target", "deep/er/.mapper"], dir.path, srv.fetch);
      assert.equal(r.stdout, "");
      assert.ok(r.stderr.includes(expected), `stderr for ${name}: ${r.stderr}`);
      assert.ok(r.stderr.startsWith(`mapper atlas add: atlas entry "${name}"`), r.stderr);
      assert.ok(!r.stderr.includes(".mapper-add-"), "the staging path must not leak");
      assert.equal(r.code, 1);
      assert.deepEqual(await Array.fromAsync(Deno.readDir(dir.path)), [], "nothing may be left behind");
      if (Deno.env.get("SHOW_MESSAGES")) Deno.stderr.writeSync(new TextEncoder().encode(r.stderr));
      const line = r.stderr.split("\n")[0] ?? "";
      assert.ok(!seen.has(line), `message not distinct: ${line}`);
      seen.add(line);
    });
  }
});

Deno.test("atlas add - installs a good archive, prints its sha256 and writes atlas-lock.json; verify finds drift", async () => {
  const gz = await tarGz(goodCorpus());
  await using srv = await archiveServer(new Map([["good", gz], ["legacy", await tarGz(goodCorpus(".sightmap"))]]));
  await using dir = await tempDir();
  const source = `${srv.url}a/{slug}.tar.gz`;
  const r = await add(["good", "--source", source, "--target", "./x/y/"], dir.path, srv.fetch);
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  const sha = Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", gz as Uint8Array<ArrayBuffer>)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  assert.ok(r.stdout.includes(`Archive sha256 ${sha} `), r.stdout);
  await assertGolden("atlas/add-good.txt", r.stdout.replace(sha, "<sha256>"));
  assert.deepEqual(await listFiles(dir.path), [
    "x/y/README.md",
    "x/y/atlas-lock.json",
    "x/y/components.yaml",
    "x/y/config.yaml",
    "x/y/views/checkout.yaml",
  ]);
  const lock = JSON.parse(await Deno.readTextFile(dir.join("x/y/atlas-lock.json")));
  assert.equal(lock.slug, "good");
  assert.equal(lock.source, `${srv.url}a/good.tar.gz`);
  assert.equal(lock.archive_sha256, sha);
  assert.deepEqual(Object.keys(lock.files), ["README.md", "components.yaml", "config.yaml", "views/checkout.yaml"]);

  const verify = (args: string[]) => {
    const io = testIo({ cwd: dir.path, home: dir.path });
    return runCli(["atlas", "verify", ...args], io).then((code) => ({
      code,
      out: io.stdout.text(),
      err: io.stderr.text(),
    }));
  };
  const none = await verify(["--target", "x"]);
  assert.equal(
    none.err,
    "mapper atlas verify: no atlas-lock.json in \"x\" — only corpora installed with 'mapper atlas add' can be verified\n",
  );
  assert.equal(none.code, 1);
  // Every printed next step works when pasted: the verify command it printed finds the install clean.
  const printed = /check with (mapper atlas verify[^)]*)\)/.exec(r.stdout)?.[1] ?? "";
  assert.equal(printed, "mapper atlas verify --target ./x/y/");
  assert.equal((await verify(printed.split(" ").slice(3))).code, 0);
  assert.match(r.stdout, /\n {2}mapper serve-mapper --dir \.\/x\/y\/\n$/);
  // mapper's own files at the root (a running session's .session) are not drift.
  await Deno.writeTextFile(dir.join("x/y/.session"), "{}");
  const clean = await verify(["--target", "x/y"]);
  assert.equal(clean.code, 0, clean.out + clean.err);
  assert.match(clean.out, /^x\/y matches atlas-lock\.json: good, 4 files, archive sha256 [0-9a-f]{64}, installed /);
  await Deno.writeTextFile(dir.join("x/y/config.yaml"), "site: evil\n");
  await Deno.remove(dir.join("x/y/README.md"));
  await Deno.writeTextFile(dir.join("x/y/extra.yaml"), "a: 1\n");
  const drift = await verify(["--target", "x/y"]);
  assert.equal(drift.out, "  missing   README.md\n  modified  config.yaml\n  added     extra.yaml\n");
  assert.equal(
    drift.err,
    "mapper atlas verify: x/y drifted from atlas-lock.json (3 files changed) — keep your edits, or remove x/y and " +
      `reinstall: mapper atlas add good --target x/y --source '${srv.url}a/{slug}.tar.gz'\n`,
  );
  assert.equal(drift.code, 1);
  const json = await verify(["--target", "x/y", "--json"]);
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.out).drift, [
    { path: "README.md", change: "missing" },
    { path: "config.yaml", change: "modified" },
    { path: "extra.yaml", change: "added" },
  ]);

  // --json: the same facts as one document, next steps included.
  const asJson = await add(["good", "--source", source, "--target", "j", "--json"], dir.path, srv.fetch);
  assert.equal(asJson.code, 0, asJson.stderr);
  assert.equal(asJson.stderr, "");
  const doc = JSON.parse(asJson.stdout);
  assert.deepEqual(Object.keys(doc), ["schema", "slug", "target", "source", "archive_sha256", "lock", "files", "next"]);
  assert.equal(doc.source, `${srv.url}a/good.tar.gz`);
  assert.equal(doc.archive_sha256, sha);
  assert.equal(doc.lock, "j/atlas-lock.json");
  assert.deepEqual(doc.files.map((f: { path: string }) => f.path), [
    "j/README.md",
    "j/components.yaml",
    "j/config.yaml",
    "j/views/checkout.yaml",
  ]);
  assert.deepEqual(doc.next, ["mapper serve-mapper --dir j", "mapper atlas verify --target j"]);

  // The public atlas's `.sightmap/` prefix is accepted too.
  const legacy = await add(["legacy", "--source", source, "--target", "legacy"], dir.path, srv.fetch);
  assert.equal(legacy.code, 0, legacy.stderr);
});

Deno.test("atlas add - the load gate skips review/ and snapshots/ and lets semantic problems through", async () => {
  const gz = await tarGz([
    { name: ".mapper/config.yaml", data: "" },
    { name: ".mapper/views.yaml", data: "views:\n  - route: /x\n    components:\n      - $ref: Missing\n" },
    { name: ".mapper/review/draft.yaml", data: "a:\n\t- broken\n" },
    { name: ".mapper/views/snapshots/s.yml", data: "[unclosed\n" },
  ]);
  await using srv = await archiveServer(new Map([["lenient", gz]]));
  await using dir = await tempDir();
  const r = await add(["lenient", "--source", `${srv.url}a/{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Installed lenient: 4 files → \.mapper\. Next:/);
});

Deno.test("atlas add - --expect-sha256 refuses a mismatch and writes nothing", async () => {
  await using srv = await archiveServer(new Map([["good", await tarGz(goodCorpus())]]));
  await using dir = await tempDir();
  const r = await add(
    ["good", "--source", `${srv.url}a/{slug}.tar.gz`, "--expect-sha256", "0".repeat(64)],
    dir.path,
    srv.fetch,
  );
  assert.match(r.stderr, /^mapper atlas add: archive for "good" has sha256 [0-9a-f]{64}, but --expect-sha256 is 0{64}/);
  assert.equal(r.code, 1);
  assert.deepEqual(await listFiles(dir.path), []);
});

Deno.test("atlas add - an unpublished slug (404) points at find and the catalog in use", async () => {
  await using srv = await archiveServer(new Map());
  await using dir = await tempDir();
  const source = `${srv.url}a/{slug}.tar.gz`;
  const r = await add(["nope", "--source", source, "--target", "deep/er/t"], dir.path, srv.fetch);
  assert.equal(
    r.stderr,
    `mapper atlas add: no corpus published for slug "nope" — check the slug and the --source template "${source}", or search: mapper atlas find <domain>\n`,
  );
  assert.equal(r.code, 1);
  assert.deepEqual(await listFiles(dir.path), []);
  const index = `${srv.url}a/index.json`;
  const viaIndex = await add(["nope", "--index", index], dir.path, srv.fetch);
  assert.equal(
    viaIndex.stderr,
    `mapper atlas add: no corpus published for slug "nope" — search that catalog: mapper atlas find <domain> --index "${index}"\n`,
  );
  assert.equal(viaIndex.code, 1);
  assert.deepEqual(await listFiles(dir.path), []);
});

Deno.test("notPublishedHint() - the public gallery only when no catalog override is in effect", async () => {
  const { notPublishedHint } = await import("../src/atlas/install.ts");
  const { testIo } = await import("../src/io.ts");
  assert.equal(
    notPublishedHint({}, testIo()),
    "browse https://sightmap.org/atlas, or search for the site: mapper atlas find <domain>",
  );
  assert.equal(
    notPublishedHint({}, testIo({ env: { MAPPER_ATLAS_INDEX: "https://x/index.json" } })),
    "search that catalog (MAPPER_ATLAS_INDEX): mapper atlas find <domain>",
  );
});

Deno.test("atlas add - refuses a non-empty target before any fetch", async () => {
  await using srv = await archiveServer(new Map([["good", await tarGz(goodCorpus())]]));
  await using dir = await tempDir();
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(dir.join(".mapper/.gitkeep"), "");
  const r = await add(["good", "--source", `${srv.url}a/{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(
    r.stderr,
    'mapper atlas add: install target ".mapper" already exists and is not empty — delete it and run this again to install over it\n',
  );
  assert.equal(r.code, 1);
  assert.equal(srv.requests(), 0);
  // Offline, with the default source: the same refusal (no DNS, no network).
  const offline = await runMapper(["atlas", "add", "good"], { cwd: dir.path, env: { HOME: dir.path } });
  assert.equal(offline.stderr, r.stderr);
  assert.equal(offline.code, 1);
});

Deno.test("atlas add - checks the slug, the target and the template in the documented order", async () => {
  await using dir = await tempDir();
  const io = () => testIo({ cwd: dir.path, home: dir.path, fetch: () => Promise.reject(new Error("no network")) });
  const run = async (args: string[]) => {
    const i = io();
    const code = await runCli(["atlas", "add", ...args], i);
    return { code, err: i.stderr.text() };
  };
  let r = await run(["../x", "--source", "http://evil.example/{slug}"]);
  assert.match(r.err, /^mapper atlas add: invalid slug "\.\.\/x": contains a path separator/);
  assert.equal(r.code, 2);
  r = await run(["ok", "--target", ""]);
  assert.match(r.err, /^mapper atlas add: --target is empty/);
  r = await run(["ok", "--source", "https://mirror.example/all.tar.gz"]);
  assert.match(r.err, /has no \{slug\} placeholder/);
  r = await run(["ok", "--source", "http://evil.example/{slug}.tar.gz"]);
  assert.match(r.err, /^mapper atlas add: refusing "http:\/\/evil\.example\/ok\.tar\.gz": only HTTPS is allowed/);
  assert.equal(r.code, 1);
  await Deno.writeTextFile(dir.join("afile"), "x");
  r = await run(["ok", "--target", "afile"]);
  assert.match(r.err, /^mapper atlas add: install target "afile" exists and is not a directory/);
  r = await run(["ok", "--expect-sha256", "xyz"]);
  assert.match(r.err, /--expect-sha256 must be 64 hexadecimal digits/);
  // With a non-empty target, every earlier check still decides first (the target is step 5).
  await Deno.mkdir(dir.join(".mapper"));
  await Deno.writeTextFile(dir.join(".mapper/config.yaml"), "");
  r = await run(["../x"]);
  assert.match(r.err, /^mapper atlas add: invalid slug/);
  r = await run(["ok", "--expect-sha256", "xyz"]);
  assert.match(r.err, /^mapper atlas add: --expect-sha256 must be/);
  r = await run(["ok", "--source", "https://mirror.example/all.tar.gz"]);
  assert.match(r.err, /has no \{slug\} placeholder/);
  r = await run(["ok", "--source", "http://evil.example/{slug}.tar.gz"]);
  assert.match(r.err, /^mapper atlas add: refusing "http:\/\/evil\.example\/ok\.tar\.gz"/);
  r = await run(["ok"]);
  assert.match(r.err, /^mapper atlas add: install target "\.mapper" already exists and is not empty/);
  // A symbolic link is refused whatever it points at (the rename would replace the link, not fill its directory).
  await Deno.mkdir(dir.join("empty"));
  await Deno.symlink(dir.join("empty"), dir.join("link"));
  r = await run(["ok", "--target", "link"]);
  assert.equal(
    r.err,
    'mapper atlas add: install target "link" is a symbolic link — pass the real directory path with --target\n',
  );
  assert.equal(r.code, 1);
});

Deno.test("atlas add - accepts the limits exactly: a 4 MiB file and 512 members", async () => {
  await using srv = await archiveServer(
    new Map([
      ["file4mib", await tarGz([{ name: ".mapper/big.txt", data: new Uint8Array(4 * MiB).fill(0x0a) }])],
      [
        "n512",
        await tarGz([
          { name: ".mapper/", type: "5" },
          ...Array.from({ length: 511 }, (_, i): Member => ({ name: `.mapper/f${i}.txt`, data: "x" })),
        ]),
      ],
    ]),
  );
  await using dir = await tempDir();
  const source = `${srv.url}a/{slug}.tar.gz`;
  let r = await add(["file4mib", "--source", source, "--target", "a"], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await Deno.stat(dir.join("a/big.txt"))).size, 4 * MiB);
  r = await add(["n512", "--source", source, "--target", "b"], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Installed n512: 511 files → b\. Next:/);
});

Deno.test("atlas add - subprocess install over HTTPS trusted with --cert, archives beside --index", async () => {
  const gz = await tarGz(goodCorpus());
  await using srv = await archiveServer(new Map([["good", gz]]));
  await using dir = await tempDir();
  const r = await runMapper(["atlas", "add", "--index", `${srv.url}a/index.json`, "good"], {
    cwd: dir.path,
    env: { HOME: dir.path },
    denoFlags: ["--cert", srv.caFile],
  });
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Installed good: 4 files → \.mapper\. Next:/);
});

Deno.test("atlas add - shows download progress on stderr only when slow and stderr is a TTY", async () => {
  const gz = await tarGz(goodCorpus());
  await using srv = await httpsServer(() => {
    const parts = Array.from({ length: 8 }, (_, i) => gz.subarray((i * gz.length) / 8, ((i + 1) * gz.length) / 8));
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        const next = parts.shift();
        if (next === undefined) return c.close();
        await new Promise((r) => setTimeout(r, 5));
        c.enqueue(next);
      },
    });
    return new Response(body);
  });
  for (const tty of [true, false]) {
    await using dir = await tempDir();
    let t = 0;
    // A clock that advances 400 ms per reading makes the download look slow without sleeping.
    const io = testIo({ cwd: dir.path, home: dir.path, fetch: srv.fetch, tty, now: () => (t += 400) });
    const code = await runCli(["atlas", "add", "good", "--source", `${srv.url}{slug}.tar.gz`], io);
    assert.equal(code, 0, io.stderr.text());
    // deno-lint-ignore no-control-regex
    if (tty) assert.match(io.stderr.text(), /^\r\x1b\[2Kdownloading… 0\.0 MiB.*\r\x1b\[2K$/s);
    else assert.equal(io.stderr.text(), "");
  }
});

Deno.test("atlas add - a local --index installs from the archive beside it; MAPPER_ATLAS_SOURCE is the fallback template", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(dir.join("cat"));
  await Deno.writeFile(dir.join("cat/good.tar.gz"), await tarGz(goodCorpus()));
  const noNet = () => Promise.reject(new Error("no network"));
  let io = testIo({ cwd: dir.path, home: dir.path, fetch: noNet });
  assert.equal(await runCli(["atlas", "add", "good", "--index", "cat/index.json", "--target", "one"], io), 0);
  assert.match(io.stdout.text(), /Installed good: 4 files → one\. Next:/);
  io = testIo({ cwd: dir.path, home: dir.path, fetch: noNet, env: { MAPPER_ATLAS_SOURCE: "cat/{slug}.tar.gz" } });
  assert.equal(await runCli(["atlas", "add", "good", "--target", "two"], io), 0);
  const lock = JSON.parse(await Deno.readTextFile(dir.join("two/atlas-lock.json")));
  assert.equal(lock.source, dir.join("cat/good.tar.gz"));
  // Interrupted (SIGINT/SIGTERM) while installing: exit 130, nothing installed, no staging left.
  const signal = AbortSignal.abort(new Error("interrupted"));
  io = testIo({ cwd: dir.path, home: dir.path, fetch: noNet, signal });
  assert.equal(await runCli(["atlas", "add", "good", "--index", "cat/index.json", "--target", "five"], io), 130);
  assert.equal(io.stderr.text(), "mapper atlas add: interrupted\n");
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir.path))).map((e) => e.name).sort(), ["cat", "one", "two"]);
  io = testIo({ cwd: dir.path, home: dir.path, fetch: noNet, env: { MAPPER_ATLAS_INDEX: "cat/index.json" } });
  assert.equal(await runCli(["atlas", "add", "good", "--target", "four"], io), 0, io.stderr.text());
  io = testIo({ cwd: dir.path, home: dir.path, fetch: noNet, env: { MAPPER_ATLAS_SOURCE: "cat/{slug}.tar.gz" } });
  assert.equal(await runCli(["atlas", "add", "nope", "--target", "three"], io), 1);
  assert.match(io.stderr.text(), /^mapper atlas add: no corpus published for slug "nope"/);
});

Deno.test("atlas add - a file name with a bidirectional override is escaped in the wrote lines", async () => {
  const gz = await tarGz([...goodCorpus(), { name: ".mapper/notes\u202egpj.yaml", data: "memory: [x]\n" }]);
  await using srv = await archiveServer(new Map([["bidi", gz]]));
  await using dir = await tempDir();
  const r = await add(["bidi", "--source", `${srv.url}a/{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes("\u202e"), "the override never reaches the terminal");
  assert.match(r.stdout, /^ {2}wrote {2}\.mapper\/notes\\u202egpj\.yaml$/m);
});

Deno.test("atlas add - installs an archive of concatenated gzip members (cat a.gz b.gz)", async () => {
  const whole = tar(goodCorpus());
  const gz = concat([await gzip(whole.subarray(0, 1000)), await gzip(whole.subarray(1000))]);
  await using srv = await archiveServer(new Map([["multi", gz]]));
  await using dir = await tempDir();
  const r = await add(["multi", "--source", `${srv.url}a/{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Installed multi: 4 files → \.mapper\. Next:/);
});

Deno.test("atlas add - cleans staging directories a killed install left behind, and only those", async () => {
  await using srv = await archiveServer(new Map([["good", await tarGz(goodCorpus())]]));
  await using dir = await tempDir();
  // A process that has exited: its pid is dead (what `kill -9` during the YAML check leaves behind).
  const dead = new Deno.Command(Deno.execPath(), { args: ["eval", ""], stdout: "null", stderr: "null" }).spawn();
  await dead.status;
  const stale = `.mapper-add-${dead.pid}-0123abcd`;
  await Deno.mkdir(dir.join(stale, "views"), { recursive: true });
  await Deno.writeTextFile(dir.join(stale, "views", "half.yaml"), "views: [");
  const kept = [
    `.mapper-add-${Deno.pid}-4567ef01`, // a live install (this process)
    ".mapper-add-0a1b2c", // no pid: not provably ours
    `.mapper-add-${dead.pid}-x.y`, // not our exact pattern
    "mapper-add-1-abc", // not hidden
  ];
  for (const name of kept) await Deno.mkdir(dir.join(name));
  await Deno.symlink(dir.join(kept[0]!), dir.join(`.mapper-add-${dead.pid}-11111111`)); // a link, never followed
  const r = await add(["good", "--source", `${srv.url}a/{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(r.code, 0, r.stderr);
  const left = (await Array.fromAsync(Deno.readDir(dir.path))).map((e) => e.name).sort();
  assert.deepEqual(left, [...kept, `.mapper-add-${dead.pid}-11111111`, ".mapper"].sort());
  assert.ok((await Deno.stat(dir.join(kept[0]!))).isDirectory);
});

Deno.test("atlas add - the loser of two concurrent installs into one target gets a clear reason, not 'Error'", async () => {
  const gz = await tarGz(goodCorpus());
  await using dir = await tempDir();
  let srvFetch: typeof fetch = fetch;
  let raced = false;
  // While the first install downloads (after its emptiness check), a second one completes into the same target.
  await using srv = await httpsServer(async (req) => {
    if (!raced) {
      raced = true;
      const other = await add(["good", "--source", `${new URL("/", req.url).href}{slug}.tar.gz`], dir.path, srvFetch);
      assert.equal(other.code, 0, other.stderr);
    }
    return new Response(gz as Uint8Array<ArrayBuffer>);
  });
  srvFetch = srv.fetch;
  const r = await add(["good", "--source", `${srv.url}{slug}.tar.gz`], dir.path, srv.fetch);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    'mapper atlas add: install target ".mapper" already exists — another install finished first — use a new ' +
      "--target or remove it\n",
  );
  assert.deepEqual((await Array.fromAsync(Deno.readDir(dir.path))).map((e) => e.name), [".mapper"]);
});
