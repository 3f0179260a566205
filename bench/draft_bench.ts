/**
 * `mapper draft` on each test page, real Chromium headless: the shop's ~2,000-element catalog and a product page,
 * and the pages built from npm packages (Shoelace sign-up, Tom Select typeahead, Tabulator grid, Swagger UI). Prints
 * per page the coverage the draft reaches (T1 share and T3 of the visible interactive nodes), the components, the
 * nodes given up on, and the median time of `mapper draft` as a whole process and of its daemon route alone
 * (goal: ≤ 2 s per page). Note the machine load (`uptime`) with any figure.
 *
 *   deno run -A bench/draft_bench.ts [RUNS=5]
 */
// deno-lint-ignore-file no-console
import { startSite } from "../tests/site/server.ts";
import { APP_PAGES, startApps } from "../tests/apps/server.ts";
import { startSession } from "../tests/site/harness.ts";
import { browserOrSkip } from "./_browser.ts";
import { sized } from "./_smoke.ts";

browserOrSkip();
const runs = Number(Deno.args[0] ?? 5);
await using site = startSite();
await using apps = await startApps();
await using s = await startSession(["--url", `${site.origin}/shop/?consent=1`]);
const allPages: Array<[string, string, string]> = [
  ["shop catalog", `${site.origin}/shop/?consent=1`, "article.product-card"],
  ["shop product", `${site.origin}/shop/product/2`, "input[name=quantity]"],
  ["signup (Shoelace)", apps.origin + APP_PAGES.signup, "body[data-ready]"],
  ["typeahead (Tom Select)", apps.origin + APP_PAGES.typeahead, "body[data-ready]"],
  ["grid (Tabulator)", apps.origin + APP_PAGES.grid, "body[data-ready]"],
  ["api console (Swagger UI)", apps.origin + APP_PAGES.apiConsole, "body[data-ready]"],
];
const pages = sized(allPages, allPages.slice(0, 1));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** POSTs a page route of the daemon (what the CLI asks it) and answers its JSON. */
const post = async (command: string) => {
  const r = await fetch(`http://127.0.0.1:${s.port}/devtools/page/${command}`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.secret}`, "content-type": "application/json" },
    body: "{}",
  });
  if (!r.ok) throw new Error(`${command}: ${r.status} ${await r.text()}`);
  return await r.json();
};
const route = async () => {
  const t0 = performance.now();
  await post("draft");
  return performance.now() - t0;
};
console.log(`load: ${(await Deno.readTextFile("/proc/loadavg").catch(() => "?")).trim()}`);
console.log("page                      elements  comps  T1 after       T3  gave up  process ms  route ms");
for (const [name, url, ready] of pages) {
  await s.run(["browser", "navigate", url]);
  await s.run(["browser", "wait-for", "--selector", ready, "--timeout-ms", "20000"]);
  await route(); // warm: the offline engine loads once per daemon
  const whole: number[] = [];
  const alone: number[] = [];
  let out = "";
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await s.run(["draft", "--json"]);
    whole.push(performance.now() - t0);
    if (r.code !== 0) throw new Error(`${name}: ${r.stderr}`);
    out = r.stdout;
    alone.push(await route());
  }
  const d = JSON.parse(out);
  const after = d.coverage.after;
  // The elements the page script walked: the daemon's snapshot payload says it (`snapshot --json` does not).
  const elements = (await post("snapshot")).page.elements as number;
  const t1 = `${after.t1}/${after.interactive} (${Math.round((after.t1 * 100) / Math.max(1, after.interactive))}%)`;
  console.log(
    `${name.padEnd(25)} ${String(elements).padStart(8)}  ${String(d.components.length).padStart(5)}  ${t1.padEnd(13)} ${
      String(after.t3).padStart(3)
    }  ${String(d.gaveUp.length).padStart(7)}  ${String(Math.round(median(whole))).padStart(10)}  ${
      String(Math.round(median(alone))).padStart(8)
    }`,
  );
}
