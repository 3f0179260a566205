import assert from "node:assert/strict";
import { join } from "node:path";
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

/** Sets a file's modification time a minute into the past: a stat alone would then call an edit "unchanged". */
async function age(path: string): Promise<Date> {
  const then = new Date(Date.now() - 60_000);
  await Deno.utime(path, then, then);
  return then;
}

/** Rewrites a file keeping its size (the texts have equal lengths) and its old modification time. */
async function rewriteInPlace(path: string, text: string, mtime: Date): Promise<void> {
  await Deno.writeTextFile(path, text);
  await Deno.utime(path, mtime, mtime);
}

/** Timers that fire only when the test says so, by delay (the early compile waits 50 ms, the recompile 200). */
function manualTimers(): Timers & { due(ms: number): boolean; fire(ms: number): void } {
  const scheduled = new Map<number, { ms: number; fn: () => void }>();
  let seq = 0;
  return {
    setTimeout: (fn, ms) => (scheduled.set(++seq, { ms, fn }), seq),
    clearTimeout: (id) => void scheduled.delete(id as number),
    due: (ms) => [...scheduled.values()].some((t) => t.ms === ms),
    fire(ms) {
      for (const [id, t] of [...scheduled]) {
        if (t.ms !== ms) continue;
        scheduled.delete(id);
        t.fn();
      }
    },
  };
}

Deno.test("corpus service - a file changed again after the early compile read it is read again, never served stale", async () => {
  await using c = await tempCorpus({
    "a.yaml": "version: 1\nmemory: [one]\n",
    "b.yaml": "version: 1\nmemory: [bee]\n",
  });
  const path = join(c.dir, "a.yaml");
  const mtime = await age(path);
  await age(join(c.dir, "b.yaml"));
  let loads = 0;
  const loader: typeof load = (dir, options) => load(dir, options).finally(() => loads++);
  let events = 0;
  const timers = manualTimers();
  await using service = new LiveCorpus(
    { dir: c.dir, site: "site", log: () => {}, onWatchEvent: (_, relevant) => void (relevant && events++) },
    loader,
    timers,
  );
  await service.start();
  await rewriteInPlace(path, "version: 1\nmemory: [two]\n", mtime);
  await waitFor("the watcher to report the edit", () => events > 0 && timers.due(50) && timers.due(200));
  timers.fire(50); // the early compile reads "two" while the quiet period goes on
  await waitFor("the early compile", () => loads === 2);
  assert.deepEqual(service.current().wire.memory, ["one", "bee"], "nothing is published before the quiet period ends");
  const seen = events;
  await rewriteInPlace(path, "version: 1\nmemory: [six]\n", mtime);
  await waitFor("the watcher to report the second edit", () => events > seen);
  timers.fire(200);
  await waitFor("a recompile", () => service.current().wire.memory[0] !== "one");
  assert.deepEqual(service.current().wire.memory, ["six", "bee"]);
});

Deno.test("corpus service - a file changed while the first load runs is recompiled (the watch is armed first)", async () => {
  await using c = await tempCorpus({ "a.yaml": "version: 1\nmemory: [one]\n" });
  const path = join(c.dir, "a.yaml");
  const mtime = await age(path);
  let first = true;
  const loader: typeof load = async (dir, options) => {
    const result = await load(dir, options);
    if (first) {
      first = false;
      // Changed after the first load read it, before the service started: only a watch armed already sees it.
      await rewriteInPlace(path, "version: 1\nmemory: [two]\n", mtime);
    }
    return result;
  };
  await using service = new LiveCorpus({ dir: c.dir, site: "site", log: () => {}, debounceMs: 20 }, loader);
  await service.start();
  assert.deepEqual(service.current().wire.memory, ["one"]);
  await waitFor("the change made during the first load", () => service.current().wire.memory[0] === "two");
});

Deno.test("corpus service - a failed first load stops the service even when a change was being compiled early", async () => {
  await using c = await tempCorpus({ "a.yaml": "version: 1\nmemory: [one]\n" });
  let events = 0;
  const timers = manualTimers();
  let first = true;
  const loader: typeof load = async (dir, options) => {
    if (!first) return await load(dir, options);
    first = false;
    await c.write("a.yaml", "version: 1\nmemory: [two]\n");
    await waitFor("the watcher to report the edit", () => events > 0 && timers.due(50));
    timers.fire(50); // an early compile starts, and waits for this load
    throw new Error("the first load failed");
  };
  const service = new LiveCorpus(
    { dir: c.dir, site: "site", log: () => {}, onWatchEvent: (_, relevant) => void (relevant && events++) },
    loader,
    timers,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    service.start().then(() => "started", (err: Error) => err.message),
    new Promise((resolve) => (timer = setTimeout(() => resolve("hung"), 10_000))),
  ]).finally(() => clearTimeout(timer));
  assert.equal(outcome, "the first load failed");
});

Deno.test("corpus service - compression starts in a later turn of the event loop, so the answer that asked for it goes out first", async () => {
  const components = Array.from({ length: 40 }, (_, i) => `  - name: C${i}\n    selector: ".c${i}"\n`).join("");
  await using c = await tempCorpus({ "a.yaml": `version: 1\ncomponents:\n${components}` });
  const timers = manualTimers();
  await using service = new LiveCorpus({ dir: c.dir, site: "site", log: () => {}, watch: false }, load, timers);
  await service.start();
  const url = "http://127.0.0.1/mapper";
  const ask = () => service.handle(new Request(url, { headers: { "accept-encoding": "gzip" } }))!;
  const first = ask();
  assert.equal(first.headers.get("content-encoding"), null, "the first answer is not held for compression");
  assert.ok((await first.text()).length >= 1024, "large enough to be compressed");
  // Other turns of the event loop pass: nothing is compressed until the timer of the next turn fires.
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(timers.due(0), "the compression waits for a timer");
  const second = ask();
  assert.equal(second.headers.get("content-encoding"), null);
  await second.body?.cancel();
  timers.fire(0);
  await waitFor("the gzip form", () => {
    const res = ask();
    void res.body?.cancel();
    return res.headers.get("content-encoding") === "gzip";
  });
});
