/**
 * Obtaining the catalog for `find` / `list`: a local file (read directly, never cached), the fresh cache, or a
 * download under the transport policy (then cached). When a download fails and a cache for the same source exists,
 * the stale copy is used with a warning on stderr saying how old it is.
 *
 * @module
 */
import { resolve } from "node:path";
import { DataError, describe, FileError, MapperError, NetworkError, NotFoundError, PolicyError } from "../errors.ts";
import { cacheHome, type Io } from "../io.ts";
import { age, escapeTerminal, utcMinutes } from "./_text.ts";
import { isFresh, readCache, writeCache } from "./cache.ts";
import { type Catalog, CatalogFormatError, decodeCatalog, decodeCatalogValue } from "./catalog.ts";
import { DEFAULT_INDEX, ENV_INDEX, isUrl } from "./defaults.ts";
import { allowedUrl, download, type DownloadOptions, readCapped, UnreachableError } from "./transport.ts";

/** A catalog ready to search, with where it came from. */
export interface LoadedCatalog {
  catalog: Catalog;
  /** The location as given (URL or path). */
  source: string;
  /** When the catalog was fetched (Unix ms); for a local file, its modification time. */
  fetchedAt: number;
  /** Served from the cache (fresh or stale). */
  cached: boolean;
  /** Served from an expired cache because the download failed. */
  stale: boolean;
}

/** Options of {@linkcode loadCatalog}. */
export interface LoadCatalogOptions {
  /** `--index`: URL or file path; falls back to `MAPPER_ATLAS_INDEX`, then the public catalog. */
  index?: string | undefined;
  /** `--refresh`: skip the cache read (and the stale fallback). */
  refresh?: boolean | undefined;
  /** Transport overrides (tests). */
  transport?: DownloadOptions | undefined;
}

/** The catalog location in effect: the flag, else the environment, else the public catalog. */
export function indexLocation(flag: string | undefined, io: Io): string {
  return flag || io.env(ENV_INDEX) || DEFAULT_INDEX;
}

function decodeFrom(source: string, decode: () => Catalog): Catalog {
  try {
    return decode();
  } catch (err: unknown) {
    if (err instanceof CatalogFormatError) {
      throw new DataError(
        `catalog ${JSON.stringify(escapeTerminal(source))} cannot be used: ${escapeTerminal(err.message)}`,
        {
          hint: `check it with 'mapper atlas validate'`,
        },
      );
    }
    throw err;
  }
}

async function loadFile(path: string, io: Io): Promise<LoadedCatalog> {
  const abs = resolve(io.cwd, path);
  let bytes: Uint8Array;
  let mtime: number;
  try {
    const info = await Deno.stat(abs);
    mtime = info.mtime?.getTime() ?? io.now();
    if (info.isDirectory) {
      throw new FileError(`cannot read catalog file ${JSON.stringify(escapeTerminal(path))}: it is a directory`, {
        hint: "pass the path of the index.json inside it, or an HTTPS URL, to --index",
      });
    }
    bytes = await readCapped((await Deno.open(abs)).readable, `catalog file ${JSON.stringify(escapeTerminal(path))}`);
  } catch (err: unknown) {
    if (err instanceof MapperError) throw err;
    const shown = JSON.stringify(escapeTerminal(path));
    if (err instanceof Deno.errors.NotFound) {
      throw new NotFoundError(`no catalog file at ${shown}`, {
        hint: "pass an HTTPS URL or the path of an index.json to --index",
      });
    }
    throw new FileError(`cannot read catalog file ${shown}: ${describe(err)}`, {
      hint: "pass an HTTPS URL or the path of an index.json to --index",
    });
  }
  const text = new TextDecoder().decode(bytes);
  const catalog = decodeFrom(path, () => decodeCatalog(text));
  return { catalog, source: path, fetchedAt: mtime, cached: false, stale: false };
}

/**
 * Loads the catalog: local file, fresh cache hit, or download (then cached). Throws typed errors whose messages
 * name the location.
 */
export async function loadCatalog(options: LoadCatalogOptions, io: Io): Promise<LoadedCatalog> {
  const source = indexLocation(options.index, io);
  if (!isUrl(source)) return await loadFile(source, io);
  if (/^file:/i.test(source)) {
    throw new PolicyError(`refusing ${JSON.stringify(escapeTerminal(source))}: file: URLs are not fetched`, {
      hint: "pass the plain path of the index.json to --index instead",
    });
  }
  const home = cacheHome(io);
  const cached = home ? await readCache(home, source) : undefined;
  let cachedCatalog: Catalog | undefined;
  if (cached) {
    try {
      cachedCatalog = decodeCatalogValue(cached.index);
    } catch {
      cachedCatalog = undefined; // a cache that no longer decodes is a miss
    }
  }
  if (cached && cachedCatalog && !options.refresh && isFresh(cached, io.now())) {
    return { catalog: cachedCatalog, source, fetchedAt: cached.fetchedAt, cached: true, stale: false };
  }
  const url = allowedUrl(source, "use an https:// URL in --index (or $MAPPER_ATLAS_INDEX)");
  let text: string;
  let catalog: Catalog;
  try {
    const { bytes } = await download(url, io, {
      purpose: "use",
      onNotFound: () =>
        new NotFoundError(`no catalog at ${escapeTerminal(source)} (HTTP 404 Not Found)`, {
          hint: "check the --index URL (or $MAPPER_ATLAS_INDEX)",
        }),
      ...options.transport,
    });
    text = new TextDecoder().decode(bytes);
    catalog = decodeFrom(source, () => decodeCatalog(text));
  } catch (err: unknown) {
    if (
      cached && cachedCatalog && !options.refresh && err instanceof MapperError && !(err instanceof PolicyError) &&
      !io.signal.aborted
    ) {
      io.stderr.write(
        `mapper atlas: warning: could not refresh the catalog (${err.message}); using the cached copy from ` +
          `${utcMinutes(cached.fetchedAt)}, ${age(io.now() - cached.fetchedAt)} old\n`,
      );
      return { catalog: cachedCatalog, source, fetchedAt: cached.fetchedAt, cached: true, stale: true };
    }
    if (err instanceof UnreachableError && !io.signal.aborted) {
      throw new NetworkError(`cannot fetch the catalog ${escapeTerminal(source)}: ${err.reason}`, {
        hint: "offline? pass --index FILE (a saved index.json), or run once online to keep a cached copy for 24 h",
      });
    }
    throw err;
  }
  const now = io.now();
  if (home) await writeCache(home, source, now, text);
  return { catalog, source, fetchedAt: now, cached: false, stale: false };
}
