/**
 * `mapper console|network list|get` against a fake session daemon (canned API payloads on a loopback port): exact
 * layouts (goldens), flags forwarded as API queries, escaping, redaction, bodies, and every error path. No browser.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { assertGolden, runMapper, tempDir } from "./_helpers.ts";
import { firstOfEachCommand } from "./_in_process.ts";
import { redactHeaders } from "../src/browser/daemon_api.ts";
import { formatConsoleList, formatNetworkList } from "../src/browser/format.ts";
import { printSnapshot } from "../src/see/snapshot.ts";
import { oneButtonPage } from "../src/see/_testing.ts";

const TAB_A = "3B52829CC055BCB8BA95A2496C0A3716";
const TAB_B = "35025766AAAABBBBCCCCDDDDEEEEFFFF";

const consoleEntries = [
  {
    index: 139,
    level: "log",
    text: "hello \u001b[31mred\u001b[0m",
    tab: TAB_A,
    ts: 1795298000000,
    source: "console",
    matches: [],
  },
  {
    index: 140,
    level: "exception",
    text: "Uncaught TypeError: boom\n    at http://127.0.0.1:8765/index.html:22:32",
    tab: TAB_A,
    ts: 1795298000001,
    source: "exception",
    frame: { function: "go", url: "http://127.0.0.1:8765/index.html", line: 22, column: 32 },
    matches: ["UncaughtBoom"],
  },
  { index: 141, level: "warn", text: "page2 warn", tab: TAB_B, ts: 1795298000002, source: "console", matches: [] },
];

const netBase = {
  tab: TAB_A,
  ts: 1795298000000,
  hasRequestBody: false,
  responseBody: "live",
  matches: [],
};
const networkEntries = [
  {
    ...netBase,
    index: 175,
    method: "GET",
    url: "http://127.0.0.1:8765/index.html",
    state: "complete",
    status: 200,
    statusText: "OK",
    resourceType: "Document",
  },
  {
    ...netBase,
    index: 176,
    method: "POST",
    url: "http://127.0.0.1:8765/api/echo",
    state: "complete",
    status: 201,
    statusText: "Created",
    resourceType: "XHR",
    hasRequestBody: true,
    matches: ["EchoApi"],
  },
  {
    ...netBase,
    index: 177,
    method: "GET",
    url: "http://127.0.0.1:8765/api/hang",
    state: "pending",
    status: null,
    statusText: "",
    resourceType: "Fetch",
  },
  {
    ...netBase,
    index: 178,
    method: "GET",
    url: "http://127.0.0.1:1/refused",
    state: "failed",
    status: null,
    statusText: "",
    failure: "net::ERR_CONNECTION_REFUSED",
    resourceType: "Fetch",
  },
  {
    ...netBase,
    index: 179,
    method: "GET",
    url: "http://127.0.0.1:8765/a\u0007b",
    state: "complete",
    status: 302,
    statusText: "Found\u001b]0;pwned\u0007",
    resourceType: "Fetch",
    redirected: true,
  },
];

const BIG = "x".repeat(5000);

/** A page snapshot as the daemon answers it: one button. */
const PAGE_SNAPSHOT = oneButtonPage(TAB_A, "http://127.0.0.1:8765/index.html");

/** The daemon's `tab` filter: a full id or a prefix, case-insensitive. */
const onTab = (url: URL) => (e: { tab: string }) =>
  e.tab.toUpperCase().startsWith((url.searchParams.get("tab") ?? "").toUpperCase());

/**
 * `ok`: renders `format=text` lists as the real daemon does; `json-only`: a daemon of an older mapper, which ignores
 * `format` and answers JSON; `hostile-text`: lists in text with raw control characters in them.
 */
type Mode = "ok" | "json-only" | "hostile-text" | "starting" | "badjson" | "teapot";

const SESSION_ID = "5e55".repeat(8);
const SECRET = "5ec7".repeat(16);
const CHROMIUM_PID = 2 ** 30;

/**
 * A fake daemon: answers the handshake like the real one, refuses requests without the secret, redacts secret
 * headers unless `secrets=1`, and gives canned answers per path; remembers every other request path + query.
 */
function fakeDaemon(mode: Mode = "ok") {
  const seen: string[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (req.headers.get("authorization") !== `Bearer ${SECRET}`) {
      return json({ schema: 1, error: "no secret", code: "forbidden_secret" }, 403);
    }
    if (url.pathname === "/devtools/session") {
      return json({ schema: 1, sessionId: SESSION_ID, daemonPid: Deno.pid, chromiumPid: CHROMIUM_PID, port });
    }
    seen.push(url.pathname + url.search);
    if (mode === "starting") return json({ schema: 1, error: "the session is still starting", code: "starting" }, 503);
    if (mode === "teapot") return new Response("teapot\n", { status: 418 });
    if (mode === "badjson") return new Response("{nope", { headers: { "content-type": "application/json" } });
    const p = url.pathname;
    // deno-lint-ignore no-explicit-any
    const list = (payload: any, format: (p: any) => string) => {
      if (url.searchParams.get("format") !== "text" || mode === "json-only") return json(payload);
      const text = mode === "hostile-text" ? "\x1b]0;pwned\x07[1] \u202eevil\x1b[2J\n" : format(payload);
      const headers = { "content-type": "text/plain; charset=utf-8", "x-mapper-entries": `${payload.entries.length}` };
      return new Response(text, { headers });
    };
    if (p === "/devtools/console") {
      return list({
        schema: 1,
        dropped: 139,
        first: 139,
        last: 141,
        entries: consoleEntries.filter(onTab(url)),
      }, formatConsoleList);
    }
    if (p === "/devtools/status") {
      return json({
        schema: 1,
        tabs: [
          { id: TAB_A, url: "http://127.0.0.1:8765/index.html", title: "A" },
          { id: TAB_B, url: "http://127.0.0.1:8765/page2.html", title: "B" },
        ],
        console: { buffered: 3, dropped: 139 },
        network: { buffered: 5, dropped: 0 },
      });
    }
    if (p === "/devtools/console/140") return json({ schema: 1, entry: consoleEntries[1] });
    if (p === "/devtools/console/5") {
      return json({
        schema: 1,
        error: "console message index 5 is not buffered: it was dropped when the buffer overflowed; buffered: 139–141",
        code: "not_buffered",
        first: 139,
        last: 141,
      }, 404);
    }
    if (p === "/devtools/network") {
      const entries = networkEntries.filter(onTab(url));
      return list({ schema: 1, dropped: 0, first: 175, last: 179, entries }, formatNetworkList);
    }
    const m = /^\/devtools\/network\/(\d+)(\/body)?$/.exec(p);
    if (m) {
      const entry = networkEntries.find((e) => e.index === Number(m[1]));
      if (!entry) return json({ schema: 1, error: "not buffered", code: "not_buffered" }, 404);
      if (!m[2]) {
        return json({
          schema: 1,
          entry: {
            ...entry,
            requestHeaders: redactHeaders([
              { name: "Authorization", value: "Bearer s3cret" },
              { name: "Content-Type", value: "application/x-www-form-urlencoded" },
              { name: "Cookie", value: "a=b" },
              { name: "X-Long", value: "v".repeat(700) },
            ], url.searchParams.get("secrets") === "1"),
            responseHeaders: redactHeaders([
              { name: "Content-Type", value: "application/json" },
              { name: "Set-Cookie", value: "session=t0p" },
            ], url.searchParams.get("secrets") === "1"),
          },
        });
      }
      const kind = url.searchParams.get("kind");
      if (entry.index === 176 && kind === "request") {
        return new Response("a=1&b=two", { headers: { "content-type": "application/x-www-form-urlencoded" } });
      }
      if (entry.index === 176) return new Response(BIG, { headers: { "content-type": "text/plain" } });
      if (entry.index === 175) {
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), {
          headers: { "content-type": "image/png" },
        });
      }
      return json({
        schema: 1,
        error: "response body unavailable: the request is still pending: no response has arrived",
        code: "body_unavailable",
        reason: "the request is still pending: no response has arrived",
      }, 410);
    }
    if (p === "/devtools/page/snapshot") {
      // As the real daemon: with `print`, the snapshot laid out (raw control characters in `hostile-text`).
      return req.json().then(({ print }) => {
        if (print === undefined || mode === "json-only") return json(PAGE_SNAPSHOT);
        const printed = mode === "hostile-text"
          ? "\x1b]0;pwned\x07[1] \u202eevil\x1b[2J\n"
          : printSnapshot(PAGE_SNAPSHOT, print);
        return json({ schema: 1, tab: TAB_A, url: PAGE_SNAPSHOT.url, interactive: 1, printed });
      });
    }
    if (p === "/devtools/page/click") {
      // A list of the daemon's own (indented lines) around page text that tries to start lines of its own.
      const error = '2 matches:\n  #0  Card "one"\nmapper browser click: FORGED\u2028x\n\n  \u202eevil\u0085';
      return json({ schema: 1, error, code: "ambiguous", hint: "pick one\nmapper: FORGED" }, 409);
    }
    if (p === "/devtools/page/screenshot") {
      return json({ schema: 1, action: "screenshot", format: "png", data: btoa("\x89PNG fake"), width: 2, height: 1 });
    }
    return json({ schema: 1, error: "no such path", code: "not_found" }, 404);
  });
  port = server.addr.port;
  return { server, seen, port };
}

/** The file's mapper runs: each command's first call as a subprocess, its later calls in this process. */
const runOnce = firstOfEachCommand();

/**
 * Runs `fn` in a folder whose session file names a fake daemon in `mode`. A hostile daemon's answers (and any test
 * passing `everyCallASubprocess`) reach a subprocess on every call, as they would reach a user's.
 */
async function withSession(
  mode: Mode,
  fn: (run: (args: string[]) => ReturnType<typeof runMapper>, seen: string[], dir: string) => Promise<void>,
  { everyCallASubprocess = mode === "hostile-text" } = {},
) {
  await using tmp = await tempDir();
  const fake = fakeDaemon(mode);
  try {
    await Deno.mkdir(tmp.join(".mapper"));
    const session = {
      schema: 2,
      sessionId: SESSION_ID,
      secret: SECRET,
      daemonPid: Deno.pid,
      chromiumPid: CHROMIUM_PID,
      port: fake.port,
      profile: tmp.join("profile"),
      headless: true,
      startedAt: "",
      version: "0",
      log: null,
    };
    await Deno.writeTextFile(tmp.join(".mapper", ".session"), JSON.stringify(session), { mode: 0o600 });
    const options = { cwd: tmp.path, env: { HOME: tmp.join("home") } };
    const run = everyCallASubprocess ? runMapper : runOnce;
    await fn((args) => run(args, options), fake.seen, tmp.path);
  } finally {
    await fake.server.shutdown();
  }
}

for (const mode of ["ok", "json-only"] as const) {
  Deno.test(`console list - layout, tab column across tabs, escaping and the overflow line (${mode} daemon)`, async () => {
    await withSession(mode, async (run, seen) => {
      const res = await run(["console", "list"]);
      assert.equal(res.code, 0);
      assert.equal(res.stderr, "");
      await assertGolden("devtools/console-list.txt", res.stdout);
      const one = await run(["console", "list", "--tab", "3B52829C", "--level", "log,Exception", "--limit", "2"]);
      await assertGolden("devtools/console-list-one-tab.txt", one.stdout);
      // Text is asked of the daemon; one that answers JSON instead is formatted by the CLI, in one request.
      assert.deepEqual(seen.slice(-1), ["/devtools/console?level=log%2Cexception&tab=3B52829C&limit=2&format=text"]);
      const json = JSON.parse((await run(["console", "list", "--json"])).stdout);
      assert.equal(seen.at(-1), "/devtools/console", "--json asks for JSON");
      assert.equal(json.schema, 1);
      assert.equal(json.dropped, 139);
      assert.equal(json.entries.length, 3);
    });
  });
}

Deno.test("console|network list - a daemon's text reaches the terminal with every control character escaped", async () => {
  await withSession("hostile-text", async (run) => {
    for (const cmd of ["console", "network"]) {
      const res = await run([cmd, "list"]);
      assert.deepEqual([res.code, res.stderr], [0, ""]);
      assert.equal(res.stdout, "\\x1b]0;pwned\\x07[1] \\u202eevil\\x1b[2J\n");
    }
  });
});

Deno.test("snapshot - the daemon lays it out; a daemon that answers the page tree instead gets the same output", async () => {
  const outputs: Record<string, string[]> = {};
  for (const mode of ["ok", "json-only"] as const) {
    await withSession(mode, async (run) => {
      outputs[mode] = [];
      for (
        const args of [["snapshot"], ["snapshot", "--json"], ["snapshot", "--coverage"], ["snapshot", "--depth", "0"]]
      ) {
        const res = await run(args);
        assert.deepEqual([res.code, res.stderr], [0, ""], `${mode}: ${args.join(" ")}`);
        outputs[mode]!.push(res.stdout);
      }
    });
  }
  assert.match(outputs.ok![0]!, /^\[No corpus\]/);
  assert.match(outputs.ok![0]!, /^ 1 button "Go"$/m);
  assert.equal(JSON.parse(outputs.ok![1]!).tree.children[0].children[0].name, "Go");
  assert.doesNotMatch(outputs.ok![3]!, /"Go"/, "--depth 0 cuts the button off");
  assert.match(outputs.ok![2]!, /^\[Coverage\]/m);
  assert.deepEqual(outputs["json-only"], outputs.ok);
});

Deno.test("snapshot - a daemon's laid-out text reaches the terminal with every control character escaped", async () => {
  await withSession("hostile-text", async (run) => {
    const res = await run(["snapshot"]);
    assert.deepEqual([res.code, res.stderr], [0, ""]);
    assert.equal(res.stdout, "\\x1b]0;pwned\\x07[1] \\u202eevil\\x1b[2J\n");
  });
});

Deno.test("console get - header, text, source, matches; an evicted index names the buffered range", async () => {
  await withSession("ok", async (run) => {
    const res = await run(["console", "get", "140"]);
    assert.equal(res.code, 0);
    await assertGolden("devtools/console-get.txt", res.stdout);
    const gone = await run(["console", "get", "5"]);
    assert.equal(gone.code, 1);
    assert.equal(gone.stdout, "");
    assert.equal(
      gone.stderr,
      "mapper console get: console message index 5 is not buffered: it was dropped when the buffer overflowed; buffered: 139–141 — pick an index shown by 'mapper console list'\n",
    );
    const bad = await run(["console", "get", "abc"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /index must be a whole number, got "abc"/);
    const huge = await run(["console", "get", "99999999999999999999"]);
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /^mapper console get: index must be a whole number, got "99999999999999999999" — /);
  });
});

for (const mode of ["ok", "json-only"] as const) {
  Deno.test(`network list - layout with pending, failed and escaped URLs; filters forwarded (${mode} daemon)`, async () => {
    await withSession(mode, async (run, seen) => {
      const args = ["network", "list", "--type", "xhr", "--url", "API/echo", "--tab", TAB_A, "--limit", "10"];
      const res = await run(args);
      assert.equal(res.code, 0);
      await assertGolden("devtools/network-list.txt", res.stdout);
      assert.equal(seen.at(-1), `/devtools/network?type=xhr&url=API%2Fecho&tab=${TAB_A}&limit=10&format=text`);
    });
  });
}

Deno.test("network get - headers redacted and cut, body preview header, files, binary placeholder, unavailable body", async () => {
  await withSession("ok", async (run, seen, dir) => {
    const res = await run(["network", "get", "176"]);
    assert.equal(res.code, 0);
    assert.equal(res.stderr, "");
    await assertGolden("devtools/network-get.txt", res.stdout);
    const secrets = await run(["network", "get", "176", "--show-secrets"]);
    assert.match(secrets.stdout, /^ {2}Authorization: Bearer s3cret$/m);
    assert.match(secrets.stdout, /^ {2}Set-Cookie: session=t0p$/m);
    const files = await run(["network", "get", "176", "--request-file", "req.txt", "--response-file", "rsp.txt"]);
    assert.equal(files.code, 0);
    assert.equal(files.stderr, "request body saved: req.txt (9 bytes)\nresponse body saved: rsp.txt (5000 bytes)\n");
    assert.equal(await Deno.readTextFile(join(dir, "req.txt")), "a=1&b=two");
    assert.equal(await Deno.readTextFile(join(dir, "rsp.txt")), BIG);
    assert.ok(!files.stdout.includes("Response Body"));
    const bin = await run(["network", "get", "175"]);
    assert.match(bin.stdout, /\nResponse Body: <binary, 7 bytes, image\/png — use --response-file>\n$/);
    const pending = await run(["network", "get", "177"]);
    assert.equal(pending.code, 0);
    assert.match(pending.stdout, /^Status: pending$/m);
    assert.equal(pending.stderr, "response body unavailable: the request is still pending: no response has arrived\n");
    assert.ok(seen.includes("/devtools/network/176?secrets=1"), "--show-secrets asks the daemon for them");
    const failed = await run(["network", "get", "178", "--request-file", "x.bin"]);
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, "");
    const json = JSON.parse((await run(["network", "get", "176", "--json"])).stdout);
    assert.equal(json.schema, 1);
    assert.equal(json.entry.requestHeaders[0].value, "<redacted, 13 bytes — use --show-secrets>");
    assert.deepEqual(json.requestBody, {
      available: true,
      size: 9,
      contentType: "application/x-www-form-urlencoded",
      binary: false,
      preview: "a=1&b=two",
      truncated: false,
    });
    assert.equal(json.responseBody.size, 5000);
    assert.equal(json.responseBody.truncated, true);
    assert.equal(json.responseBody.preview.length, 4096);
  });
});

Deno.test("network get --response-file - an unavailable body exits 1 with one line and writes nothing", async () => {
  await withSession("ok", async (run, _seen, dir) => {
    const res = await run(["network", "get", "177", "--response-file", "rsp.bin"]);
    assert.equal(res.code, 1);
    assert.equal(res.stdout, "");
    assert.equal(
      res.stderr,
      "mapper network get: response body unavailable: the request is still pending: no response has arrived — nothing was written; fetch the page again and run 'mapper network get' on the new request\n",
    );
    await assert.rejects(Deno.stat(join(dir, "rsp.bin")), Deno.errors.NotFound);
  });
});

Deno.test("network get - a body file that cannot be written fails with one line, empty stdout and no file", async () => {
  await withSession("ok", async (run, _seen, dir) => {
    await Deno.mkdir(join(dir, "adir"));
    for (const target of ["missing/rsp.txt", "adir"]) {
      const res = await run(["network", "get", "176", "--response-file", target]);
      assert.equal(res.code, 1);
      assert.equal(res.stdout, "");
      assert.match(
        res.stderr,
        new RegExp(
          `^mapper network get: cannot write "${target}": .* — (pass a file path in an existing, writable directory|give the path of a file to create or replace)\n$`,
        ),
      );
    }
    await assert.rejects(Deno.stat(join(dir, "missing")), Deno.errors.NotFound);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(join(dir, "adir"))), []);
  });
});

Deno.test("devtools commands - no session, a starting session and a broken daemon each fail with one clear line", async () => {
  await using tmp = await tempDir();
  for (
    const args of [["console", "list"], ["console", "get", "1"], ["network", "list"], [
      "network",
      "get",
      "3",
      "--response-file",
      "x.bin",
    ]]
  ) {
    const res = await runMapper(args, { cwd: tmp.path, env: { HOME: tmp.join("home") } });
    assert.equal(res.code, 1, args.join(" "));
    assert.equal(res.stdout, "");
    assert.equal(
      res.stderr,
      `mapper ${args[0]} ${
        args[1]
      }: no running session here or in any parent of ${tmp.path} — run 'mapper browser start' in your project folder, or pass --dir <project>/.mapper\n`,
    );
  }
  await withSession("starting", async (run) => {
    const res = await run(["console", "list"]);
    assert.equal(res.code, 1);
    assert.equal(res.stderr, "mapper console list: the session is still starting — retry in a moment\n");
  });
  await withSession("teapot", async (run) => {
    const res = await run(["network", "get", "1"]);
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      "mapper network get: the session daemon answered 418: teapot — check 'mapper browser status'\n",
    );
  });
  await withSession("badjson", async (run) => {
    const res = await run(["network", "list"]);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^mapper network list: the session daemon sent invalid JSON for "\/devtools\/network": /);
  });
});

Deno.test("devtools commands - the session is found walking up from a subdirectory, and the stderr line names it", async () => {
  await withSession("ok", async (_run, _seen, dir) => {
    const sub = join(dir, "src", "deep");
    await Deno.mkdir(sub, { recursive: true });
    const env = { HOME: join(dir, "home") };
    const res = await runMapper(["console", "list", "--json"], { cwd: sub, env });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, `using the session of ${join(dir, ".mapper")}\n`);
    assert.equal(JSON.parse(res.stdout).entries.length, 3);
    // In the project folder itself: no line.
    const here = await runMapper(["network", "list"], { cwd: dir, env });
    assert.deepEqual([here.code, here.stderr], [0, ""]);
    // A nearer .mapper/ without a session does not hide the project's session above it.
    await Deno.mkdir(join(dir, "src", ".mapper"));
    const nested = await runMapper(["network", "get", "176"], { cwd: sub, env });
    assert.equal(nested.code, 0, nested.stderr);
    assert.equal(nested.stderr, `using the session of ${join(dir, ".mapper")}\n`);
  });
});

Deno.test("devtools commands - --dir reaches a session from a sibling directory; a --dir without one names it in the hint", async () => {
  await withSession("ok", async (_run, _seen, dir) => {
    await using other = await tempDir();
    const env = { HOME: join(dir, "home") };
    const res = await runMapper(["console", "list", "--dir", join(dir, ".mapper")], { cwd: other.path, env });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, "");
    await assertGolden("devtools/console-list.txt", res.stdout);
    const none = await runMapper(["network", "list", "--dir", "x/.mapper"], { cwd: other.path, env });
    assert.equal(none.code, 1);
    assert.equal(
      none.stderr,
      "mapper network list: no running session in x/.mapper — start one with 'mapper browser start --dir x/.mapper'\n",
    );
    // A project .mapper/ without a session: the hint's start would use that same directory.
    await Deno.mkdir(other.join(".mapper"));
    await Deno.mkdir(other.join("sub"));
    const parent = await runMapper(["console", "list"], { cwd: other.join("sub"), env });
    assert.equal(parent.code, 1);
    assert.equal(
      parent.stderr,
      `mapper console list: no running session for ${
        other.join(".mapper")
      } — start one with 'mapper browser start' (it uses that directory)\n`,
    );
  });
});

for (const mode of ["ok", "json-only"] as const) {
  Deno.test(`devtools list - an unknown --type, --tab or --level exits 2 listing the valid values, not an empty list (${mode} daemon)`, async () => {
    await withSession(mode, async (run, seen) => {
      const type = await run(["network", "list", "--type", "Bogus"]);
      assert.equal(type.code, 2);
      assert.equal(type.stdout, "");
      assert.equal(
        type.stderr,
        'mapper network list: unknown resource type "Bogus" — use one of Document, Stylesheet, Image, Media, Font, Script, TextTrack, XHR, Fetch, Prefetch, EventSource, WebSocket, Manifest, SignedExchange, Ping, CSPViolationReport, Preflight, FedCM, Other\n',
      );
      assert.ok(!seen.some((s) => s.includes("Bogus")), "a bad type never reaches the daemon");
      const tabLine =
        'no tab of this session has the id "nope" — use one of 3B52829C (http://127.0.0.1:8765/index.html), 35025766 (http://127.0.0.1:8765/page2.html)\n';
      for (const cmd of ["console", "network"]) {
        const tab = await run([cmd, "list", "--tab", "nope"]);
        assert.equal(tab.code, 2, tab.stderr);
        assert.equal(tab.stdout, "");
        assert.equal(tab.stderr, `mapper ${cmd} list: ${tabLine}`);
      }
      // A tab of the session with nothing captured is an empty list, not an error.
      const quiet = await run(["network", "list", "--tab", TAB_B.slice(0, 8)]);
      assert.deepEqual([quiet.code, quiet.stderr], [0, ""]);
      const level = await run(["console", "list", "--level", "loud"]);
      assert.equal(level.code, 2);
      assert.equal(
        level.stderr,
        'mapper console list: unknown level "loud" — use a comma list of log, debug, info, warn, error, exception\n',
      );
    });
  });
}

Deno.test("network get - text output says a request body exists: its size, type and how to get it", async () => {
  await withSession("ok", async (run) => {
    const post = await run(["network", "get", "176"]);
    assert.equal(post.code, 0);
    assert.match(
      post.stdout,
      /^Request Body: 9 bytes, application\/x-www-form-urlencoded — save it with --request-file FILE \(or see it with --json\)$/m,
    );
    const get = await run(["network", "get", "175"]);
    assert.doesNotMatch(get.stdout, /Request Body/);
  });
});

Deno.test("files mapper writes - a planted symlink at --out, --response-file or --request-file is replaced, never written through; new files are 0600, an existing file keeps its mode", async () => {
  await withSession("ok", async (run, _seen, dir) => {
    const commands: Array<[string, string[]]> = [
      ["snap.txt", ["snapshot", "--out", "snap.txt"]],
      ["shot.png", ["browser", "screenshot", "--out", "shot.png"]],
      ["rsp.txt", ["network", "get", "176", "--response-file", "rsp.txt"]],
      ["req.txt", ["network", "get", "176", "--request-file", "req.txt"]],
    ];
    for (const [file, args] of commands) {
      // The victim's file, and a link to it where mapper will write (a hostile page's bytes must not land in it).
      const victim = join(dir, `victim-${file}`);
      await Deno.writeTextFile(victim, "# my shell start-up\n", { mode: 0o644 });
      await Deno.symlink(victim, join(dir, file));
      const res = await run(args);
      assert.equal(res.code, 0, `${args.join(" ")}: ${res.stderr}`);
      assert.equal(
        await Deno.readTextFile(victim),
        "# my shell start-up\n",
        `${args.join(" ")} wrote through the link`,
      );
      const info = await Deno.lstat(join(dir, file));
      assert.ok(info.isFile && !info.isSymlink, `${file} is a file of its own now`);
      if (Deno.build.os !== "windows") {
        assert.equal(info.mode! & 0o777, 0o600, `${file}: a new file is private`);
        // Written again over a file the user made readable: their mode stays.
        await Deno.chmod(join(dir, file), 0o640);
        assert.equal((await run(args)).code, 0);
        assert.equal((await Deno.stat(join(dir, file))).mode! & 0o777, 0o640, `${file}: the user's mode is kept`);
      }
    }
    assert.equal(await Deno.readTextFile(join(dir, "rsp.txt")), BIG);
    assert.match(await Deno.readTextFile(join(dir, "snap.txt")), /button "Go"/);
    const left = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n.endsWith(".tmp"));
    assert.deepEqual(left, [], "no temporary file is left behind");
  }, { everyCallASubprocess: true });
});

Deno.test("page commands - a daemon's error keeps its own indented list lines; any other newline or invisible character is shown", async () => {
  await withSession("ok", async (run) => {
    const r = await run(["browser", "click", "Card"]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'mapper browser click: 2 matches:\n  #0  Card "one"\\nmapper browser click: FORGED\\u2028x\\n\n  \\u202eevil\\x85' +
        " — pick one\\nmapper: FORGED\n",
    );
  });
});
