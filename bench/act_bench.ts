/**
 * A click and a fill by component query on the ~2,000-element page of the test shop, real Chromium headless: the
 * whole CLI process (goal ≤ 150 ms each; the reference took 0.12–0.40 s, `@playwright/mcp` 0.57–1.15 s and
 * `chrome-devtools-mcp` 0.25–0.29 s per call), the daemon's part alone, and a refused click (covered) for
 * comparison. Note the machine load (`uptime`) with any figure.
 *
 *   deno bench -A bench/act_bench.ts
 *
 * Skipped when no browser is found.
 */
import { join } from "node:path";
import { ROOT } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, runRaw, startSession, stopOnUnload } from "../tests/site/harness.ts";

const ignore = BROWSER === undefined;
const site = ignore ? undefined : startSite();
const url = `${site?.origin}/shop/?consent=1`;
const session = ignore ? undefined : await startSession(["--url", url], join(ROOT, "tests", "fixtures", "shop"));
const CLICK = 'ProductCard[name="Basalt Coffee Mug"] AddToCartButton';

const mapper = (args: string[]): Promise<Deno.CommandOutput> => runRaw(session!, args);

async function ok(args: string[]): Promise<void> {
  const out = await mapper(args);
  if (out.code !== 0) throw new Error(`${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

async function api(command: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${session!.port}/devtools/page/${command}`, {
    method: "POST",
    headers: { authorization: `Bearer ${session!.secret}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${command}: ${text}`);
}

if (session) {
  await ok(["browser", "wait-for", "--component", "ProductCard"]);
  stopOnUnload(session);
}

Deno.bench({ name: "mapper browser click QUERY (whole process)", group: "cli", ignore, n: 10, warmup: 2 }, async () => {
  await ok(["browser", "click", CLICK]);
});

Deno.bench(
  { name: "mapper browser fill QUERY TEXT (whole process)", group: "cli", ignore, n: 10, warmup: 2 },
  async () => {
    await ok(["browser", "fill", "SearchInput", "lamp"]);
  },
);

Deno.bench({ name: "mapper version (process start baseline)", group: "cli", ignore, n: 10, warmup: 2 }, async () => {
  await ok(["version"]);
});

Deno.bench({ name: "POST /devtools/page/click (daemon only)", group: "api", ignore, n: 20, warmup: 2 }, async () => {
  await api("click", { target: CLICK });
});

Deno.bench({ name: "POST /devtools/page/fill (daemon only)", group: "api", ignore, n: 20, warmup: 2 }, async () => {
  await api("fill", { target: "SearchInput", text: "lamp" });
});
