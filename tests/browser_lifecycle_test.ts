/**
 * Session lifecycle with real Chromium: foreground start and SIGTERM, Chromium dying under the daemon (on sessions
 * started with --wait none and on about:blank, whose start lines are checked there), stale and unreadable session
 * files, the busy-port slide, and browser discovery errors (these last need no browser).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv, mapperCommand, ROOT, runMapper, tempDir } from "./_helpers.ts";
import { alive, reap, requireBrowser, skipBrowserTests, startSession, waitFor, waitForLog } from "./site/harness.ts";
import { startSite } from "./site/server.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "browser start - foreground until SIGTERM: slides off a busy port, replaces an old extension, serves a broken corpus empty until fixed",
  ignore: skipBrowserTests(),
  ...opts,
  async fn() {
    await using tmp = await tempDir();
    const cwd = tmp.join("site");
    // A broken corpus does not stop the session: it is served empty and picked up once fixed.
    await Deno.mkdir(join(cwd, ".mapper"), { recursive: true });
    await Deno.writeTextFile(join(cwd, ".mapper", "site.yaml"), "views: [\n");
    // An extension extracted by an older release: replaced whole (the stray file goes) by the bundled version.
    const extDir = tmp.join("home", ".mapper", "extension");
    await Deno.mkdir(extDir, { recursive: true });
    await Deno.writeTextFile(
      join(extDir, "manifest.json"),
      JSON.stringify({ name: "Mapper Overlay", version: "0.0.1" }),
    );
    await Deno.writeTextFile(join(extDir, "stray.js"), "old");
    const bundled = JSON.parse(await Deno.readTextFile(join(ROOT, "assets", "extension", "manifest.json"))).version;
    // Something already listens on the requested port: the daemon slides to the next one.
    using busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const wanted = (busy.addr as Deno.NetAddr).port;
    const child = new Deno.Command(Deno.execPath(), {
      args: mapperCommand([
        "browser",
        "start",
        "--port",
        String(wanted),
        "--profile",
        tmp.join("profile"),
        "--browser",
        requireBrowser(),
      ]),
      cwd,
      env: { ...baseEnv(tmp.join("home")), DISPLAY: "", WAYLAND_DISPLAY: "" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const decoder = new TextDecoder();
    let out = "";
    const reader = child.stdout.getReader();
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        out += decoder.decode(value);
      }
    })();
    const errText = new Response(child.stderr).text();
    let info: { daemonPid: number; chromiumPid: number; port: number } | undefined;
    // Ready, or gone: the start has its own bounds (Chromium's, the daemon's), so no clock of the test's own, which
    // a loaded machine outran (20 s with four test files at a time).
    let ended: Deno.CommandStatus | undefined;
    child.status.then((s) => (ended = s), () => {});
    try {
      await waitFor("the ready block", () => out.includes("● ready") || ended !== undefined, Infinity);
      if (ended !== undefined) {
        assert.fail(`browser start exited (${ended.code}) before it was ready:\n${await errText}`);
      }
      info = JSON.parse(await Deno.readTextFile(join(cwd, ".mapper", ".session")));
      assert.equal(info!.daemonPid, child.pid);
      assert.notEqual(info!.port, wanted, "a busy port makes the daemon slide");
      assert.ok(info!.port > wanted && info!.port < wanted + 100);
      assert.match(out, /^ {2}stop: {5}Ctrl-C here, or 'mapper browser stop'$/m);
      const version = await fetch(`http://127.0.0.1:${info!.port}/mapper/version`);
      assert.equal(version.status, 200);
      assert.equal(version.headers.get("access-control-allow-origin"), "*");
      await version.body?.cancel();
      const corpus = () => fetch(`http://127.0.0.1:${info!.port}/mapper`).then((r) => r.json());
      assert.deepEqual((await corpus()).views, []);
      await Deno.copyFile(
        join(ROOT, "tests", "fixtures", "browser", "corpus", "site.yaml"),
        join(cwd, ".mapper", "site.yaml"),
      );
      await waitFor("the fixed corpus to be served", async () => (await corpus()).views.length === 2);
      child.kill("SIGTERM");
      const status = await child.status;
      assert.equal(status.code, 0);
      await pump;
      const err = await errText;
      assert.match(err, /no display \(\$DISPLAY\/\$WAYLAND_DISPLAY unset\): running headless\n/);
      assert.equal(err.match(/running headless/g)?.length, 1, "said once");
      assert.ok(err.includes(`[browser] installed extension v${bundled} → ${extDir}\n`), err);
      assert.equal(JSON.parse(await Deno.readTextFile(join(extDir, "manifest.json"))).version, bundled);
      await assert.rejects(Deno.stat(join(extDir, "stray.js")));
      assert.match(err, /\[browser\] compile error: /);
      assert.match(err, /\[browser\] recompiled \(v\d+\)\n/);
      assert.match(err, /\[browser\] stopping…\n/);
      await waitFor("Chromium to exit", () => !alive(info!.chromiumPid), 5000);
      await assert.rejects(Deno.stat(join(cwd, ".mapper", ".session")));
    } finally {
      if (info) reap(info.chromiumPid);
      try {
        child.kill("SIGKILL");
      } catch {
        // gone
      }
      await child.status;
    }
  },
});

Deno.test({
  name:
    "browser session - --url opens the first page captured, also with --wait none; Chromium dying ends the daemon and removes the session file",
  ignore: skipBrowserTests(),
  ...opts,
  async fn() {
    await using site = startSite();
    // --url on a first start: the page is opened once the collector runs, so its first requests are captured, also
    // when start did not wait for the page (and said so).
    await using s = await startSession(["--url", `${site.origin}/index.html`, "--wait", "none"]);
    assert.equal(s.started.stderr, "");
    assert.ok(
      s.started.stdout.split("\n")
        .includes("  waited for: the daemon only (--wait none); the first page may still be loading"),
      s.started.stdout,
    );
    await waitForLog(s, "index done");
    const doc = await s.run(["network", "list", "--type", "document"]);
    assert.match(
      doc.stdout,
      new RegExp(
        `^\\[\\d+\\] \\[--\\] GET ${site.origin.replace(/\./g, "\\.")}/index\\.html → 200 OK \\(Document\\)$`,
        "m",
      ),
    );
    Deno.kill(s.chromiumPid, "SIGKILL");
    await waitFor("the daemon to exit", () => !alive(s.daemonPid), 10_000);
    await assert.rejects(Deno.stat(join(s.cwd, ".mapper", ".session")));
    const list = await s.run(["network", "list"]);
    assert.equal(list.code, 1);
    assert.equal(list.stderr, "mapper network list: no running session — start one with 'mapper browser start'\n");
    const log = await Deno.readTextFile(s.log);
    assert.match(log, /Chromium exited — session ended/);
  },
});

Deno.test({
  name:
    "browser session - --url about:blank has nothing to wait for; a daemon killed with SIGKILL takes Chromium with it (its pipe closes); the file is then reported stale",
  ignore: skipBrowserTests(),
  ...opts,
  async fn() {
    // It used to wait out the whole 15 s bound for a document request about:blank never makes, then warn.
    await using s = await startSession(["--url", "about:blank"]);
    assert.equal(s.started.stderr, "");
    assert.ok(
      s.started.stdout.split("\n").includes("  waited for: the daemon (about:blank has nothing to load)"),
      s.started.stdout,
    );
    Deno.kill(s.daemonPid, "SIGKILL");
    await waitFor("the daemon to die", () => !alive(s.daemonPid), 5000);
    await waitFor("Chromium to leave once its DevTools pipe closed", () => !alive(s.chromiumPid), 10_000);
    const st = await s.run(["browser", "status"]);
    assert.equal(st.code, 0);
    assert.equal(st.stdout, "○ no session\n");
    assert.equal(
      st.stderr,
      `removed a stale session file "${
        join(s.cwd, ".mapper", ".session")
      }" (its daemon pid ${s.daemonPid} is not running); nothing was signalled\n`,
    );
    await assert.rejects(Deno.stat(join(s.cwd, ".mapper", ".session")));
    const list = await s.run(["console", "list"]);
    assert.equal(list.code, 1);
    assert.equal(list.stderr, "mapper console list: no running session — start one with 'mapper browser start'\n");
  },
});

Deno.test("browser session - a stale session file (dead pids) is detected, reported once and removed", async () => {
  await using tmp = await tempDir();
  const dir = tmp.join(".mapper");
  await Deno.mkdir(dir);
  // A pid that cannot be alive: beyond pid_max.
  const stale = {
    schema: 2,
    sessionId: "0".repeat(32),
    secret: "1".repeat(64),
    daemonPid: 2 ** 30,
    chromiumPid: 2 ** 30 + 1,
    port: 1,
    profile: "/nowhere",
    headless: true,
    startedAt: "",
    version: "0",
    log: null,
  };
  const plant = () => Deno.writeTextFile(join(dir, ".session"), JSON.stringify(stale), { mode: 0o600 });
  const line = `removed a stale session file "${
    join(dir, ".session")
  }" (its daemon pid 1073741824 is not running); nothing was signalled\n`;
  await plant();
  const env = { HOME: tmp.join("home") };
  const list = await runMapper(["console", "list"], { cwd: tmp.path, env });
  assert.equal(list.code, 1);
  assert.equal(list.stderr, `${line}mapper console list: no running session — start one with 'mapper browser start'\n`);
  await assert.rejects(Deno.stat(join(dir, ".session")));
  await plant();
  const st = await runMapper(["browser", "status"], { cwd: tmp.path, env });
  assert.equal(st.code, 0);
  assert.equal(st.stdout, "○ no session\n");
  assert.equal(st.stderr, line);
  await assert.rejects(Deno.stat(join(dir, ".session")));
  const stop = await runMapper(["browser", "stop"], { cwd: tmp.path, env });
  assert.equal(stop.code, 0);
  assert.equal(stop.stderr, "no running session\n");
  const json = JSON.parse((await runMapper(["browser", "status", "--json"], { cwd: tmp.path, env })).stdout);
  assert.deepEqual(json, { schema: 1, state: "none" });
});

Deno.test("browser start - without any browser names all three ways to provide one", async () => {
  await using tmp = await tempDir();
  const res = await runMapper(["browser", "start"], { cwd: tmp.path, env: { HOME: tmp.join("home"), PATH: tmp.path } });
  assert.equal(res.code, 1);
  assert.equal(
    res.stderr,
    "mapper browser start: no Chromium or Chrome found (looked for chromium, chromium-browser, google-chrome, google-chrome-stable on PATH) — pass --browser PATH, set MAPPER_BROWSER, or install chromium\n",
  );
  const env = await runMapper(["browser", "start"], {
    cwd: tmp.path,
    env: { HOME: tmp.join("home"), MAPPER_BROWSER: "/no/such/chrome" },
  });
  assert.equal(env.code, 1);
  assert.match(env.stderr, /browser "\/no\/such\/chrome" from MAPPER_BROWSER is not an executable file/);
  const flag = await runMapper(["browser", "start", "--browser", join(ROOT, "README-missing")], {
    cwd: tmp.path,
    env: { HOME: tmp.join("home") },
  });
  assert.equal(flag.code, 1);
  assert.match(flag.stderr, /given with --browser is not an executable file/);
});
