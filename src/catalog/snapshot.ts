/**
 * The catalog snapshot: one immutable, in-memory set of responses built from one read of a gallery. Every surface
 * (`/atlas/index.json`, `/api/atlas`, `/api/atlas/{slug}`, the HTML/markdown/archive twins, screenshots,
 * `/llms.txt`, the OpenAPI documents) comes from the same read, so a takedown leaves every surface at once.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { stringify as toYaml } from "yaml";
import { dirname, join, relative, sep } from "node:path";
import { load, LoadCache, stats as corpusStats } from "../corpus/mod.ts";
import type { CorpusStats } from "../corpus/mod.ts";
import { type CatalogStats, STAT_KEYS } from "../atlas/mod.ts";
import {
  CorpusChangedError,
  CorpusProblem,
  type EntryWarning,
  type GalleryEntry,
  type GalleryRead,
  readGallery,
  type StatsFn,
} from "./_gallery.ts";

export { CorpusChangedError };
export type { EntryWarning, GalleryRead, StatsFn };
import { llmsTxt } from "./_llms.ts";
import { openApiDocument } from "./_openapi.ts";
import {
  entryPage,
  FILTER_SCRIPT,
  FILTER_SCRIPT_PATH,
  listingPage,
  notFoundPage,
  type PageEntry,
  renderMarkdown,
} from "./_render.ts";
import { type ArchiveFile, tarGz } from "./_tar.ts";
import { MAX_ARCHIVE_BYTES } from "./_limits.ts";
import { FRONT_MATTER_KEYS, type FrontMatter, type IndexRecord } from "./_schema.ts";

/** `Cache-Control` of the API documents. */
export const CACHE_API = "public, max-age=300";
/** `Cache-Control` of every other 200: revalidate, so a takedown is never pinned in a cache. */
export const CACHE_REVALIDATE = "public, max-age=0, must-revalidate";
/** `Cache-Control` of errors. */
export const CACHE_ERROR = "no-store";
/**
 * `Content-Security-Policy` of the HTML pages: images and the one filter script from this origin only, no inline
 * script, no forms posting anywhere, no framing.
 */
export const HTML_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One response of the snapshot. */
export interface Resource {
  /** Request path, e.g. `/api/atlas/shop`. */
  readonly path: string;
  /** Path of the exported file relative to the output directory, e.g. `api/atlas/shop.json`. */
  readonly file: string;
  /** Response body. */
  readonly body: Uint8Array<ArrayBuffer>;
  /** `Content-Type`, with charset for text. */
  readonly type: string;
  /** `Cache-Control` header value. */
  readonly cacheControl: string;
  /** Whether `Access-Control-Allow-Origin: *` is sent. */
  readonly cors: boolean;
  /** Whether the body is text that may be sent gzip/brotli-encoded. */
  readonly compressible: boolean;
  /** Strong validator of the identity body, quoted. */
  readonly etag: string;
  /** Extra headers (e.g. the HTML pages' CSP). */
  readonly headers: Readonly<Record<string, string>>;
}

/** An immutable catalog snapshot. */
export interface Snapshot {
  /** Public base URL without a trailing slash. */
  readonly baseUrl: string;
  /** `generated_at` of `/atlas/index.json`. */
  readonly generatedAt: string;
  /** Every response, keyed by request path. */
  readonly resources: ReadonlyMap<string, Resource>;
  /** The same responses keyed by their exported file path (`/api/atlas.json`), so both URL forms work. */
  readonly files: ReadonlyMap<string, Resource>;
  /** Published slugs in slug order. */
  readonly slugs: readonly string[];
  /** A digest per published slug over every byte published for it (to tell what changed between snapshots). */
  readonly digests: ReadonlyMap<string, string>;
  /** Entries left out, with the rule they broke. */
  readonly warnings: readonly EntryWarning[];
  /** Slugs withheld because `removed.yaml` lists them although their directory still exists. */
  readonly withheld: readonly string[];
  /** The HTML 404 page browsers get (API clients get JSON); `atlas build` writes it as `404.html`. */
  readonly notFoundHtml: Uint8Array<ArrayBuffer>;
}

/** Options of {@linkcode buildSnapshot}. */
export interface SnapshotOptions {
  /** Public base URL (a trailing slash is dropped). */
  baseUrl: string;
  /** Clock for `generated_at` (Unix ms). `SOURCE_DATE_EPOCH` handling is the caller's. */
  now: () => number;
  /** Corpus statistics; default: the corpus library's `load()` + `stats()`. */
  stats?: StatsFn;
  /** Look up commits with git (default true). */
  git?: boolean;
  /** Sentence shown on the listing page, e.g. which gallery is served. */
  note?: string;
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder();

/**
 * The default statistics: load the corpus with the corpus library; error diagnostics refuse it (it under-reports).
 * The loader reads the files itself, so its record of what it parsed (a fresh `LoadCache`) is compared with the
 * archive's bytes: statistics and archive always describe the same corpus (else {@linkcode CorpusChangedError}).
 */
export const loaderStats: StatsFn = async (dir: string, archived: readonly ArchiveFile[]): Promise<CorpusStats> => {
  const cache = new LoadCache();
  // Every `mapper validate` check (but the disk lookup of `source` globs): an entry with a validation error is
  // left out, and `--strict` refuses the build, naming entry, file:line and code.
  const { corpus, diagnostics } = await load(dir, { cache, validate: true, sources: false });
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    const first = errors[0]!;
    const file = relative(dirname(dir), first.location.file).split(sep).join("/");
    throw new CorpusProblem(
      `${errors.length} validation error(s), first: ${file}:${first.location.line} ${first.code}: ${first.message}`,
      file,
      first.location.line,
    );
  }
  const bytes = new Map(archived.map((m) => [join(dir, ...m.name.slice(".mapper/".length).split("/")), m.data]));
  // The corpus library's file rule (corpus.md §2): `.yaml`/`.yml` in any case, outside snapshots/, review/ and
  // dot-directories.
  const corpusFiles = archived.filter((m) =>
    /\.ya?ml$/i.test(m.name) &&
    !m.name.split("/").slice(1, -1).some((d) => d === "snapshots" || d === "review" || d.startsWith("."))
  );
  const same = cache.entries.size === corpusFiles.length &&
    [...cache.entries].every(([path, { text }]) => {
      const data = bytes.get(path);
      return data !== undefined && utf8.decode(data) === text;
    });
  if (!same) throw new CorpusChangedError("a corpus file changed while it was read; read it again");
  return corpusStats(corpus);
};

/** Quoted strong ETag of a body. */
export function etagOf(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Pretty JSON (2-space indent) with a trailing newline, as the gallery generator writes it. */
function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `generated_at`: UTC ISO time cut to whole seconds. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** The published counts of a corpus, in {@linkcode STAT_KEYS} order (the same keys `atlas find` reads). */
function catalogStats(s: CorpusStats): CatalogStats {
  return Object.fromEntries(STAT_KEYS.map((k) => [k, s[k]])) as CatalogStats;
}

/** The full gallery record of one entry, in the fixed key order of `index.json`. */
function indexRecord(e: GalleryEntry): IndexRecord {
  // Key order is part of the format: the front matter's keys in the fixed order, whatever the README's order.
  const front = Object.fromEntries(FRONT_MATTER_KEYS.map((key) => [key, e.front[key]])) as unknown as FrontMatter;
  const s = e.stats;
  return {
    ...front,
    stats: catalogStats(s),
    per_view: s.per_view.map((v) => ({ name: v.name, route: v.route, components: v.components, requests: v.requests })),
    screenshots: e.screenshots.map((s) => `screenshots/${s.name}`),
    files: e.files,
    commit: e.commit,
  };
}

/** The AtlasEntry of one entry: twelve fields, twin URLs absolute. */
function apiEntry(base: string, e: GalleryEntry): Record<string, unknown> {
  const f = e.front;
  return {
    slug: f.slug,
    name: f.name,
    site_url: f.site_url,
    domains: f.domains,
    description: f.description,
    categories: f.categories,
    updated: f.updated,
    last_verified: f.last_verified,
    stats: catalogStats(e.stats),
    html: `${base}/atlas/${f.slug}`,
    markdown: `${base}/atlas/${f.slug}.md`,
    archive: `${base}/atlas/${f.slug}.tar.gz`,
  };
}

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};

/** Catalog order: `updated` descending, then slug ascending (code-unit order). */
function catalogOrder(a: GalleryEntry, b: GalleryEntry): number {
  if (a.front.updated !== b.front.updated) return a.front.updated < b.front.updated ? 1 : -1;
  return a.front.slug < b.front.slug ? -1 : a.front.slug > b.front.slug ? 1 : 0;
}

/** Builds a snapshot from a gallery directory. Throws only when the gallery itself is unusable. */
export async function buildSnapshot(gallery: string, options: SnapshotOptions): Promise<Snapshot> {
  return assembleSnapshot(await readCatalogGallery(gallery, options), options);
}

/** Reads a gallery for {@linkcode assembleSnapshot} (the one read of the gallery's files). */
export function readCatalogGallery(
  gallery: string,
  options: Pick<SnapshotOptions, "stats" | "git">,
): Promise<GalleryRead> {
  return readGallery(gallery, { stats: options.stats ?? loaderStats, git: options.git ?? true });
}

/** Builds every response of a snapshot from a gallery already read (pure: no I/O). */
export function assembleSnapshot(read: GalleryRead, options: SnapshotOptions): Snapshot {
  const base = options.baseUrl.replace(/\/+$/, "");
  const warnings = [...read.warnings];

  // Archives first: an entry whose archive could not be published is left out everywhere (never findable but
  // not installable).
  const archives = new Map<string, Uint8Array<ArrayBuffer>>();
  const entries: GalleryEntry[] = [];
  for (const e of read.entries) {
    let archive: Uint8Array<ArrayBuffer>;
    try {
      archive = tarGz(e.members);
    } catch (err: unknown) {
      warnings.push({ entry: e.front.slug, rule: "archive-limits", detail: String(err) });
      continue;
    }
    if (archive.length > MAX_ARCHIVE_BYTES) {
      warnings.push({
        entry: e.front.slug,
        rule: "archive-limits",
        detail: `the archive is ${archive.length} bytes, over the ${MAX_ARCHIVE_BYTES}-byte download limit`,
      });
      continue;
    }
    archives.set(e.front.slug, archive);
    entries.push(e);
  }

  const resources = new Map<string, Resource>();
  const digests = new Map<string, ReturnType<typeof createHash>>();
  const add = (
    path: string,
    file: string,
    body: string | Uint8Array<ArrayBuffer>,
    type: string,
    opts: { cache?: string; cors?: boolean; compressible?: boolean; headers?: Record<string, string>; slug?: string } =
      {},
  ) => {
    const bytes = typeof body === "string" ? encoder.encode(body) : body;
    resources.set(path, {
      path,
      file,
      body: bytes,
      type,
      cacheControl: opts.cache ?? CACHE_REVALIDATE,
      cors: opts.cors ?? false,
      compressible: opts.compressible ?? typeof body === "string",
      etag: etagOf(bytes),
      headers: opts.headers ?? {},
    });
    if (opts.slug) {
      const h = digests.get(opts.slug) ?? createHash("sha256");
      h.update(path).update("\0").update(bytes).update("\0");
      digests.set(opts.slug, h);
    }
  };
  const JSON_TYPE = "application/json; charset=utf-8";
  const HTML = "text/html; charset=utf-8";
  const html = { headers: { "Content-Security-Policy": HTML_CSP } };

  const generatedAt = isoSeconds(options.now());
  add(
    "/atlas/index.json",
    "atlas/index.json",
    pretty({ schema_version: 1, generated_at: generatedAt, entries: entries.map(indexRecord) }),
    JSON_TYPE,
  );

  const ordered = [...entries].sort(catalogOrder);
  add(
    "/api/atlas",
    "api/atlas.json",
    JSON.stringify({ schema_version: 1, entries: ordered.map((e) => apiEntry(base, e)) }),
    JSON_TYPE,
    { cache: CACHE_API, cors: true },
  );

  const pages: PageEntry[] = [];
  for (const e of entries) {
    const slug = e.front.slug;
    const pageEntry: PageEntry = { ...indexRecord(e), archive: true };
    pages.push(pageEntry);
    add(`/api/atlas/${slug}`, `api/atlas/${slug}.json`, JSON.stringify(apiEntry(base, e)), JSON_TYPE, {
      cache: CACHE_API,
      cors: true,
      slug,
    });
    add(`/atlas/${slug}`, `atlas/${slug}/index.html`, entryPage(base, pageEntry, renderMarkdown(e.body)), HTML, {
      ...html,
      slug,
    });
    add(`/atlas/${slug}.md`, `atlas/${slug}.md`, e.readme, "text/markdown; charset=utf-8", {
      compressible: true,
      slug,
    });
    add(`/atlas/${slug}.tar.gz`, `atlas/${slug}.tar.gz`, archives.get(slug)!, "application/gzip", {
      compressible: false,
      slug,
    });
    for (const shot of e.screenshots) {
      const ext = shot.name.slice(shot.name.lastIndexOf(".") + 1);
      add(
        `/atlas/screenshots/${slug}/${shot.name}`,
        `atlas/screenshots/${slug}/${shot.name}`,
        shot.data,
        IMAGE_TYPES[ext] ?? "application/octet-stream",
        { compressible: false, slug },
      );
    }
  }
  const byCatalog = new Map(pages.map((p) => [p.slug, p]));
  const orderedPages = ordered.map((e) => byCatalog.get(e.front.slug)!);
  const note = options.note ?? `${entries.length} published ${entries.length === 1 ? "entry" : "entries"}.`;
  const listing = listingPage(base, orderedPages, note);
  add("/", "index.html", listing, HTML, html);
  add("/atlas", "atlas/index.html", listing, HTML, html);
  add(FILTER_SCRIPT_PATH, FILTER_SCRIPT_PATH.slice(1), FILTER_SCRIPT, "text/javascript; charset=utf-8");

  add(
    "/llms.txt",
    "llms.txt",
    llmsTxt(base, ordered.map((e) => ({ ...e.front, stats: e.stats }))),
    "text/plain; charset=utf-8",
  );
  const doc = openApiDocument(base);
  add("/openapi.json", "openapi.json", pretty(doc), JSON_TYPE, { cors: true });
  add("/api/openapi.yaml", "api/openapi.yaml", toYaml(doc, { lineWidth: 0 }), "application/yaml; charset=utf-8", {
    cors: true,
  });

  return Object.freeze({
    baseUrl: base,
    generatedAt,
    resources,
    files: new Map([...resources.values()].map((r) => [`/${r.file}`, r])),
    slugs: entries.map((e) => e.front.slug),
    digests: new Map([...digests].map(([slug, h]) => [slug, h.digest("hex")])),
    warnings,
    notFoundHtml: encoder.encode(notFoundPage(base)),
    withheld: read.withheld,
  });
}

/** One readable line per warning: `entry "x" left out (rule): detail`. */
export function warningLine(w: EntryWarning): string {
  return `entry "${w.entry}" left out (${w.rule}): ${w.detail}`;
}
