/**
 * The live corpus service: compile once, serve prebuilt bytes on `/mapper` and `/mapper/version`, and recompile
 * when YAML changes (trailing debounce, never two compiles at once, keep the last good corpus on failure).
 *
 * The handler is host-agnostic: `mapper serve-mapper` and the browser session daemon mount the same endpoints.
 *
 * @module
 */
import { basename, relative, resolve, sep as SEP } from "node:path";
import { gzipSync } from "node:zlib";
import { compile } from "./compile.ts";
import { CorpusLoadError, type Diagnostic, formatDiagnostic } from "./diagnostic.ts";
import { load, LoadCache } from "./load.ts";
import { EXCLUDED_DIRS, isCorpusFileName, isExcludedPath, walkCorpus } from "./_walk.ts";
import type { CorpusService, CorpusServiceOptions, CorpusSnapshot, WireCorpus } from "./mod.ts";
import { Coalescer, type TreeWatch, watchTree } from "../watch.ts";

// The one mapping of watcher paths (macOS FSEvents resolves symbolic links) lives with the watch mechanism.
export { watchedPath } from "../watch.ts";

/** The two paths the service answers. */
export const MAPPER_PATH = "/mapper";
/** The version path clients poll. */
export const MAPPER_VERSION_PATH = "/mapper/version";

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
    const info = await Deno.lstat(f.path).catch(() => undefined);
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

/** Builds the HTTP answer for one request from a snapshot; `undefined` when the path is not ours. */
export function respond(request: Request, snap: Built): Response | undefined {
  const { pathname } = new URL(request.url);
  const isCorpus = pathname === MAPPER_PATH;
  if (!isCorpus && pathname !== MAPPER_VERSION_PATH) return undefined;
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
  const identityTag = `"${snap.version}${isCorpus ? "" : "-v"}"`;
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
  const body = isCorpus ? (useGzip ? snap.gzip() : snap.body) : snap.versionBody;
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
  #lastVersion = 0;
  /** Coalesces file events into compiles: 200 ms after the last one, never two at once. */
  readonly #rebuilds: Coalescer;
  #watch: TreeWatch | undefined;
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
    this.#rebuilds = new Coalescer(() => this.#compileOnce(), { debounceMs: options.debounceMs });
  }

  async start(): Promise<void> {
    try {
      const { corpus, diagnostics } = await this.loader(this.#dir, { cache: this.#cache });
      this.#install(compile(corpus, { site: this.options.site, version: this.#mint() }), diagnostics, corpus.files);
    } catch (err: unknown) {
      if (!this.options.lenient) throw err;
      this.#logFailure(err);
      const empty = { memory: [], globals: [], views: [], requests: [], messages: [] };
      this.#install({ site: this.options.site, version: this.#mint(), ...empty }, [], []);
    }
    if (this.options.watch !== false) {
      this.#watch = await watchTree({
        dir: this.#absDir,
        onChange: () => this.#rebuilds.trigger(),
        relevant: (abs, kind) => this.#relevant(abs, kind),
        log: (line) => this.#log(`watcher: ${line}`),
        signature: () => treeSignature(this.#dir),
        pollIntervalMs: this.options.pollIntervalMs,
      });
    }
  }

  current(): CorpusSnapshot {
    const s = this.#snap!;
    return { version: s.version, wire: s.wire, diagnostics: s.diagnostics };
  }

  handle(request: Request): Response | undefined {
    return respond(request, this.#snap!);
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
      return this.#files.some((f) => f.startsWith(prefix));
    }
  }

  async #compileOnce(): Promise<void> {
    if (this.#disposed) return;
    // A safety net for a missed event: a directory replaced since the watch was armed gets a fresh watch.
    await this.#watch?.recheck();
    try {
      const { corpus, diagnostics } = await this.loader(this.#dir, { cache: this.#cache });
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
    await this.#watch?.[Symbol.asyncDispose]();
    await this.#rebuilds[Symbol.asyncDispose]();
  }
}
