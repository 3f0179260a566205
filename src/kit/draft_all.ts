/**
 * `mapper draft --all --out DIR`: a draft for every page one link away. The links of the session's current page
 * (every root, as `discover` reads them) on its origin, less those that could do more than read a page (a non-GET
 * link, a download, a URL that reads as logout or a destructive action), are folded into route patterns as
 * `discover` folds them; pages of one pattern share a route and a structure, so one page of each is drafted, as a
 * view with that pattern for its route. At most {@linkcode MAX_PAGES} pages, the current one first; each is opened
 * in the session's tab in turn, and the tab is sent back to the page it showed at the end. One file per view under
 * DIR, none written over an existing file without `--force` (checked for all before any is written).
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
import type { SnapshotPayload } from "../see/api.ts";
import { pageCall } from "../see/client.ts";
import { writeResult } from "../see/output.ts";
import { escapeControls } from "../terminal.ts";
import { writeUserFile } from "../user_file.ts";
import { type DraftResult, formatDraftReport } from "./draft.ts";
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
    pages.push({ route: p.pattern, url: p === mine ? current : p.sample, links: p.links - (p === mine ? 1 : 0) });
  }
  return { pages, skipped };
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
  try {
    for (const page of pages) {
      let result: DraftResult;
      try {
        result = await pageCall<DraftResult>(opts.dir, io, "draft", {
          tab: opts.tab,
          url: page.url,
          route: page.route,
          taken,
        });
      } catch (err: unknown) {
        skipped.push({ url: page.url, why: `not drafted: ${err instanceof Error ? err.message : String(err)}` });
        continue;
      }
      if (new URL(result.url).origin !== new URL(start.tree.url).origin) {
        skipped.push({ url: page.url, why: `it went to another origin (${result.url})` });
        continue;
      }
      taken.push(result.view.name);
      const failed = result.checks.exact.length + result.checks.distinct.length > 0;
      drafted.push({ page, result, file: null, failed });
    }
  } finally {
    // The tab goes back to the page it showed.
    await pageCall(opts.dir, io, "navigate", { tab: opts.tab, url: start.tree.url, timeoutMs: 30_000 }, 35_000)
      .catch(() => {});
  }

  // Every file checked before any is written: a half-written set is worse than none.
  const writes: Array<{ d: Drafted; path: string; text: string }> = [];
  for (const d of drafted) {
    if (d.result.extends !== null || (d.failed && !opts.force)) continue;
    const canonical = canonicalize(d.result.yaml);
    writes.push({
      d,
      path: join(outDir, viewFileName(d.result.view.name)),
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
    await writeUserFile(w.path, w.text, shown(io, w.path));
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
  lines.push(
    `draft --all: ${drafted.length} page${drafted.length === 1 ? "" : "s"} of ${new URL(start.tree.url).origin} ` +
      `(one per route, at most ${MAX_PAGES}) · ${writes.length} file${writes.length === 1 ? "" : "s"} written`,
  );
  for (const s of skipped) lines.push(`  skipped ${escapeControls(s.url)} — ${escapeControls(s.why)}`);
  await writeResult(io, { json: opts.json }, lines.join("\n") + "\n", {
    origin: new URL(start.tree.url).origin,
    max: MAX_PAGES,
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
