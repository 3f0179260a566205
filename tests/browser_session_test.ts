/**
 * Real Chromium (headless, loopback): detached sessions asserting on the collector and on `mapper console|network
 * list|get`. The start/stop and ring-overflow cases each have a session of their own; the capture cases share one (a
 * Chromium start costs seconds), each on its own tab. Skipped with one loud line when no browser is found (unless
 * MAPPER_REQUIRE_BROWSER=1).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, tempDir } from "./_helpers.ts";
import { inProcessAfterFirst } from "./_in_process.ts";
import { chromiumArgs, launchChromium } from "../src/browser/chromium.ts";
import { Collector } from "../src/browser/collector.ts";
import { processStartTime } from "../src/browser/process.ts";
import { BIG, PNG, type Site, startSite } from "./site/server.ts";
import {
  alive,
  openTab,
  requireBrowser,
  skipBrowserTests,
  startSession,
  TEST_FLAGS,
  type TestSession,
  waitFor,
  waitForLog,
} from "./site/harness.ts";

type Net = {
  index: number;
  method: string;
  url: string;
  status: number | null;
  resourceType: string;
  state: string;
  tab: string;
};
type Con = { index: number; level: string; text: string; tab: string };
type List<T> = { schema: number; dropped: number; first: number; last: number; entries: T[] };

const CORPUS = join(ROOT, "tests", "fixtures", "browser", "corpus");

/** A test on a detached session of its own (with the fixture corpus) and the test site. */
function sessionTest(
  name: string,
  fn: (
    s: TestSession,
    site: Site,
    net: () => Promise<List<Net>>,
    findNet: (pred: (e: Net) => boolean) => Promise<Net | undefined>,
    t: Deno.TestContext,
  ) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: skipBrowserTests(),
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      await using site = startSite();
      await using session = await startSession([], CORPUS);
      // Dozens of console/network calls per test: each command's first call is a subprocess, the rest in process.
      const s = inProcessAfterFirst(session);
      const net = () => s.api<List<Net>>("/devtools/network");
      const findNet = async (pred: (e: Net) => boolean) => (await net()).entries.find(pred);
      await fn(s, site, net, findNet, t);
    },
  });
}

sessionTest(
  "browser start --detach - writes a 0600 session file, status reports it running, the 1000-entry rings overflow, count drops and name the available range, stop ends exactly its processes",
  async (s, site, net, _findNet) => {
    { // start --detach writes a 0600 session file and status reports it running
      const st = await Deno.stat(join(s.cwd, ".mapper", ".session"));
      assert.equal((st.mode ?? 0) & 0o777, 0o600);
      assert.ok(alive(s.daemonPid) && alive(s.chromiumPid));
      // Where the OS tells it, the daemon records when it started: clients trust the file by it (no handshake).
      const recorded = JSON.parse(await Deno.readTextFile(join(s.cwd, ".mapper", ".session"))).daemonStart;
      assert.equal(recorded, processStartTime(s.daemonPid));
      if (Deno.build.os === "linux") assert.ok(Number.isSafeInteger(recorded));
      const status = await s.run(["browser", "status"]);
      assert.equal(status.code, 0);
      assert.match(
        status.stdout,
        new RegExp(
          `^● running {2}http://127\\.0\\.0\\.1:${s.port} {2}\\(daemon pid ${s.daemonPid}, chromium pid ${s.chromiumPid}, headless\\)`,
        ),
      );
      const statusJson = (await s.run(["browser", "status", "--json"])).stdout;
      const json = JSON.parse(statusJson);
      assert.equal(json.schema, 1);
      assert.equal(json.state, "running");
      assert.equal(json.session.port, s.port);
      assert.ok(!statusJson.includes(s.secret), "status --json never shows the secret");
      // The detached log is private to the project (keyed by the corpus directory's real path) and mode 0600.
      const log = s.log;
      assert.match(log, /\/\.mapper\/logs\/site-[0-9a-f]{12}-daemon\.log$/);
      assert.equal(((await Deno.stat(log)).mode ?? 0) & 0o777, 0o600);
      await waitFor(
        "the extension to be told the daemon's port",
        async () => (await Deno.readTextFile(log)).includes(`[browser] told the extension the port (${s.port})`),
      );
      const empty = await s.run(["console", "list"]);
      assert.equal(empty.stdout, "No console messages captured.\n");
      const text = await Deno.readTextFile(log);
      assert.ok(!text.includes(s.secret), "the log never holds the secret");
      assert.ok(!/ws:\/\/|devtools\/browser/.test(text), "nor a DevTools endpoint");
    }
    { // the 1000-entry rings overflow, count drops and name the available range (before the stop: a session
      // of its own would cost a Chromium start)
      await openTab(s, `${site.origin}/burst.html?tag=ovf&logs=1100&fetches=1100`);
      await waitForLog(s, "ovf done", 60_000);
      const c = await s.api<List<Con>>("/devtools/console");
      assert.equal(c.entries.length, 1000);
      assert.ok(c.dropped > 0);
      assert.equal(c.first, c.dropped);
      const texts = new Set(c.entries.map((e) => e.text));
      for (let i = 1100 - 900; i < 1100; i++) assert.ok(texts.has(`ovf ${i}`), `ovf ${i}`);
      const out = (await s.run(["console", "list", "--limit", "1"])).stdout;
      // A late entry (the favicon's 404) may push one more out between the two reads: at least as many dropped.
      const dropped = /\n\((\d+) earlier console entries dropped — buffer overflowed\)\n$/.exec(out);
      assert.ok(dropped && Number(dropped[1]) >= c.dropped, out);
      const n = await net();
      // Once every fetch answered, the ring holds only them (and the tab's favicon, a fresh session's first).
      await waitFor(
        "all 1100 fetches",
        async () =>
          (await net()).entries.filter((e) => !e.url.endsWith("/favicon.ico"))
            .every((e) => e.url.includes("/api/n/ovf-") && e.status === 200) || undefined,
      );
      assert.ok(n.dropped > 0);
      assert.match(
        (await s.run(["network", "list", "--limit", "1"])).stdout,
        /\(\d+ earlier network entries dropped — buffer overflowed\)\n$/,
      );
      const gone = await s.run(["console", "get", "0"]);
      assert.equal(gone.code, 1);
      // The same late entry may have pushed one more out since the first read.
      const range =
        /console message index 0 is not buffered: it was dropped when the buffer overflowed; buffered: (\d+)–\d+/
          .exec(gone.stderr);
      assert.ok(range && Number(range[1]) >= c.first, gone.stderr);
    }
    { // browser stop ends exactly its processes and removes the session file
      const stop = await s.run(["browser", "stop"]);
      assert.equal(stop.code, 0, stop.stderr);
      assert.equal(stop.stderr, `stopped (daemon pid ${s.daemonPid}, chromium pid ${s.chromiumPid})\n`);
      assert.ok(!alive(s.daemonPid) && !alive(s.chromiumPid));
      await assert.rejects(Deno.stat(join(s.cwd, ".mapper", ".session")));
      assert.equal((await s.run(["browser", "status"])).stdout, "○ no session\n");
      const list = await s.run(["console", "list"]);
      assert.equal(list.code, 1);
      assert.equal(list.stderr, "mapper console list: no running session — start one with 'mapper browser start'\n");
    }
  },
);

sessionTest(
  "browser session - one session, a tab per page: console, network, frames and popups, retained bodies, corpus names, bursts",
  async (s, site, net, findNet, t) => {
    // Each case opens its pages once and later ones reuse those tabs: a name appears once per page (a second tab
    // of a page would double it), and the burst comes last, well inside the 1000-entry rings.
    let indexTab = "";
    let apiTab = "";
    await t.step("captures every console level and a new tab's first requests; console filters and get", async () => {
      { // a second start opens a tab; its first requests and every console level are captured
        indexTab = await openTab(s, `${site.origin}/index.html`);
        await waitForLog(s, "index done");
        const list = await s.run(["console", "list", "--tab", indexTab.slice(0, 8)]);
        assert.equal(list.code, 0, list.stderr);
        const out = list.stdout;
        assert.match(
          out,
          /^\[\d+\] \[[^\]]+\] +log {7}log message 42 true null undefined \{a: 1, b: 'x'\} \(2\) \[1, 2\]$/m,
        );
        assert.match(out, /^\[\d+\] \[[^\]]+\] +debug {5}debug message$/m);
        assert.match(out, /^\[\d+\] \[[^\]]+\] +info {6}info message$/m);
        assert.match(out, /^\[\d+\] \[[^\]]+\] +warn {6}warn message$/m);
        assert.match(
          out,
          /^\[\d+\] \[AnyWarning\] +warn {6}warn message$/m,
          "the slot names the matched corpus message",
        );
        assert.match(out, /^\[\d+\] \[--\] +info {6}info message$/m, "[--] when nothing matched");
        assert.match(out, /^\[\d+\] \[[^\]]+\] +error {5}error message$/m);
        assert.match(out, /^\[\d+\] \[[^\]]+\] +log {7}format str and 7$/m);
        assert.match(
          out,
          /^\[\d+\] \[[^\]]+\] +log {7}control \\x1b\[31mred\\x1b\[0m end$/m,
          "control characters are escaped",
        );
        assert.match(
          out,
          /^\[\d+\] \[[^\]]+\] +exception Uncaught TypeError: uncaught boom\\n {4}at http:\/\/127\.0\.0\.1:\d+\/index\.html:\d+:\d+$/m,
          "a multi-line message stays on its entry's line",
        );
        assert.match(out, /^\[\d+\] \[[^\]]+\] +exception Uncaught \(in promise\) Error: rejected promise\\n/m);
        assert.match(out, /^\[\d+\] \[[^\]]+\] +info {6}app\.js loaded$/m);
        assert.ok(!out.includes("\u001b"), "no raw escape reaches the terminal");

        const nl = (await s.run(["network", "list", "--tab", indexTab])).stdout;
        const o = site.origin.replace(/\./g, "\\.");
        assert.match(nl, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/index\\.html → 200 OK \\(Document\\)$`, "m"));
        assert.match(nl, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/style\\.css → 200 OK \\(Stylesheet\\)$`, "m"));
        assert.match(nl, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/app\\.js → 200 OK \\(Script\\)$`, "m"));
        assert.match(
          nl,
          new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/missing\\.js → 404 Not Found \\(Script\\)$`, "m"),
        );
        assert.match(nl, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/img\\.png → 200 OK \\(Image\\)$`, "m"));
        assert.match(nl, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/font\\.woff2 → 200 OK \\(Font\\)$`, "m"));
        // An image body is not retained: it is fetched on demand from the tab that loaded it, byte for byte.
        const img = /^\[(\d+)\] \[[^\]]+\] +GET \S+\/img\.png /m.exec(nl)!;
        const imgFile = join(s.tmp.path, "img.png");
        const got = await s.run(["network", "get", img[1]!, "--response-file", imgFile]);
        assert.equal(got.stderr, `response body saved: ${imgFile} (${PNG.length} bytes)\n`);
        assert.deepEqual(await Deno.readFile(imgFile), PNG);
      }
      { // console list filters: --level comma list, --limit, --json; get shows one message
        const lv = await s.run(["console", "list", "--level", "warn,exception", "--tab", indexTab]);
        const levels = new Set(
          lv.stdout.split("\n").filter((l) => /^\[\d+\]/.test(l)).map((l) =>
            l.replace(/^\[\d+\] \[[^\]]+\] +/, "").split(/\s+/)[0]
          ),
        );
        assert.deepEqual([...levels].sort(), ["exception", "warn"]);
        const bad = await s.run(["console", "list", "--level", "loud"]);
        assert.equal(bad.code, 2);
        assert.match(bad.stderr, /unknown level "loud"/);
        const lim = await s.run(["console", "list", "--limit", "2"]);
        assert.equal(lim.stdout.trim().split("\n").filter((l) => /^\[\d+\]/.test(l)).length, 2);
        const json = JSON.parse((await s.run(["console", "list", "--json", "--level", "exception"])).stdout);
        assert.equal(json.schema, 1);
        assert.ok(json.entries.length >= 2);
        const boom = json.entries.find((e: Con) => e.text.includes("uncaught boom"));
        const get = await s.run(["console", "get", String(boom.index)]);
        assert.equal(get.code, 0);
        assert.match(
          get.stdout,
          new RegExp(
            `^\\[${boom.index}\\] exception  \\(tab ${
              indexTab.slice(0, 8)
            }\\)\n {2}Uncaught TypeError: uncaught boom\n`,
          ),
        );
        assert.match(get.stdout, /^Source: http:\/\/127\.0\.0\.1:\d+\/index\.html:\d+:\d+$/m);
        const getJson = JSON.parse((await s.run(["console", "get", String(boom.index), "--json"])).stdout);
        assert.equal(getJson.entry.level, "exception");
      }
    });
    await t.step(
      "fetch/XHR, POST bodies, redirect hops, failures, pending requests; network get bodies and redaction",
      async () => {
        { // fetch/XHR, POST bodies, redirect hops, failures and pending requests
          apiTab = await openTab(s, `${site.origin}/api.html`);
          await waitForLog(s, "api done");
          const out = (await s.run(["network", "list", "--url", "/API/"])).stdout;
          const o = site.origin.replace(/\./g, "\\.");
          assert.match(
            out,
            new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +POST ${o}/api/echo → 201 Created \\(Fetch\\)$`, "m"),
          );
          assert.match(
            out,
            new RegExp(`^\\[\\d+\\] \\[EchoApi, AnyApi\\] POST ${o}/api/echo → 201 Created \\(Fetch\\)$`, "m"),
          );
          assert.match(out, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +POST ${o}/api/echo → 201 Created \\(XHR\\)$`, "m"));
          assert.match(
            out,
            new RegExp(
              `^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/api/redirect → 302 Found \\(Fetch\\)\n\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/api/redirect2 → 301 Moved Permanently \\(Fetch\\)\n\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/api/data\\?via=redirect → 200 OK \\(Fetch\\)$`,
              "m",
            ),
          );
          assert.match(
            out,
            new RegExp(
              `^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/api/status/500 → 500 Internal Server Error \\(Fetch\\)$`,
              "m",
            ),
          );
          assert.match(out, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +GET ${o}/api/hang → pending \\(Fetch\\)$`, "m"));
          const refused = (await s.run(["network", "list", "--url", "127.0.0.1:1/"])).stdout;
          assert.match(
            refused,
            /^\[\d+\] \[[^\]]+\] +GET http:\/\/127\.0\.0\.1:1\/refused → failed: net::ERR_\w+ \(Fetch\)$/m,
          );
          const xhr = (await s.run(["network", "list", "--type", "xhr", "--tab", apiTab])).stdout.trim().split("\n");
          assert.equal(xhr.length, 2);
          assert.ok(xhr.every((l) => l.endsWith("(XHR)")));
          const json = JSON.parse((await s.run(["network", "list", "--json", "--limit", "3"])).stdout);
          assert.equal(json.schema, 1);
          assert.equal(json.entries.length, 3);
        }
        { // network get: headers, redaction, bodies to files byte-exact, previews, binary
          const xhrPost = (await findNet((e) => e.method === "POST" && e.resourceType === "XHR"))!;
          const dir = s.tmp.path;
          const got = await s.run([
            "network",
            "get",
            String(xhrPost.index),
            "--request-file",
            join(dir, "req.bin"),
            "--response-file",
            join(dir, "rsp.bin"),
          ]);
          assert.equal(got.code, 0, got.stderr);
          assert.match(
            got.stdout,
            /^Method: POST\nURL: http:\/\/127\.0\.0\.1:\d+\/api\/echo\nResource Type: XHR\nStatus: 201 Created\nTab: [0-9A-F]{32}\n/,
          );
          assert.match(got.stdout, /^ {2}Authorization: <redacted, 13 bytes — use --show-secrets>$/m);
          assert.ok(!got.stdout.includes("s3cret"));
          assert.match(got.stdout, /^ {2}x-test-marker: mapper$/m);
          assert.ok(!got.stdout.includes("Response Body"), "the body goes to the file, not the terminal");
          assert.equal(
            got.stderr,
            `request body saved: ${join(dir, "req.bin")} (9 bytes)\nresponse body saved: ${
              join(dir, "rsp.bin")
            } (24 bytes)\n`,
          );
          assert.equal(await Deno.readTextFile(join(dir, "req.bin")), "a=1&b=two");
          assert.equal(await Deno.readTextFile(join(dir, "rsp.bin")), '{"received":"a=1&b=two"}');
          const shown = await s.run(["network", "get", String(xhrPost.index), "--show-secrets"]);
          assert.match(shown.stdout, /^ {2}Authorization: Bearer s3cret$/m);
          assert.match(shown.stdout, /^Response Body:\n {2}\{"received":"a=1&b=two"\}\n$/m);

          const cookie = (await findNet((e) => e.url.endsWith("/api/cookie")))!;
          const c = await s.run(["network", "get", String(cookie.index)]);
          assert.match(c.stdout, /^ {2}set-cookie: <redacted, \d+ bytes — use --show-secrets>$/im);
          assert.ok(!c.stdout.includes("t0p-s3cret"));

          const big = (await findNet((e) => e.url.endsWith("/api/big")))!;
          const b = await s.run(["network", "get", String(big.index)]);
          const head = "Response Body (first 4096 of 10400 bytes; use --response-file for the full body):\n";
          assert.ok(b.stdout.includes(head + BIG.slice(0, 4096).replace(/^/gm, "  ") + "\n"));
          await s.run(["network", "get", String(big.index), "--response-file", join(dir, "big.txt")]);
          assert.equal(await Deno.readTextFile(join(dir, "big.txt")), BIG);

          const bin = (await findNet((e) => e.url.endsWith("/api/binary")))!;
          const bb = await s.run(["network", "get", String(bin.index)]);
          assert.match(bb.stdout, /^Response Body: <binary, 70 bytes, image\/png — use --response-file>$/m);
          assert.ok(!bb.stdout.includes("PNG"));
          const bf = await s.run(["network", "get", String(bin.index), "--response-file", join(dir, "b.png")]);
          assert.equal(bf.stderr, `response body saved: ${join(dir, "b.png")} (70 bytes)\n`);
          assert.deepEqual(await Deno.readFile(join(dir, "b.png")), PNG);

          const empty = (await findNet((e) => e.url.endsWith("/api/empty")))!;
          assert.match(
            (await s.run(["network", "get", String(empty.index)])).stdout,
            /^Status: 204 No Content$[\s\S]*^Response Body: \(empty\)$/m,
          );

          const hang = (await findNet((e) => e.url.endsWith("/api/hang")))!;
          const h = await s.run(["network", "get", String(hang.index)]);
          assert.equal(h.code, 0);
          assert.match(h.stdout, /^Status: pending$/m);
          assert.equal(h.stderr, "response body unavailable: the request is still pending: no response has arrived\n");

          const getOnly = (await findNet((e) => e.url.endsWith("/api/data?via=fetch")))!;
          const r = await s.run(["network", "get", String(getOnly.index), "--request-file", join(dir, "none.bin")]);
          assert.equal(r.code, 1);
          assert.match(
            r.stderr,
            /^mapper network get: request body unavailable: this GET request has no request body/m,
          );

          const json = JSON.parse((await s.run(["network", "get", String(xhrPost.index), "--json"])).stdout);
          assert.equal(json.schema, 1);
          assert.equal(json.entry.status, 201);
          assert.equal(json.requestBody.preview, "a=1&b=two");
          assert.equal(json.responseBody.preview, '{"received":"a=1&b=two"}');

          const missing = await s.run(["network", "get", "999999"]);
          assert.equal(missing.code, 1);
          assert.match(
            missing.stderr,
            /^mapper network get: network request index 999999 is not buffered: it does not exist yet; buffered: 0–\d+ — pick an index shown by 'mapper network list'\n$/,
          );
        }
      },
    );
    await t.step("cross-origin iframes, workers and popups are captured from their first request", async () => {
      { // cross-origin iframes, workers and popups are captured from their first request
        const framesTab = await openTab(s, `${site.origin}/frames.html`);
        await waitForLog(s, "child fetched");
        await waitForLog(s, "worker said fetched");
        const texts = (await s.api<List<Con>>(`/devtools/console?tab=${framesTab}`)).entries.map((e) => e.text);
        for (const t of ["top frame log", "worker log", "cross-origin child log"]) assert.ok(texts.includes(t), t);
        const urls = (await s.api<List<Net>>(`/devtools/network?tab=${framesTab}`)).entries.map((e) =>
          `${e.url} ${e.status}`
        );
        assert.ok(urls.includes(`${site.altOrigin}/child.html 200`), urls.join("\n"));
        assert.ok(urls.includes(`${site.origin}/worker.js 200`), urls.join("\n"));
        assert.ok(urls.includes(`${site.origin}/api/data?via=worker 200`), urls.join("\n"));
        assert.ok(urls.includes(`${site.altOrigin}/api/data?via=oopif 200`), urls.join("\n"));

        await openTab(s, `${site.origin}/popup.html`);
        await waitForLog(s, "popup child log");
        assert.ok(await findNet((e) => e.url.endsWith("/popup-child.html") && e.status === 200));
        assert.ok(await findNet((e) => e.url.endsWith("/api/data?via=popup") && e.status === 200));
      }
    });
    await t.step("retained bodies survive the page navigating away", async () => {
      { // retained bodies survive the page navigating away
        await openTab(s, `${site.origin}/nav.html`);
        await waitForLog(s, "navdone done");
        const nav = (await findNet((e) => e.url.endsWith("/api/data?via=nav")))!;
        const got = await s.run(["network", "get", String(nav.index)]);
        assert.equal(got.code, 0);
        assert.equal(got.stderr, "");
        assert.match(got.stdout, /^Response Body:\n {2}\{"ok":true,"via":"nav"\}\n$/m);
      }
    });
    await t.step("entries carry the corpus names they matched and show the tab column across tabs", async () => {
      { // entries carry the corpus names they matched
        const echo = (await findNet((e) => e.method === "POST" && e.resourceType === "XHR"))!;
        const get = await s.run(["network", "get", String(echo.index)]);
        assert.match(get.stdout, /^Matches: EchoApi, AnyApi$/m);
        const data = JSON.parse((await s.run(["network", "list", "--json", "--url", "via=fetch"])).stdout);
        assert.deepEqual(data.entries[0].matches, ["AnyApi", "DataApi"]);
        // A view's own requests name only traffic of tabs on its pages: /api/data is DataApi on the ApiPage view's
        // page, FramesData on the FramesPage view's (its worker and cross-origin frame included), neither elsewhere.
        // The earlier cases opened each page once (index, api, frames with its popup, nav; nav last).
        const matchesOf = async (via: string) =>
          JSON.parse((await s.run(["network", "list", "--json", "--url", `via=${via}`])).stdout).entries
            .map((e: { matches: string[] }) => e.matches.join(","));
        assert.deepEqual(await matchesOf("xhr"), ["AnyApi,DataApi"]);
        assert.deepEqual(await matchesOf("worker"), ["AnyApi,FramesData"]);
        assert.deepEqual(await matchesOf("oopif"), ["AnyApi,FramesData"]);
        assert.deepEqual(await matchesOf("nav"), ["AnyApi"]);
        const doc = JSON.parse(
          (await s.run(["network", "list", "--json", "--type", "document", "--limit", "1"])).stdout,
        );
        assert.deepEqual(doc.entries[0].matches, []);
        const boom = JSON.parse((await s.run(["console", "list", "--json", "--level", "exception"])).stdout).entries
          .find((e: Con & { matches: string[] }) => e.text.includes("uncaught boom"));
        assert.deepEqual(boom.matches, ["UncaughtBoom"]);
        assert.match((await s.run(["console", "get", String(boom.index)])).stdout, /^Matches: UncaughtBoom$/m);
      }
      { // entries spanning tabs show the tab column
        const out = (await s.run(["console", "list"])).stdout;
        assert.match(out, new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +log {7}\\[${apiTab.slice(0, 8)}\\] api done$`, "m"));
        assert.match(
          out,
          new RegExp(`^\\[\\d+\\] \\[[^\\]]+\\] +log {7}\\[${indexTab.slice(0, 8)}\\] index done$`, "m"),
        );
      }
    });
    await t.step("a burst of 300 logs and 50 fetches in a tight loop is captured completely", async () => {
      { // a burst of 300 logs and 50 fetches in a tight loop is captured completely
        await openTab(s, `${site.origin}/burst.html?tag=burst`);
        await waitForLog(s, "burst done");
        const texts = (await s.api<List<Con>>("/devtools/console")).entries.map((e) => e.text);
        for (let i = 0; i < 300; i++) assert.ok(texts.includes(`burst ${i}`), `burst ${i}`);
        const urls = new Set((await net()).entries.map((e) => e.url));
        for (let i = 0; i < 50; i++) assert.ok(urls.has(`${site.origin}/api/n/burst-${i}`), `fetch ${i}`);
      }
    });
  },
);

Deno.test({
  name: "collector - a tab opened on chrome://newtab/ (as by hand) is captured once it goes to the site",
  ignore: skipBrowserTests(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // The daemon is the only DevTools client of its browser: this drives the collector in-process instead.
    await using site = startSite();
    await using tmp = await tempDir("mapper-newtab-");
    const chromium = await launchChromium(
      requireBrowser(),
      chromiumArgs({
        profile: tmp.join("profile"),
        headless: true,
        extensionDir: undefined,
        extraFlags: TEST_FLAGS,
        root: Deno.uid() === 0,
      }),
    );
    try {
      const cdp = chromium.cdp;
      const collector = new Collector(cdp);
      await collector.start();
      const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: "chrome://newtab/" });
      const tab = await collector.waitForSession((x) => x.targetId === targetId, 10_000);
      await collector.ready(tab.id);
      await cdp.send("Page.navigate", { url: `${site.origin}/burst.html?tag=ntp&logs=1&fetches=1` }, tab.id);
      await waitFor("ntp done", () => collector.console.all().some((e) => e.text === "ntp done"));
      // The site's favicon 404 is the site's own output; nothing from the new-tab page itself may appear.
      const texts = collector.console.all()
        .filter((e) => e.tab === targetId && !e.frame?.url.endsWith("/favicon.ico"))
        .map((e) => e.text);
      assert.deepEqual(texts, ["ntp 0", "ntp done"]);
      // Only the site's traffic: nothing the new-tab page itself loaded (chrome://, data: images).
      const urls = collector.network.all().filter((e) => e.tab === targetId).map((e) => e.url);
      assert.deepEqual(
        urls.filter((u) => !u.endsWith("/favicon.ico")),
        [`${site.origin}/burst.html?tag=ntp&logs=1&fetches=1`, `${site.origin}/api/n/ntp-0`],
      );
    } finally {
      chromium.cdp.close();
      chromium.kill("SIGKILL");
      await chromium.exited;
    }
  },
});
