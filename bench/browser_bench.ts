/**
 * Browser session figures (real Chromium): `browser start` to ready, `console list` / `network list` with 1000
 * buffered entries (whole process, plus the raw API call), collector memory with full buffers, and page-load time
 * of the test site with and without the collector attached.
 *
 *   deno bench -A bench/browser_bench.ts
 *
 * Skipped when no browser is found.
 */
import { baseEnv, mapperCommand, tempDir } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, openTab, runRaw, startSession, stopOnUnload, waitForLog } from "../tests/site/harness.ts";
import { chromiumArgs, launchChromium } from "../src/browser/chromium.ts";
import { Collector } from "../src/browser/collector.ts";
import { sized } from "./_smoke.ts";

const ignore = BROWSER === undefined;

function rssKb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

// ---- shared session with full buffers ------------------------------------------------------------------------
const site = ignore ? undefined : startSite();
const session = ignore ? undefined : await startSession();
/** The daemon API needs the session secret. */
const auth = () => ({ authorization: `Bearer ${session!.secret}` });
if (session && site) {
  const before = rssKb(session.daemonPid);
  const fill = sized(1100, 20);
  await openTab(session, `${site.origin}/burst.html?tag=fill&logs=${fill}&fetches=${fill}`);
  await waitForLog(session, "fill done", 60_000);
  await new Promise((r) => setTimeout(r, 500));
  const after = rssKb(session.daemonPid);
  // deno-lint-ignore no-console
  console.log(
    `collector daemon RSS: ${before} KiB after start, ${after} KiB with both rings full (+${after - before} KiB)`,
  );
  stopOnUnload(session);
}

const mapper = (args: string[]): Promise<Deno.CommandOutput> => runRaw(session!, args);

Deno.bench(
  { name: "console list, 1000 entries (whole process)", group: "list", ignore, n: 20, warmup: 2 },
  async () => {
    const out = await mapper(["console", "list"]);
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  },
);

Deno.bench(
  { name: "network list, 1000 entries (whole process)", group: "list", ignore, n: 20, warmup: 2 },
  async () => {
    const out = await mapper(["network", "list"]);
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  },
);

Deno.bench({ name: "mapper version (process start baseline)", group: "list", ignore, n: 20, warmup: 2 }, async () => {
  await mapper(["version"]);
});

Deno.bench({ name: "GET /devtools/console, 1000 entries (daemon only)", group: "api", ignore, n: 50 }, async () => {
  await (await fetch(`http://127.0.0.1:${session!.port}/devtools/console`, { headers: auth() })).arrayBuffer();
});

Deno.bench({ name: "GET /devtools/network, 1000 entries (daemon only)", group: "api", ignore, n: 50 }, async () => {
  await (await fetch(`http://127.0.0.1:${session!.port}/devtools/network`, { headers: auth() })).arrayBuffer();
});

// ---- start to ready ------------------------------------------------------------------------------------------
Deno.bench({ name: "browser start to ready (foreground)", group: "start", ignore, n: 7, warmup: 1 }, async (b) => {
  await using tmp = await tempDir();
  const cwd = tmp.join("site");
  await Deno.mkdir(cwd);
  b.start();
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand([
      "browser",
      "start",
      "--headless",
      "--port",
      "0",
      "--profile",
      tmp.join("p"),
      "--browser",
      BROWSER!,
    ]),
    cwd,
    env: baseEnv(tmp.join("home")),
    clearEnv: true,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("● ready")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  b.end();
  child.kill("SIGTERM");
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
});

// ---- page-load overhead --------------------------------------------------------------------------------------
async function pageLoad(withCollector: boolean, runs: number): Promise<number[]> {
  await using tmp = await tempDir();
  const chromium = await launchChromium(
    BROWSER!,
    chromiumArgs({
      profile: tmp.join("p"),
      headless: true,
      extensionDir: undefined,
      extraFlags: [],
      root: Deno.uid() === 0,
    }),
  );
  const cdp = chromium.cdp;
  try {
    if (withCollector) await new Collector(cdp).start();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
      await cdp.send("Page.enable", {}, sessionId);
      const loaded = new Promise<void>((resolve) => {
        const prev = cdp.onEvent;
        cdp.onEvent = (ev) => {
          prev(ev);
          if (ev.method === "Page.loadEventFired" && ev.sessionId === sessionId) {
            cdp.onEvent = prev;
            resolve();
          }
        };
      });
      const t0 = performance.now();
      await cdp.send("Page.navigate", { url: `${site!.origin}/api.html?run=${i}` }, sessionId);
      await loaded;
      times.push(performance.now() - t0);
      await cdp.send("Target.closeTarget", { targetId });
    }
    return times;
  } finally {
    cdp.close();
    chromium.kill("SIGTERM");
    await chromium.exited;
  }
}

if (!ignore) {
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const bare = median(await pageLoad(false, 15));
  const collected = median(await pageLoad(true, 15));
  // deno-lint-ignore no-console
  console.log(
    `page load of the test site (api.html, median of 15): ${bare.toFixed(1)} ms bare, ${
      collected.toFixed(1)
    } ms with the collector`,
  );
}
