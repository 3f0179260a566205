import assert from "node:assert/strict";
import { join } from "node:path";
import { Coalescer, type FsEvents, type Timers, watchTree } from "./watch.ts";

/** A manual clock: timers fire only when the test advances time. */
function manualClock(): Timers & { now: number; advance(ms: number): Promise<void>; pending(): number } {
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock = {
    now: 0,
    setTimeout(fn: () => void, ms: number): unknown {
      const id = ++seq;
      timers.set(id, { at: clock.now + ms, fn });
      return id;
    },
    clearTimeout(id: unknown): void {
      timers.delete(id as number);
    },
    pending: () => timers.size,
    async advance(ms: number): Promise<void> {
      const end = clock.now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        clock.now = due[1].at;
        due[1].fn();
        await settle();
      }
      clock.now = end;
      await settle();
    },
  };
  return clock;
}

/** Lets every queued promise callback (and the I/O they started) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

Deno.test("Coalescer - the rebuild starts 200 ms after the LAST event, not the first", async () => {
  const clock = manualClock();
  const runs: number[] = [];
  await using c = new Coalescer(() => Promise.resolve(void runs.push(clock.now)), { timers: clock });
  c.trigger();
  await clock.advance(150);
  c.trigger();
  await clock.advance(150);
  c.trigger();
  await clock.advance(199);
  assert.deepEqual(runs, [], "still inside the quiet period of the last event");
  await clock.advance(1);
  assert.deepEqual(runs, [500]);
  await clock.advance(10_000);
  assert.deepEqual(runs, [500], "one burst, one rebuild");
});

Deno.test("Coalescer - never two rebuilds at once; events during one cause exactly one more", async () => {
  const clock = manualClock();
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  let release: (() => void) | undefined;
  await using c = new Coalescer(async () => {
    runs++;
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((r) => (release = r));
    active--;
  }, { timers: clock });
  c.trigger();
  await clock.advance(200);
  assert.equal(runs, 1);
  for (let i = 0; i < 3; i++) {
    c.trigger();
    await clock.advance(200); // each wait ends while the first rebuild still runs
  }
  assert.equal(runs, 1);
  release!();
  await settle();
  assert.equal(runs, 2, "exactly one more, right after");
  release!();
  await settle();
  assert.equal(runs, 2);
  assert.equal(maxActive, 1);
});

Deno.test("Coalescer - idle() waits out the quiet period and every run, and is immediate when at rest", async () => {
  const clock = manualClock();
  let release: (() => void) | undefined;
  let runs = 0;
  await using c = new Coalescer(async () => {
    runs++;
    await new Promise<void>((r) => (release = r));
  }, { timers: clock });
  let idle = false;
  await c.idle(); // nothing scheduled: resolves at once
  c.trigger();
  void c.idle().then(() => (idle = true));
  await clock.advance(200);
  assert.equal(runs, 1);
  let idleAfterRun = false;
  void c.idle().then(() => (idleAfterRun = true)); // asked during the run: waits for it
  c.trigger(); // a change during the run: one more run before rest
  await clock.advance(200);
  release!();
  await settle();
  assert.equal(runs, 2);
  assert.deepEqual([idle, idleAfterRun], [false, false], "still running the second time");
  release!();
  await settle();
  assert.deepEqual([idle, idleAfterRun], [true, true]);
});

Deno.test("Coalescer - flush() runs a pending change at once and resolves after it; at rest it is immediate", async () => {
  const clock = manualClock();
  const runs: number[] = [];
  let prepares = 0;
  await using c = new Coalescer(() => Promise.resolve(void runs.push(clock.now)), {
    timers: clock,
    prepare: () => Promise.resolve(void prepares++),
  });
  await c.flush(); // nothing pending
  assert.deepEqual(runs, []);
  c.trigger();
  await clock.advance(10);
  let flushed = false;
  const flushing = c.flush().then(() => (flushed = true));
  await settle();
  assert.deepEqual(runs, [10], "run at once, not 200 ms after the change");
  await flushing;
  assert.equal(flushed, true);
  assert.equal(clock.pending(), 0, "no quiet period or prepare left to fire");
  await clock.advance(10_000);
  assert.deepEqual(runs, [10], "one change, one run");
  assert.equal(prepares, 0, "the prepare that was not due yet never ran");
});

Deno.test("Coalescer - a failing rebuild does not stop later ones", async () => {
  const clock = manualClock();
  let runs = 0;
  await using c = new Coalescer(() => {
    runs++;
    return Promise.reject(new Error("boom"));
  }, { timers: clock });
  c.trigger();
  await clock.advance(200);
  c.trigger();
  await clock.advance(200);
  assert.equal(runs, 2);
});

Deno.test("Coalescer - a prepare done in the quiet period is handed to the run when nothing changed since it began", async () => {
  const clock = manualClock();
  const prepared: number[] = [];
  const runs: Array<[number, string | undefined]> = [];
  let n = 0;
  await using c = new Coalescer<string>((value) => Promise.resolve(void runs.push([clock.now, value])), {
    timers: clock,
    prepare: () => Promise.resolve(`work ${++n}`).finally(() => prepared.push(clock.now)),
  });
  c.trigger();
  await clock.advance(49);
  assert.deepEqual(prepared, [], "the prepare waits for 50 ms of quiet too");
  await clock.advance(1);
  assert.deepEqual(prepared, [50]);
  assert.deepEqual(runs, [], "nothing is published before the quiet period ends");
  await clock.advance(150);
  assert.deepEqual(runs, [[200, "work 1"]], "the run gets the prepared work at the end of the quiet period");
  await clock.advance(10_000);
  assert.deepEqual(prepared, [50], "one prepare per quiet period");
});

Deno.test("Coalescer - work prepared before the last trigger is never handed to the run", async () => {
  const clock = manualClock();
  let release: (() => void) | undefined;
  let n = 0;
  const runs: Array<string | undefined> = [];
  await using c = new Coalescer<string>((value) => Promise.resolve(void runs.push(value)), {
    timers: clock,
    prepare: async () => {
      const mine = ++n;
      if (mine === 1) await new Promise<void>((r) => (release = r));
      // The prepares that would replace the stale work fail, so only the staleness rule can keep it out.
      if (mine === 2 || mine === 4) throw new Error("cannot prepare");
      return `work ${mine}`;
    },
  });
  // A trigger while a prepare works: what it prepared describes an older state.
  c.trigger();
  await clock.advance(50);
  c.trigger();
  release!();
  await settle();
  await clock.advance(200);
  assert.deepEqual([n, runs], [2, [undefined]], "prepare 1's work was dropped; the run did the work itself");
  // A trigger after a prepare ended: the same.
  c.trigger();
  await clock.advance(50); // work 3
  c.trigger();
  await clock.advance(200);
  assert.deepEqual([n, runs], [4, [undefined, undefined]]);
});

Deno.test("Coalescer - a prepare and a run never overlap; a prepare due during a run starts after it", async () => {
  const clock = manualClock();
  let active = 0;
  let maxActive = 0;
  const releases: Array<() => void> = [];
  const busy = async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise<void>((r) => releases.push(r));
    active--;
  };
  const runs: Array<string | undefined> = [];
  let n = 0;
  await using c = new Coalescer<string>(async (value) => {
    runs.push(value);
    if (value === undefined) await busy();
  }, {
    timers: clock,
    prepare: async () => {
      const mine = ++n;
      await busy();
      return `work ${mine}`;
    },
  });
  c.trigger();
  await clock.advance(50); // prepare 1 starts, held
  c.trigger();
  await clock.advance(50); // prepare 2 is due while 1 works: it waits
  assert.equal(releases.length, 1);
  releases.shift()!();
  await settle();
  assert.equal(releases.length, 1, "prepare 2 started once prepare 1 ended");
  await clock.advance(150); // the quiet period ends while prepare 2 works: the run waits for it
  assert.deepEqual(runs, []);
  releases.shift()!();
  await settle();
  assert.deepEqual(runs, ["work 2"]);
  assert.equal(maxActive, 1);
  await c.idle();
});

Deno.test("Coalescer - without prepare (or with a debounce not longer than its delay) the run is given nothing", async () => {
  const clock = manualClock();
  const runs: Array<string | undefined> = [];
  let prepares = 0;
  await using c = new Coalescer<string>((value) => Promise.resolve(void runs.push(value)), {
    timers: clock,
    debounceMs: 40,
    prepare: () => Promise.resolve(`work ${++prepares}`),
  });
  c.trigger();
  await clock.advance(1000);
  assert.deepEqual([runs, prepares], [[undefined], 0]);
});

/** A watcher double the test ends or breaks at will. */
function fakeEvents() {
  const queue: Array<Deno.FsEvent | Error | null> = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const push = (item: Deno.FsEvent | Error | null) => {
    queue.push(item);
    wake?.();
  };
  const events: FsEvents = {
    close() {
      closed = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
        if (closed) return;
        const item = queue.shift()!;
        if (item === null) return;
        if (item instanceof Error) throw item;
        yield item;
      }
    },
  };
  return { events, push, isClosed: () => closed };
}

/** A watcher factory making {@linkcode fakeEvents} doubles; `made` holds each watch it started, in order. */
function fakeWatches() {
  const made: ReturnType<typeof fakeEvents>[] = [];
  const watch = () => {
    const f = fakeEvents();
    made.push(f);
    return f.events;
  };
  return { made, watch };
}

Deno.test("watchTree - a watch that dies is logged and replaced by polling that still sees changes", async (t) => {
  for (const death of ["ends", "throws"] as const) {
    await t.step(death, async () => {
      const dir = await Deno.makeTempDir();
      try {
        const clock = manualClock();
        const logs: string[] = [];
        let changes = 0;
        let signature = "one";
        const fake = fakeEvents();
        await using w = await watchTree({
          dir,
          onChange: () => changes++,
          log: (l) => logs.push(l),
          signature: () => Promise.resolve(signature),
          timers: clock,
          watch: () => fake.events,
        });
        assert.equal(w.mode, "watching");
        fake.push({ kind: "modify", paths: [join(dir, "a.yaml")] });
        await settle();
        assert.equal(changes, 1);
        fake.push(death === "ends" ? null : new Error("inotify queue overflow"));
        await settle();
        assert.equal(w.mode, "polling");
        assert.equal(logs.length, 1);
        assert.match(
          logs[0]!,
          death === "ends"
            ? /^the file-system watch ended; checking for changes every 1 s instead$/
            : /^the file-system watch failed: inotify queue overflow; checking for changes every 1 s instead$/,
        );
        assert.equal(changes, 2, "a rebuild right away covers what happened while the watch was dying");
        await clock.advance(1000);
        assert.equal(changes, 2, "an unchanged tree is not a change");
        signature = "two";
        await clock.advance(1000);
        assert.equal(changes, 3);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("watchTree - onChange gets every relevant path of an event; a change it cannot name gets none", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = manualClock();
    const { made, watch } = fakeWatches();
    const changes: Array<readonly string[] | undefined> = [];
    await using _w = await watchTree({
      dir,
      onChange: (paths) => changes.push(paths),
      relevant: (path) => path.endsWith(".yaml"),
      log: () => {},
      timers: clock,
      watch,
    });
    // A rename reports both names; a relevant path after the first one still counts.
    made[0]!.push({ kind: "rename", paths: [join(dir, "notes.md"), join(dir, "a.yaml"), join(dir, "b.yaml")] });
    made[0]!.push({ kind: "modify", paths: [join(dir, "notes.md")] });
    await settle();
    assert.deepEqual(changes, [[join(dir, "a.yaml"), join(dir, "b.yaml")]]);
    // The directory itself replaced: anything in it may have changed.
    made[0]!.push({ kind: "remove", paths: [dir] });
    await settle();
    assert.deepEqual(changes.slice(1), [undefined]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("watchTree - an event on the directory itself re-arms a fresh watch and reports a change", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = manualClock();
    const { made, watch } = fakeWatches();
    let changes = 0;
    await using w = await watchTree({ dir, onChange: () => changes++, log: () => {}, timers: clock, watch });
    assert.equal(made.length, 1);
    // `rm -rf dir && mkdir dir` (or a directory renamed over it): the kernel reports the root itself.
    made[0]!.push({ kind: "remove", paths: [dir] });
    await settle();
    assert.equal(made.length, 2, "a fresh watch");
    assert.ok(made[0]!.isClosed(), "the old one closed");
    assert.equal(changes, 1);
    made[1]!.push({ kind: "create", paths: [join(dir, "a.yaml")] });
    await settle();
    assert.equal(changes, 2, "the fresh watch is followed");
    made[0]!.push({ kind: "create", paths: [join(dir, "ghost.yaml")] });
    await settle();
    assert.equal(changes, 2, "the old watch is ignored");
    assert.equal(w.mode, "watching");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("watchTree - a directory replaced without any event is noticed at the next scan: a fresh watch, a change", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const dir = join(parent, "corpus");
    await Deno.mkdir(dir);
    const clock = manualClock();
    const { made, watch } = fakeWatches();
    let changes = 0;
    await using w = await watchTree({ dir, onChange: () => changes++, log: () => {}, timers: clock, watch });
    await clock.advance(1000);
    assert.deepEqual([made.length, changes], [1, 0], "the same directory: nothing to do");
    // A deploy swaps a new directory in by rename, and the watch's event for it is lost.
    await Deno.mkdir(join(parent, "corpus.new"));
    await Deno.rename(dir, join(parent, "corpus.old"));
    await Deno.rename(join(parent, "corpus.new"), dir);
    await clock.advance(1000);
    assert.equal(made.length, 2, "a fresh watch on the new directory");
    assert.equal(changes, 1);
    assert.equal(w.mode, "watching");
    made[1]!.push({ kind: "create", paths: [join(dir, "a.yaml")] });
    await settle();
    assert.equal(changes, 2, "the fresh watch is followed");
    await clock.advance(1000);
    assert.deepEqual([made.length, changes], [2, 2], "and kept");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("watchTree - a missing directory is waited for, then watched", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = join(root, "later");
    const clock = manualClock();
    let changes = 0;
    let armed = 0;
    await using w = await watchTree({
      dir,
      onChange: () => changes++,
      log: () => {},
      timers: clock,
      watch: () => (armed++, fakeEvents().events),
    });
    assert.equal(w.mode, "waiting");
    await clock.advance(250);
    assert.equal(armed, 0);
    await Deno.mkdir(dir);
    await clock.advance(250);
    assert.equal(armed, 1);
    assert.equal(w.mode, "watching");
    assert.equal(changes, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("watchTree - a platform that refuses a watch falls back to polling and says so", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const logs: string[] = [];
    await using w = await watchTree({
      dir,
      onChange: () => {},
      log: (l) => logs.push(l),
      timers: manualClock(),
      watch: () => {
        throw new Error("OS file watch limit reached");
      },
    });
    assert.equal(w.mode, "polling");
    assert.match(
      logs[0] ?? "",
      /^cannot watch .*: OS file watch limit reached; checking for changes every 1 s instead$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "watchTree - a FIFO in the tree (which stops Deno's watcher) switches to polling, at start or later",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const mkfifo = async (name: string) => {
        assert.ok((await new Deno.Command("mkfifo", { args: [join(dir, name)] }).output()).success);
      };
      const clock = manualClock();
      const logs: string[] = [];
      let changes = 0;
      const fake = fakeEvents();
      await using w = await watchTree({
        dir,
        onChange: () => changes++,
        log: (l) => logs.push(l),
        timers: clock,
        watch: () => fake.events,
      });
      assert.equal(w.mode, "watching");
      await clock.advance(1000);
      assert.equal(w.mode, "watching", "no FIFO yet");
      await Deno.mkdir(join(dir, "views"));
      await mkfifo("views/pipe.yaml");
      await clock.advance(1000);
      assert.equal(w.mode, "polling");
      assert.ok(!fake.isClosed(), "abandoned, never closed: closing a stuck Deno watcher hangs later file calls");
      assert.deepEqual(logs, [
        "views/pipe.yaml is a FIFO, which stops file-system events; checking for changes every 1 s instead",
      ]);
      assert.equal(changes, 1);

      // Present when the watch is armed: never watched at all.
      const logs2: string[] = [];
      let armed = 0;
      await using w2 = await watchTree({
        dir,
        onChange: () => {},
        log: (l) => logs2.push(l),
        timers: manualClock(),
        watch: () => (armed++, fakeEvents().events),
      });
      assert.equal(w2.mode, "polling");
      assert.equal(armed, 0);
      assert.match(logs2[0] ?? "", /^views\/pipe\.yaml is a FIFO/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
