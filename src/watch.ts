/**
 * The one watch-and-rebuild mechanism, used by the corpus service (`serve-mapper`, the browser daemon) and the
 * catalog server (`atlas serve --watch`):
 *
 * - {@linkcode Coalescer}: file events are coalesced into rebuilds that start {@linkcode DEBOUNCE_MS} after the LAST
 *   event (every event restarts the wait); never two rebuilds at once; events during a rebuild cause exactly one
 *   more, right after it. A rebuild's work can be prepared during the wait (from {@linkcode PREPARE_MS} after the
 *   last event) and is then only published when the wait ends, if no event came after it began.
 * - `onChange` names the paths of each event, so an owner can rebuild only what they touch.
 * - {@linkcode watchTree}: a recursive watch on a directory that cannot go deaf. An event on the directory itself
 *   (deleted and re-created — same inode or not — or replaced by a rename) re-arms a fresh watch and triggers a
 *   rebuild, and so does a directory found replaced (another device and inode) at a scan, should that event be lost; a missing directory is waited for; a watch that cannot start or that dies is logged and replaced by
 *   polling a cheap signature of the tree, so content is never served stale in silence.
 * - A FIFO, socket or device anywhere in the tree silently stops `Deno.watchFs` for good (its watcher thread
 *   blocks on it: measured with Deno 2.9 on Linux, where creating a FIFO in a watched directory ends every later
 *   event). So the tree is checked for such files (by directory listing, never opening anything) when the watch
 *   is armed and every {@linkcode SCAN_MS} while it runs; when one is present the watch is not trusted: it is
 *   logged and replaced by polling. A watch that may be stuck that way is abandoned, never closed: closing it was
 *   measured to hang every later file-system call of the process.
 *
 * Timers and the watcher factory are injectable, so the rules are tested with a manual clock, not with sleeps.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "./path.ts";

/** Quiet time after the last file event before a rebuild starts, in milliseconds. */
export const DEBOUNCE_MS = 200;
/** How often a missing directory is looked for, in milliseconds. */
export const DIR_POLL_MS = 250;
/** How often the tree is scanned once file-system events are unavailable, in milliseconds. */
export const SCAN_MS = 1000;

/** The timer functions the loop uses (the global ones by default; tests pass a manual clock). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** A timer of {@linkcode REAL_TIMERS}: cleared ones still expire, but never call back. */
interface WebTimer {
  cleared: boolean;
}

/**
 * Real timers made of `AbortSignal.timeout`, not the global `setTimeout`: in Deno 2.9 the first `setTimeout` of a
 * process loads Deno's Node timers (about 10 ms of CPU), which would land on `serve-mapper`'s start-up path (the watch
 * schedules its first scan as it is armed). A cleared timer keeps the event loop alive until it would have fired
 * (at most a scan interval); every owner stops its process with `Deno.exit`, not by running out of work.
 */
export const REAL_TIMERS: Timers = {
  setTimeout(fn, ms) {
    const timer: WebTimer = { cleared: false };
    AbortSignal.timeout(ms).addEventListener("abort", () => timer.cleared || fn(), { once: true });
    return timer;
  },
  clearTimeout: (id) => void ((id as WebTimer).cleared = true),
};

/** Quiet time after the last event before a {@linkcode Coalescer}'s `prepare` starts, in milliseconds. */
export const PREPARE_MS = 50;

/** Options of {@linkcode Coalescer}. */
export interface CoalescerOptions<P> {
  /** Quiet time after the last trigger before the run (default {@linkcode DEBOUNCE_MS}). */
  debounceMs?: number | undefined;
  /** Timers (default the real ones). */
  timers?: Timers;
  /**
   * The run's work, done ahead while the quiet period is still being waited out: it starts `prepareMs` after the
   * last trigger (once nothing else runs), and its result is handed to the run when no trigger came after it started;
   * otherwise the run gets `undefined` and does the work itself. It never overlaps a run or another prepare, and
   * nothing becomes visible before the quiet period ends: only the wait after it gets shorter.
   */
  prepare?: () => Promise<P>;
  /** Quiet time before `prepare` starts (default {@linkcode PREPARE_MS}; no prepare when not below `debounceMs`). */
  prepareMs?: number;
}

/**
 * Runs `run` after `debounceMs` of quiet following the last {@linkcode trigger}; never two runs at once, and a
 * trigger whose wait ends during a run makes exactly one more run right after it. With `prepare`, the run's work can
 * be done during the quiet period (see {@linkcode CoalescerOptions.prepare}).
 */
export class Coalescer<P = never> {
  readonly #run: (prepared: P | undefined) => Promise<void>;
  readonly #prepare: (() => Promise<P>) | undefined;
  readonly #debounceMs: number;
  readonly #prepareMs: number;
  readonly #timers: Timers;
  #timer: unknown;
  #prepareTimer: unknown;
  #running: Promise<void> | undefined;
  #preparing: Promise<void> | undefined;
  /** A prepare was due while something ran: it starts when that ends, if the quiet period is still going. */
  #prepareWanted = false;
  /** Counts triggers: a prepared result is used only when none came after its prepare started. */
  #generation = 0;
  #prepared: { generation: number; value: P } | undefined;
  #dirty = false;
  #disposed = false;
  /** Callers of {@linkcode idle} waiting for the quiet period and the run to end. */
  #idlers: Array<() => void> = [];

  constructor(run: (prepared: P | undefined) => Promise<void>, options: CoalescerOptions<P> = {}) {
    this.#run = run;
    this.#debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.#prepareMs = options.prepareMs ?? PREPARE_MS;
    this.#prepare = this.#prepareMs < this.#debounceMs ? options.prepare : undefined;
    this.#timers = options.timers ?? REAL_TIMERS;
  }

  /** Something changed: (re)start the quiet period. */
  trigger(): void {
    if (this.#disposed) return;
    this.#generation++;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      void this.#start();
    }, this.#debounceMs);
    if (!this.#prepare) return;
    if (this.#prepareTimer !== undefined) this.#timers.clearTimeout(this.#prepareTimer);
    this.#prepareTimer = this.#timers.setTimeout(() => {
      this.#prepareTimer = undefined;
      this.#startPrepare();
    }, this.#prepareMs);
  }

  /**
   * Ends the quiet period being waited out, if any, by running at once (a reader needs what changed and should not
   * wait out the debounce), then resolves as {@linkcode idle} does.
   */
  flush(): Promise<void> {
    if (this.#timer !== undefined && !this.#disposed) {
      this.#timers.clearTimeout(this.#timer);
      this.#timer = undefined;
      if (this.#prepareTimer !== undefined) {
        // Not started yet: the run does the work itself.
        this.#timers.clearTimeout(this.#prepareTimer);
        this.#prepareTimer = undefined;
      }
      void this.#start();
    }
    return this.idle();
  }

  /** Whether a quiet period is being waited out (for tests and status). */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Resolves once no quiet period is being waited out and no run (or prepare) is going (at once when already so). A
   * trigger arriving meanwhile extends the wait, so tests can show that nothing more happens without sleeping.
   */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idlers.push(resolve));
  }

  #isIdle(): boolean {
    return this.#disposed ||
      (this.#timer === undefined && this.#prepareTimer === undefined && this.#running === undefined &&
        this.#preparing === undefined);
  }

  /** Wakes the {@linkcode idle} callers when the loop has come to rest. */
  #wakeIdlers(): void {
    if (!this.#isIdle()) return;
    const idlers = this.#idlers;
    this.#idlers = [];
    for (const wake of idlers) wake();
  }

  #startPrepare(): void {
    const prepare = this.#prepare;
    if (this.#disposed || !prepare) return;
    if (this.#running || this.#preparing) {
      this.#prepareWanted = true;
      return;
    }
    this.#prepareWanted = false;
    const generation = this.#generation;
    this.#preparing = (async () => {
      try {
        const value = await prepare();
        if (generation === this.#generation) this.#prepared = { generation, value };
      } catch {
        // The run does the work itself and reports what goes wrong.
      } finally {
        this.#preparing = undefined;
        this.#settled();
      }
    })();
  }

  /** After a run or a prepare: a prepare that was due starts now if the quiet period is still going. */
  #settled(): void {
    if (this.#prepareWanted && this.#timer !== undefined) this.#startPrepare();
    this.#wakeIdlers();
  }

  #start(): Promise<void> {
    if (this.#running) {
      this.#dirty = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#dirty = false;
          await this.#preparing;
          const prepared = this.#prepared?.generation === this.#generation ? this.#prepared.value : undefined;
          this.#prepared = undefined;
          try {
            await this.#run(prepared);
          } catch {
            // The run reports its own failures; the loop must survive them.
          }
        } while (this.#dirty && !this.#disposed);
      } finally {
        this.#running = undefined;
        this.#settled();
      }
    })();
    return this.#running;
  }

  /** Stops waiting and waits for a running rebuild (and prepare) to finish. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#disposed = true;
    for (const timer of [this.#timer, this.#prepareTimer]) if (timer !== undefined) this.#timers.clearTimeout(timer);
    this.#timer = undefined;
    this.#prepareTimer = undefined;
    await this.#running;
    await this.#preparing;
    this.#wakeIdlers();
  }
}

/**
 * A watcher event's path as a path under `absDir`, or `undefined` when it lies outside. FSEvents (macOS) reports
 * paths with symbolic links resolved (`/private/var/…` for `/var/…`, `/private/tmp/…` for `/tmp/…`), so a path under
 * `realDir` (the resolved `absDir`) is mapped back under `absDir`; Windows' `\\?\` verbatim prefix is ignored.
 */
export function watchedPath(path: string, absDir: string, realDir: string | undefined): string | undefined {
  const strip = (p: string) => p.replace(/^\\\\\?\\(?!UNC\\)/, "");
  const abs = isAbsolute(path) ? strip(path) : resolve(absDir, path);
  for (const root of realDir && realDir !== absDir ? [absDir, strip(realDir)] : [absDir]) {
    const rel = relative(root, abs);
    if (rel === "") return absDir;
    if (!rel.startsWith("..") && !isAbsolute(rel)) return resolve(absDir, rel);
  }
  return undefined;
}

/** What a watcher factory returns: `Deno.FsWatcher` or a test double. */
export interface FsEvents extends AsyncIterable<Deno.FsEvent> {
  close(): void;
}

/** Options of {@linkcode watchTree}. */
export interface WatchTreeOptions {
  /** The directory to watch (recursively). */
  dir: string;
  /**
   * Called (synchronously) for every relevant change; usually a {@linkcode Coalescer}'s `trigger`. `paths` are the
   * relevant absolute paths of one file-system event; `undefined` when the change is not known path by path (the
   * directory appeared or was replaced, a scan found a difference, the watch fell back to polling): then anything
   * under the directory may have changed.
   */
  onChange: (paths?: readonly string[]) => void;
  /** Whether an event path (absolute, under `dir`, not `dir` itself) matters. Default: every path. */
  relevant?: (absPath: string, kind: Deno.FsEvent["kind"]) => boolean;
  /** One line per call: why the watch was re-armed, died or fell back to polling. */
  log: (line: string) => void;
  /**
   * A cheap signature of what matters in the tree, compared between scans when polling. Default: path, type, size
   * and mtime of every entry (by `lstat`, so nothing is ever opened).
   */
  signature?: () => Promise<string>;
  /** Always poll at this interval instead of watching (network file systems, tests). */
  pollIntervalMs?: number | undefined;
  /**
   * Scan interval once a watch could not start or died, and of the check for FIFOs, sockets and devices while
   * watching (default {@linkcode SCAN_MS}).
   */
  scanMs?: number;
  /** Names never descended into or reported (e.g. `.git`). */
  skip?: (name: string) => boolean;
  /** Timers (default the global ones). */
  timers?: Timers;
  /** Watcher factory (default `Deno.watchFs(dir, { recursive: true })`). */
  watch?: (dir: string) => FsEvents;
}

/** A running tree watch; dispose to stop it. */
export interface TreeWatch extends AsyncDisposable {
  /** `"watching"`, `"waiting"` (the directory is missing) or `"polling"`. */
  readonly mode: "watching" | "waiting" | "polling";
  /**
   * Checks that the watch still follows the directory at `dir` (identity by device and inode); re-arms it when the
   * directory was replaced and then resolves `true` (anything under it may have changed without an event). Owners
   * call it before a rebuild as a safety net for a missed event.
   */
  recheck(): Promise<boolean>;
}

/** Path, type, size and mtime of every entry under `dir` by `lstat` (never opens a file); `""` when missing. */
export async function lstatSignature(dir: string, skip: (name: string) => boolean = () => false): Promise<string> {
  const parts: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    let names: string[];
    try {
      names = (await Array.fromAsync(Deno.readDir(rel ? join(dir, rel) : dir))).map((e) => e.name).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (skip(name)) continue;
      const childRel = rel ? `${rel}/${name}` : name;
      const info = await Deno.lstat(join(dir, childRel)).catch(() => undefined);
      if (!info) continue;
      const type = info.isDirectory ? "d" : info.isFile ? "f" : info.isSymlink ? "l" : "o";
      parts.push(`${childRel}\0${type}\0${info.size}\0${info.mtime?.getTime()}\0${info.ino}`);
      if (info.isDirectory) await visit(childRel);
    }
  };
  const root = await Deno.stat(dir).catch(() => undefined);
  if (!root?.isDirectory) return "";
  parts.push(`${root.dev}:${root.ino}`);
  await visit("");
  return parts.join("\n");
}

/**
 * The first FIFO, socket or device below `dir` (as a path relative to it), or `undefined`. Uses the directory
 * listing's entry types (no `open`, no `stat` except through symbolic links). Synchronous, like the corpus walk: a
 * corpus has hundreds of small directories, and one blocking call each is several times cheaper than a round trip to
 * the runtime's I/O threads (about 5 ms instead of 15 for 250 directories, on start-up and at every scan).
 */
export function findSpecialFile(
  dir: string,
  skip: (name: string) => boolean = () => false,
): { path: string; what: string } | undefined {
  const visit = (rel: string): { path: string; what: string } | undefined => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(rel ? join(dir, rel) : dir)];
    } catch {
      return undefined;
    }
    for (const e of entries) {
      if (skip(e.name) || e.isFile) continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        const found = visit(childRel);
        if (found) return found;
        continue;
      }
      let info: Deno.FileInfo;
      try {
        info = e.isSymlink ? Deno.statSync(join(dir, childRel)) : Deno.lstatSync(join(dir, childRel));
      } catch {
        continue;
      }
      if (info.isFile || info.isDirectory) continue;
      const what = info.isFifo ? "a FIFO" : info.isSocket ? "a socket" : "a device file";
      return { path: childRel, what };
    }
    return undefined;
  };
  return visit("");
}

/** The directory's identity (`dev:ino`), or `undefined` when it is missing or not a directory. */
async function identityOf(dir: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(dir);
    return info.isDirectory ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * {@linkcode identityOf} and the resolved path (`undefined` when missing), synchronously: arming is on start-up paths,
 * and two blocking calls cost less than a turn of the event loop for two asynchronous ones.
 */
function identityAndRealPathSync(dir: string): { identity: string | undefined; realDir: string | undefined } {
  let identity: string | undefined;
  let realDir: string | undefined;
  try {
    const info = Deno.statSync(dir);
    identity = info.isDirectory ? `${info.dev}:${info.ino}` : undefined;
    realDir = Deno.realPathSync(dir);
  } catch {
    // missing (or vanished between the two calls)
  }
  return { identity, realDir };
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Starts watching `options.dir` (see the module description for the rules). */
export async function watchTree(options: WatchTreeOptions): Promise<TreeWatch> {
  const w = new Watch(options);
  await w.arm();
  return w;
}

class Watch implements TreeWatch {
  readonly #o: WatchTreeOptions;
  readonly #absDir: string;
  readonly #timers: Timers;
  #realDir: string | undefined;
  #events: FsEvents | undefined;
  #loop: Promise<void> | undefined;
  /** Watches that may be stuck on a special file: kept (not closed, see the module), their loops never awaited. */
  readonly #abandoned: FsEvents[] = [];
  #identity: string | undefined;
  #timer: unknown;
  #polling = false;
  #disposed = false;
  mode: "watching" | "waiting" | "polling" = "waiting";

  constructor(options: WatchTreeOptions) {
    this.#o = options;
    this.#absDir = resolve(options.dir);
    this.#timers = options.timers ?? REAL_TIMERS;
  }

  async arm(): Promise<void> {
    if (this.#disposed) return;
    if (this.#o.pollIntervalMs !== undefined) {
      await this.#poll(this.#o.pollIntervalMs);
      return;
    }
    // Synchronous (harmless on a missing directory), like the special-file scan below.
    const { identity, realDir } = identityAndRealPathSync(this.#absDir);
    const special = identity === undefined ? undefined : findSpecialFile(this.#absDir, this.#o.skip);
    if (this.#disposed || this.#events || this.#polling) return; // armed meanwhile by a concurrent call
    if (identity === undefined) {
      this.#waitForDir();
      return;
    }
    this.#realDir = realDir;
    if (special) {
      await this.#fallBack(`${special.path} is ${special.what}, which stops file-system events`);
      return;
    }
    let events: FsEvents;
    try {
      events = this.#o.watch ? this.#o.watch(this.#absDir) : Deno.watchFs(this.#absDir, { recursive: true });
    } catch (err: unknown) {
      await this.#fallBack(`cannot watch ${this.#absDir}: ${reason(err)}`);
      return;
    }
    this.#events = events;
    this.#identity = identity;
    this.mode = "watching";
    this.#loop = this.#follow(events);
    this.#checkForSpecialFiles(events);
  }

  /**
   * While `events` is the live watch, every scan interval: look for a FIFO, socket or device (see the module), and
   * check that the directory is still the one watched, in case the event of its replacement never came.
   */
  #checkForSpecialFiles(events: FsEvents): void {
    this.#timer = this.#timers.setTimeout(async () => {
      this.#timer = undefined;
      if (this.#disposed || this.#events !== events) return;
      if (await this.recheck()) {
        // Replaced (renamed over, or removed and made again) without a word from the watch: started over.
        this.#o.onChange();
        return;
      }
      if (this.#disposed || this.#events !== events) return;
      const special = findSpecialFile(this.#absDir, this.#o.skip);
      if (special) {
        this.#disarm(false);
        await this.#fallBack(`${special.path} is ${special.what}, which stops file-system events`);
        return;
      }
      this.#checkForSpecialFiles(events);
    }, this.#o.scanMs ?? SCAN_MS);
  }

  async #follow(events: FsEvents): Promise<void> {
    let why = "the file-system watch ended";
    try {
      for await (const event of events) {
        if (this.#disposed || this.#events !== events) return;
        this.#onEvent(event);
      }
    } catch (err: unknown) {
      why = `the file-system watch failed: ${reason(err)}`;
    }
    // Ended on its own (not closed by us): never go deaf silently.
    if (!this.#disposed && this.#events === events) {
      this.#disarm();
      await this.#fallBack(why);
    }
  }

  #onEvent(event: Deno.FsEvent): void {
    const changed: string[] = [];
    for (const path of event.paths) {
      const abs = watchedPath(path, this.#absDir, this.#realDir);
      if (abs === undefined) continue;
      if (abs === this.#absDir) {
        // The directory itself was removed, replaced or renamed: the watch follows the old inode, so start over.
        this.#rearm();
        return;
      }
      if (this.#o.relevant?.(abs, event.kind) ?? true) changed.push(abs);
    }
    if (changed.length > 0) this.#o.onChange(changed);
  }

  /** Drops the current watch and arms a fresh one (or waits for the directory), then reports a change. */
  #rearm(): void {
    this.#disarm();
    void this.arm().then(() => this.#o.onChange());
  }

  async recheck(): Promise<boolean> {
    if (this.#disposed || this.mode !== "watching") return false;
    const identity = await identityOf(this.#absDir);
    if (identity === this.#identity || this.mode !== "watching") return false;
    // No event told us: the watch may be stuck (see the module), so it is abandoned rather than closed.
    this.#disarm(false);
    await this.arm();
    return true;
  }

  /** Stops following the current watch; `close: false` abandons it instead (it may be stuck, see the module). */
  #disarm(close = true): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const events = this.#events;
    this.#events = undefined;
    this.#identity = undefined;
    this.mode = "waiting";
    if (!events) return;
    if (!close) {
      this.#abandoned.push(events);
      this.#loop = undefined;
      return;
    }
    try {
      events.close();
    } catch {
      // already closed
    }
  }

  /** The directory is missing: look for it every {@linkcode DIR_POLL_MS}, then arm and report a change. */
  #waitForDir(): void {
    this.mode = "waiting";
    if (this.#disposed || this.#timer !== undefined) return;
    this.#timer = this.#timers.setTimeout(async () => {
      this.#timer = undefined;
      if (this.#disposed) return;
      if ((await identityOf(this.#absDir)) === undefined) {
        this.#waitForDir();
        return;
      }
      await this.arm();
      this.#o.onChange();
    }, DIR_POLL_MS);
  }

  async #fallBack(why: string): Promise<void> {
    const ms = this.#o.scanMs ?? SCAN_MS;
    this.#o.log(`${why}; checking for changes every ${ms / 1000} s instead`);
    await this.#poll(ms);
    // Whatever happened between the watch dying and the first scan is picked up by a rebuild now.
    this.#o.onChange();
  }

  /** Scans the signature every `ms` and reports a change when it differs. */
  async #poll(ms: number): Promise<void> {
    if (this.#polling || this.#disposed) return;
    this.#polling = true;
    this.mode = "polling";
    const signature = this.#o.signature ?? (() => lstatSignature(this.#absDir));
    let last = await signature().catch(() => "");
    const tick = () => {
      this.#timer = this.#timers.setTimeout(async () => {
        this.#timer = undefined;
        if (this.#disposed) return;
        const now = await signature().catch(() => "");
        if (this.#disposed) return;
        if (now !== last) {
          last = now;
          this.#o.onChange();
        }
        tick();
      }, ms);
    };
    tick();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#disposed = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const live = this.#events !== undefined;
    const special = live ? findSpecialFile(this.#absDir, this.#o.skip) : undefined;
    this.#disarm(special === undefined);
    if (live && special === undefined) await this.#loop;
  }
}
