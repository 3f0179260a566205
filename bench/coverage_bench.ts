/**
 * The offline coverage commands at the size, as a user runs them: `mapper coverage` and `mapper report`, each
 * a whole subprocess (start-up, corpus load and compile, reading, checking and indexing every file, re-matching,
 * printing), over 100 captures of a ~2,000-element page (the trees of `_offline_trees.ts`, filed as one view's
 * captures under `.mapper/snapshots/Catalog/` in a temporary directory) with a corpus of the same ~30 components.
 * Targets: coverage ≤ 2 s, report ≤ 1 s. Prints the median of a few runs of each:
 *
 *   deno run -A bench/coverage_bench.ts [RUNS]
 *
 * Under `deno bench -A` the same two subprocesses are registered as benchmarks.
 *
 * @module
 */
import { join } from "node:path";
import { COMPONENTS, TREES, writeTrees } from "./_offline_trees.ts";
import { mapperCommand } from "../tests/_helpers.ts";

/** Writes the corpus and the captures into a fresh temporary directory; answers it and the page size. */
async function setUp(): Promise<{ work: string; elements: number }> {
  const work = await Deno.makeTempDir({ prefix: "mapper-coverage-bench-" });
  const corpus = join(work, ".mapper");
  const folder = join(corpus, "snapshots", "Catalog");
  await Deno.mkdir(folder, { recursive: true });
  const { elements } = await writeTrees(folder);
  await Deno.writeTextFile(
    join(corpus, "catalog.yaml"),
    "version: 1\nviews:\n  - name: Catalog\n    route: /c/:id\n    url: https://shop.test/c/1\n    components:\n" +
      COMPONENTS.map((c) =>
        `      - name: ${c.name}\n        selector: ${JSON.stringify(c.selector)}\n` +
        "        properties:\n          - name: label\n            extract: text\n" +
        "          - name: sku\n            extract: attr=data-sku\n"
      ).join(""),
  );
  return { work, elements: Math.round(elements / TREES) };
}

/** Runs `mapper <command>` in `work` once; answers the wall time in milliseconds. */
async function timeOnce(command: string, work: string): Promise<number> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    // With the binary's V8 flags (deno.json's compile task).
    args: mapperCommand([command]),
    cwd: work,
    env: { NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  // Exit 1 is the gate (orphans, dead components): expected on these pages. Anything else is a broken run.
  if (out.code !== 0 && out.code !== 1) {
    throw new Error(`mapper ${command} exited ${out.code}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 5);
  const { work, elements } = await setUp();
  try {
    await timeOnce("report", work); // warm Deno's module cache
    for (const [command, target] of [["coverage", 2], ["report", 1]] as const) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await timeOnce(command, work));
      // deno-lint-ignore no-console
      console.log(
        `${command}: median ${(median(times) / 1000).toFixed(2)} s of ${runs} runs (target ≤ ${target} s; ` +
          `${TREES} captures of ${elements} elements, ${COMPONENTS.length} components)`,
      );
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
} else {
  const { work } = await setUp();
  globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));
  Deno.bench("coverage - 100 captures of a 2,000-element page, a subprocess (target ≤ 2 s)", async () => {
    await timeOnce("coverage", work);
  });
  Deno.bench("report - 100 captures of a 2,000-element page, a subprocess (target ≤ 1 s)", async () => {
    await timeOnce("report", work);
  });
}
