/**
 * The catalog HTTP server: serves one snapshot, and with `watch` rebuilds it when the gallery changes, swapping
 * it atomically (a request sees the old snapshot or the new one, never a mix) and keeping the last good one when
 * a rebuild fails.
 *
 * @module
 */
import { relative, resolve } from "node:path";
import { Coalescer, lstatSignature, type TreeWatch, watchTree } from "../watch.ts";
import { handle } from "./handler.ts";
import {
  assembleSnapshot,
  type GalleryRead,
  readCatalogGallery,
  type Snapshot,
  type StatsFn,
  warningLine,
} from "./snapshot.ts";

/** Options of {@linkcode startCatalogServer}. */
export interface CatalogServerOptions {
  /** Gallery directory. */
  gallery: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Address to bind. */
  host: string;
  /** Public base URL for links; default the listening URL. */
  baseUrl?: string;
  /** TLS certificate and key (PEM text) to serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Rebuild on gallery changes. */
  watch?: boolean;
  /** Treat a rebuild that leaves any entry out as failed (`--strict`): the last good snapshot stays. */
  strict?: boolean;
  /** Quiet time after the last file event before a rebuild, in ms (default 200). */
  debounceMs?: number;
  /** Clock for `generated_at`. */
  now: () => number;
  /** Computes corpus statistics (injectable for tests). */
  stats?: StatsFn;
  /** `false` skips reading entry commits from git. */
  git?: boolean;
  /** Sentence for the listing page. */
  note?: string;
  /** The gallery as already read (start-up reads it before binding, to fail early). */
  read?: GalleryRead;
  /** One log line per call (no newline): rebuilds and their failures. */
  log: (line: string) => void;
}

/** A running catalog server; dispose (or `shutdown()`) to stop it and its watcher. */
export interface CatalogServer extends AsyncDisposable {
  /** The listening URL with a trailing slash, e.g. `http://127.0.0.1:8080/`. */
  readonly url: string;
  /** The public base URL used in links (no trailing slash). */
  readonly baseUrl: string;
  /** The snapshot being served now. */
  current(): Snapshot;
  /** Resolves with the next snapshot swapped in (or rejects with the next rebuild failure). */
  nextRebuild(): Promise<Snapshot>;
  /** Stops accepting requests, finishes in-flight ones, stops watching. */
  shutdown(): Promise<void>;
}

/** The URL form of a bound address (IPv6 in brackets; wildcard addresses shown as `localhost`). */
function urlHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "::") return "localhost";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

/** One line saying what a rebuild changed: entries added, removed (deleted or taken down), left out, changed. */
export function describeRebuild(before: Snapshot, after: Snapshot): string {
  const old = new Set(before.slugs);
  const now = new Set(after.slugs);
  const rules = new Map<string, string>();
  for (const w of after.warnings) if (!rules.has(w.entry)) rules.set(w.entry, w.rule);
  const added = after.slugs.filter((s) => !old.has(s));
  const gone = before.slugs.filter((s) => !now.has(s));
  const removed = gone.filter((s) => !rules.has(s));
  const leftOut = gone.filter((s) => rules.has(s)).map((s) => `${s} (${rules.get(s)})`);
  const changed = after.slugs.filter((s) => old.has(s) && before.digests.get(s) !== after.digests.get(s));
  const parts: string[] = [];
  if (added.length) parts.push(`added ${added.join(", ")}`);
  if (removed.length) parts.push(`removed ${removed.join(", ")}`);
  if (leftOut.length) parts.push(`left out ${leftOut.join(", ")}`);
  if (changed.length) parts.push(`changed ${changed.join(", ")}`);
  const n = after.slugs.length;
  const invalid = rules.size ? `, ${rules.size} left out` : "";
  return `[atlas] rebuilt (${n} ${n === 1 ? "entry" : "entries"}${invalid}): ${parts.join("; ") || "no entry changed"}`;
}

/** Starts the server on an already built or freshly read gallery. */
export async function startCatalogServer(given: CatalogServerOptions): Promise<CatalogServer> {
  // The gallery as read (every corpus byte) is dropped once assembled: only the snapshot stays in memory.
  const { read: preRead, ...options } = given;
  let read: GalleryRead | undefined = preRead ?? await readCatalogGallery(options.gallery, options);
  let snapshot: Snapshot | undefined;
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const serveOptions = {
    port: options.port,
    hostname: options.host,
    onListen: () => {},
    ...(options.tls ? { cert: options.tls.cert, key: options.tls.key } : {}),
  };
  const server = Deno.serve(serveOptions, async (request) => {
    if (!snapshot) await whenReady;
    return handle(snapshot!, request);
  });
  const addr = server.addr;
  const url = `${options.tls ? "https" : "http"}://${urlHost(addr.hostname)}:${addr.port}/`;
  const baseUrl = (options.baseUrl ?? url).replace(/\/+$/, "");
  const assemble = (r: GalleryRead) =>
    assembleSnapshot(r, {
      baseUrl,
      now: options.now,
      ...(options.note === undefined ? {} : { note: options.note }),
    });
  try {
    snapshot = assemble(read);
    read = undefined;
  } catch (err: unknown) {
    await server.shutdown();
    throw err;
  }
  ready();

  let waiters: Array<{ resolve: (s: Snapshot) => void; reject: (e: unknown) => void }> = [];
  let stopped = false;

  const rebuild = async (): Promise<void> => {
    if (stopped) return;
    // A safety net for a missed event: a gallery replaced since the watch was armed gets a fresh watch.
    await watch?.recheck();
    try {
      const next = assemble(await readCatalogGallery(options.gallery, options));
      if (stopped) return;
      if (options.strict && next.warnings.length > 0) {
        const more = next.warnings.length > 1 ? ` (and ${next.warnings.length - 1} more)` : "";
        throw new Error(`--strict: ${warningLine(next.warnings[0]!)}${more}`);
      }
      const before = snapshot!;
      snapshot = next;
      options.log(describeRebuild(before, next));
      // Only warnings this rebuild introduced: an unchanged broken entry is not re-reported on every save.
      const known = new Set(before.warnings.map(warningLine));
      for (const w of next.warnings) if (!known.has(warningLine(w))) options.log(`[atlas] warning: ${warningLine(w)}`);
      const ws = waiters;
      waiters = [];
      for (const w of ws) w.resolve(next);
    } catch (err: unknown) {
      options.log(
        `[atlas] rebuild failed, still serving the last good snapshot: ${
          err instanceof Error ? err.message : String(err)
        }`,
      );
      const ws = waiters;
      waiters = [];
      for (const w of ws) w.reject(err);
    }
  };
  // The one watch-and-rebuild mechanism (src/watch.ts), shared with the corpus service.
  const rebuilds = new Coalescer(rebuild, { debounceMs: options.debounceMs });
  let watch: TreeWatch | undefined;
  if (options.watch) {
    try {
      watch = await watchTree({
        dir: options.gallery,
        onChange: () => rebuilds.trigger(),
        relevant: (abs) => !relative(resolve(options.gallery), abs).split(/[\\/]/).includes(".git"),
        log: (line) => options.log(`[atlas] watcher: ${line}`),
        signature: () => lstatSignature(options.gallery, (name) => name === ".git"),
        skip: (name) => name === ".git",
      });
    } catch (err: unknown) {
      await server.shutdown();
      throw err;
    }
  }

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    closing ??= (async () => {
      stopped = true;
      await watch?.[Symbol.asyncDispose]();
      await rebuilds[Symbol.asyncDispose]();
      await server.shutdown();
      for (const w of waiters) w.reject(new Error("server stopped"));
      waiters = [];
    })();

  return {
    url,
    baseUrl,
    current: () => snapshot!,
    nextRebuild: () => new Promise<Snapshot>((resolve, reject) => waiters.push({ resolve, reject })),
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}
