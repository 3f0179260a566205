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

Deno.test("watchTree - an event on the directory itself re-arms a fresh watch and reports a change", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = manualClock();
    const made: ReturnType<typeof fakeEvents>[] = [];
    let changes = 0;
    await using w = await watchTree({
      dir,
      onChange: () => changes++,
      log: () => {},
      timers: clock,
      watch: () => {
        const f = fakeEvents();
        made.push(f);
        return f.events;
      },
    });
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
