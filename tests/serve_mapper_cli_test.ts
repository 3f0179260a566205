// `mapper serve-mapper` as a user runs it: a subprocess in a site directory, reading the URL it prints.
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, mapperCommand, runMapper, tempDir } from "./_helpers.ts";

const CORPUS = {
  "shared.yaml":
    "version: 1\ncomponents:\n  - name: Header\n    selector: header\n    children:\n      - {name: Nav, selector: nav}\n",
  "home.yaml":
    "version: 1\nviews:\n  - name: Home\n    route: /\n    components:\n      - {name: Hero, selector: .hero}\n",
};

async function site(files: Record<string, string>, name = "my-site") {
  const tmp = await tempDir();
  const root = join(tmp.path, name);
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, ".mapper", rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  await Deno.mkdir(root, { recursive: true });
  return { tmp, root, home: tmp.join("home") };
}

/** A running `serve-mapper`: the first stdout line, the rest of the output once it exits. */
interface Running extends AsyncDisposable {
  firstLine: Promise<string>;
  child: Deno.ChildProcess;
  finish(): Promise<{ code: number; stdout: string; stderr: string }>;
}

function spawnServe(args: string[], cwd: string, home: string): Running {
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(["serve-mapper", ...args]),
    cwd,
    env: baseEnv(home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  const { promise: firstLine, resolve: resolveFirst } = Promise.withResolvers<string>();
  const stdoutDone = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      stdout += chunk;
      const nl = stdout.indexOf("\n");
      if (nl >= 0) resolveFirst(stdout.slice(0, nl));
    }
    resolveFirst(stdout);
  })();
  const stderrText = new Response(child.stderr).text();
  const finish = async () => {
    const status = await child.status;
    await stdoutDone;
    return { code: status.code, stdout, stderr: await stderrText };
  };
  return {
    firstLine,
    child,
    finish,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
      await finish();
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    }),
  ]);
}

Deno.test("serve-mapper - prints the bound URL with counts, serves /mapper, and stops cleanly on SIGTERM", async () => {
  const s = await site(CORPUS);
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0"], s.root, s.home);
  const line = await withTimeout(run.firstLine, 30_000, "the serving line");
  const m = /^\[serve-mapper\] serving \.mapper\/ \(1 view, 3 components\) on (http:\/\/127\.0\.0\.1:(\d+)\/mapper)$/
    .exec(line);
  assert.ok(m, `unexpected first line: ${JSON.stringify(line)}`);
  assert.notEqual(m[2], "0");
  const url = m[1]!;
  const corpus = await (await fetch(url)).json();
  assert.equal(corpus.site, "my-site");
  assert.equal(corpus.globals[1].selector, "header nav");
  const version = await (await fetch(`${url}/version`)).json();
  assert.deepEqual(version, { version: corpus.version });
  const missing = await fetch(new URL("/nope", url));
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal((await missing.json()).error.code, "not_found");
  run.child.kill("SIGTERM");
  const out = await withTimeout(run.finish(), 30_000, "the process to exit");
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stderr, /\[serve-mapper\] stopped/);
  assert.match(
    out.stderr,
    /\[serve-mapper\] validate: 0 errors, \d+ warnings? \(mapper validate for details; live at http:\/\/127\.0\.0\.1:\d+\/mapper\/diagnostics\)\n/,
  );
});

Deno.test("serve-mapper - SIGINT also stops it with exit 0", async () => {
  const s = await site(CORPUS);
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0"], s.root, s.home);
  await withTimeout(run.firstLine, 30_000, "the serving line");
  run.child.kill("SIGINT");
  const out = await withTimeout(run.finish(), 30_000, "the process to exit");
  assert.equal(out.code, 0, out.stderr);
});

Deno.test("serve-mapper - --json-log prints JSON lines with the URL and levels for diagnostics", async () => {
  const s = await site({ ...CORPUS, "x.yaml": "version: 1\ncomponents:\n  - {selector: .x}\nbogus: 1\n" });
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0", "--json-log"], s.root, s.home);
  const line = await withTimeout(run.firstLine, 30_000, "the serving line");
  const event = JSON.parse(line);
  assert.equal(event.event, "serving");
  assert.match(event.url, /^http:\/\/127\.0\.0\.1:\d+\/mapper$/);
  assert.equal(event.components, 3);
  run.child.kill("SIGTERM");
  const out = await withTimeout(run.finish(), 30_000, "the process to exit");
  assert.equal(out.code, 0);
  const logs = out.stderr.trim().split("\n").map((l) => JSON.parse(l));
  const levelOf = (re: RegExp) => logs.find((l) => re.test(l.message))?.level;
  assert.equal(levelOf(/missing-name/), "error", out.stderr);
  assert.equal(levelOf(/unknown-field/), "warn", out.stderr);
  assert.equal(levelOf(/stopped/), "info", out.stderr);
});

Deno.test("serve-mapper - a recompile logs one line and only the problems that are new", async () => {
  const s = await site({ ...CORPUS, "x.yaml": "version: 1\nbogus: 1\n" });
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0"], s.root, s.home);
  const line = await withTimeout(run.firstLine, 30_000, "the serving line");
  const url = /on (http:\S+)$/.exec(line)![1]!;
  const version = async () => (await (await fetch(`${url}/version`)).json()).version as number;
  const before = await version();
  await Deno.writeTextFile(join(s.root, ".mapper", "home.yaml"), `${CORPUS["home.yaml"]}extra: 1\n`);
  await withTimeout(
    (async () => {
      while (await version() === before) await new Promise((r) => setTimeout(r, 20));
    })(),
    30_000,
    "the recompile",
  );
  run.child.kill("SIGTERM");
  const out = await withTimeout(run.finish(), 30_000, "the process to exit");
  const count = (re: RegExp) => out.stderr.split("\n").filter((l) => re.test(l)).length;
  assert.equal(count(/^\[serve-mapper\] recompiled \(v\d+\)$/), 1, out.stderr);
  assert.equal(count(/^\[serve-mapper\] warning: .*x\.yaml:2:1: .*\[unknown-field\]$/), 1, out.stderr);
  assert.equal(count(/^\[serve-mapper\] warning: .*home\.yaml:\d+:\d+: .*\[unknown-field\]$/), 1, out.stderr);
});

Deno.test("serve-mapper - --host ::1 binds IPv6 loopback and prints the URL with brackets", async () => {
  const s = await site(CORPUS);
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0", "--host", "::1"], s.root, s.home);
  const line = await withTimeout(run.firstLine, 30_000, "the serving line");
  const m = /on (http:\/\/\[::1\]:\d+\/mapper)$/.exec(line);
  assert.ok(m, `unexpected first line: ${JSON.stringify(line)}`);
  const corpus = await (await fetch(m[1]!)).json();
  assert.equal(corpus.site, "my-site");
  run.child.kill("SIGTERM");
  const out = await withTimeout(run.finish(), 30_000, "the process to exit");
  assert.equal(out.code, 0, out.stderr);
});

Deno.test("serve-mapper - a missing corpus directory fails before serving and says how to get one", async () => {
  const s = await site({});
  await using _tmp = s.tmp;
  const out = await runMapper(["serve-mapper", "--port", "0"], { cwd: s.root, env: { HOME: s.home } });
  assert.equal(out.code, 1);
  assert.equal(out.stdout, "");
  assert.match(out.stderr, /^mapper serve-mapper: no corpus directory "\.mapper"/);
  assert.match(out.stderr, /--dir/);
  assert.match(out.stderr, /mapper atlas add/);
});

Deno.test("serve-mapper - invalid YAML fails before serving and lists every problem as file:line:col", async () => {
  const s = await site({ ...CORPUS, "a.yaml": "views: [\n", "b.yaml": "views: hello\n" });
  await using _tmp = s.tmp;
  const out = await runMapper(["serve-mapper", "--port", "0", "--dir", ".mapper"], {
    cwd: s.root,
    env: { HOME: s.home },
  });
  assert.equal(out.code, 1);
  assert.equal(out.stdout, "");
  const lines = out.stderr.trim().split("\n");
  assert.match(lines[0]!, /^\.mapper\/a\.yaml:2:1: /);
  assert.equal(lines[1], `.mapper/b.yaml:1:8: "views" must be a list, found a string`);
  assert.match(lines[2]!, /^mapper serve-mapper: cannot compile "\.mapper": 2 problems/);
});

Deno.test("serve-mapper - a port in use fails before printing a URL and names --port", async () => {
  const s = await site(CORPUS);
  await using _tmp = s.tmp;
  using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (busy.addr as Deno.NetAddr).port;
  const out = await runMapper(["serve-mapper", "--port", String(port)], { cwd: s.root, env: { HOME: s.home } });
  assert.equal(out.code, 1);
  assert.equal(out.stdout, "");
  assert.match(out.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
  assert.match(out.stderr, /--port/);
});

Deno.test("serve-mapper - --dir serves another directory, paths in messages as given", async () => {
  const s = await site({});
  await using _tmp = s.tmp;
  await Deno.mkdir(join(s.root, "corpus"), { recursive: true });
  await Deno.writeTextFile(join(s.root, "corpus", "x.yaml"), "components: 5\n");
  const out = await runMapper(["serve-mapper", "--port", "0", "--dir", "corpus"], {
    cwd: s.root,
    env: { HOME: s.home },
  });
  assert.equal(out.code, 1);
  assert.match(out.stderr, /^corpus\/x\.yaml:1:13: "components" must be a list/);
});

/** One raw HTTP/1.1 GET with the given headers (so `Host` and `Origin` can be anything): status and body. */
async function rawGet(port: number, path: string, headers: string[]): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode([`GET ${path} HTTP/1.1`, ...headers, "Connection: close", "", ""].join("\r\n")),
  );
  const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

Deno.test("serve-mapper - the daemon's Host check (DNS rebinding refused) and no web page reads /mapper/diagnostics", async () => {
  const s = await site(CORPUS);
  await using _tmp = s.tmp;
  await using run = spawnServe(["--port", "0"], s.root, s.home);
  const line = await withTimeout(run.firstLine, 30_000, "the serving line");
  const port = Number(/:(\d+)\/mapper$/.exec(line)![1]);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    for (const path of ["/mapper", "/mapper/version", "/mapper/diagnostics"]) {
      assert.equal((await rawGet(port, path, [`Host: ${host}`])).status, 200, `${host} ${path}`);
    }
  }
  // A page at evil.example that rebound its name to 127.0.0.1 sends its own name.
  for (const path of ["/mapper", "/mapper/diagnostics"]) {
    const rebound = await rawGet(port, path, [`Host: evil.example:${port}`]);
    assert.equal(rebound.status, 403, path);
    assert.equal(JSON.parse(rebound.body).code, "forbidden_host");
  }
  // The corpus is public to pages (CORS *); its health, which names files by absolute path, is not.
  const page = `Origin: https://evil.example`;
  assert.equal((await rawGet(port, "/mapper", [`Host: 127.0.0.1:${port}`, page])).status, 200);
  const health = await rawGet(port, "/mapper/diagnostics", [`Host: 127.0.0.1:${port}`, page]);
  assert.equal(health.status, 403);
  assert.equal(JSON.parse(health.body).code, "forbidden_origin");
  assert.ok(!health.body.includes(s.root), "no path in the refusal");
});

Deno.test("serve-mapper - a restart of an unchanged corpus serves the last compile from the start cache; --no-cache does not", async () => {
  const s = await site({ ...CORPUS, "extra.yaml": "version: 1\nmemory: [note]\nunknown: 1\n" });
  await using _tmp = s.tmp;
  // A stat vouches for a file only seconds after it was written (a write in the same tick would not show).
  await new Promise((resolve) => setTimeout(resolve, 3_100));
  const cacheDir = join(s.home, ".mapper", "cache", "corpus");
  const cacheFiles = async () => (await Array.fromAsync(Deno.readDir(cacheDir)).catch(() => [])).map((e) => e.name);
  const start = async (args: string[] = []) => {
    const run = spawnServe(["--port", "0", ...args], s.root, s.home);
    const line = await withTimeout(run.firstLine, 30_000, "the serving line");
    const url = /on (http:\S+)$/.exec(line)?.[1];
    assert.ok(url, line);
    return { run, line, body: await (await fetch(url)).text() };
  };
  const stop = async (run: Running) => {
    run.child.kill("SIGTERM");
    const out = await withTimeout(run.finish(), 30_000, "the process to exit");
    assert.equal(out.code, 0, out.stderr);
    // The port differs between runs; everything else is the same.
    return out.stderr.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
  };
  const first = await start();
  for (let i = 0; (await cacheFiles()).length === 0; i++) {
    assert.ok(i < 300, "the start cache is written about a second after the start");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const firstLog = await stop(first.run);
  const [name] = await cacheFiles();
  assert.match(name!, /^[0-9a-f]{32}\.cache$/);
  assert.equal((await Deno.stat(join(cacheDir, name!))).mode! & 0o777, 0o600);

  const second = await start();
  assert.equal(second.line.replace(/:\d+\//, ":PORT/"), first.line.replace(/:\d+\//, ":PORT/"));
  assert.equal(second.body, first.body, "the same compile, version included");
  assert.equal(await stop(second.run), firstLog, "the same problems logged");
  assert.match(firstLog, /warning: .*extra\.yaml:\d+:\d+: .*\[unknown-field\]/);

  const fresh = await start(["--no-cache"]);
  const version = (text: string) => JSON.parse(text).version;
  assert.ok(version(fresh.body) > version(first.body), "compiled again: a new version");
  assert.deepEqual({ ...JSON.parse(fresh.body), version: 0 }, { ...JSON.parse(first.body), version: 0 });
  await stop(fresh.run);
});
