/**
 * The offline coverage commands at the size: `coverage` and `report` over 100 captures of a ~2,000-element
 * page (the trees of `_offline_trees.ts`, filed as one view's captures under `.mapper/snapshots/Catalog/`) with a
 * corpus of the same ~30 components. Targets: coverage ≤ 2 s, report ≤ 1 s. Each run is the whole command as a user
 * runs it, minus process start: load and compile the corpus, read, check and index every file, re-match (claim,
 * tiers, clusters), and print.
 *
 *   deno bench -A bench/coverage_bench.ts
 *
 * @module
 */
import { join } from "node:path";
import { testIo } from "../src/io.ts";
import { runCoverage, runReport } from "../src/kit/coverage.ts";
import { COMPONENTS, TREES, writeTrees } from "./_offline_trees.ts";

const work = await Deno.makeTempDir({ prefix: "mapper-coverage-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));
const corpus = join(work, ".mapper");
const folder = join(corpus, "snapshots", "Catalog");
await Deno.mkdir(folder, { recursive: true });
const { elements } = await writeTrees(folder);
await Deno.writeTextFile(
  join(corpus, "catalog.yaml"),
  "version: 1\nviews:\n  - name: Catalog\n    route: /c/:id\n    url: https://shop.test/c/1\n    components:\n" +
    COMPONENTS.map((c) => `      - name: ${c.name}\n        selector: ${JSON.stringify(c.selector)}\n`).join(""),
);
// deno-lint-ignore no-console
console.log(`${TREES} captures of ${Math.round(elements / TREES)} elements, ${COMPONENTS.length} components`);

const run = async (fn: typeof runCoverage | typeof runReport) => {
  const io = testIo({ cwd: work });
  await fn({ json: false }, io);
  return io.stdout.text();
};

Deno.bench("coverage - 100 captures of a 2,000-element page (target ≤ 2 s)", { group: "coverage" }, async () => {
  await run(runCoverage);
});

Deno.bench("report - 100 captures of a 2,000-element page (target ≤ 1 s)", { group: "coverage" }, async () => {
  await run(runReport);
});
