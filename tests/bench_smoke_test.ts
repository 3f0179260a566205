/**
 * Every bench script still runs: each `bench/*.ts` but the `_` helpers, as a subprocess on a tiny input
 * (`MAPPER_BENCH_SMOKE=1`, `bench/_smoke.ts`; a `deno bench` file has each bench run once through
 * `bench/_smoke_preload.ts`), exits 0 and prints its table. The figures are never read: speed is the benches' job,
 * not the tests'. Sides that need what a clone lacks (the Go reference, the MCP peers, `wrk`, the shared gallery)
 * are skipped by the benches themselves, as in a real run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "./_helpers.ts";
import { skipBrowserTests } from "./site/harness.ts";

interface Smoke {
  /** `bench`: a `deno bench` file; `run`: a script for `deno run`. */
  kind: "bench" | "run";
  /** Arguments for a `run` script (its tiny input). */
  args?: string[];
  /** What its output must show: the table it prints (or, for a bench that skips, the line saying so). */
  prints: RegExp;
  /** It drives Chromium: left out, like the browser tests, when none is found (`skipBrowserTests`). */
  browser?: true;
}

/** The table `deno bench` prints. */
const BENCH_TABLE = /\| benchmark +\| time\/iter \(avg\)/;

/** Each bench script and how it is smoke-run. A new script must be added here (a test checks). */
const BENCHES: Record<string, Smoke> = {
  "act_bench.ts": { browser: true, kind: "bench", prints: BENCH_TABLE },
  "atlas_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "browser_bench.ts": { browser: true, kind: "bench", prints: BENCH_TABLE },
  "catalog_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "catalog_load.ts": { kind: "run", prints: /wrk not found: the load test is skipped|server RSS after load/ },
  "corpus_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "corpus_compare.ts": { kind: "run", args: ["1"], prints: /mapper/ },
  "coverage_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "daemon_memory.ts": { browser: true, kind: "run", args: ["1", "1"], prints: /console list/ },
  "draft_bench.ts": { browser: true, kind: "run", args: ["1"], prints: /shop catalog/ },
  "first_request_stress.ts": { browser: true, kind: "run", args: ["1"], prints: /1/ },
  "first_snapshot.ts": { browser: true, kind: "run", args: ["1"], prints: /idle/ },
  "internals_bench.ts": { browser: true, kind: "run", args: ["5", "1"], prints: /md-checkbox added/ },
  "kit_bench.ts": { browser: true, kind: "bench", prints: BENCH_TABLE },
  "mcp_bench.ts": { browser: true, kind: "bench", prints: BENCH_TABLE },
  "offline_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "resolver_bench.ts": { kind: "bench", prints: BENCH_TABLE },
  "snapshot_bench.ts": { browser: true, kind: "bench", prints: BENCH_TABLE },
  "snapshot_size_compare.ts": { browser: true, kind: "run", args: ["shop"], prints: /shop/ },
  "startup_compare.ts": { kind: "run", args: ["1"], prints: /mapper version/ },
  "validate_big.ts": { kind: "run", prints: /mapper validate --json/ },
  "yaml_compare.ts": { kind: "run", args: [join(ROOT, "tests", "fixtures")], prints: /fast reader accepted/ },
};

/** How many benches run at once: most of their time is spent waiting on Chromium or a child process. */
const AT_ONCE = 3;

interface Outcome {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
}

async function smokeRun(name: string, smoke: Smoke, env: Record<string, string> = {}): Promise<Outcome> {
  const file = join(ROOT, "bench", name);
  const args = smoke.kind === "bench"
    ? ["bench", "-A", "--no-check", "--preload", join(ROOT, "bench", "_smoke_preload.ts"), file]
    : ["run", "-A", "--no-check", file, ...smoke.args ?? []];
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { MAPPER_BENCH_SMOKE: "1", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { name, code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("bench smoke - the table names every bench script, and only those", async () => {
  const scripts: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "bench"))) {
    if (e.isFile && e.name.endsWith(".ts") && !e.name.startsWith("_")) scripts.push(e.name);
  }
  assert.deepEqual(scripts.sort(), Object.keys(BENCHES).sort());
});

// Several minutes of CPU on a 2-core machine, so the suite leaves it to `deno task bench-smoke` (which sets this).
const RUN_BENCHES = Deno.env.get("MAPPER_TEST_BENCHES") === "1";

Deno.test({
  name: "bench smoke - every bench script runs on a tiny input and prints its table",
  ignore: !RUN_BENCHES,
}, async () => {
  const noBrowser = skipBrowserTests();
  const queue = Object.entries(BENCHES).filter(([, smoke]) => !(smoke.browser && noBrowser));
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) outcomes.push(await smokeRun(...next));
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  const wrong = outcomes.filter((o) => o.code !== 0 || !BENCHES[o.name]!.prints.test(o.stdout)).map((o) =>
    `${o.name}: exit ${o.code}\n--- stdout (end)\n${o.stdout.slice(-1500)}\n--- stderr (end)\n${o.stderr.slice(-1500)}`
  );
  assert.deepEqual(wrong, [], wrong.join("\n\n"));
});

Deno.test("bench smoke - without a browser, every browser script says it skipped and exits 0", async () => {
  // No MAPPER_BROWSER and a PATH without chromium: what a clone on a machine without Chromium sees.
  const scripts = Object.entries(BENCHES).filter(([, smoke]) => smoke.browser && smoke.kind === "run");
  const outcomes = await Promise.all(
    scripts.map(([name, smoke]) => smokeRun(name, smoke, { MAPPER_BROWSER: "", PATH: "/nonexistent" })),
  );
  for (const o of outcomes) {
    assert.equal(o.code, 0, `${o.name}: ${o.stderr}`);
    assert.match(o.stdout, /^no browser found: .*skipped/, o.name);
  }
});
