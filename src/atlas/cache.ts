/**
 * The single-slot catalog cache `~/.mapper/atlas/index.json`: an envelope `{source, fetched_at, index}` written
 * atomically after every successful fetch. A read is a hit only for the same source (exact string), younger than
 * {@linkcode CACHE_TTL_MS}, and decodable; anything else (missing, corrupt, other source) is a silent miss.
 *
 * @module
 */
import { writeUserFile } from "../user_file.ts";
import { join } from "node:path";

/** How long a cached catalog is fresh: 24 hours. */
export const CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** Path of the cache file under a home directory. */
export function cachePath(home: string): string {
  return join(home, ".mapper", "atlas", "index.json");
}

/** A cached catalog. */
export interface CachedCatalog {
  /** The catalog location it was fetched from. */
  source: string;
  /** When it was fetched (Unix ms). */
  fetchedAt: number;
  /** The catalog document as fetched (parsed JSON). */
  index: unknown;
}

/**
 * Reads the cache envelope for `source`; `undefined` when there is none, it is corrupt, or it belongs to another
 * source. Freshness is the caller's decision (an expired entry still serves as the stale fallback).
 */
export async function readCache(home: string, source: string): Promise<CachedCatalog | undefined> {
  let raw: string;
  try {
    raw = await Deno.readTextFile(cachePath(home));
  } catch {
    return undefined;
  }
  try {
    const env = JSON.parse(raw) as Record<string, unknown>;
    if (env === null || typeof env !== "object" || env.source !== source) return undefined;
    if (typeof env.fetched_at !== "string") return undefined;
    const fetchedAt = Date.parse(env.fetched_at);
    if (!Number.isFinite(fetchedAt)) return undefined;
    if (env.index === null || typeof env.index !== "object") return undefined;
    return { source, fetchedAt, index: env.index };
  } catch {
    return undefined;
  }
}

/** Whether a cached catalog is still fresh at `now` (a `fetched_at` in the future counts as fresh). */
export function isFresh(cached: CachedCatalog, now: number): boolean {
  return now - cached.fetchedAt < CACHE_TTL_MS;
}

/**
 * Writes the envelope by the one user-file write (temp file beside it, then rename; 0600). Failures are ignored: the cache is an
 * optimisation, never a reason to fail a search.
 */
export async function writeCache(home: string, source: string, fetchedAt: number, text: string): Promise<void> {
  const dir = join(home, ".mapper", "atlas");
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const body = `{"source":${JSON.stringify(source)},"fetched_at":${
      JSON.stringify(new Date(fetchedAt).toISOString())
    },"index":${text.trim()}}\n`;
    await writeUserFile(cachePath(home), body, cachePath(home), { forceMode: true });
  } catch {
    // The user-file write leaves nothing behind.
  }
}
