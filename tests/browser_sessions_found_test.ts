/**
 * Real Chromium: a session is found the way git finds its repository (from a subdirectory, from a sibling with
 * `--dir`), `browser start --detach` waits for the first page by default, and filter typos are errors naming the
 * session's real tabs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMapper, tempDir } from "./_helpers.ts";
import { skipBrowserTests, startSession } from "./site/harness.ts";
import { startSite } from "./site/server.ts";

const opts = { ignore: skipBrowserTests(), sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name:
    "browser start --detach - waits for the first page by default and says so; status right after shows its URL; found from a subdirectory and with --dir from a sibling",
  ...opts,
  async fn() {
    await using site = startSite();
    const url = `${site.origin}/index.html`;
    await using s = await startSession(["--url", url]);
    // --wait load is the default: start says it waited for the page, and status right after agrees.
    assert.ok(s.started.stdout.split("\n").includes(`  waited for: the first page to load — ${url}`), s.started.stdout);
    assert.equal(s.started.stderr, "");
    const status = await s.run(["browser", "status", "--json"]);
    assert.equal(status.code, 0, status.stderr);
    const tabs: Array<{ id: string; url: string }> = JSON.parse(status.stdout).daemon.tabs;
    assert.deepEqual(tabs.map((t) => t.url), [url], "the first page has loaded when start returns");
    const doc = await s.api<{ entries: Array<{ state: string; url: string }> }>("/devtools/network?type=Document");
    assert.equal(doc.entries.at(-1)?.state, "complete");

    // From a subdirectory: the session above is used and named on stderr.
    const sub = join(s.cwd, "src", "deep");
    await Deno.mkdir(sub, { recursive: true });
    const fromSub = await runMapper(["network", "list", "--type", "document"], { cwd: sub, env: s.env });
    assert.equal(fromSub.code, 0, fromSub.stderr);
    assert.equal(fromSub.stderr, `using the session of ${join(s.cwd, ".mapper")}\n`);
    assert.match(fromSub.stdout, /index\.html/);
    const statusSub = await runMapper(["browser", "status"], { cwd: sub, env: s.env });
    assert.equal(statusSub.code, 0);
    assert.match(statusSub.stdout, /^● running {2}http:\/\/127\.0\.0\.1:/);
    assert.equal(statusSub.stderr, `using the session of ${join(s.cwd, ".mapper")}\n`);
    // Page commands walk up the same way.
    const evalSub = await runMapper(["browser", "eval", "location.pathname"], { cwd: sub, env: s.env });
    assert.equal(evalSub.code, 0, evalSub.stderr);
    assert.equal(evalSub.stdout, '"/index.html"\n');
    assert.equal(evalSub.stderr, `using the session of ${join(s.cwd, ".mapper")}\n`);

    // From a sibling directory: --dir names it; nothing is printed about the choice the user made.
    const sibling = join(s.tmp.path, "other");
    await Deno.mkdir(sibling);
    const fromSibling = await runMapper(["console", "list", "--dir", "../site/.mapper"], { cwd: sibling, env: s.env });
    assert.equal(fromSibling.code, 0, fromSibling.stderr);
    assert.equal(fromSibling.stderr, "");

    // A typo in --tab lists the session's real tabs, exit 2.
    const typo = await runMapper(["network", "list", "--tab", "nope"], { cwd: sub, env: s.env });
    assert.equal(typo.code, 2);
    assert.equal(typo.stdout, "");
    assert.ok(
      typo.stderr.endsWith(
        `mapper network list: no tab of this session has the id "nope" — use one of ${
          tabs[0]!.id.slice(0, 8)
        } (${url})\n`,
      ),
      typo.stderr,
    );

    // browser start from the subdirectory uses the project's .mapper/ (a tab in the running session, not a second
    // Chromium with an empty .mapper/ in src/deep).
    // (Bounded: a start that wrongly ran a new foreground session would otherwise hold the test forever.)
    const again = await runMapper(["browser", "start", "--url", `${site.origin}/api.html`], {
      cwd: sub,
      env: s.env,
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, `using the corpus of ${join(s.cwd, ".mapper")}\n`);
    assert.match(again.stdout, /^● tab {2}/);
    await assert.rejects(Deno.stat(join(sub, ".mapper")), Deno.errors.NotFound);

    // And stop from the subdirectory ends it.
    const stop = await runMapper(["browser", "stop"], { cwd: sub, env: s.env });
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.stderr, /^using the session of .*\nstopped \(daemon pid \d+, chromium pid \d+\)\n$/);
  },
});

// --wait load is checked by the case above; --wait none and a start on about:blank by browser_lifecycle_test.ts, on
// the sessions its cases end by force anyway (a Chromium start each saved).
Deno.test("browser start --wait - anything but load or none exits 2, leaving nothing behind", async () => {
  await using tmp = await tempDir();
  const env = { HOME: tmp.join("home"), TMPDIR: tmp.path };
  const bad = await runMapper(["browser", "start", "--detach", "--wait", "idle"], { cwd: tmp.path, env });
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'mapper browser start: unknown --wait "idle" — use --wait load or --wait none\n');
  await assert.rejects(Deno.stat(tmp.join(".mapper")), Deno.errors.NotFound, "a usage error leaves nothing behind");
});
