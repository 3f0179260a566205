/**
 * The live corpus service: compile once, serve prebuilt bytes on `/mapper` and `/mapper/version`, and recompile
 * when YAML changes (trailing debounce, never two compiles at once, keep the last good corpus on failure).
 *
 * The handler is host-agnostic: `mapper serve-mapper` and the browser session daemon mount the same endpoints.
 *
 * @module
 */
import { basename, relative, resolve, sep as SEP } from "../path.ts";
import { chooseEncoding, ifNoneMatchHits } from "../http_cache.ts";
import { compile } from "./compile.ts";
import { CorpusLoadError, type Diagnostic, formatDiagnostic, toEnvelopeDiagnostic } from "./diagnostic.ts";
import { asParseErrors, load, LoadCache, type LoadOptions, type LoadResult, unchangedSince } from "./load.ts";
import {
  materialized,
  readStartCache,
  type StartCache,
  type StartCacheKey,
  type StartCacheRecord,
  writeStartCache,
} from "./start_cache.ts";
import { EXCLUDED_DIRS, isCorpusFileName, isExcludedPath, walkCorpus } from "./_walk.ts";
import type { WireCorpus } from "./wire.ts";
import type { EnvelopeDiagnostic } from "./diagnostic.ts";
import { Coalescer, REAL_TIMERS, type Timers, type TreeWatch, watchTree } from "../watch.ts";

/** Options of {@linkcode startCorpusService}. */
export interface CorpusServiceOptions {
  /** Corpus directory (e.g. `.mapper`). */
  dir: string;
  /** The `site` label (basename of the working directory). */
  site: string;
  /** Where log lines go (`[serve-mapper] recompiled (v…)`, compile errors), one call per line, no newline. */
  log: (line: string) => void;
  /** Clock for versions (Unix ms); default `Date.now`. */
  now?: () => number;
  /** Watch the directory and recompile (default true). */
  watch?: boolean;
  /**
   * Arm the watch only when {@linkcode CorpusService.watch} is called, not before the first load (default false; a
   * `lenient` service always arms it first: it recompiles a failed start on the watch's events). Arming walks the
   * tree and opens the platform's watch, tens of milliseconds a server can spend after its first answer instead of
   * before it. A change made between the first load and the arming has no event: once armed, the files are compared
   * with what the served corpus was made from, and any difference is recompiled.
   */
  deferWatch?: boolean;
  /**
   * Run the first load's checks across files (merge collisions, duplicates, route conflicts, …) when its
   * diagnostics are first read rather than before it is served (default false): they never change the corpus, and a
   * server can answer with it first. Later compiles check as they load.
   */
  deferChecks?: boolean;
  /**
   * Scan the tree for changes at this interval (ms) instead of using file-system events (network file systems,
   * exhausted inotify watches). Unset: events, with an automatic 1 s scan when the platform refuses a watcher.
   */
  pollIntervalMs?: number;
  /** Recompile delay after the last event in ms (default 200). */
  debounceMs?: number;
  /**
   * Called as the watcher classifies a path under the directory from a file-system event, with whether it
   * triggers a recompile (tests use it to know an ignored edit was seen, instead of sleeping). Default: nothing.
   */
  onWatchEvent?: (absPath: string, relevant: boolean) => void;
  /** Log prefix, default `[serve-mapper]`. */
  logPrefix?: string;
  /**
   * Run every authoring check on each compile (selectors parsed, extract forms, …) so `/mapper/diagnostics` says
   * what `mapper validate` would (except the disk lookup of `source` globs). Default true.
   */
  validate?: boolean;
  /**
   * Start even when the first compile fails (missing directory, broken YAML): log the problems, serve an empty
   * corpus, and recompile once the directory appears or is fixed. Default false (the failure is thrown).
   */
  lenient?: boolean;
  /**
   * Keep each successful compile in the start cache under this home directory (`~/.mapper/cache/corpus/`), and start
   * from it: when no file changed since, the cached corpus is served without decoding anything; otherwise only the
   * changed files are. Default: no start cache.
   */
  startCacheHome?: string | undefined;
}

/**
 * How long after a compile its start cache is written (after the first answers, once a burst of saves has settled),
 * and after a start from the start cache its decoded files are read.
 */
const START_CACHE_DELAY_MS = 1_000;

/** A compiled corpus plus the prebuilt response bytes for it. */
export interface CorpusSnapshot {
  /** Snapshot version. */
  version: number;
  /** Corpus in wire form. */
  wire: WireCorpus;
  /** Problems found while loading. */
  diagnostics: readonly Diagnostic[];
  /** Views in the corpus (known without `wire`, which a start from the start cache parses on first use). */
  views: number;
  /** Components: the globals and every view's. */
  components: number;
}

/**
 * `GET /mapper/diagnostics`: the `mapper validate --json` envelope of the last compile attempt, plus `version` (of
 * that attempt; a failed recompile gets its own) and `servedVersion` (what `/mapper` serves). `stale` is true when
 * the last recompile failed and an older corpus is still served.
 */
export interface DiagnosticsReport {
  /** Whether there are no errors. */
  ok: boolean;
  /** Problems found. */
  diagnostics: EnvelopeDiagnostic[];
  /** Counts of files, errors and warnings. */
  result: { files: number; errors: number; warnings: number };
  /** Version of the last compile attempt. */
  version: number;
  /** Version `/mapper` serves. */
  servedVersion: number;
  /** Whether the last recompile failed and an older corpus is still served. */
  stale: boolean;
}

/** A running corpus service: current snapshot, HTTP handler, watcher. Dispose to stop watching. */
export interface CorpusService extends AsyncDisposable {
  /** The last good snapshot. */
  current(): CorpusSnapshot;
  /**
   * Answers `/mapper`, `/mapper/version`, `/mapper/diagnostics` (and CORS preflight on them); `undefined` for any
   * other path.
   */
  handle(request: Request): Response | undefined;
  /** The diagnostics of the last compile attempt (what `/mapper/diagnostics` serves). */
  diagnostics(): DiagnosticsReport;
  /** Resolves after the next successful recompile (tests and the browser daemon use it). */
  nextVersion(): Promise<CorpusSnapshot>;
  /**
   * Resolves once no recompile is scheduled or running (at once when none is). Events the watcher has not yet
   * received are not waited for: pair it with `onWatchEvent` or a version to know they arrived.
   */
  idle(): Promise<void>;
  /**
   * Arms a watch held back by `deferWatch` (once; a later call waits for the same arming), then recompiles when the
   * files differ from what the served corpus was made from. Resolves at once when the watch was armed at the start.
   */
  watch(): Promise<void>;
  /**
   * Compiles a change the watcher has reported at once instead of after its quiet period, and resolves when the
   * corpus served is that compile (at once when nothing is pending): what a command reading the corpus waits for, so
   * that an edit just saved is what it sees.
   */
  fresh(): Promise<void>;
}

// The one mapping of watcher paths (macOS FSEvents resolves symbolic links) lives with the watch mechanism.
export { watchedPath } from "../watch.ts";

/** The two paths the service answers. */
export const MAPPER_PATH = "/mapper";
/** The version path clients poll. */
export const MAPPER_VERSION_PATH = "/mapper/version";
/** The diagnostics of the last compile (the `mapper validate --json` envelope plus versions). */
export const MAPPER_DIAGNOSTICS_PATH = "/mapper/diagnostics";

const encoder = new TextEncoder();

/** Bodies below this size are never compressed (the headers would cost more than they save). */
const GZIP_MIN_BYTES = 1024;

/** What one load-and-compile produced: a corpus (its version still to be set) or the reason it failed. */
type Attempt =
  | { wire: WireCorpus; diagnostics: readonly Diagnostic[]; files: readonly string[]; loaded: LoadCache }
  | { err: unknown };

/**
 * A snapshot plus its response bytes. The version body is made at once; the corpus body (the JSON of the whole
 * corpus: tens of milliseconds for a large one) and its gzip form on first use and then kept, so a recompile is
 * visible on `/mapper/version` without waiting for them.
 */
interface Built extends CorpusSnapshot {
  /** The corpus as JSON text. */
  json(): string;
  /** The corpus as JSON bytes (made from the text on first use: compression and HEAD need them). */
  body(): Uint8Array<ArrayBuffer>;
  /** What a plain answer sends: the bytes when they are what the snapshot was made from, else the text. */
  plain(): string | Uint8Array<ArrayBuffer>;
  /** Whether the body is worth compressing. */
  large(): boolean;
  /** The gzip-compressed body: the bytes once they are ready, until then the promise of them (started by the first call). */
  gzip(): Uint8Array<ArrayBuffer> | Promise<Uint8Array<ArrayBuffer>>;
  versionBody: Uint8Array<ArrayBuffer>;
}

/** Paths, sizes and modification times of the corpus files: changes when any YAML file does. */
async function treeSignature(dir: string): Promise<string> {
  const files = walkCorpus(dir, [], []);
  const parts = await Promise.all(files.map(async (f) => {
    const info = await Deno.lstat(f.path).catch(() => undefined);
    return `${f.relative}\0${info?.size}\0${info?.mtime?.getTime()}`;
  }));
  return parts.join("\n");
}

/** Counts the components of a compiled corpus (globals plus every view's), as the extension does. */
export function componentCount(wire: WireCorpus): number {
  return wire.globals.length + wire.views.reduce((n, v) => n + v.components.length, 0);
}

/** Gzip-compresses `body` with the Web API (no `node:zlib`: loading it boots Deno's Node compatibility layer). */
async function gzipBytes(body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const gzip = new CompressionStream("gzip");
  const writer = gzip.writable.getWriter();
  // One write of the whole body (a Blob's stream would feed it in small chunks, half as fast).
  void writer.write(body).then(() => writer.close()).catch(() => {});
  return new Uint8Array(await new Response(gzip.readable).arrayBuffer());
}

/**
 * A snapshot of a corpus compiled here (`source` is its wire form) or read from the start cache (its served bytes:
 * the wire form is parsed from them only when asked for). `timers` start the compression in a later turn of the
 * event loop (tests pass a manual clock).
 */
function build(
  source: WireCorpus | StartCache,
  diagnostics: () => readonly Diagnostic[],
  timers: Timers = REAL_TIMERS,
): Built {
  let problems: readonly Diagnostic[] | undefined;
  // Let go once made: what makes them (a first load's decoded files and assembled corpus) is not kept for nothing.
  let make: (() => readonly Diagnostic[]) | undefined = diagnostics;
  const cached = "gzip" in source ? source : undefined;
  let wire = cached ? undefined : source as WireCorpus;
  let json: string | undefined;
  let body: Uint8Array<ArrayBuffer> | undefined;
  let gzip: Uint8Array<ArrayBuffer> | Promise<Uint8Array<ArrayBuffer>> | undefined = cached?.gzip;
  const version = cached ? cached.version : wire!.version;
  const built: Built = {
    version,
    get wire() {
      return wire ??= JSON.parse(built.json()) as WireCorpus;
    },
    // Made when first read: a first load's checks across files run after its first answers (`deferCrossChecks`).
    get diagnostics() {
      if (problems === undefined) {
        problems = make!();
        make = undefined;
      }
      return problems;
    },
    views: cached ? cached.views : wire!.views.length,
    components: cached ? cached.components : componentCount(wire!),
    json: () => json ??= cached ? new TextDecoder().decode(built.body()) : JSON.stringify(wire),
    body: () => body ??= cached ? cached.body() : encoder.encode(built.json()),
    plain: () => cached ? built.body() : built.json(),
    // A text of at least that many characters has at least that many bytes: only a short one is measured in bytes.
    large: () =>
      cached
        ? cached.size >= GZIP_MIN_BYTES
        : built.json().length >= GZIP_MIN_BYTES || built.body().length >= GZIP_MIN_BYTES,
    // Compression runs on this thread (tens of milliseconds for a large corpus): it starts in a later turn of the
    // event loop, so the answer that asked for it (sent plain) is written out first instead of waiting behind it.
    gzip: () =>
      gzip ??= new Promise<void>((resolve) => timers.setTimeout(() => resolve(), 0))
        .then(() => gzipBytes(built.body()))
        .then((bytes) => gzip = bytes),
    versionBody: encoder.encode(JSON.stringify({ version })),
  };
  return built;
}

const CORS: Readonly<Record<string, string>> = { "access-control-allow-origin": "*" };
const JSON_TYPE = "application/json; charset=utf-8";

/** The diagnostics report of the last compile attempt and its response body, both made on first use. */
interface BuiltDiagnostics {
  /** Version of that compile attempt. */
  version: number;
  report(): DiagnosticsReport;
  body(): Uint8Array<ArrayBuffer>;
}

/** Builds the diagnostics report: the validate envelope of the last compile attempt plus versions. */
function buildDiagnostics(
  dir: string,
  diagnostics: () => readonly Diagnostic[],
  files: number,
  version: number,
  servedVersion: number,
): BuiltDiagnostics {
  let report: DiagnosticsReport | undefined;
  let body: Uint8Array<ArrayBuffer> | undefined;
  const made = (): DiagnosticsReport => {
    const list = diagnostics().map((d) => toEnvelopeDiagnostic(d, dir));
    const errors = list.filter((d) => d.severity === "error").length;
    return {
      ok: errors === 0,
      diagnostics: list,
      result: { files, errors, warnings: list.length - errors },
      version,
      servedVersion,
      stale: version !== servedVersion,
    };
  };
  return {
    version,
    report: () => report ??= made(),
    body: () => body ??= encoder.encode(JSON.stringify(report ??= made())),
  };
}

/**
 * Builds the HTTP answer for one request from a snapshot (and the diagnostics of the last compile attempt);
 * `undefined` when the path is not ours.
 */
export function respond(request: Request, snap: Built, diag?: BuiltDiagnostics): Response | undefined {
  const { pathname } = new URL(request.url);
  const isCorpus = pathname === MAPPER_PATH;
  const isDiagnostics = pathname === MAPPER_DIAGNOSTICS_PATH && diag !== undefined;
  if (!isCorpus && !isDiagnostics && pathname !== MAPPER_VERSION_PATH) return undefined;
  const method = request.method.toUpperCase();
  if (method === "OPTIONS") {
    const requested = request.headers.get("access-control-request-headers");
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        "access-control-allow-methods": "GET, HEAD, OPTIONS",
        "access-control-allow-headers": requested ?? "*",
        "access-control-max-age": "86400",
        "vary": "Origin, Access-Control-Request-Headers",
      },
    });
  }
  if (method !== "GET" && method !== "HEAD") {
    const body = JSON.stringify({
      error: {
        code: "method_not_allowed",
        message: `method ${JSON.stringify(request.method)} is not allowed on "${pathname}"`,
        hint: "use GET (or HEAD); OPTIONS answers CORS preflights",
        status: 405,
      },
    });
    return new Response(body, {
      status: 405,
      headers: { ...CORS, "content-type": JSON_TYPE, "allow": "GET, HEAD, OPTIONS" },
    });
  }
  const identityTag = isDiagnostics ? `"${diag.version}-d"` : `"${snap.version}${isCorpus ? "" : "-v"}"`;
  const gzipTag = `"${snap.version}-gz"`;
  const wantsGzip = isCorpus && snap.large() &&
    chooseEncoding(request.headers.get("accept-encoding"), ["gzip"]) === "gzip";
  // Gzip once it is made: until then (the first answers of a snapshot) the body goes out as it is while it is
  // compressed in the background. Nobody waits for compression (tens of milliseconds for a large corpus), and a local
  // client gains nothing from it anyway.
  const gzipped = wantsGzip ? snap.gzip() : undefined;
  const useGzip = gzipped !== undefined && !(gzipped instanceof Promise);
  const headers: Record<string, string> = {
    ...CORS,
    "content-type": JSON_TYPE,
    "cache-control": "no-cache",
    "etag": useGzip ? gzipTag : identityTag,
  };
  if (isCorpus) headers["vary"] = "Accept-Encoding";
  if (ifNoneMatchHits(request.headers.get("if-none-match"), isCorpus ? [identityTag, gzipTag] : [identityTag])) {
    return new Response(null, { status: 304, headers });
  }
  if (isCorpus && !useGzip && method !== "HEAD") {
    // The JSON as the snapshot has it: a compiled corpus's text, which the runtime encodes as it writes it out and
    // sends its length (encoding it here first, into bytes the runtime then copies, costs a large corpus's first
    // answer several milliseconds more); a cached corpus's bytes as they were read.
    return new Response(snap.plain(), { status: 200, headers });
  }
  const body = isCorpus
    ? (useGzip ? gzipped as Uint8Array<ArrayBuffer> : snap.body())
    : isDiagnostics
    ? diag.body()
    : snap.versionBody;
  if (useGzip) headers["content-encoding"] = "gzip";
  headers["content-length"] = String(body.length);
  return new Response(method === "HEAD" ? null : body, { status: 200, headers });
}

/**
 * Compiles `options.dir` once and returns a service answering `/mapper` and `/mapper/version`, watching the
 * directory unless `watch: false`. A failed first compile throws {@linkcode CorpusLoadError} (nothing started),
 * unless `lenient` is set: then the problems are logged, an empty corpus is served, and the service recompiles as
 * soon as the directory appears or its YAML is fixed.
 */
export async function startCorpusService(options: CorpusServiceOptions): Promise<CorpusService> {
  const service = new LiveCorpus(options);
  await service.start();
  return service;
}

/**
 * A running service (see {@linkcode startCorpusService}); call `start()` once. Private to the corpus area: its own
 * tests construct it with an instrumented `loader`.
 */
export class LiveCorpus implements CorpusService {
  readonly #dir: string;
  readonly #absDir: string;
  readonly #now: () => number;
  readonly #prefix: string;
  #snap: Built | undefined;
  #diag: BuiltDiagnostics | undefined;
  #lastVersion = 0;
  /** Coalesces file events into compiles: 200 ms after the last one, never two at once. */
  readonly #rebuilds: Coalescer<Attempt>;
  #watch: TreeWatch | undefined;
  /** The arming of the watch: settled at the start, or once `watch()` is called when deferred (`deferWatch`). */
  #arming: Promise<void> | undefined;
  #disposed = false;
  #waiters: Array<(snap: CorpusSnapshot) => void> = [];
  /** The files the last successful compile read. */
  #files: readonly string[] = [];
  /** Their absolute paths, made when first needed (only a removed directory asks). */
  #absFiles: string[] | undefined;
  #cache = new LoadCache();
  /** The start cache read at start (kept open until disposal: it reads the served JSON and decoded files on use). */
  #opened: StartCache | undefined;
  /** The load cache came from the start cache and its decoded files are not yet parsed (the first compile does). */
  #restored = false;
  /** The load cache holds decoded files from the start cache (see `#load`). */
  #seeded = false;
  /** Writes the start cache of the last compile, a while after it (see `#saveLater`). */
  #saveTimer: unknown;
  /** Relevant paths the watcher reported since the last compile started: only these are read again. */
  #changed = new Set<string>();
  /**
   * Whether the next compile walks and checks the whole directory: before a first good load, after a failed one,
   * and after a change the watcher cannot name path by path.
   */
  #full = true;
  /** Resolves once the first load has ended (compiles wait for it). */
  #started: Promise<void> = Promise.resolve();

  /** Runs the recompile delay and starts compression (see `build`). */
  readonly #timers: Timers;

  /**
   * `timers` run the recompile delay and start the compression of a corpus body (default the real ones); tests pass a
   * manual clock to end them themselves.
   */
  constructor(readonly options: CorpusServiceOptions, readonly loader: typeof load = load, timers?: Timers) {
    this.#timers = timers ?? REAL_TIMERS;
    this.#dir = options.dir;
    this.#absDir = resolve(options.dir);
    this.#now = options.now ?? Date.now;
    this.#prefix = options.logPrefix ?? "[serve-mapper]";
    this.#rebuilds = new Coalescer<Attempt>((prepared) => this.#publish(prepared), {
      prepare: () => this.#attempt(),
      debounceMs: options.debounceMs,
      ...(timers ? { timers } : {}),
    });
  }

  async start(): Promise<void> {
    // The watch is armed first (unless deferred): a file changed while the first load runs is reported, and
    // recompiled afterwards (a compile never starts before this one has ended).
    let loaded!: () => void;
    this.#started = new Promise((resolve) => (loaded = resolve));
    const deferred = this.options.deferWatch === true && this.options.lenient !== true;
    if (this.options.watch === false || !deferred) this.#arming = Promise.resolve();
    if (this.options.watch !== false && !deferred) this.#watch = await this.#armWatch();
    // Opened once the watch is armed (unless deferred): a watch that cannot start leaves no file open.
    const home = this.options.startCacheHome;
    const saved = home === undefined ? undefined : await readStartCache(home, this.#startCacheKey());
    this.#opened = saved;
    if (saved) {
      this.#cache = saved.cache;
      this.#restored = true;
      this.#seeded = true;
    }
    try {
      if (saved && unchangedSince(this.#dir, saved.cache)) {
        // Every file is what the cached compile read: serve it as it was, version included (its decoded files wait
        // for a recompile, whose version comes after it).
        this.#lastVersion = Math.max(this.#lastVersion, saved.version);
        this.#install(saved, () => saved.diagnostics, saved.files);
        // Read them a while after the start (not in its way), so that a first edit costs what any edit costs.
        this.#timers.setTimeout(() => this.#disposed || this.#unrestore(), START_CACHE_DELAY_MS);
      } else {
        this.#unrestore();
        // Not destructured: with `deferChecks` its diagnostics are made when first read, after the first answers.
        const result = await this.#load(undefined, this.options.deferChecks === true);
        const { corpus } = result;
        const loaded = this.#loaded();
        this.#install(
          compile(corpus, { site: this.options.site, version: this.#mint() }),
          () => result.diagnostics,
          corpus.files,
        );
        this.#saveLater(loaded);
      }
      this.#full = false;
    } catch (err: unknown) {
      if (!this.options.lenient) {
        loaded(); // a compile waiting for the first load ends now, so the disposal below can wait for it
        await this[Symbol.asyncDispose]();
        throw err;
      }
      this.#logFailure(err);
      const empty = { memory: [], globals: [], views: [], requests: [], messages: [] };
      this.#install({ site: this.options.site, version: this.#mint(), ...empty }, () => [], []);
      this.#failed(err);
    } finally {
      loaded();
    }
  }

  watch(): Promise<void> {
    return this.#arming ??= (async () => {
      await this.#started;
      if (this.#disposed) return;
      const watch = await this.#armWatch();
      if (this.#disposed) {
        await watch[Symbol.asyncDispose]();
        return;
      }
      this.#watch = watch;
      // An edit between the first load and now had no event: the disk is compared with what was loaded (a file
      // written just before the load is read again rather than taken for an edit).
      if (!this.#full && !unchangedSince(this.#dir, this.#cache, true)) {
        this.#full = true;
        this.#rebuilds.trigger();
      }
    })();
  }

  /** Watches the directory: file-system events, or a scan when the platform refuses them. */
  #armWatch(): Promise<TreeWatch> {
    return watchTree({
      dir: this.#absDir,
      onChange: (paths) => {
        if (paths === undefined) this.#full = true;
        else for (const path of paths) this.#changed.add(path);
        this.#rebuilds.trigger();
      },
      relevant: (abs, kind) => {
        const relevant = this.#relevant(abs, kind);
        this.options.onWatchEvent?.(abs, relevant);
        return relevant;
      },
      log: (line) => this.#log(`watcher: ${line}`),
      signature: () => treeSignature(this.#dir),
      pollIntervalMs: this.options.pollIntervalMs,
    });
  }

  /** What a start cache must have been made with to be used here. */
  #startCacheKey(): StartCacheKey {
    return { dir: this.#dir, absDir: this.#absDir, site: this.options.site, validate: this.options.validate ?? true };
  }

  /** Parses the decoded files of a restored load cache before a load uses them (an unreadable one is dropped). */
  #unrestore(): void {
    if (!this.#restored) return;
    this.#restored = false;
    this.#cache = materialized(this.#cache);
  }

  /**
   * Loads the corpus with the load cache. One seeded from the start cache whose decoded files break the load (damage
   * no check saw: anything but a problem of the corpus) is dropped and the load run again on an empty one, as a cold
   * start would: the cache is an optimisation, never a reason to fail.
   */
  async #load(changed?: Iterable<string>, deferCrossChecks = false): Promise<LoadResult> {
    try {
      return await this.loader(this.#dir, this.#loadOptions(changed, deferCrossChecks));
    } catch (err: unknown) {
      if (!this.#seeded || err instanceof CorpusLoadError) throw err;
      this.#seeded = false;
      this.#cache = new LoadCache();
      return await this.loader(this.#dir, this.#loadOptions(undefined, deferCrossChecks));
    }
  }

  /** The load cache as the load that just ended left it (the next load replaces its maps, never changes them). */
  #loaded(): LoadCache {
    return new LoadCache(this.#cache.entries, this.#cache.walk);
  }

  /**
   * Writes the start cache of the snapshot now served, made from `loaded`, once {@linkcode START_CACHE_DELAY_MS} pass
   * without another compile (each compile replaces the pending write).
   */
  #saveLater(loaded: LoadCache): void {
    const home = this.options.startCacheHome;
    if (home === undefined) return;
    const snap = this.#snap!;
    const files = [...this.#files];
    if (this.#saveTimer !== undefined) this.#timers.clearTimeout(this.#saveTimer);
    this.#saveTimer = this.#timers.setTimeout(() => {
      this.#saveTimer = undefined;
      if (this.#disposed || this.#snap !== snap) return;
      this.#saving = (async () => {
        const record: StartCacheRecord = {
          cache: loaded,
          files,
          version: snap.version,
          views: snap.views,
          components: snap.components,
          body: snap.body(),
          // A small body is never sent compressed (see `respond`): nothing to keep.
          gzip: snap.large() ? await snap.gzip() : new Uint8Array(),
          diagnostics: [...snap.diagnostics],
        };
        if (!this.#disposed) await writeStartCache(home, this.#startCacheKey(), record);
      })().catch(() => {});
    }, START_CACHE_DELAY_MS);
  }

  /** The start cache write under way (disposal waits for it, so a stopped server leaves no half-done work). */
  #saving: Promise<void> = Promise.resolve();

  current(): CorpusSnapshot {
    const s = this.#snap!;
    return {
      version: s.version,
      get wire() {
        return s.wire;
      },
      get diagnostics() {
        return s.diagnostics;
      },
      views: s.views,
      components: s.components,
    };
  }

  handle(request: Request): Response | undefined {
    return respond(request, this.#snap!, this.#diag);
  }

  diagnostics(): DiagnosticsReport {
    return this.#diag!.report();
  }

  /**
   * Every authoring check but the disk lookup of source globs, which would walk the project on every save; with
   * `changed`, only those files are read again (see `load`'s `changed`: a new, removed or renamed file still makes it
   * walk the directory).
   */
  #loadOptions(changed?: Iterable<string>, deferCrossChecks = false): LoadOptions {
    return {
      cache: this.#cache,
      validate: this.options.validate ?? true,
      sources: false,
      ...(changed ? { changed } : {}),
      ...(deferCrossChecks ? { deferCrossChecks } : {}),
    };
  }

  /** Records a failed compile: its problems become the diagnostics report, the corpus served stays. */
  #failed(err: unknown): void {
    const problems = err instanceof CorpusLoadError ? asParseErrors(err.problems) : [{
      code: "compile-error",
      severity: "error" as const,
      message: err instanceof Error ? err.message : String(err),
      location: { file: this.#dir, line: 0, column: 0 },
    }];
    this.#diag = buildDiagnostics(this.#dir, () => problems, this.#files.length, this.#mint(), this.#snap!.version);
  }

  nextVersion(): Promise<CorpusSnapshot> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  idle(): Promise<void> {
    return this.#rebuilds.idle();
  }

  fresh(): Promise<void> {
    return this.#rebuilds.flush();
  }

  /** A strictly increasing Unix-ms version, even when two compiles land in the same millisecond. */
  #mint(): number {
    const v = Math.max(Math.trunc(this.#now()), this.#lastVersion + 1);
    this.#lastVersion = v;
    return v;
  }

  #install(source: WireCorpus | StartCache, diagnostics: () => readonly Diagnostic[], files: readonly string[]): void {
    const snap = this.#snap = build(source, diagnostics, this.#timers);
    this.#files = files;
    this.#absFiles = undefined;
    const version = this.#snap.version;
    this.#diag = buildDiagnostics(this.#dir, () => snap.diagnostics, files.length, version, version);
  }

  #log(line: string): void {
    this.options.log(`${this.#prefix} ${line}`);
  }

  // ---- watching ------------------------------------------------------------------------------------------

  /** YAML files outside `snapshots/`/`review/`, directories appearing or vanishing, and the root itself. */
  #relevant(abs: string, kind: Deno.FsEvent["kind"]): boolean {
    const rel = relative(this.#absDir, abs);
    if (rel === "") return true;
    if (isExcludedPath(rel)) return false;
    const name = basename(abs);
    if (isCorpusFileName(name)) return true;
    if (EXCLUDED_DIRS.has(name)) return false;
    // A directory created, moved or removed can add or remove YAML files without any YAML event of its own: one
    // that exists now may hold new files; one that is gone matters if the last compile read files from it.
    if (kind !== "create" && kind !== "remove" && kind !== "rename") return false;
    try {
      return Deno.statSync(abs).isDirectory;
    } catch {
      const prefix = `${abs}${SEP}`;
      this.#absFiles ??= this.#files.map((f) => resolve(f));
      return this.#absFiles.some((f) => f.startsWith(prefix));
    }
  }

  /**
   * Loads and compiles the corpus with what changed since the last attempt; nothing is installed (see
   * {@linkcode #publish}). Runs ahead during the quiet period (the coalescer's `prepare`), or at its end.
   */
  async #attempt(): Promise<Attempt> {
    await this.#started;
    if (this.#disposed) return { err: new Error("the corpus service was stopped") };
    // The paths reported so far are this attempt's; those reported from now on are the next one's.
    const changed = this.#full ? undefined : [...this.#changed];
    this.#changed = new Set();
    this.#full = false;
    this.#unrestore();
    try {
      // A safety net for a missed event: a directory replaced since the watch was armed gets a fresh watch, and
      // everything in it is checked.
      const replaced = await this.#watch?.recheck();
      const { corpus, diagnostics } = await this.#load(replaced ? undefined : changed);
      // The version is minted when the attempt is published.
      const wire = compile(corpus, { site: this.options.site, version: 0 });
      return { wire, diagnostics, files: corpus.files, loaded: this.#loaded() };
    } catch (err: unknown) {
      // The cache may not have seen what this load was told: the next attempt checks every file.
      this.#full = true;
      return { err };
    }
  }

  /** Installs an attempt (the prepared one, else a new one) or records its failure: the end of a quiet period. */
  async #publish(prepared: Attempt | undefined): Promise<void> {
    if (this.#disposed) return;
    const attempt = prepared ?? await this.#attempt();
    if (this.#disposed) return;
    if ("err" in attempt) {
      this.#logFailure(attempt.err);
      this.#failed(attempt.err);
      return;
    }
    const wire = { ...attempt.wire, version: this.#mint() };
    this.#install(wire, () => attempt.diagnostics, attempt.files);
    this.#saveLater(attempt.loaded);
    this.#log(`recompiled (v${wire.version})`);
    const snap = this.current();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w(snap);
  }

  #logFailure(err: unknown): void {
    if (err instanceof CorpusLoadError) {
      for (const p of err.problems) this.#log(`compile error: ${formatDiagnostic(p)}`);
    } else {
      this.#log(`compile error: ${this.#dir}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#saveTimer !== undefined) this.#timers.clearTimeout(this.#saveTimer);
    await this.#saving;
    this.#opened?.[Symbol.dispose]();
    await this.#arming?.catch(() => {}); // a watch armed meanwhile is closed by the arming itself
    await this.#watch?.[Symbol.asyncDispose]();
    await this.#rebuilds[Symbol.asyncDispose]();
  }
}
