/**
 * `mapper atlas find [QUERY]` and `mapper atlas list`: load the catalog, search, print hits (text or `--json`
 * schema 1). A search that matches nothing exits 0 with a message naming every applied constraint.
 *
 * @module
 */
import type { Io } from "../io.ts";
import { EXIT_OK } from "../errors.ts";
import { plural, quote, rfc3339, shellWord, truncate, utcMinutes } from "./_text.ts";
import { toJson } from "../terminal.ts";
import { type AtlasEntry, STAT_KEYS } from "./catalog.ts";
import { GALLERY_URL } from "./defaults.ts";
import { type Hit, search } from "./search.ts";
import { loadCatalog, type LoadedCatalog } from "./source.ts";
import type { DownloadOptions } from "./transport.ts";

/** Version of the `--json` shape of find/list. */
export const FIND_JSON_SCHEMA = 1;

/** Options of `atlas find` / `atlas list`. */
export interface FindOptions {
  /** Query words (joined by one space); empty for `list`. */
  query: readonly string[];
  /** `--category`; empty or undefined for none. */
  category?: string | undefined;
  /** `--limit`; 0 shows all. */
  limit: number;
  /** Print JSON instead of text. */
  json?: boolean | undefined;
  /** Catalog index to read instead of the default. */
  index?: string | undefined;
  /** `--refresh`: fetch the index again instead of reading the cache. */
  refresh?: boolean | undefined;
  /** Transport overrides (tests). */
  transport?: DownloadOptions | undefined;
}

/**
 * The command that installs an entry. With a catalog other than the default (`--index`), the command names it too,
 * so copying it installs from the catalog that was searched, not from the public atlas.
 */
export function installCommand(slug: string, index?: string): string {
  return `mapper atlas add ${slug}${index ? ` --index ${shellWord(index)}` : ""}`;
}

/** The detail line of a hit: domains · categories · counts · verified date. */
function detailLine(e: AtlasEntry): string {
  const groups: string[] = [];
  if (e.domains.length > 0) groups.push(e.domains.join(", "));
  if (e.categories.length > 0) groups.push(e.categories.join(", "));
  const counts: string[] = [];
  for (const [key, one] of [["views", "view"], ["components", "component"], ["requests", "request"]] as const) {
    const n = e.stats[key] ?? 0;
    if (n > 0) counts.push(plural(n, one, key));
  }
  if (counts.length > 0) groups.push(counts.join(", "));
  if (e.last_verified !== "") groups.push(`verified ${e.last_verified}`);
  return groups.length > 0 ? groups.join(" · ") : "(the atlas publishes no details for this entry)";
}

/** Formats hits as text blocks separated by blank lines (no summary). */
export function formatHits(hits: readonly Hit[], index?: string): string {
  return hits.map(({ entry: e }) => {
    const title = e.name !== "" && e.name !== e.slug ? `${e.slug}  ${e.name}` : e.slug;
    const lines = [title];
    if (e.description !== "") lines.push(`  ${truncate(e.description)}`);
    lines.push(`  ${truncate(detailLine(e))}`);
    lines.push(`  ${installCommand(e.slug, index)}`);
    return lines.join("\n") + "\n";
  }).join("\n");
}

/** The JSON object of one hit: every field the entry carries, plus `matched_on` and `install`. */
export function hitJson(hit: Hit, index?: string): Record<string, unknown> {
  const e = hit.entry;
  const out: Record<string, unknown> = { slug: e.slug };
  if (e.name !== "") out.name = e.name;
  if (e.description !== "") out.description = e.description;
  if (e.domains.length > 0) out.domains = e.domains;
  if (e.categories.length > 0) out.categories = e.categories;
  const stats: Record<string, number> = {};
  for (const k of STAT_KEYS) stats[k] = e.stats[k] ?? 0;
  for (const [k, v] of Object.entries(e.stats)) stats[k] = v;
  out.stats = stats;
  if (e.last_verified !== "") out.last_verified = e.last_verified;
  for (const [k, v] of Object.entries(e.extra)) {
    if (!(k in out) && k !== "matched_on" && k !== "install") {
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  out.matched_on = hit.matchedOn;
  out.install = installCommand(e.slug, index);
  return out;
}

/** The no-match text, naming every applied constraint. */
function noMatch(rawQuery: string, category: string, loaded: LoadedCatalog, index: string | undefined): string {
  const constraints: string[] = [];
  if (rawQuery !== "") constraints.push(`matches ${quote(rawQuery)}`);
  if (category !== "") constraints.push(`is in category ${quote(category)}`);
  if (constraints.length === 0) {
    return `The atlas catalog at ${quote(loaded.source)} publishes no entries.\n`;
  }
  const where = index
    ? `Run mapper atlas list --index ${shellWord(index)} to see everything that catalog publishes`
    : `Run mapper atlas list to see everything published, browse ${GALLERY_URL}`;
  return `No atlas entry ${constraints.join(" and ")}.\n` +
    `${where}, or map the site yourself (mapper skills install gives your agent the authoring playbook).\n`;
}

/** Runs find/list and returns the exit code (0 also when nothing matched). */
export async function runFind(options: FindOptions, io: Io): Promise<number> {
  const rawQuery = options.query.join(" ");
  const category = options.category ?? "";
  const loaded = await loadCatalog(
    { index: options.index, refresh: options.refresh, transport: options.transport },
    io,
  );
  const hits = search(loaded.catalog.entries, rawQuery, category);
  const shown = options.limit > 0 ? hits.slice(0, options.limit) : hits;

  if (options.json) {
    const doc: Record<string, unknown> = { schema: FIND_JSON_SCHEMA, query: rawQuery };
    if (category !== "") doc.category = category;
    doc.total = hits.length;
    doc.shown = shown.length;
    doc.results = shown.map((hit) => hitJson(hit, options.index));
    const index: Record<string, unknown> = {
      source: loaded.source,
      fetched_at: rfc3339(loaded.fetchedAt),
      cached: loaded.cached,
    };
    if (loaded.stale) index.stale = true;
    doc.index = index;
    io.stdout.write(toJson(doc));
    return EXIT_OK;
  }

  if (hits.length === 0) {
    io.stdout.write(noMatch(rawQuery, category, loaded, options.index));
    return EXIT_OK;
  }
  let summary = shown.length < hits.length
    ? `${shown.length} of ${hits.length} matches. Pass --limit to see more (--limit 0 shows all).`
    : hits.length === 1
    ? "1 match."
    : `${hits.length} matches.`;
  if (loaded.cached) {
    summary += `\nCatalog cached ${utcMinutes(loaded.fetchedAt)}${
      loaded.stale ? " (stale: the refresh failed)" : ""
    }. Pass --refresh to re-fetch.`;
  }
  io.stdout.write(formatHits(shown, options.index) + "\n" + summary + "\n");
  return EXIT_OK;
}
