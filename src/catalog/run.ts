/**
 * The command implementations: `mapper atlas serve` ({@linkcode runServe}) and `mapper atlas build`
 * ({@linkcode runBuild}). Thin over the snapshot, server and export modules; all I/O through `io`.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Io } from "../io.ts";
import { DataError, describe, EXIT_OK, FileError, MapperError, UsageError } from "../errors.ts";
import { githubAnnotation } from "../github.ts";
import { escapeControls } from "../terminal.ts";
import { materializeBundledGallery } from "./_bundled.ts";
import { writeSnapshot } from "./export.ts";
import { startCatalogServer } from "./server.ts";
import {
  assembleSnapshot,
  type GalleryRead,
  readCatalogGallery,
  type Snapshot,
  type StatsFn,
  warningLine,
} from "./snapshot.ts";

/** Options of `mapper atlas serve`. */
export interface ServeOptions {
  /** Gallery directory; absent → the bundled example gallery. */
  gallery?: string | undefined;
  /** Port to listen on. */
  port: number;
  /** Host to listen on. */
  host: string;
  /** Public base URL of the server. */
  baseUrl?: string | undefined;
  /** TLS certificate file. */
  cert?: string | undefined;
  /** TLS key file. */
  key?: string | undefined;
  /** Rebuild when the gallery changes. */
  watch?: boolean | undefined;
  /** `--strict`: fail when an entry is invalid instead of leaving it out. */
  strict?: boolean | undefined;
  /** Injected corpus statistics (tests); default the corpus library. */
  stats?: StatsFn;
}

/** Options of `mapper atlas build`. */
export interface BuildOptions {
  /** Gallery directory to build from. */
  gallery?: string | undefined;
  /** Output directory. */
  out: string;
  /** Public base URL the site will be served from. */
  baseUrl: string;
  /** `--strict`: fail when an entry is invalid instead of leaving it out. */
  strict?: boolean | undefined;
  /** `text` (default: warning lines on stderr) or `github` (workflow annotations on stdout, at file:line). */
  format?: string | undefined;
  /** Computes corpus statistics (injectable for tests). */
  stats?: StatsFn;
}

/** The clock for `generated_at`: `SOURCE_DATE_EPOCH` (seconds) when set, for reproducible builds; else `io.now`. */
export function buildClock(io: Io): () => number {
  const epoch = io.env("SOURCE_DATE_EPOCH");
  if (epoch !== undefined && /^\d+$/.test(epoch.trim())) {
    const ms = Number(epoch.trim()) * 1000;
    return () => ms;
  }
  return io.now;
}

/** Checks a base URL flag: absolute http(s), no query or fragment. */
function checkBaseUrl(value: string | undefined): void {
  if (value === undefined) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url "${value}" is not an absolute URL`, {
      hint: "e.g. --base-url https://atlas.example.org",
    });
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash) {
    throw new UsageError(`--base-url "${value}" must be an http(s) URL without query or fragment`, {
      hint: "e.g. --base-url https://atlas.example.org",
    });
  }
}

/** The listing page's sentence: the same for `serve` and `build`, so the export equals the served bytes. */
function listingNote(bundled: boolean, gallery: string): string {
  return bundled ? "The example gallery bundled with mapper." : `Gallery ${basename(gallery)}.`;
}

/**
 * Prints the snapshot's warnings (the gallery's and the archive limits') and enforces `--strict` on all of them.
 */
function reportWarnings(
  io: Io,
  command: string,
  snapshot: Pick<Snapshot, "warnings" | "withheld">,
  strict: boolean | undefined,
  github?: { gallery: string },
): void {
  for (const w of snapshot.warnings) {
    if (!github) {
      io.stderr.write(`mapper ${command}: warning: ${warningLine(w)}\n`);
      continue;
    }
    // On the pull request's diff, at the file and line the problem is in (an error when --strict fails the build).
    io.stdout.write(githubAnnotation({
      severity: strict ? "error" : "warning",
      file: w.file === undefined ? undefined : relative(io.cwd, join(github.gallery, w.file)).split(sep).join("/"),
      line: w.line,
      title: w.rule,
      message: `entry "${w.entry}" left out: ${w.detail}`,
    }));
  }
  if (snapshot.withheld.length > 0) {
    io.stderr.write(
      `mapper ${command}: withheld ${snapshot.withheld.map((s) => `"${s}"`).join(", ")}: listed in removed.yaml\n`,
    );
  }
  if (strict && snapshot.warnings.length > 0) {
    const entries = new Set(snapshot.warnings.map((w) => w.entry)).size;
    throw new DataError(`${entries} ${entries === 1 ? "entry is" : "entries are"} invalid (--strict)`, {
      hint: "fix the entries named above, or drop --strict to leave them out",
    });
  }
}

async function readPem(path: string, flag: string, cwd: string): Promise<string> {
  try {
    return await Deno.readTextFile(resolve(cwd, path));
  } catch (err: unknown) {
    throw new FileError(`cannot read ${flag} "${path}": ${describe(err)}`, { hint: "pass a PEM file" });
  }
}

/** `mapper atlas serve`: serves the catalog until `io.signal` aborts. Returns the exit code. */
export async function runServe(opts: ServeOptions, io: Io): Promise<number> {
  if ((opts.cert === undefined) !== (opts.key === undefined)) {
    throw new UsageError("--cert and --key go together", { hint: "pass both to serve HTTPS, or neither for HTTP" });
  }
  checkBaseUrl(opts.baseUrl);
  const tls = opts.cert !== undefined && opts.key !== undefined
    ? { cert: await readPem(opts.cert, "--cert", io.cwd), key: await readPem(opts.key, "--key", io.cwd) }
    : undefined;
  await using bundled = opts.gallery === undefined ? await materializeBundledGallery() : undefined;
  const gallery = bundled?.dir ?? resolve(io.cwd, opts.gallery!);
  const label = bundled ? "the bundled example gallery" : `gallery "${opts.gallery}"`;
  if (bundled && opts.watch) {
    io.stderr.write("mapper atlas serve: --watch ignored: the bundled gallery never changes\n");
  }
  const now = buildClock(io);
  let read: GalleryRead | undefined = await readCatalogGallery(gallery, opts.stats ? { stats: opts.stats } : {});
  let server;
  try {
    server = await startCatalogServer({
      gallery,
      port: opts.port,
      host: opts.host,
      ...(opts.baseUrl === undefined ? {} : { baseUrl: opts.baseUrl }),
      ...(tls ? { tls } : {}),
      watch: Boolean(opts.watch) && !bundled,
      strict: Boolean(opts.strict),
      now,
      ...(opts.stats ? { stats: opts.stats } : {}),
      note: listingNote(bundled !== undefined, gallery),
      read,
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (err: unknown) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new FileError(`cannot listen on ${opts.host}:${opts.port}: the port is in use`, {
        hint: "pick another with --port, or --port 0 for any free port",
      });
    }
    if (
      err instanceof Deno.errors.AddrNotAvailable || err instanceof Deno.errors.PermissionDenied ||
      (!tls && !(err instanceof MapperError))
    ) {
      throw new FileError(`cannot listen on ${opts.host}:${opts.port}: ${describe(err)}`, {
        hint: "check --host and --port",
      });
    }
    if (tls && !(err instanceof MapperError)) {
      throw new FileError(
        `cannot serve HTTPS with --cert "${opts.cert}" and --key "${opts.key}": ${describe(err)}`,
        {
          hint: "pass a PEM certificate chain and its matching private key",
        },
      );
    }
    throw err;
  }
  read = undefined; // the server holds the snapshot; the raw read can be collected
  await using _server = server;
  // Reported from the snapshot, not the read: archive limits found while assembling count too.
  reportWarnings(io, "atlas serve", server.current(), opts.strict);
  const n = server.current().slugs.length;
  const what = bundled
    ? `${label} (${n} ${n === 1 ? "entry" : "entries"}; pass --gallery DIR to serve your own)`
    : `${label} (${n} ${n === 1 ? "entry" : "entries"})`;
  io.stdout.write(`Serving ${what} at ${server.url}\n`);
  if (server.baseUrl !== server.url.replace(/\/$/, "")) io.stdout.write(`Links use the base URL ${server.baseUrl}\n`);
  if (opts.watch && !bundled) io.stderr.write(`[atlas] watching "${gallery}" for changes\n`);
  await new Promise<void>((done) => {
    if (io.signal.aborted) return done();
    io.signal.addEventListener("abort", () => done(), { once: true });
  });
  io.stderr.write("[atlas] shutting down\n");
  await server.shutdown();
  return EXIT_OK;
}

/** The outermost missing directory on the way to `dir` (created by `mkdir -p`, removed again on failure), if any. */
async function firstMissingAncestor(dir: string): Promise<string | undefined> {
  let missing: string | undefined;
  for (let d = dir;; d = dirname(d)) {
    try {
      await Deno.lstat(d);
      return missing;
    } catch (err: unknown) {
      if (!(err instanceof Deno.errors.NotFound)) return missing;
      missing = d;
    }
    if (dirname(d) === d) return missing;
  }
}

/** `mapper atlas build`: writes the snapshot as static files (atomically) into `--out`. Returns the exit code. */
export async function runBuild(opts: BuildOptions, io: Io): Promise<number> {
  checkBaseUrl(opts.baseUrl);
  if (opts.format !== undefined && opts.format !== "text" && opts.format !== "github") {
    throw new UsageError(`unknown --format "${escapeControls(opts.format)}"`, { hint: "use text or github" });
  }
  const out = resolve(io.cwd, opts.out);
  const fromOut = relative(out, resolve(io.cwd));
  if (fromOut !== ".." && !fromOut.startsWith(`..${sep}`) && !isAbsolute(fromOut)) {
    // The output directory is swapped in by rename: it must not be (or hold) the directory the user is standing in.
    throw new UsageError(`--out "${opts.out}" is the current directory or contains it`, {
      hint: "pass a new directory, e.g. --out site",
    });
  }
  try {
    let empty = true;
    for await (const _ of Deno.readDir(out)) {
      empty = false;
      break;
    }
    if (!empty) {
      throw new FileError(`refusing to write into "${opts.out}": the directory is not empty`, {
        hint: "pass a new or empty --out directory",
      });
    }
  } catch (err: unknown) {
    if (!(err instanceof Deno.errors.NotFound)) {
      if (err instanceof FileError) throw err;
      throw new FileError(`cannot use --out "${opts.out}": ${describe(err)}`, { hint: "pass a directory path" });
    }
  }
  await using bundled = opts.gallery === undefined ? await materializeBundledGallery() : undefined;
  const gallery = bundled?.dir ?? resolve(io.cwd, opts.gallery!);
  const read = await readCatalogGallery(gallery, opts.stats ? { stats: opts.stats } : {});
  const snapshot = assembleSnapshot(read, {
    baseUrl: opts.baseUrl,
    now: buildClock(io),
    note: listingNote(bundled !== undefined, gallery),
  });
  reportWarnings(io, "atlas build", snapshot, opts.strict, opts.format === "github" ? { gallery } : undefined);
  const created = await firstMissingAncestor(dirname(out));
  let staging: string;
  try {
    await Deno.mkdir(dirname(out), { recursive: true });
    staging = await Deno.makeTempDir({ dir: dirname(out), prefix: `.${basename(out)}.tmp-` });
  } catch (err: unknown) {
    if (created !== undefined) await Deno.remove(created, { recursive: true }).catch(() => {});
    throw new FileError(`cannot create --out "${opts.out}": ${describe(err)}`, {
      hint: "pass an --out directory in a writable location",
    });
  }
  let files: number;
  try {
    files = await writeSnapshot(snapshot, staging);
    await Deno.remove(out).catch(() => {});
    await Deno.rename(staging, out);
  } catch (err: unknown) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    if (created !== undefined) await Deno.remove(created, { recursive: true }).catch(() => {});
    throw new FileError(`cannot write "${opts.out}": ${describe(err)}`, {
      hint: "pass an --out directory in a writable location",
    });
  }
  const n = snapshot.slugs.length;
  io.stdout.write(
    `Wrote ${files} files for ${n} ${n === 1 ? "entry" : "entries"} to ${
      join(opts.out)
    } (base URL ${snapshot.baseUrl})\n`,
  );
  return EXIT_OK;
}
