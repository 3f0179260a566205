/**
 * The daemon's memory under a hostile page (issue 10): a page logs eleven 50 MB strings. Prints the daemon's RSS
 * before, its peak (VmHWM) and its RSS after, and how long `console list` takes (whole process and the raw API call).
 * The targets: under 200 MB RSS, `console list` under 200 ms.
 *
 *   deno run -A bench/daemon_memory.ts [count=11] [megabytes=50]
 *
 * Real Chromium; without one it says so and exits 0.
 */
import { runMapper } from "../tests/_helpers.ts";
import { openTab, startSession, waitForLog } from "../tests/site/harness.ts";
import { browserOrSkip } from "./_browser.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);

browserOrSkip();

const count = Number(Deno.args[0] ?? 11);
const megabytes = Number(Deno.args[1] ?? 50);

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024);
}

const page = `<!doctype html><title>big logs</title><script>
const big = "x".repeat(${megabytes} * 1024 * 1024);
for (let i = 0; i < ${count}; i++) console.log(big + i);
console.log("big done");
</script>`;
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: () => {} },
  () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }),
);

await using s = await startSession();
try {
  const before = status(s.daemonPid, "VmRSS");
  const t0 = performance.now();
  await openTab(s, `http://127.0.0.1:${server.addr.port}/`);
  await waitForLog(s, "big done", 300_000);
  const captured = performance.now() - t0;
  const peak = status(s.daemonPid, "VmHWM");
  const after = status(s.daemonPid, "VmRSS");

  const api: number[] = [];
  const cli: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const res = await fetch(`http://127.0.0.1:${s.port}/devtools/console`, {
      headers: { authorization: `Bearer ${s.secret}` },
    });
    bytes = (await res.arrayBuffer()).byteLength;
    api.push(performance.now() - t);
    t = performance.now();
    const list = await s.run(["console", "list"]);
    cli.push(performance.now() - t);
    if (list.code !== 0) throw new Error(list.stderr);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0);
  const version = await runMapper(["version"]);
  const t = performance.now();
  await runMapper(["version"]);
  const baseline = performance.now() - t;
  const load = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
  say(`page: ${count} console.log calls of ${megabytes} MB strings (captured in ${(captured / 1000).toFixed(1)} s)`);
  say(`daemon RSS: ${before} MB before, peak ${peak} MB (VmHWM), ${after} MB after`);
  say(`GET /devtools/console: ${bytes} bytes, median ${median(api)} ms of 5`);
  say(`mapper console list (whole process): median ${median(cli)} ms of 5 (mapper version: ${baseline.toFixed(0)} ms)`);
  say(`load average: ${load}; ${version.stdout.trim()}`);
} finally {
  await server.shutdown();
}
