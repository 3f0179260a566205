/**
 * Searching the catalog: query normalisation (a URL or host is reduced to a bare domain), the seven match kinds
 * in rank order, and the sort (rank, then slug in byte order, stable).
 *
 * @module
 */
import type { AtlasEntry } from "./catalog.ts";
import { compareCodePoints } from "./_text.ts";

/** Match kinds, best first; the `matched_on` label of a hit. */
export const MATCH_KINDS = [
  "exact domain",
  "exact slug",
  "domain",
  "slug",
  "name",
  "category",
  "description",
] as const;

/** One of {@linkcode MATCH_KINDS}. */
export type MatchKind = typeof MATCH_KINDS[number];

/**
 * What a hit matched on: one of {@linkcode MATCH_KINDS} for a query, `category` when only `--category` selected it,
 * `all` for a plain listing (no query, no category).
 */
export type MatchedOn = MatchKind | "all";

/** A search hit. */
export interface Hit {
  /** The matching catalog entry. */
  entry: AtlasEntry;
  /** Which field the query matched. */
  matchedOn: MatchedOn;
  /** Sort rank (lower ranks first). */
  rank: number;
}

/** A normalised query. */
export interface Query {
  /** Trimmed, lowercased text; empty matches everything. */
  text: string;
  /** The text reduced to a bare host (no scheme, userinfo, port, trailing dot, one leading `www.`), or `""`. */
  domain: string;
}

const HOST_CHARS = /^[a-z0-9\-._~!$&'()*+,;=%\u0080-\uffff]*$/i;

/**
 * Reduces a URL, `host:port`, `user@host` or bare host to its domain; `""` when it is not one. Hand-written
 * rather than WHATWG `URL`, which would punycode, resolve IPv4 shorthands and reject other forms.
 */
export function normaliseDomain(input: string): string {
  let rest: string;
  const sep = input.indexOf("://");
  if (sep >= 0) {
    if (!/^[a-z][a-z0-9+.-]*$/i.test(input.slice(0, sep))) return "";
    rest = input.slice(sep + 3);
  } else {
    rest = input;
  }
  const end = rest.search(/[/?#]/);
  let authority = end >= 0 ? rest.slice(0, end) : rest;
  const at = authority.lastIndexOf("@");
  if (at >= 0) authority = authority.slice(at + 1);
  let host: string;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close < 0) return "";
    host = authority.slice(1, close);
    const after = authority.slice(close + 1);
    if (after !== "" && !/^:\d*$/.test(after)) return "";
  } else {
    const colon = authority.lastIndexOf(":");
    host = colon >= 0 ? authority.slice(0, colon) : authority;
    if (colon >= 0 && !/^\d*$/.test(authority.slice(colon + 1))) return "";
    if (!HOST_CHARS.test(host) || /%(?![0-9a-f]{2})/i.test(host)) return "";
  }
  host = host.toLowerCase();
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host.startsWith("www.")) host = host.slice(4);
  return host;
}

/** Normalises a query (positionals already joined by one space). */
export function normaliseQuery(raw: string): Query {
  const text = raw.trim().toLowerCase();
  return { text, domain: text === "" ? "" : normaliseDomain(text) };
}

/** Lowercased (and, for domains, normalised) fields of an entry, computed once per entry. */
interface Prepared {
  domains: string[];
  hosts: string[];
  slug: string;
  name: string;
  categories: string[];
  description: string;
}

const preparedCache = new WeakMap<AtlasEntry, Prepared>();

function prepare(entry: AtlasEntry): Prepared {
  let p = preparedCache.get(entry);
  if (!p) {
    const domains = entry.domains.map((d) => d.toLowerCase()).filter((d) => d !== "");
    p = {
      domains,
      hosts: domains.map(normaliseDomain),
      slug: entry.slug.toLowerCase(),
      name: entry.name.toLowerCase(),
      categories: entry.categories.map((c) => c.toLowerCase()).filter((c) => c !== ""),
      description: entry.description.toLowerCase(),
    };
    preparedCache.set(entry, p);
  }
  return p;
}

/** The rank and label of an entry for a query, or `undefined` when it does not match. */
export function matchEntry(entry: AtlasEntry, query: Query): Hit | undefined {
  const { text, domain } = query;
  const hit = (rank: number): Hit => ({ entry, rank, matchedOn: MATCH_KINDS[rank] ?? "description" });
  if (text === "") return { entry, rank: 0, matchedOn: "all" };
  const p = prepare(entry);
  if (domain !== "" && p.hosts.includes(domain)) return hit(0);
  if (p.slug === text) return hit(1);
  if (p.domains.some((d) => d.includes(text) || text.includes(d))) return hit(2);
  if (p.slug !== "" && (p.slug.includes(text) || text.includes(p.slug))) return hit(3);
  if (p.name !== "" && p.name.includes(text)) return hit(4);
  if (p.categories.some((c) => c.includes(text))) return hit(5);
  if (p.description !== "" && p.description.includes(text)) return hit(6);
  return undefined;
}

/** Whether an entry passes `--category` (trimmed, lowercased, forward substring of some category). */
export function inCategory(entry: AtlasEntry, category: string): boolean {
  const c = category.trim().toLowerCase();
  return c === "" || entry.categories.some((x) => x.toLowerCase().includes(c));
}

/** Every hit for the query and category, best first (rank, then slug in byte order; stable). */
export function search(entries: readonly AtlasEntry[], rawQuery: string, category = ""): Hit[] {
  const query = normaliseQuery(rawQuery);
  const hits: Hit[] = [];
  for (const entry of entries) {
    if (!inCategory(entry, category)) continue;
    const h = matchEntry(entry, query);
    if (h) hits.push(h.matchedOn === "all" && category.trim() !== "" ? { ...h, matchedOn: "category" } : h);
  }
  return hits.sort((a, b) => a.rank - b.rank || compareCodePoints(a.entry.slug, b.entry.slug));
}
