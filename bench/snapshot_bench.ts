/**
 * `mapper snapshot` on the ~2,000-element page of the test shop (24 product cards, 30 filters, a 35-link footer,
 * 90 reviews, a hidden mega menu), real Chromium headless: the whole CLI process, the daemon's part alone, and the
 * size of the text it prints (goal: ≤ 12 KB and ≤ 250 ms for the whole command; the reference printed 21 KB in
 * 350–390 ms on a comparable page). Note the machine load (`uptime`) with any figure.
 *
 *   deno bench -A bench/snapshot_bench.ts
 *
 * Skipped when no browser is found.
 */
import { join } from "node:path";
import { ROOT } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { BROWSER, startSession, stopOnUnload } from "../tests/site/harness.ts";

const ignore = BROWSER === undefined;
const site = ignore ? undefined : startSite();
const url = `${site?.origin}/shop/?consent=1`;
const session = ignore ? undefined : await startSession(["--url", url], join(ROOT, "tests", "fixtures", "shop"));

if (session) {
  const first = await session.run(["snapshot"]);
  if (first.code !== 0) throw new Error(first.stderr);
  const json = JSON.parse((await session.run(["snapshot", "--json"])).stdout);
  const elements = (await (await fetch(`http://127.0.0.1:${session.port}/devtools/page/snapshot`, {
    headers: { authorization: `Bearer ${session.secret}` },
    method: "POST",
    body: "{}",
  })).json()).page.elements;
  // deno-lint-ignore no-console
  console.log(
    `snapshot of ${url}: ${elements} elements, ${
      (new TextEncoder().encode(first.stdout).length / 1024).toFixed(1)
    } KB text, ${(JSON.stringify(json).length / 1024).toFixed(1)} KB --json (compact), ${
      Object.values(json.guide as Record<string, number>).reduce((a, b) => a + b, 0)
    } components named`,
  );
  stopOnUnload(session);
}

Deno.bench(
  { name: "mapper snapshot, ~2,000 elements (whole process)", group: "snapshot", ignore, n: 10, warmup: 2 },
  async () => {
    const out = await session!.run(["snapshot"]);
    if (out.code !== 0) throw new Error(out.stderr);
  },
);

Deno.bench(
  { name: "mapper version (process start baseline)", group: "snapshot", ignore, n: 10, warmup: 2 },
  async () => {
    await session!.run(["version"]);
  },
);

Deno.bench({ name: "POST /devtools/page/snapshot (daemon only)", group: "api", ignore, n: 20, warmup: 2 }, async () => {
  await (await fetch(`http://127.0.0.1:${session!.port}/devtools/page/snapshot`, {
    method: "POST",
    headers: { authorization: `Bearer ${session!.secret}` },
    body: "{}",
  }))
    .arrayBuffer();
});
