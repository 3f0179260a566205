/**
 * The offline engine at the size the map is checked at: 100 captured trees of ~2,000 elements (a catalogue page with
 * a header, cards, a shadow-root widget and a same-origin frame, varied per tree), written as `.snap.tree.json`
 * files, and ~30 selectors of a realistic corpus (nested ones composed, `:not`, `:has`, `+`, attributes, `:nth-*`).
 * The target: coverage over 100 captures in ≤ 2 s — the claim over all of them is most of that work.
 *
 * - read: read, check and index the 100 files;
 * - sel-check: one selector answered on the 100 indexed trees;
 * - claim: all ~30 components claimed (first declaration wins, parent scoping) on the 100 indexed trees;
 * - the whole path: read + claim, as `coverage` will run it;
 * - start-up: a fresh process loading the engine (css-select, css-what, the CSS parser `validate` uses) and
 *   creating it, against the same process doing nothing (the difference is what the lazy load costs a command).
 *
 *   deno bench -A bench/offline_bench.ts
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import { claimElements, indexTree, type OfflineDocument, readTreeFile } from "../src/offline/mod.ts";
import { COMPONENTS, TREES, writeTrees } from "./_offline_trees.ts";
import { createEngine } from "../src/offline/engine.ts";
import { ROOT } from "../tests/_helpers.ts";
import { sized } from "./_smoke.ts";

const work = await Deno.makeTempDir({ prefix: "mapper-offline-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(work, { recursive: true }));
const { files, elements, bytes } = await writeTrees(work);
// deno-lint-ignore no-console
console.log(
  `${TREES} trees, ${Math.round(elements / TREES)} elements each, ${(bytes / TREES / 1024).toFixed(0)} KiB each`,
);

const engine = await createEngine();
const readAll = async () => (await Promise.all(files.map((f) => readTreeFile(f)))).map(indexTree);
const docs: OfflineDocument[] = await readAll();

Deno.bench("offline - read, check and index 100 tree files", { group: "offline" }, async () => {
  await readAll();
});

Deno.bench("offline - sel-check: one selector on 100 indexed trees", { group: "offline" }, () => {
  // Memoized per tree and selector: a fresh selector each run.
  const selector = `li.card .actions button.add:not(.x${Math.random().toString(36).slice(2)})`;
  for (const doc of docs) engine.query(doc, selector);
});

Deno.bench("offline - claim: 30 components on 100 fresh trees (index + claim)", { group: "offline" }, () => {
  for (const doc of docs) {
    const fresh = indexTree(doc.tree); // a new document: nothing memoized
    claimElements(COMPONENTS, engine.claimDom(fresh));
  }
});

Deno.bench(
  "offline - the whole path: read 100 files + claim 30 components",
  { group: "offline", baseline: true },
  async () => {
    for (const doc of await readAll()) claimElements(COMPONENTS, engine.claimDom(doc));
  },
);

// CPU time of the whole path (read + claim), which other processes on the machine disturb less than wall time.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const cpuRuns: number[] = [];
for (let i = 0; i < sized(5, 1); i++) {
  const t = cpu();
  for (const doc of await readAll()) claimElements(COMPONENTS, engine.claimDom(doc));
  cpuRuns.push(cpu() - t);
}
cpuRuns.sort((a, b) => a - b);
// deno-lint-ignore no-console
console.log(
  `whole path, CPU time: min ${cpuRuns[0]!.toFixed(0)} ms, median ${
    cpuRuns[cpuRuns.length >> 1]!.toFixed(0)
  } ms (${cpuRuns.length} runs)`,
);

// Start-up: what loading the engine costs a fresh process (module resolution, the npm packages, the CSS parser):
// the same probe with and without the load, wall time inside the process.
const probe = join(work, "probe.ts");
await Deno.writeTextFile(
  probe,
  `const t = performance.now();\nif (Deno.args[0] === "engine") {\n  const { createEngine } = await import(${
    JSON.stringify(new URL("../src/offline/engine.ts", import.meta.url).href)
  });\n  await createEngine();\n}\nconsole.log(performance.now() - t);\n`,
);
async function startup(mode: string): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--config", join(ROOT, "deno.json"), probe, mode],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(out.stdout));
}
const loads: number[] = [];
for (let i = 0; i < sized(9, 1); i++) loads.push(await startup("engine") - await startup("none"));
loads.sort((a, b) => a - b);
// deno-lint-ignore no-console
console.log(
  `engine load in a fresh process (import + create): median ${loads[loads.length >> 1]!.toFixed(1)} ms, min ${
    loads[0]!.toFixed(1)
  } ms`,
);
