/**
 * The browser session as a hostile local user, web page or installed archive would try it: the daemon API without
 * the secret, from a foreign Origin or Host; a TCP debugging port; a planted session file naming unrelated
 * processes or an impostor port; files under `~/.mapper/` readable by others; two projects sharing a folder name.
 * Each test is named after the rule it guards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMapper, tempDir } from "./_helpers.ts";
import { firstOfEachAsSubprocess } from "./_in_process.ts";
import { alive, endSession, reap, skipBrowserTests, startSession, type TestSession, waitFor } from "./site/harness.ts";
import { rawServer } from "./_raw_server.ts";
import { assetsUnder } from "../src/assets.ts";
import { extensionId as idOfKey } from "../src/browser/extension.ts";
import { startSite } from "./site/server.ts";
import { startMcp } from "./_mcp.ts";
import { processStartTime } from "../src/browser/process.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
const enc = new TextEncoder();

/** One raw HTTP/1.1 request (so `Host` and `Origin` can be anything); returns the status and body. */
async function raw(port: number, head: string[], body = ""): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(enc.encode([...head, "Connection: close", "", body].join("\r\n")));
    const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } catch (err: unknown) {
    conn.close();
    throw err;
  }
}

/** The bundled extension's id (fixed by the manifest key): the one Origin the daemon's guard knows. */
async function extensionId(): Promise<string> {
  return await idOfKey(JSON.parse(assetsUnder("extension/").find(([p]) => p === "manifest.json")![1]).key);
}

async function tabCount(s: TestSession): Promise<number> {
  return (await s.api<{ tabs: unknown[] }>("/devtools/status")).tabs.length;
}

async function daemonApiRefusals(t: Deno.TestContext, s: TestSession): Promise<void> {
  const before = await tabCount(s);
  const bearer = `Authorization: Bearer ${s.secret}`;
  const host = `Host: 127.0.0.1:${s.port}`;

  await t.step("daemon API - refuses a request without the session secret (403)", async () => {
    for (const head of [[], ["Authorization: Bearer " + "0".repeat(64)], [`Authorization: ${s.secret}`]]) {
      const res = await raw(s.port, [`POST /devtools/tabs?url=file:///etc/hostname HTTP/1.1`, host, ...head]);
      assert.equal(res.status, 403);
      assert.equal(JSON.parse(res.body).code, "forbidden_secret");
    }
    const get = await raw(s.port, ["GET /devtools/network HTTP/1.1", host]);
    assert.equal(get.status, 403);
    assert.equal(await tabCount(s), before, "no tab was opened");
  });

  await t.step("daemon API - refuses a foreign Origin before any work, even with the secret", async () => {
    for (const origin of ["https://evil.example", "null", "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]) {
      const res = await raw(s.port, [
        "POST /devtools/tabs?url=https://evil.example/ HTTP/1.1",
        host,
        bearer,
        `Origin: ${origin}`,
      ]);
      assert.equal(res.status, 403, origin);
      assert.deepEqual(JSON.parse(res.body), {
        schema: 1,
        error: "the devtools API does not answer web pages",
        code: "forbidden_origin",
      });
    }
    assert.equal(await tabCount(s), before, "no tab was opened");
  });

  await t.step("daemon API - refuses a foreign Host (DNS rebinding), the corpus paths included", async () => {
    for (const h of ["evil.example", `evil.example:${s.port}`, `localhost:${s.port}`]) {
      for (const path of ["/devtools/status", "/mapper/version"]) {
        const res = await raw(s.port, [`GET ${path} HTTP/1.1`, `Host: ${h}`, bearer]);
        assert.equal(res.status, 403, `${h} ${path}`);
        assert.equal(JSON.parse(res.body).code, "forbidden_host");
      }
    }
  });

  await t.step("daemon API - the corpus stays public and the session owner gets everything", async () => {
    const corpus = await raw(s.port, ["GET /mapper/version HTTP/1.1", host, "Origin: https://any.example"]);
    assert.equal(corpus.status, 200);
    assert.ok(Number.isInteger(JSON.parse(corpus.body).version));
    // The extension polls the corpus health without the secret: refused, it took the server for gone every poll.
    const health = await raw(s.port, [
      "GET /mapper/diagnostics HTTP/1.1",
      host,
      `Origin: chrome-extension://${await extensionId()}`,
    ]);
    assert.equal(health.status, 200, health.body);
    assert.equal(typeof JSON.parse(health.body).ok, "boolean");
    // …but a web page does not read it (absolute paths in it tell a user name and a project's place).
    const fromPage = await raw(s.port, ["GET /mapper/diagnostics HTTP/1.1", host, "Origin: https://any.example"]);
    assert.equal(fromPage.status, 403, fromPage.body);
    const ok = await raw(s.port, ["GET /devtools/status HTTP/1.1", host, bearer]);
    assert.equal(ok.status, 200);
  });
}

async function noDebuggingPortNoSecret(s: TestSession): Promise<void> {
  const cmdline = (pid: number) => Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\u0000");
  const argv = cmdline(s.chromiumPid);
  assert.ok(argv.includes("--remote-debugging-pipe"), argv.join(" "));
  assert.ok(!argv.some((a) => a.startsWith("--remote-debugging-port")), argv.join(" "));
  const profile = argv.find((a) => a.startsWith("--user-data-dir="))!.slice("--user-data-dir=".length);
  await assert.rejects(Deno.stat(join(profile, "DevToolsActivePort")), Deno.errors.NotFound);

  // No process of Chromium's tree listens on any TCP socket.
  const tree = new Set([s.chromiumPid]);
  for (let grew = true; grew;) {
    grew = false;
    for await (const e of Deno.readDir("/proc")) {
      const pid = Number(e.name);
      if (!Number.isInteger(pid) || tree.has(pid)) continue;
      try {
        const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (tree.has(ppid)) {
          tree.add(pid);
          grew = true;
        }
      } catch {
        // gone
      }
    }
  }
  const inodes = new Set<string>();
  for (const pid of tree) {
    try {
      for await (const fd of Deno.readDir(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(await Deno.readLink(`/proc/${pid}/fd/${fd.name}`));
        if (m) inodes.add(m[1]!);
      }
    } catch {
      // gone or not ours
    }
  }
  assert.ok(inodes.size > 0, "Chromium's sockets are visible (the check below is not vacuous)");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of (await Deno.readTextFile(table)).split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A") assert.ok(!inodes.has(cols[9]!), `Chromium listens on ${cols[1]} (${table})`);
    }
  }

  for (const pid of [s.daemonPid, s.chromiumPid]) {
    assert.ok(!cmdline(pid).join(" ").includes(s.secret), `the secret is on the command line of ${pid}`);
  }
  const log = await Deno.readTextFile(s.log);
  assert.ok(!log.includes(s.secret));
  assert.ok(!/ws:\/\/|devtools\/browser/.test(log));
}

/** A `sleep` child standing for an unrelated process of the user; disposing ends it. */
function bystander(): { pid: number } & AsyncDisposable {
  const child = new Deno.Command("sleep", { args: ["60"], stdin: "null", stdout: "null", stderr: "null" }).spawn();
  return {
    pid: child.pid,
    async [Symbol.asyncDispose]() {
      reap(child.pid);
      await child.status;
    },
  };
}

/** A loopback server answering every request with `body` (JSON, `status`); records what it was asked. */
function impostor(body: (path: string) => unknown, status = 200) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    return new Response(JSON.stringify(body(url.pathname)), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return {
    port: server.addr.port,
    seen,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/**
 * Writes a session file (0600) naming these processes and port, with the secret every test here plants; with
 * `daemonStart`, the daemon's start time as a daemon records it (without it, clients fall back to the handshake).
 */
function plantSession(
  file: string,
  s: {
    daemonPid: number;
    chromiumPid: number;
    port: number;
    profile: string;
    sessionId?: string;
    daemonStart?: number;
  },
): Promise<void> {
  const session = {
    schema: 2,
    sessionId: s.sessionId ?? "5e55".repeat(8),
    secret: "5ec7".repeat(16),
    daemonPid: s.daemonPid,
    ...(s.daemonStart === undefined ? {} : { daemonStart: s.daemonStart }),
    chromiumPid: s.chromiumPid,
    port: s.port,
    profile: s.profile,
    headless: true,
    startedAt: "",
    version: "0",
    log: null,
  };
  return Deno.writeTextFile(file, JSON.stringify(session), { mode: 0o600 });
}

Deno.test("browser stop - never signals processes named by a planted session file", async () => {
  await using tmp = await tempDir();
  await using a = bystander();
  await using b = bystander();
  const dir = tmp.join(".mapper");
  await Deno.mkdir(dir);
  const file = join(dir, ".session");
  const env = { HOME: tmp.join("home") };
  const run = (args: string[]) => runMapper(args, { cwd: tmp.path, env });
  const secret = "5ec7".repeat(16);
  const sessionId = "5e55".repeat(8);
  const planted = (port: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      schema: 2,
      sessionId,
      secret,
      daemonPid: a.pid,
      chromiumPid: b.pid,
      port,
      profile: "/",
      headless: true,
      startedAt: "",
      version: "0",
      log: null,
      ...extra,
    });
  // A port that answers the handshake exactly as the planted file says: it knows the secret it planted.
  await using liar = impostor(() => ({ schema: 1, sessionId, daemonPid: a.pid, chromiumPid: b.pid, port: 0 }));
  // Its port must be in its own answer: start it, then plant with that port.
  await using liar2 = impostor(() => ({
    schema: 1,
    sessionId,
    daemonPid: a.pid,
    chromiumPid: b.pid,
    port: liar2Port,
  }));
  const liar2Port = liar2.port;
  await using empty = impostor(() => ({}));
  // A real daemon of another session: our secret is not its secret.
  await using other = impostor(() => ({ schema: 1, error: "no", code: "forbidden_secret" }), 403);
  const free = (() => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    return port;
  })();
  const cases: Array<[string, string, number, RegExp]> = [
    ["garbage JSON", "{nope", 0o600, /\(it is not JSON\)/],
    ["an empty profile", planted(free, { profile: "" }), 0o600, /\(its profile is not an absolute path\)/],
    ["a file readable by others (an archive's)", planted(free), 0o644, /\(it is readable by others \(mode 644\)/],
    ["nothing listening", planted(free), 0o600, new RegExp(`\\(nothing answers on its port ${free}\\)`)],
    [
      "a port answering {}",
      planted(empty.port),
      0o600,
      new RegExp(`\\(port ${empty.port} answered as another session\\)`),
    ],
    ["the wrong port in the answer", planted(liar.port), 0o600, /answered as another session/],
    [
      "a daemon refusing the secret",
      planted(other.port),
      0o600,
      new RegExp(`\\(port ${other.port} answered the handshake with 403\\)`),
    ],
    [
      "a port answering the handshake for pids that are no mapper daemon",
      planted(liar2Port),
      0o600,
      new RegExp(`\\(its daemon pid ${a.pid} does not run a mapper session daemon\\)`),
    ],
  ];
  for (const [what, content, mode, reason] of cases) {
    await Deno.writeTextFile(file, content, { mode });
    await Deno.chmod(file, mode);
    const stop = await run(["browser", "stop"]);
    assert.equal(stop.code, 0, what);
    assert.equal(stop.stdout, "", what);
    assert.match(stop.stderr, new RegExp(`^removed a stale session file "${file.replace(/[.]/g, "\\.")}" `), what);
    assert.match(stop.stderr, reason, what);
    assert.match(stop.stderr, /; nothing was signalled\n$/, what);
    assert.equal(stop.stderr.split("\n").length, 2, `${what}: one line`);
    assert.ok(!stop.stderr.includes("TypeError") && !stop.stderr.includes("    at "), what);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound, what);
    assert.ok(alive(a.pid) && alive(b.pid), `${what}: a bystander was signalled`);
  }
  assert.ok(!liar2.seen.includes("POST /devtools/shutdown"), "an impostor is never asked to act");
  // Not a file at all: a symlink to a real session-shaped file elsewhere, a FIFO (reading it would block forever).
  const elsewhere = tmp.join("elsewhere.json");
  await Deno.writeTextFile(elsewhere, planted(liar2Port), { mode: 0o600 });
  await Deno.symlink(elsewhere, file);
  const link = await run(["browser", "stop"]);
  assert.match(link.stderr, /\(it is not a regular file\); nothing was signalled\n$/);
  await assert.rejects(Deno.lstat(file), Deno.errors.NotFound);
  assert.ok(await Deno.stat(elsewhere), "the link's target is left alone");
  if (Deno.build.os !== "windows") {
    assert.ok((await new Deno.Command("mkfifo", { args: [file] }).output()).success);
    const fifo = await run(["browser", "status"]);
    assert.equal(fifo.code, 0);
    assert.match(fifo.stderr, /\(it is not a regular file\); nothing was signalled\n$/);
    await assert.rejects(Deno.lstat(file), Deno.errors.NotFound);
  }
  assert.ok(alive(a.pid) && alive(b.pid));
});

/** What one command run against a planted session file must answer. */
interface Want {
  readonly code: number;
  /** Standard output exactly (not checked when left out). */
  readonly stdout?: string;
  /** Standard error exactly, or a pattern it matches. */
  readonly stderr: string | RegExp;
  /** The command removes the planted file as stale (true unless said otherwise). */
  readonly stale?: boolean;
}

/**
 * A project whose `.mapper/.session` a test plants, naming two bystander processes; `expect` runs a command there
 * and checks its whole answer the same way in every test: exit code, output, the file removed as stale, and that
 * neither bystander was signalled.
 */
async function plantedProject(env: Record<string, string> = {}) {
  const tmp = await tempDir();
  const a = bystander();
  const b = bystander();
  await Deno.mkdir(tmp.join(".mapper"));
  const file = tmp.join(".mapper", ".session");
  const sessionId = "5e55".repeat(8);
  return {
    tmp,
    a,
    b,
    file,
    sessionId,
    /** The handshake answer that passes for the planted file's session when `port` is where it is asked. */
    handshake: (port: number) => ({ schema: 1, sessionId, daemonPid: a.pid, chromiumPid: b.pid, port }),
    /** Plants the session file (0600) naming the bystanders and `port`. */
    plant: (port: number, extra: { daemonStart?: number } = {}) =>
      plantSession(file, { sessionId, daemonPid: a.pid, chromiumPid: b.pid, port, profile: tmp.path, ...extra }),
    async expect(args: string[], want: Want, what = args.join(" ")): Promise<void> {
      const res = await runMapper(args, { cwd: tmp.path, env: { HOME: tmp.join("home"), ...env } });
      assert.equal(res.code, want.code, what);
      if (want.stdout !== undefined) assert.equal(res.stdout, want.stdout, what);
      if (typeof want.stderr === "string") assert.equal(res.stderr, want.stderr, what);
      else assert.match(res.stderr, want.stderr, what);
      if (want.stale !== false) await assert.rejects(Deno.stat(file), Deno.errors.NotFound, what);
      assert.ok(alive(a.pid) && alive(b.pid), `${what}: a bystander was signalled`);
    },
    async [Symbol.asyncDispose]() {
      await a[Symbol.asyncDispose]();
      await b[Symbol.asyncDispose]();
      await tmp[Symbol.asyncDispose]();
    },
  };
}

const NO_SESSION = (command: string) =>
  `mapper ${command}: no running session — start one with 'mapper browser start'\n`;

Deno.test("browser status, console list, network get, browser start - a planted session file is reported stale in one line, never talked to", async () => {
  await using p = await plantedProject({ PATH: "/nonexistent" });
  await using empty = impostor(() => ({}));
  const line =
    `removed a stale session file "${p.file}" (port ${empty.port} answered as another session); nothing was signalled\n`;
  for (
    const [args, code, stdout, err] of [
      [["browser", "status"], 0, "○ no session\n", ""],
      [["console", "list"], 1, "", NO_SESSION("console list")],
      [["network", "get", "1", "--response-file", "x"], 1, "", NO_SESSION("network get")],
      [
        ["browser", "start", "--browser", "/nonexistent/chrome"],
        1,
        "",
        `mapper browser start: browser "/nonexistent/chrome" given with --browser is not an executable file — pass the path of a Chromium or Chrome binary\n`,
      ],
    ] as Array<[string[], number, string, string]>
  ) {
    await p.plant(empty.port);
    await p.expect(args, { code, stdout, stderr: line + err });
  }
  // Only the handshake reached the impostor: no tab, no shutdown, no data request.
  assert.deepEqual([...new Set(empty.seen)], ["GET /devtools/session"]);
  await assert.rejects(Deno.stat(p.tmp.join("x")), Deno.errors.NotFound);
});

Deno.test({
  name:
    "console list, browser click, browser status - a session file whose daemon pid now runs another process is stale at once: not a byte goes to its port",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using p = await plantedProject();
    // It would pass the handshake (it answers as the planted file says): only the start time can tell it apart.
    let port = 0;
    await using owner = impostor((path) => path === "/devtools/session" ? p.handshake(port) : {});
    port = owner.port;
    // The pid was recorded for a process that started earlier: the one running under it now is another.
    const daemonStart = processStartTime(p.a.pid)! - 1;
    const line =
      `removed a stale session file "${p.file}" (its daemon pid ${p.a.pid} is now another process); nothing was signalled\n`;
    for (
      const [args, code, err] of [
        [["console", "list"], 1, NO_SESSION("console list")],
        [["browser", "click", "7"], 1, NO_SESSION("browser click")],
        [["browser", "status"], 0, ""],
      ] as Array<[string[], number, string]>
    ) {
      await p.plant(port, { daemonStart });
      await p.expect(args, { code, stderr: line + err });
    }
    assert.deepEqual(owner.seen, [], "nothing was sent to the port, not even the handshake with the secret");
  },
});

Deno.test({
  name:
    "console list - a session file whose daemon runs since its recorded start time is trusted without the handshake: one request",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using tmp = await tempDir();
    await using b = bystander();
    // A daemon process (this one: a live pid with the start time the file records) listening where the file says.
    await using daemon = impostor((path) =>
      path === "/devtools/console" ? { schema: 1, dropped: 0, first: 0, last: -1, entries: [] } : {}
    );
    await Deno.mkdir(tmp.join(".mapper"));
    const daemonStart = processStartTime(Deno.pid)!;
    await plantSession(tmp.join(".mapper", ".session"), {
      daemonPid: Deno.pid,
      daemonStart,
      chromiumPid: b.pid,
      port: daemon.port,
      profile: tmp.path,
    });
    const res = await runMapper(["console", "list"], { cwd: tmp.path, env: { HOME: tmp.join("home") } });
    assert.equal(res.stderr, "");
    assert.equal(res.stdout, "No console messages captured.\n");
    assert.equal(res.code, 0);
    assert.deepEqual(daemon.seen, ["GET /devtools/console"]);
    assert.ok(await Deno.stat(tmp.join(".mapper", ".session")), "the file is kept");
  },
});

Deno.test({
  name:
    "console list, browser click - a session file naming a live process and its start time but a port another process holds (or nobody) is stale: the secret is not sent",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using p = await plantedProject();
    // The port's owner (this process, not the pid the file names) would pass the handshake: it answers as the file says.
    let port = 0;
    await using owner = impostor((path) => path === "/devtools/session" ? p.handshake(port) : {});
    port = owner.port;
    const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const freePort = (free.addr as Deno.NetAddr).port;
    free.close();
    for (
      const [args, target, why] of [
        [["console", "list"], port, `its port ${port} is held by another process`],
        [["browser", "click", "7"], port, `its port ${port} is held by another process`],
        [["console", "list"], freePort, `nothing listens on its port ${freePort}`],
      ] as Array<[string[], number, string]>
    ) {
      await p.plant(target, { daemonStart: processStartTime(p.a.pid)! });
      await p.expect(args, {
        code: 1,
        stderr: `removed a stale session file "${p.file}" (${why}); nothing was signalled\n` +
          NO_SESSION(args.slice(0, 2).join(" ")),
      });
    }
    assert.deepEqual(owner.seen, [], "nothing was sent to the port, not even the handshake with the secret");
  },
});

Deno.test("console list - a port that redirects, floods headers or never finishes its answer fails the handshake; nothing is followed", async () => {
  await using p = await plantedProject();
  // Where a redirect would lead: a server that would pass the handshake. It must never be asked anything.
  let goodPort = 0;
  await using good = impostor(() => p.handshake(goodPort));
  goodPort = good.port;
  const hostile: Array<[string, (conn: Deno.Conn) => Promise<unknown>]> = [
    [
      "answered the handshake with 307",
      (conn) =>
        conn.write(
          enc.encode(
            `HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:${goodPort}/devtools/session\r\nContent-Length: 0\r\n\r\n`,
          ),
        ),
    ],
    ["nothing answers on its port", async (conn) => {
      await conn.write(enc.encode("HTTP/1.1 200 OK\r\n"));
      for (;;) await conn.write(enc.encode(`X-Flood: ${"f".repeat(1000)}\r\n`));
    }],
    ["did not answer the handshake with JSON", async (conn) => {
      // A valid start, then a body that trickles forever: cut by the handshake's timeout.
      await conn.write(enc.encode(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"schema":1,`));
      for (;;) {
        await conn.write(enc.encode(" "));
        await new Promise((r) => setTimeout(r, 50));
      }
    }],
  ];
  for (const [reason, answer] of hostile) {
    await using port = rawServer(answer);
    await p.plant(port.port);
    const why = reason.startsWith("nothing") ? `${reason} ${port.port}` : `port ${port.port} ${reason}`;
    await p.expect(["console", "list"], {
      code: 1,
      stdout: "",
      stderr: `removed a stale session file "${p.file}" (${why}); nothing was signalled\n` + NO_SESSION("console list"),
    }, reason);
    await port[Symbol.asyncDispose](); // returns once the CLI hung up on it
    assert.deepEqual(port.seen.map((s) => s.request.split("\r\n")[0]), ["GET /devtools/session HTTP/1.1"], reason);
  }
  assert.deepEqual(good.seen, []);
});

Deno.test("console, network - a daemon that breaks its answer off or garbles its framing gets one clear line, never a stack trace", async () => {
  await using p = await plantedProject();
  let port = 0;
  const broken = [
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 1000\r\n\r\n{"schema":1,', // then closes
    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
  ];
  let answer = broken[0]!;
  await using liar = rawServer((conn, seen) => {
    const handshake = JSON.stringify(p.handshake(port));
    return conn.write(enc.encode(
      seen.request.startsWith("GET /devtools/session ")
        ? `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: ${handshake.length}\r\n\r\n${handshake}`
        : answer,
    ));
  });
  port = liar.port;
  const reasons = [
    "malformed HTTP response: the body ended after 12 of 1000 bytes",
    'malformed HTTP response: chunk size "zz"',
  ];
  for (const [i, bytes] of broken.entries()) {
    answer = bytes;
    for (const args of [["console", "list"], ["network", "get", "1"]]) {
      await p.plant(port);
      await p.expect(args, {
        code: 1,
        stdout: "",
        stderr: `mapper ${args[0]} ${args[1]}: the session daemon at http://127.0.0.1:${port} sent a broken answer: ${
          reasons[i]
        } — check 'mapper browser status'\n`,
        stale: false,
      });
    }
  }
});

Deno.test("console, network, status - an impostor that passes the handshake gets one clear line, never a stack trace", async () => {
  // Whoever plants a session file knows its secret and can answer the handshake; its other answers are garbage.
  await using p = await plantedProject();
  let port = 0;
  await using liar = impostor((path) => path === "/devtools/session" ? p.handshake(port) : {});
  port = liar.port;
  await p.plant(port);
  for (const args of [["console", "list"], ["console", "get", "1"], ["network", "list"], ["network", "get", "1"]]) {
    await p.expect(args, {
      code: 1,
      stdout: "",
      // One line.
      stderr: new RegExp(
        `^mapper ${args[0]} ${
          args[1]
        }: the session daemon sent an answer of the wrong shape for "/devtools/[^\\n]*\\n$`,
      ),
      stale: false,
    });
  }
  const st = await runMapper(["browser", "status"], { cwd: p.tmp.path, env: { HOME: p.tmp.join("home") } });
  assert.equal(st.code, 0);
  assert.match(st.stdout, /^⚠ degraded {2}its daemon sent an invalid status\n/);
  assert.ok(!st.stderr.includes("TypeError"));
  assert.ok(alive(p.a.pid) && alive(p.b.pid));
});

Deno.test("browser start - refuses a --dir whose parent folder is missing, in one line, creating nothing", async () => {
  await using tmp = await tempDir();
  const res = await runMapper(["browser", "start", "--dir", tmp.join("nope", "x", ".mapper")], {
    cwd: tmp.path,
    env: { HOME: tmp.join("home") },
  });
  assert.equal(res.code, 1);
  assert.equal(res.stdout, "");
  assert.equal(
    res.stderr,
    `mapper browser start: the folder holding --dir "${tmp.join("nope", "x", ".mapper")}" does not exist ("${
      tmp.join("nope", "x")
    }") — create it first, or pass --dir inside an existing folder\n`,
  );
  await assert.rejects(Deno.stat(tmp.join("nope")), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(tmp.join("home", ".mapper")), Deno.errors.NotFound);
});

Deno.test({
  name:
    "browser start - default profiles are per project (x/app and y/app both start); ~/.mapper is private (0700 dirs, 0600 files)",
  ignore: skipBrowserTests(),
  ...opts,
  async fn() {
    await using tmp = await tempDir("mapper-profiles-");
    const home = tmp.join("home");
    const started: Array<
      { daemonPid: number; chromiumPid: number; port: number; secret: string; profile: string; cwd: string }
    > = [];
    try {
      for (const parent of ["x", "y"]) {
        const cwd = tmp.join(parent, "app");
        await Deno.mkdir(cwd, { recursive: true });
        const res = await runMapper(
          ["browser", "start", "--detach", "--headless", "--port", "0", "--browser-flag=--mute-audio"],
          { cwd, env: { HOME: home, TMPDIR: tmp.path } },
        );
        assert.equal(res.code, 0, res.stderr);
        const info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
        started.push({ ...info, cwd });
      }
      const [x, y] = started;
      assert.notEqual(x!.profile, y!.profile);
      for (const p of [x!.profile, y!.profile]) {
        assert.match(p, new RegExp(`^${home.replace(/[.]/g, "\\.")}/\\.mapper/profiles/app-[0-9a-f]{12}$`));
      }
      const mode = async (p: string) => ((await Deno.lstat(p)).mode ?? 0) & 0o777;
      const walk = async (p: string, depth: number): Promise<void> => {
        const st = await Deno.lstat(p);
        if (st.isDirectory) {
          assert.equal(await mode(p), 0o700, p);
          if (depth > 0) { for await (const e of Deno.readDir(p)) await walk(join(p, e.name), depth - 1); }
        } else if (st.isFile) assert.equal(await mode(p), 0o600, p);
      };
      await walk(join(home, ".mapper"), 1);
      await walk(join(home, ".mapper", "extension"), 2);
      await walk(join(home, ".mapper", "logs"), 1);
      await walk(join(home, ".mapper", "profiles"), 1);
      for (const s of started) assert.equal(await mode(join(s.cwd, ".mapper", ".session")), 0o600);
    } finally {
      for (const s of started) await endSession(s);
    }
  },
});

/** A magic-link start URL (`/proc/PID/cmdline` is readable by every local user): on no command line of the session. */
async function startUrlOffCommandLines(s: TestSession, url: string): Promise<void> {
  for (const pid of [s.daemonPid, s.chromiumPid]) {
    const argv = await Deno.readTextFile(`/proc/${pid}/cmdline`);
    assert.ok(!argv.includes("magic-s3cret-42"), `the start URL is on the command line of ${pid}`);
  }
  const tabs = await waitFor("the start URL to open", async () => {
    const { tabs } = await s.api<{ tabs: Array<{ url: string }> }>("/devtools/status");
    return tabs.some((t) => t.url === url) ? tabs : undefined;
  });
  assert.ok(tabs.length >= 1);
}

async function schemeRefusals(t: Deno.TestContext, s: TestSession): Promise<void> {
  const secretFile = s.tmp.join("private.txt");
  await Deno.writeTextFile(secretFile, "private notes of the user\n");
  const fileUrl = `file://${secretFile}`;
  const before = await tabCount(s);
  // 28 refusals of the user's own commands (the daemon's own refusal is the next step): each command's first one
  // runs as a subprocess, the rest in process.
  const run = firstOfEachAsSubprocess(s.run, { cwd: s.cwd, env: s.env });

  await t.step("browser navigate, tabs new, snapshot --url and browser start --url refuse them", async () => {
    const urls = [
      fileUrl,
      "chrome://settings/",
      "devtools://devtools/bundled/inspector.html",
      "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/manifest.json",
      "javascript:alert(1)",
      `view-source:${fileUrl}`,
      "data:text/html,<p>hi</p>",
    ];
    for (const url of urls) {
      const scheme = url.slice(0, url.indexOf(":"));
      for (
        const [command, args] of [
          ["browser navigate", ["browser", "navigate", url]],
          ["browser tabs", ["browser", "tabs", "new", url]],
          ["snapshot", ["snapshot", "--url", url]],
          ["browser start", ["browser", "start", "--url", url]],
        ] as const
      ) {
        const r = await run([...args]);
        assert.equal(r.code, 1, `${command} ${url}: ${r.stderr}`);
        assert.equal(r.stdout, "");
        assert.equal(
          r.stderr,
          `mapper ${command}: refusing to open "${url}": ${scheme}: URLs are opened only when you allow them ` +
            `(they can show local files or the browser's own pages) — if you mean it, pass --allow-scheme ` +
            `${scheme} (an MCP server: 'mapper mcp --allow-scheme ${scheme}')\n`,
        );
      }
    }
    assert.equal(await tabCount(s), before, "no tab was opened for a refused URL");
  });

  await t.step("the daemon decides, not the CLI: its routes refuse them with the secret too", async () => {
    const bearer = `Authorization: Bearer ${s.secret}`;
    const host = `Host: 127.0.0.1:${s.port}`;
    const tabs = await raw(s.port, [`POST /devtools/tabs?url=${encodeURIComponent(fileUrl)} HTTP/1.1`, host, bearer]);
    assert.equal(tabs.status, 403, tabs.body);
    assert.equal(JSON.parse(tabs.body).code, "scheme_refused");
    for (const [command, body] of [["navigate", { url: fileUrl }], ["snapshot", { url: fileUrl }]] as const) {
      const text = JSON.stringify(body);
      const res = await raw(s.port, [
        `POST /devtools/page/${command} HTTP/1.1`,
        host,
        bearer,
        "Content-Type: application/json",
        `Content-Length: ${text.length}`,
      ], text);
      assert.equal(res.status, 403, `${command}: ${res.body}`);
      assert.equal(JSON.parse(res.body).code, "scheme_refused");
    }
    assert.equal(await tabCount(s), before);
  });

  await t.step("--allow-scheme file opens it, for that command only", async () => {
    const opened = await run(["browser", "navigate", fileUrl, "--allow-scheme", "file"]);
    assert.equal(opened.code, 0, opened.stderr);
    const read = await run(["browser", "eval", "document.body.innerText"]);
    assert.match(read.stdout, /private notes of the user/);
    const again = await run(["browser", "navigate", fileUrl]);
    assert.equal(again.code, 1);
    const bad = await run(["browser", "navigate", fileUrl, "--allow-scheme", "fi le"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^mapper browser navigate: --allow-scheme "fi le" is not a URL scheme — /);
  });

  await t.step("MCP navigate and tabs new: refused unless the server was started with --allow-scheme", async () => {
    {
      await using mcp = await startMcp([], { cwd: s.cwd, home: s.env.HOME! });
      for (
        const [tool, args] of [["navigate", { url: fileUrl }], ["tabs", { action: "new", url: fileUrl }]] as const
      ) {
        const r = await mcp.call(tool, args);
        assert.equal(r.isError, true, `${tool}: ${r.text}`);
        assert.match(r.text, /^refusing to open "file:\/\/.*": file: URLs are opened only when you allow them/);
      }
    }
    await using allowed = await startMcp(["--allow-scheme", "file"], { cwd: s.cwd, home: s.env.HOME! });
    const r = await allowed.call("navigate", { url: fileUrl });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^navigated to file:\/\//);
  });
}

/**
 * The checks that need only a plain session share one (a session start is the dearest part of a browser test),
 * started on a magic-link URL: daemon API refusals first, then what a start leaves on command lines and in the log,
 * then the scheme refusals, which open tabs.
 */
Deno.test({
  name:
    "session security - one session: API refusals, no debugging port or secret, no start URL on a command line, scheme refusals",
  ignore: skipBrowserTests(),
  ...opts,
  async fn(t) {
    await using site = startSite();
    const url = `${site.origin}/index.html?login_token=magic-s3cret-42`;
    await using s = await startSession(["--url", url]);
    await t.step(
      "daemon API - refuses requests without the session secret, from a foreign Origin or a foreign Host (403)",
      (t) => daemonApiRefusals(t, s),
    );
    await t.step({
      name: "browser start - opens no TCP debugging port; the secret is on no command line and in no log",
      ignore: Deno.build.os !== "linux",
      fn: () => noDebuggingPortNoSecret(s),
    });
    await t.step({
      name: "browser start --url - the start URL reaches the detached daemon on standard input, never its command line",
      ignore: Deno.build.os !== "linux",
      fn: () => startUrlOffCommandLines(s, url),
    });
    await t.step(
      "page commands - file:, chrome:, devtools:, chrome-extension:, javascript:, view-source: and data: URLs are " +
        "refused unless --allow-scheme names the scheme; the daemon refuses them whatever asks",
      (t) => schemeRefusals(t, s),
    );
  },
});
