/**
 * The first `mapper snapshot` of a session on the test shop (~2,000 elements), against the later ones, in real
 * Chromium headless (goal: the first ≤ 250 ms for the whole process, as fast as the later ones). A fresh session per
 * sample, since only a session's first snapshot is measured there:
 *
 * - `idle`: the page loaded and quiet (3 s after `browser start --url` returned) — what the page engine costs;
 * - `fresh`: right after `browser start --url` returned — the page's own load and data (its grid renders 300 ms
 *   after load) are waited for too (load + 500 ms, then 100 ms without DOM changes);
 * - `later`: the second to fourth snapshot of the `idle` sessions;
 *
 * each for the whole CLI process (`process`) and the daemon's part alone (`daemon`, `POST /devtools/page/snapshot`).
 * Note the machine load (`uptime`) with any figure.
 *
 *   deno run -A bench/first_snapshot.ts [ROUNDS]
 *
 * @module
 */
import { join } from "node:path";
import { ROOT } from "../tests/_helpers.ts";
import { startSite } from "../tests/site/server.ts";
import { runRaw, startSession } from "../tests/site/harness.ts";
import { browserOrSkip, cliSnapshot, daemonSnapshot, timed } from "./_browser.ts";

const ROUNDS = Number(Deno.args[0] ?? 3);

function summary(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `${label.padEnd(24)} min ${sorted[0]?.toFixed(0).padStart(5)} ms  median ${
    median.toFixed(0).padStart(5)
  } ms  ` +
    `max ${sorted[sorted.length - 1]?.toFixed(0).padStart(5)} ms  (n=${ms.length})`;
}

browserOrSkip();

await using site = startSite();
const url = `${site.origin}/shop/?consent=1`;
const corpus = join(ROOT, "tests", "fixtures", "shop");
const results: Record<string, number[]> = {};
const add = (key: string, ms: number) => (results[key] ??= []).push(ms);

for (let round = 0; round < ROUNDS; round++) {
  for (const [mode, via] of [["idle", "process"], ["idle", "daemon"], ["fresh", "process"], ["fresh", "daemon"]]) {
    await using s = await startSession(["--url", url], corpus);
    if (mode === "idle") await new Promise((r) => setTimeout(r, 3000));
    const once = via === "process" ? () => cliSnapshot(s) : () => daemonSnapshot(s);
    add(`first ${mode} ${via}`, await timed(once));
    if (mode === "idle") { for (let i = 0; i < 3; i++) add(`later ${via}`, await timed(once)); }
    if (mode === "idle" && via === "process") add("version (process start)", await timed(() => runRaw(s, ["version"])));
  }
}

const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ").slice(0, 3).join(" ");
// deno-lint-ignore no-console
console.log(
  [
    `first snapshot of a session on ${url} (load average ${load})`,
    ...Object.entries(results).map(([k, v]) => summary(k, v)),
  ]
    .join("\n"),
);
