/**
 * The catalog (`index.json`) as `find` and `list` read it: the schema-version gate, type checks with the JSON path
 * of the first wrong field, and terminal escaping of every display field right after decoding.
 *
 * @module
 */
import { escapeTerminal } from "./_text.ts";
import { childPath } from "./_json.ts";
import { slugProblem } from "./slug.ts";

/** The newest catalog `schema_version` this mapper understands. */
export const SCHEMA_VERSION = 1;

/**
 * The counts of a catalog entry, in their published order: the one list both the client (`find`, `list`) and the
 * catalog server (`index.json`, `/api/atlas`) use. The first three are shown in text output.
 */
export const STAT_KEYS = ["views", "components", "requests", "messages", "properties", "memory"] as const;

/** One count per {@linkcode STAT_KEYS} entry. */
export type CatalogStats = Record<typeof STAT_KEYS[number], number>;

/** One catalog entry, display fields already terminal-escaped. */
export interface AtlasEntry {
  /** Identity; never rewritten (entries with an unsafe slug are dropped instead). */
  slug: string;
  /** Display name of the site. */
  name: string;
  /** One-line summary of what the map covers. */
  description: string;
  /** Domains the map applies to. */
  domains: string[];
  /** Categories the entry is listed under. */
  categories: string[];
  /** The six counts, 0 when absent, plus any other integer the catalog publishes. */
  stats: Record<string, number>;
  /** Date the map was last checked against the live site. */
  last_verified: string;
  /** Every other field of the entry as published (strings terminal-escaped), in catalog order. */
  extra: Record<string, unknown>;
}

/** A decoded catalog. */
export interface Catalog {
  /** Catalog format version (see `SCHEMA_VERSION`). */
  schemaVersion: number;
  /** Installable entries only (valid slug), in catalog order. */
  entries: AtlasEntry[];
}

/** The catalog could not be used; `message` names the JSON path of the first problem. */
export class CatalogFormatError extends Error {}

const KNOWN = new Set(["slug", "name", "description", "domains", "categories", "stats", "last_verified"]);

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

function str(value: unknown, path: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new CatalogFormatError(`${path}: expected a string, found ${kind(value)}`);
  return escapeTerminal(value);
}

function strList(value: unknown, path: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new CatalogFormatError(`${path}: expected an array of strings, found ${kind(value)}`);
  }
  return value.map((v, i) => {
    if (typeof v !== "string") {
      throw new CatalogFormatError(`${childPath(path, i)}: expected a string, found ${kind(v)}`);
    }
    return escapeTerminal(v);
  });
}

function statsOf(value: unknown, path: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of STAT_KEYS) out[k] = 0;
  if (value === undefined || value === null) return out;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new CatalogFormatError(`${path}: expected an object of integers, found ${kind(value)}`);
  }
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw new CatalogFormatError(`${childPath(path, k)}: expected an integer, found ${kind(v)}`);
    }
    out[k] = v;
  }
  return out;
}

function escapeDeep(value: unknown): unknown {
  if (typeof value === "string") return escapeTerminal(value);
  if (Array.isArray(value)) return value.map(escapeDeep);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, escapeTerminal(k), { value: escapeDeep(v), enumerable: true, writable: true });
    }
    return out;
  }
  return value;
}

/**
 * Reads `schema_version` first (a newer catalog is refused before anything else is looked at), then decodes every
 * entry. Throws {@linkcode CatalogFormatError} for invalid JSON, a newer schema, or a wrongly typed field.
 */
export function decodeCatalog(text: string): Catalog {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err: unknown) {
    throw new CatalogFormatError(
      `not valid JSON (${escapeTerminal(err instanceof Error ? err.message : String(err))})`,
    );
  }
  return decodeCatalogValue(doc);
}

/** {@linkcode decodeCatalog} on an already parsed document (the cache stores parsed JSON). */
export function decodeCatalogValue(doc: unknown): Catalog {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new CatalogFormatError(`expected a JSON object with "schema_version" and "entries", found ${kind(doc)}`);
  }
  const top = doc as Record<string, unknown>;
  if (!("schema_version" in top) && !("entries" in top)) {
    // Some other JSON file (a package.json, an API answer): not a catalog that happens to be empty.
    throw new CatalogFormatError(`expected a JSON object with "schema_version" and "entries", found neither`);
  }
  const version = top.schema_version ?? 0;
  if (typeof version !== "number" || !Number.isInteger(version)) {
    throw new CatalogFormatError(`schema_version: expected an integer, found ${kind(version)}`);
  }
  if (version > SCHEMA_VERSION) {
    throw new CatalogFormatError(
      `the catalog has schema_version ${version}, but this mapper understands ${SCHEMA_VERSION} — upgrade mapper`,
    );
  }
  const raw = top.entries ?? [];
  if (!Array.isArray(raw)) throw new CatalogFormatError(`entries: expected an array, found ${kind(raw)}`);
  const entries: AtlasEntry[] = [];
  raw.forEach((item: unknown, i) => {
    const path = `entries[${i}]`;
    if (item === null) return;
    if (typeof item !== "object" || Array.isArray(item)) {
      throw new CatalogFormatError(`${path}: expected an object, found ${kind(item)}`);
    }
    const e = item as Record<string, unknown>;
    if (e.slug !== undefined && e.slug !== null && typeof e.slug !== "string") {
      throw new CatalogFormatError(`${path}.slug: expected a string, found ${kind(e.slug)}`);
    }
    const slug = typeof e.slug === "string" ? e.slug : "";
    const entry: AtlasEntry = {
      slug,
      name: str(e.name, `${path}.name`),
      description: str(e.description, `${path}.description`),
      domains: strList(e.domains, `${path}.domains`),
      categories: strList(e.categories, `${path}.categories`),
      stats: statsOf(e.stats, `${path}.stats`),
      last_verified: str(e.last_verified, `${path}.last_verified`),
      extra: {},
    };
    for (const [k, v] of Object.entries(e)) {
      if (!KNOWN.has(k)) {
        Object.defineProperty(entry.extra, escapeTerminal(k), {
          value: escapeDeep(v),
          enumerable: true,
          writable: true,
        });
      }
    }
    // An unsafe slug can never be offered with an install command: drop the entry from every result.
    if (slugProblem(slug) === undefined) entries.push(entry);
  });
  return { schemaVersion: version, entries };
}
