import assert from "node:assert/strict";
import { load } from "./load.ts";
import { LiveCorpus, watchedPath } from "./service.ts";
import { tempCorpus, waitFor } from "./_testing.ts";
import type { Timers } from "../watch.ts";

Deno.test("corpus service - changes during a compile run one more compile after it, never two at once", async () => {
  await using c = await tempCorpus({ "a.yaml": "version: 1\nmemory: [start]\n" });
  let active = 0;
  let maxActive = 0;
  let gate: PromiseWithResolvers<void> | undefined;
  const entered = Promise.withResolvers<void>();
  const loader: typeof load = async (dir, options) => {
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      const result = await load(dir, options);
      if (gate) {
        entered.resolve();
        await gate.promise;
      }
      return result;
    } finally {
      active--;
    }
  };
  // The recompile delay runs on a manual clock: the test ends each quiet period itself.
  const scheduled = new Map<number, () => void>();
  let seq = 0;
  const timers: Timers = {
    setTimeout: (fn) => (scheduled.set(++seq, fn), seq),
    clearTimeout: (id) => void scheduled.delete(id as number),
  };
  const endQuietPeriod = async () => {
    await waitFor("a change to schedule a recompile", () => scheduled.size > 0);
    const fns = [...scheduled.values()];
    scheduled.clear();
    for (const fn of fns) fn();
  };
  await using service = new LiveCorpus({ dir: c.dir, site: "site", log: () => {} }, loader, timers);
  await service.start();
  gate = Promise.withResolvers<void>();
  await c.write("a.yaml", "version: 1\nmemory: [one]\n");
  await endQuietPeriod();
  await entered.promise; // the compile that read "one" is now held open
  await c.write("a.yaml", "version: 1\nmemory: [two]\n");
  // The second change's quiet period ends while the first compile is still running.
  await endQuietPeriod();
  const opened = gate;
  gate = undefined;
  opened.resolve();
  await waitFor("the change made during the compile to be compiled", () => service.current().wire.memory[0] === "two");
  assert.equal(maxActive, 1);
});

Deno.test("corpus service - watcher paths with symbolic links resolved (macOS FSEvents) map back under the directory", () => {
  const dir = "/var/folders/x/site/.mapper";
  const real = "/private/var/folders/x/site/.mapper";
  assert.equal(watchedPath(`${real}/app.yaml`, dir, real), `${dir}/app.yaml`);
  assert.equal(watchedPath(`${dir}/views/a.yaml`, dir, real), `${dir}/views/a.yaml`);
  assert.equal(watchedPath(real, dir, real), dir);
  assert.equal(watchedPath("views/a.yaml", dir, undefined), `${dir}/views/a.yaml`);
  assert.equal(watchedPath("/private/var/folders/x/site/other.yaml", dir, real), undefined);
  assert.equal(watchedPath("/elsewhere/a.yaml", dir, undefined), undefined);
});
