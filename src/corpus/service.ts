/**
 * The live corpus service: compile once, serve prebuilt bytes on `/mapper` and `/mapper/version`, and recompile
 * when YAML changes (trailing debounce, never two compiles at once, keep the last good corpus on failure).
 *
 * The handler is host-agnostic: `mapper serve-mapper` and the browser session daemon mount the same endpoints.
 *
 * @module
 */
import { basename, isAbsolute, relative, resolve, sep as SEP } from "node:path";
import { gzipSync } from "node:zlib";
import { compile } from "./compile.ts";
import { CorpusLoadError, type Diagnostic, formatDiagnostic, toEnvelopeDiagnostic } from "./diagnostic.ts";
import { asParseErrors, load, LoadCache } from "./load.ts";
import { EXCLUDED_DIRS, isCorpusFileName, isExcludedPath, walkCorpus } from "./_walk.ts";
import type { CorpusService, CorpusServiceOptions, CorpusSnapshot, DiagnosticsReport, WireCorpus } from "./mod.ts";

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

/** The two paths the service answers. */
export const MAPPER_PATH = "/mapper";
/** The version path clients poll. */
export const MAPPER_VERSION_PATH = "/mapper/version";
/** The diagnostics of the last compile (the `mapper validate --json` envelope plus versions). */
export const MAPPER_DIAGNOSTICS_PATH = "/mapper/diagnostics";

const encoder = new TextEncoder();

/** Bodies below this size are never compressed (the headers would cost more than they save). */
const GZIP_MIN_BYTES = 1024;

/** A snapshot plus its response bytes, built once per compile. */
interface Built extends CorpusSnapshot {
  body: Uint8Array<ArrayBuffer>;
  /** Whether the body is large enough to be worth compressing. */
  compressible: boolean;
  /** The gzip-compressed body, made on first use (so a recompile is visible without waiting for it). */
  gzip(): Uint8Array<ArrayBuffer>;
  versionBody: Uint8Array<ArrayBuffer>;
}

/** Paths, sizes and modification times of the corpus files: changes when any YAML file does. */
async function treeSignature(dir: string): Promise<string> {
  const files = await walkCorpus(dir, [], []).catch(() => []);
  const parts = await Promise.all(files.map(async (f) => {
    const info = await Deno.stat(f.path).catch(() => undefined);
    return `${f.relative}\0${info?.size}\0${info?.mtime?.getTime()}`;
  }));
  return parts.join("\n");
}

/** Counts the components of a compiled corpus (globals plus every view's), as the extension does. */
export function componentCount(wire: WireCorpus): number {
  return wire.globals.length + wire.views.reduce((n, v) => n + v.components.length, 0);
}

function build(wire: WireCorpus, diagnostics: readonly Diagnostic[]): Built {
  const body = encoder.encode(JSON.stringify(wire));
  let gzip: Uint8Array<ArrayBuffer> | undefined;
  return {
    version: wire.version,
    wire,
    diagnostics,
    body,
    compressible: body.length >= GZIP_MIN_BYTES,
    gzip: () => gzip ??= new Uint8Array(gzipSync(body, { level: 6 })),
    versionBody: encoder.encode(JSON.stringify({ version: wire.version })),
  };
}

/** Whether `Accept-Encoding` admits gzip (`gzip` or `*` with a non-zero q). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (token.trim() === "gzip" || token.trim() === "x-gzip") return ok;
    if (token.trim() === "*") star = ok;
  }
  return star === true;
}

/** Whether `If-None-Match` matches one of the current tags (weak comparison, `*` matches). */
function matches(ifNoneMatch: string | null, tags: readonly string[]): boolean {
  if (!ifNoneMatch) return false;
  for (const raw of ifNoneMatch.split(",")) {
    const tag = raw.trim().replace(/^W\//, "");
    if (tag === "*" || tags.includes(tag)) return true;
  }
  return false;
}

const CORS: Readonly<Record<string, string>> = { "access-control-allow-origin": "*" };
const JSON_TYPE = "application/json; charset=utf-8";

/** The diagnostics report of the last compile attempt and its response body. */
interface BuiltDiagnostics {
  report: DiagnosticsReport;
  body: Uint8Array<ArrayBuffer>;
}

/** Builds the diagnostics report: the validate envelope of the last compile attempt plus versions. */
function buildDiagnostics(
  dir: string,
  diagnostics: readonly Diagnostic[],
  files: number,
  version: number,
  servedVersion: number,
): BuiltDiagnostics {
  const list = diagnostics.map((d) => toEnvelopeDiagnostic(d, dir));
  const errors = list.filter((d) => d.severity === "error").length;
  const report: DiagnosticsReport = {
    ok: errors === 0,
    diagnostics: list,
    result: { files, errors, warnings: list.length - errors },
    version,
    servedVersion,
    stale: version !== servedVersion,
  };
  return { report, body: encoder.encode(JSON.stringify(report)) };
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
  const identityTag = isDiagnostics ? `"${diag.report.version}-d"` : `"${snap.version}${isCorpus ? "" : "-v"}"`;
  const gzipTag = `"${snap.version}-gz"`;
  const useGzip = isCorpus && snap.compressible && acceptsGzip(request.headers.get("accept-encoding"));
  const headers: Record<string, string> = {
    ...CORS,
    "content-type": JSON_TYPE,
    "cache-control": "no-cache",
    "etag": useGzip ? gzipTag : identityTag,
  };
  if (isCorpus) headers["vary"] = "Accept-Encoding";
  if (matches(request.headers.get("if-none-match"), isCorpus ? [identityTag, gzipTag] : [identityTag])) {
    return new Response(null, { status: 304, headers });
  }
  const body = isCorpus ? (useGzip ? snap.gzip() : snap.body) : isDiagnostics ? diag.body : snap.versionBody;
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
  /** The directory with symbolic links resolved (what FSEvents on macOS reports), once a watcher is armed. */
  #realDir: string | undefined;
  readonly #now: () => number;
  readonly #prefix: string;
  readonly #debounceMs: number;
  #snap: Built | undefined;
  #diag: BuiltDiagnostics | undefined;
  #lastVersion = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #compiling: Promise<void> | undefined;
  #dirty = false;
  #watcher: Deno.FsWatcher | undefined;
  #watchLoop: Promise<void> | undefined;
  #rearmTimer: ReturnType<typeof setTimeout> | undefined;
  #scanTimer: ReturnType<typeof setInterval> | undefined;
  #dirIdentity: string | undefined;
  #disposed = false;
  #waiters: Array<(snap: CorpusSnapshot) => void> = [];
  /** Absolute paths of the files the last successful compile read. */
  #files: string[] = [];
  readonly #cache = new LoadCache();

  constructor(readonly options: CorpusServiceOptions, readonly loader: typeof load = load) {
    this.#dir = options.dir;
    this.#absDir = resolve(options.dir);
    this.#now = options.now ?? Date.now;
    this.#prefix = options.logPrefix ?? "[serve-mapper]";
    this.#debounceMs = options.debounceMs ?? 200;
  }

  async start(): Promise<void> {
    try {
      const { corpus, diagnostics } = await this.loader(this.#dir, this.#loadOptions());
      this.#install(compile(corpus, { site: this.options.site, version: this.#mint() }), diagnostics, corpus.files);
    } catch (err: unknown) {
      if (!this.options.lenient) throw err;
      this.#logFailure(err);
      const empty = { memory: [], globals: [], views: [], requests: [], messages: [] };
      this.#install({ site: this.options.site, version: this.#mint(), ...empty }, [], []);
      this.#failed(err);
    }
    if (this.options.watch !== false) await this.#arm();
  }

  current(): CorpusSnapshot {
    const s = this.#snap!;
    return { version: s.version, wire: s.wire, diagnostics: s.diagnostics };
  }

  handle(request: Request): Response | undefined {
    return respond(request, this.#snap!, this.#diag);
  }

  diagnostics(): DiagnosticsReport {
    return this.#diag!.report;
  }

  #loadOptions(): { cache: LoadCache; validate: boolean; sources: false } {
    // Every authoring check but the disk lookup of source globs, which would walk the project on every save.
    return { cache: this.#cache, validate: this.options.validate ?? true, sources: false };
  }

  /** Records a failed compile: its problems become the diagnostics report, the corpus served stays. */
  #failed(err: unknown): void {
    const problems = err instanceof CorpusLoadError ? asParseErrors(err.problems) : [{
      code: "compile-error",
      severity: "error" as const,
      message: err instanceof Error ? err.message : String(err),
      location: { file: this.#dir, line: 0, column: 0 },
    }];
    this.#diag = buildDiagnostics(this.#dir, problems, this.#files.length, this.#mint(), this.#snap!.version);
  }

  nextVersion(): Promise<CorpusSnapshot> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** A strictly increasing Unix-ms version, even when two compiles land in the same millisecond. */
  #mint(): number {
    const v = Math.max(Math.trunc(this.#now()), this.#lastVersion + 1);
    this.#lastVersion = v;
    return v;
  }

  #install(wire: WireCorpus, diagnostics: readonly Diagnostic[], files: readonly string[]): void {
    this.#snap = build(wire, diagnostics);
    this.#files = files.map((f) => resolve(f));
    this.#diag = buildDiagnostics(this.#dir, diagnostics, files.length, wire.version, wire.version);
  }

  #log(line: string): void {
    this.options.log(`${this.#prefix} ${line}`);
  }

  // ---- watching ------------------------------------------------------------------------------------------

  async #identity(): Promise<string | undefined> {
    try {
      const info = await Deno.stat(this.#absDir);
      return info.isDirectory ? `${info.dev}:${info.ino}` : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Starts a recursive watcher on the directory; when it is missing, polls until it comes back. When the platform
   * refuses a watcher (e.g. the inotify watch limit), falls back to scanning the tree every second.
   */
  async #arm(): Promise<void> {
    if (this.#disposed || this.#watcher || this.#scanTimer !== undefined) return;
    const identity = await this.#identity();
    if (this.#disposed || this.#watcher || this.#scanTimer !== undefined) return;
    if (identity === undefined) {
      this.#pollForDir();
      return;
    }
    if (this.options.pollIntervalMs !== undefined) {
      await this.#startScanning(this.options.pollIntervalMs);
      return;
    }
    this.#realDir = await Deno.realPath(this.#absDir).catch(() => undefined);
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(this.#absDir, { recursive: true });
    } catch (err: unknown) {
      this.#log(
        `watcher error: ${err instanceof Error ? err.message : String(err)}; checking for changes every second instead`,
      );
      await this.#startScanning(1000);
      return;
    }
    this.#watcher = watcher;
    this.#dirIdentity = identity;
    this.#watchLoop = (async () => {
      try {
        for await (const event of watcher) this.#onEvent(event);
      } catch (err: unknown) {
        if (!this.#disposed) this.#log(`watcher error: ${err instanceof Error ? err.message : String(err)}`);
      }
      // The watcher ended on its own (not disarmed): start over so changes keep being noticed.
      if (!this.#disposed && this.#watcher === watcher) {
        this.#disarm();
        this.#pollForDir();
      }
    })();
  }

  /** Without a watcher: a cheap signature of the YAML tree (paths, sizes, mtimes) checked at an interval. */
  async #startScanning(intervalMs: number): Promise<void> {
    let last = await treeSignature(this.#dir);
    let scanning = false;
    this.#scanTimer = setInterval(async () => {
      if (scanning || this.#disposed) return;
      scanning = true;
      try {
        const signature = await treeSignature(this.#dir);
        if (signature !== last) this.#schedule();
        last = signature;
      } finally {
        scanning = false;
      }
    }, intervalMs);
  }

  #disarm(): void {
    const w = this.#watcher;
    this.#watcher = undefined;
    this.#dirIdentity = undefined;
    try {
      w?.close();
    } catch {
      // already closed
    }
  }

  /** The directory is gone: check every 250 ms and re-arm (and recompile) once it exists again. */
  #pollForDir(): void {
    if (this.#disposed || this.#rearmTimer !== undefined) return;
    this.#rearmTimer = setTimeout(async () => {
      this.#rearmTimer = undefined;
      if (this.#disposed) return;
      if ((await this.#identity()) === undefined) {
        this.#pollForDir();
        return;
      }
      await this.#arm();
      this.#schedule();
    }, 250);
  }

  #onEvent(event: Deno.FsEvent): void {
    if (this.#disposed) return;
    for (const path of event.paths) {
      if (this.#relevant(path, event.kind)) {
        this.#schedule();
        return;
      }
    }
  }

  /** YAML files outside `snapshots/`/`review/`, directories appearing or vanishing, and the root itself. */
  #relevant(path: string, kind: Deno.FsEvent["kind"]): boolean {
    const abs = watchedPath(path, this.#absDir, this.#realDir);
    if (abs === undefined) return false;
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
      return this.#files.some((f) => f.startsWith(prefix));
    }
  }

  #schedule(): void {
    if (this.#disposed) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#runCompile();
    }, this.#debounceMs);
  }

  /** Runs a compile now, or marks the running one dirty so it runs again right after. */
  #runCompile(): Promise<void> {
    if (this.#compiling) {
      this.#dirty = true;
      return this.#compiling;
    }
    this.#compiling = (async () => {
      try {
        do {
          this.#dirty = false;
          await this.#compileOnce();
        } while (this.#dirty && !this.#disposed);
      } finally {
        this.#compiling = undefined;
      }
    })();
    return this.#compiling;
  }

  async #compileOnce(): Promise<void> {
    if (this.#disposed) return;
    // The directory may have been deleted or replaced: a replaced directory needs a fresh watcher.
    const identity = this.#scanTimer === undefined ? await this.#identity() : this.#dirIdentity;
    if (identity !== this.#dirIdentity) {
      this.#disarm();
      if (identity === undefined) this.#pollForDir();
      else await this.#arm();
    }
    try {
      const { corpus, diagnostics } = await this.loader(this.#dir, this.#loadOptions());
      if (this.#disposed) return;
      const wire = compile(corpus, { site: this.options.site, version: this.#mint() });
      this.#install(wire, diagnostics, corpus.files);
      this.#log(`recompiled (v${wire.version})`);
      const snap = this.current();
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w(snap);
    } catch (err: unknown) {
      if (this.#disposed) return;
      this.#logFailure(err);
      this.#failed(err);
    }
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
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#rearmTimer !== undefined) clearTimeout(this.#rearmTimer);
    if (this.#scanTimer !== undefined) clearInterval(this.#scanTimer);
    this.#timer = this.#rearmTimer = this.#scanTimer = undefined;
    this.#disarm();
    await this.#watchLoop;
    await this.#compiling;
  }
}
