/**
 * `mapper draft --all --out DIR`: a draft for every page one link away. The links of the session's current page
 * (every root, as `discover` reads them) on its origin, less those that could do more than read a page (a non-GET
 * link, a download, a URL that reads as logout or a destructive action), are folded into route patterns as
 * `discover` folds them. A pattern is one view (its route the pattern) when two of its pages have the same structure
 * ({@linkcode sameStructure}); when they differ (`/docs/intro` and `/docs/faq` fold by their number, not their
 * shape), each of its pages is a view of its own, routed by its path. At most {@linkcode MAX_PAGES} pages are
 * opened, the current one first, each in the session's tab in turn; the tab is sent back to the page it showed at
 * the end. One file per view under DIR, none written over an existing file without `--force` (checked for all before
 * any is written). A page a view serves already is reported, not written.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { canonicalize } from "../authoring/mod.ts";
import type { WireCorpus } from "../corpus/mod.ts";
import { ProblemsFound, UsageError } from "../errors.ts";
import { exists } from "../files.ts";
import type { Io } from "../io.ts";
import { corpusDir, loadCorpus } from "../offline/mod.ts";
import type { SnapshotPayload } from "../see/page_api.ts";
import { pageCall } from "../see/client.ts";
import { writeResult } from "../see/output.ts";
import { escapeControls } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { type DraftResult, draftYaml, formatDraftReport } from "./draft.ts";
import { foldLinks, type FoundLink, linksOf } from "./discover.ts";

/** Pages `draft --all` drafts at most (the current one included). */
export const MAX_PAGES = 20;

/** A page `draft --all` drafts: one per route pattern. */
export interface PlannedPage {
  /** The route the view gets (`/items/:id`). */
  route: string;
  /** The page drafted for it. */
  url: string;
  /** Same-origin links folded into the pattern. */
  links: number;
  /** The pattern's other pages (origin and path), in link order. */
  others: string[];
}

/** A link `draft --all` did not follow, and why. */
export interface SkippedLink {
  /** The link. */
  url: string;
  /** Why. */
  why: string;
}

/**
 * The pages to draft: the current page's pattern first, then every other pattern of the safe same-origin links in
 * order, at most `max`; the links left out with why (a pattern past the bound is named by its sample).
 */
export function planPages(
  current: string,
  links: readonly FoundLink[],
  wire: WireCorpus | undefined,
  max = MAX_PAGES,
): { pages: PlannedPage[]; skipped: SkippedLink[] } {
  const origin = new URL(current).origin;
  const skipped: SkippedLink[] = [];
  const safe: FoundLink[] = [{ url: current, visible: true }];
  const seen = new Set<string>();
  for (const l of links) {
    if (new URL(l.url).origin !== origin) continue;
    if (l.unsafe !== undefined) {
      if (!seen.has(l.url)) skipped.push({ url: l.url, why: `not followed: ${l.unsafe}` });
      seen.add(l.url);
      continue;
    }
    safe.push(l);
  }
  const patterns = foldLinks(safe, origin, wire);
  const here = new URL(current);
  const mine = patterns.find((p) => p.sample === here.origin + here.pathname);
  const ordered = mine ? [mine, ...patterns.filter((p) => p !== mine)] : patterns;
  const pages: PlannedPage[] = [];
  for (const p of ordered) {
    if (pages.length >= max) {
      skipped.push({ url: p.sample, why: `past the bound of ${max} pages` });
      continue;
    }
    // The current page is drafted where it is (its query kept); others at their link, query and fragment dropped.
    const url = p === mine ? current : p.sample;
    const of = new RegExp(
      "^" + p.pattern.split("/").slice(1).map((seg) => seg === ":id" ? "/[^/]+" : `/${escapeRegExp(seg)}`).join("") +
        "/?$",
    );
    const others = [
      ...new Set(
        safe.map((l) => new URL(l.url)).filter((u) => of.test(decodePath(u.pathname)))
          .map((u) => u.origin + u.pathname),
      ),
    ].filter((u) => u !== p.sample);
    pages.push({ route: p.pattern, url, links: p.links - (p === mine ? 1 : 0), others });
  }
  return { pages, skipped };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Whether two drafts of pages of one route pattern show the same structure: at least three quarters of their
 * components (kind and selector) are shared. A page lacking an optional section still folds with its siblings;
 * pages that share only the site's frame do not.
 */
export function sameStructure(a: DraftResult, b: DraftResult): boolean {
  const key = (r: DraftResult) => new Set(r.components.map((c) => `${c.kind} ${c.selector}`));
  const x = key(a), y = key(b);
  const union = new Set([...x, ...y]).size;
  if (union === 0) return true;
  let shared = 0;
  for (const k of x) if (y.has(k)) shared++;
  return shared / union >= 0.75;
}

/** `OurMugs` → `our-mugs.yaml`. */
export function viewFileName(view: string): string {
  return `${view.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase() || "view"}.yaml`;
}

/** Options of `mapper draft --all`. */
export interface DraftAllOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** `--tab`. */
  tab?: string | undefined;
  /** `--json`. */
  json: boolean;
  /** `--out DIR`. */
  out: string;
  /** `--force`. */
  force: boolean;
  /** Names the corpus uses. */
  taken: readonly string[];
}

/** One view of `draft --all`. */
interface Drafted {
  page: PlannedPage;
  result: DraftResult;
  file: string | null;
  failed: boolean;
}

/** Runs `mapper draft --all`. */
export async function runDraftAll(opts: DraftAllOptions, io: Io): Promise<number> {
  const outDir = resolve(io.cwd, opts.out);
  const wire = await corpusWire(opts.dir, io);
  const start = await pageCall<SnapshotPayload>(opts.dir, io, "snapshot", { tab: opts.tab, tree: true }, 90_000);
  if (start.tree === undefined) {
    throw new UsageError("the browser session answered no tree (it runs an older mapper)", {
      hint: "restart it: 'mapper browser stop', then 'mapper browser start'",
    });
  }
  const { pages, skipped } = planPages(start.tree.url, linksOf(start.tree), wire);
  const taken = [...opts.taken];
  const drafted: Drafted[] = [];
  const origin = new URL(start.tree.url).origin;
  let loaded = 0;
  /** One page drafted (counted against the bound), `null` when it could not be or went elsewhere. */
  const draftPage = async (url: string, route: string): Promise<DraftResult | null> => {
    if (loaded >= MAX_PAGES) {
      skipped.push({ url, why: `past the bound of ${MAX_PAGES} pages` });
      return null;
    }
    loaded++;
    let result: DraftResult;
    try {
      result = await pageCall<DraftResult>(opts.dir, io, "draft", { tab: opts.tab, url, route, taken });
    } catch (err: unknown) {
      skipped.push({ url, why: `not drafted: ${err instanceof Error ? err.message : String(err)}` });
      return null;
    }
    if (new URL(result.url).origin !== origin) {
      skipped.push({ url, why: `it went to another origin (${result.url})` });
      return null;
    }
    taken.push(result.view.name);
    return result;
  };
  const keep = (page: PlannedPage, result: DraftResult) => {
    const failed = result.checks.exact.length + result.checks.distinct.length > 0;
    drafted.push({ page, result, file: null, failed });
  };
  /** A draft given its page's own path for a route (its pattern's pages differ in structure). */
  const ownRoute = (r: DraftResult): DraftResult => {
    const route = decodePath(new URL(r.url).pathname);
    return { ...r, view: { ...r.view, route }, yaml: draftYaml({ ...r.view, route, url: r.url }, r.components) };
  };
  try {
    for (const page of pages) {
      const first = await draftPage(page.url, page.route);
      if (first === null) continue;
      const other = page.others[0];
      if (first.extends !== null || other === undefined || loaded >= MAX_PAGES) {
        keep(page, first);
        continue;
      }
      // A second page of the pattern tells whether the pattern is one structure (one view) or several pages.
      const second = await draftPage(other, page.route);
      if (second === null || second.extends !== null || sameStructure(first, second)) {
        if (second !== null) taken.splice(taken.lastIndexOf(second.view.name), 1); // one view: its name is free
        keep(page, first);
        continue;
      }
      keep({ ...page, links: 1, others: [] }, ownRoute(first));
      const rest = page.others.slice(1);
      keep({ ...page, url: other, links: 1, others: [] }, ownRoute(second));
      for (const url of rest) {
        const r = await draftPage(url, decodePath(new URL(url).pathname));
        if (r !== null) keep({ ...page, url, links: 1, others: [] }, r);
      }
    }
  } finally {
    // The tab goes back to the page it showed.
    await pageCall(opts.dir, io, "navigate", { tab: opts.tab, url: start.tree.url, timeoutMs: 30_000 }, 35_000)
      .catch(() => {});
  }

  // Every file checked before any is written: a half-written set is worse than none.
  const writes: Array<{ d: Drafted; path: string; text: string }> = [];
  // Distinct view names can fold to one file name (`AB`, `Ab`): each gets a file of its own, never the other's.
  const used = new Set<string>();
  for (const d of drafted) {
    if (d.result.extends !== null || (d.failed && !opts.force)) continue;
    const canonical = canonicalize(d.result.yaml);
    const base = viewFileName(d.result.view.name).slice(0, -".yaml".length);
    let file = `${base}.yaml`;
    for (let i = 2; used.has(file); i++) file = `${base}-${i}.yaml`;
    used.add(file);
    writes.push({
      d,
      path: join(outDir, file),
      text: canonical.kind === "ok" ? canonical.text : d.result.yaml,
    });
  }
  if (!opts.force) {
    for (const w of writes) {
      if (await exists(w.path)) {
        throw new UsageError(`${shown(io, w.path)} exists; draft never overwrites a file`, {
          hint: "pass --force to replace it, or give another --out directory",
        });
      }
    }
  }
  if (writes.length > 0) await Deno.mkdir(outDir, { recursive: true });
  for (const w of writes) {
    // Create-only without --force: a file that appeared since the check above is not replaced either.
    if (!await writeUserFile(w.path, w.text, shown(io, w.path), { createOnly: !opts.force })) {
      throw new UsageError(`${shown(io, w.path)} exists; draft never overwrites a file`, {
        hint: "pass --force to replace it, or give another --out directory",
      });
    }
    w.d.file = shown(io, w.path);
  }

  const lines: string[] = [];
  for (const d of drafted) {
    lines.push(formatDraftReport(d.result, d.file).trimEnd());
    if (d.page.links > 1) lines.push(`  ${d.page.links} links of this route folded into it`);
    if (d.result.extends !== null) {
      lines.push(
        `  not written: view ${d.result.extends.name} serves it; 'mapper draft --url URL' prints the additions`,
      );
    } else if (d.file === null) {
      lines.push("  not written: a hard check failed (✗ above); --force writes it anyway");
    }
  }
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  lines.push(
    `draft --all: ${plural(drafted.length, "view")} from ${plural(loaded, "page")} of ${origin} (one view per ` +
      `route, at most ${MAX_PAGES} pages) · ${plural(writes.length, "file")} written`,
  );
  for (const s of skipped) lines.push(`  skipped ${escapeControls(s.url)} — ${escapeControls(s.why)}`);
  await writeResult(io, { json: opts.json }, lines.join("\n") + "\n", {
    origin,
    max: MAX_PAGES,
    pages: loaded,
    views: drafted.map((d) => ({
      view: d.result.view,
      url: d.result.url,
      links: d.page.links,
      extends: d.result.extends,
      file: d.file,
      components: d.result.components.length,
      coverage: d.result.coverage,
      checks: d.result.checks,
    })),
    skipped,
  });
  if (drafted.some((d) => d.failed)) {
    throw new ProblemsFound("a draft fails a hard check (✗ above)", {
      hint: opts.force ? "fix the components marked ✗ before using the drafts" : "its file was not written; fix the " +
        "page's hooks or pass --force to write it anyway",
    });
  }
  return 0;
}

/** The corpus as the resolver sees it, when there is one (it names the routes not to fold away). */
async function corpusWire(dir: string | undefined, io: Io): Promise<WireCorpus | undefined> {
  try {
    return (await loadCorpus(corpusDir(dir, io), io)).wire;
  } catch (err: unknown) {
    if (err instanceof UsageError) return undefined; // no corpus here: nothing to keep
    throw err;
  }
}

function shown(io: Io, path: string): string {
  return relative(io.cwd, path) || path;
}
