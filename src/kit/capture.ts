/**
 * `mapper capture`, `capture-novelty`, `capture-prune`: keeping what pages looked like so the map can be checked
 * against them later without a browser (`captures.ts` holds the files and the re-match).
 *
 * - `capture [--url U] [--all] [--force] [--tab ID]`: the current page's snapshot and tree in one pass of the page
 *   engine, filed under its view. Refused (exit 1): no view for the URL; a page without an interactive node (`∅`,
 *   unless `--force`). Kept when it is the view's first capture, when it adds a component or an orphan slot the
 *   view's captures lack, or with `--force`; else `not saved: adds nothing …` (exit 0). `--all`: every view with a
 *   `url:`, each in a scratch background tab (the user's tab is never moved); a `url:` that resolves to another
 *   view is reported, not filed; exit 1 when any failed.
 * - `capture-novelty FILE`: what a capture adds to the rest of its view's set (read-only).
 * - `capture-prune VIEW|--all [--dry-run]`: drops captures the rest of their set covers, oldest first, never the
 *   last one.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "../path.ts";
import { DataError, EXIT_FAILURE, EXIT_OK, MapperError, UsageError } from "../errors.ts";
import type { Io } from "../io.ts";
import { type CapturedTree, corpusDir, loadCorpus, type LoadedCorpus, loadEngine, parseTree } from "../offline/mod.ts";
import type { OfflineEngine } from "../offline/mod.ts";
import type { SnapshotPayload } from "../see/page_api.ts";
import { treeText } from "../see/capture_tree.ts";
import { pageCall } from "../see/client.ts";
import { writeResult } from "../see/output.ts";
import { formatSnapshot } from "../see/snapshot.ts";
import { escapeControls } from "../terminal.ts";
import { connect } from "../devtools/mod.ts";
import {
  novelty,
  readCaptures,
  rematch,
  type Rematched,
  removeCapture,
  saveCapture,
  SNAPSHOTS_DIR,
  type StoredCapture,
  viewDirName,
} from "./captures.ts";

const VIEWS_SHAPE = "add a view whose route: matches it, e.g. views: [{name: Catalog, route: /shop, url: " +
  "https://shop.test/shop}] (route: is matched against URLs; url: is where 'capture --all' goes)";

/** Options of `mapper capture`. */
export interface CaptureOptions {
  /** `--dir`: the corpus directory (its session too). */
  dir?: string | undefined;
  /** `--url`: open this URL first (only when the tab is elsewhere). */
  url?: string | undefined;
  /** `--tab`. */
  tab?: string | undefined;
  /** `--all`: every view's `url:`. */
  all: boolean;
  /** `--force`: keep it even when it adds nothing, or has no interactive node. */
  force: boolean;
  /** `--json`. */
  json: boolean;
}

/** One capture's outcome. */
export interface CaptureResult {
  /** The view it was filed under (`null`: none matched). */
  view: string | null;
  /** The page's URL. */
  url: string;
  /** Where it was saved (`snapshots/<View>/<stamp>`), `null` when not. */
  saved: string | null;
  /** Why it was not saved, or why it failed. */
  reason?: string;
  /** Whether it failed (exit 1). */
  failed: boolean;
  /** What it adds to its view's set. */
  adds?: { components: string[]; slots: string[] };
  /** Its coverage, re-matched with the current corpus. */
  coverage?: { interactive: number; t1: number; t2: number; t3: number };
  /** It is the view's first capture. */
  first?: boolean;
}

/** `71%`. */
export function pct(n: number, of: number): string {
  return of === 0 ? "-" : `${Math.round((100 * n) / of)}%`;
}

/** `170 interactive · T1 71% · T2 26% · T3 5 ✗`. */
export function coverageText(c: { interactive: number; t1: number; t2: number; t3: number }): string {
  return `${c.interactive} interactive · T1 ${pct(c.t1, c.interactive)} · T2 ${pct(c.t2, c.interactive)} · T3 ${c.t3} ${
    c.t3 === 0 ? "✓" : "✗"
  }`;
}

/** The captures of a view folder, re-matched (stale ones left out: they belong to another view now). */
async function viewSet(
  corpusPath: string,
  dirName: string,
  corpus: LoadedCorpus,
  engine: OfflineEngine,
): Promise<Array<{ stored: StoredCapture; r: Rematched }>> {
  const { captures } = await readCaptures(corpusPath, { dirName });
  return captures.map((stored) => ({ stored, r: rematch(stored.tree, corpus.wire, engine) }))
    .filter((x) => !x.r.stale);
}

/** Takes, judges and files one capture of the page in `tab` (or the only tab). */
async function captureOne(
  opts: CaptureOptions,
  io: Io,
  env: { corpusPath: string; corpus: LoadedCorpus; engine: OfflineEngine; expectView?: string },
  tab: string | undefined,
  url: string | undefined,
): Promise<CaptureResult> {
  const payload = await pageCall<SnapshotPayload>(opts.dir, io, "snapshot", { tab, url, tree: true }, 90_000);
  const captured = payload.tree;
  delete payload.tree;
  if (captured === undefined) {
    throw new DataError("the browser session answered no tree (it runs an older mapper)", {
      hint: "restart it: 'mapper browser stop', then 'mapper browser start'",
    });
  }
  const pageUrl = captured.url;
  if (payload.view === null) {
    return { view: null, url: pageUrl, saved: null, failed: true, reason: `no view matches ${pageUrl}` };
  }
  const view = payload.view.name;
  if (env.expectView !== undefined && view !== env.expectView) {
    return {
      view: env.expectView,
      url: pageUrl,
      saved: null,
      failed: true,
      reason: `${env.expectView}'s url: opens a page of view ${view} (fix its url: or route:)`,
    };
  }
  const text = treeText(captured);
  const tree: CapturedTree = parseTree(text, "(capture)");
  const cand = rematch(tree, env.corpus.wire, env.engine);
  const coverage = { interactive: cand.interactive, t1: cand.t1, t2: cand.t2, t3: cand.orphans.length };
  if (payload.page.coverage.interactive === 0 && !opts.force) {
    return {
      view,
      url: pageUrl,
      saved: null,
      failed: true,
      coverage,
      reason: "∅ no interactive node: never kept as a baseline (blank or still loading; --force keeps it)",
    };
  }
  const dirName = await viewDirName(view, env.corpus.model.views.map((v) => v.name));
  const set = await viewSet(env.corpusPath, dirName, env.corpus, env.engine);
  const adds = novelty(cand, set.map((x) => x.r));
  if (set.length > 0 && !opts.force && adds.components.length === 0 && adds.slots.length === 0) {
    const n = set.length;
    return {
      view,
      url: pageUrl,
      saved: null,
      failed: false,
      adds,
      coverage,
      reason: `adds nothing to the ${n} ${n === 1 ? "capture" : "captures"} of ${view}`,
    };
  }
  const at = new Date(captured.capturedAt);
  const snap = `url: ${pageUrl}\ncaptured: ${captured.capturedAt}\n\n${formatSnapshot(payload, {})}`;
  const saved = await saveCapture(env.corpusPath, dirName, { snap, tree: text }, at);
  return { view, url: pageUrl, saved: saved.shown, failed: false, adds, coverage, first: set.length === 0 };
}

/** Views with a `url:`, that URL resolved against `base` when it is relative. */
function viewUrls(corpus: LoadedCorpus, base: string | undefined): Array<{ view: string; url?: string; why?: string }> {
  return corpus.model.views.filter((v) => v.url !== undefined).map((v) => {
    try {
      return { view: v.name, url: new URL(v.url!, base).href };
    } catch {
      return { view: v.name, why: `url: ${v.url} is relative and no page is open to resolve it against` };
    }
  });
}

/** Runs `mapper capture`. */
export async function runCapture(opts: CaptureOptions, io: Io): Promise<number> {
  if (opts.all && (opts.url !== undefined || opts.tab !== undefined)) {
    throw new UsageError("--all conflicts with --url and --tab", {
      hint: "--all opens every view's url: in a scratch tab of its own; drop --url/--tab",
    });
  }
  const dir = corpusDir(opts.dir, io);
  const corpus = await loadCorpus(dir, io);
  const engine = await loadEngine();
  const env = { corpusPath: dir.path, corpus, engine };
  const results: CaptureResult[] = [];
  const skipped: string[] = [];
  if (!opts.all) {
    results.push(await captureOne(opts, io, env, opts.tab, opts.url));
  } else {
    const tabs = await pageCall<{ tabs: Array<{ url: string }> }>(opts.dir, io, "tab-list", {}, 10_000);
    const base = tabs.tabs.find((t) => /^https?:/.test(t.url))?.url;
    const client = await connect(opts.dir, io);
    for (const v of viewUrls(corpus, base)) {
      if (v.url === undefined) {
        results.push({ view: v.view, url: "", saved: null, failed: true, reason: v.why! });
        continue;
      }
      const opened = await client.post<{ tab: string }>("/devtools/tabs?url=about:blank", {}, 30_000);
      try {
        results.push(await captureOne(opts, io, { ...env, expectView: v.view }, opened.tab, v.url));
      } catch (err: unknown) {
        if (!(err instanceof MapperError)) throw err;
        results.push({ view: v.view, url: v.url, saved: null, failed: true, reason: err.message });
      } finally {
        await pageCall(opts.dir, io, "tab-close", { tab: opened.tab }, 15_000).catch(() => {});
      }
    }
    skipped.push(...corpus.model.views.filter((v) => v.url === undefined).map((v) => v.name));
  }
  const lines: string[] = [];
  for (const r of results) lines.push(...resultLines(r));
  if (skipped.length > 0) lines.push(`skipped (no url:): ${skipped.map((s) => escapeControls(s)).join(", ")}`);
  if (results.some((r) => r.first)) {
    lines.push(
      "note: captures hold the page's text as it was shown; keep them out of public repositories if it is private",
    );
  }
  const noView = results.find((r) => r.failed && r.view === null);
  if (!opts.all && noView) throw new DataError(noView.reason!, { hint: VIEWS_SHAPE });
  await writeResult(io, opts, lines.join("\n") + "\n", { captures: results, skipped });
  return results.some((r) => r.failed) ? EXIT_FAILURE : EXIT_OK;
}

function resultLines(r: CaptureResult): string[] {
  const where = escapeControls(r.view ?? r.url);
  if (r.saved !== null) {
    const out = [`saved ${r.saved} (${coverageText(r.coverage!)})`];
    if (!r.first && r.adds) {
      const bits = [...r.adds.components.map((c) => `component ${c}`), ...r.adds.slots.map((s) => `orphan ${s}`)];
      if (bits.length > 0) out.push(`  adds ${escapeControls(bits.join("; "))}`);
    }
    return out;
  }
  if (r.failed) return [`✗ ${where}: ${escapeControls(r.reason ?? "failed")}`];
  return [`not saved: ${escapeControls(r.reason ?? "")} (--force keeps it)`];
}

/** Options of `mapper capture-novelty`. */
export interface NoveltyOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** The capture file. */
  file: string;
  /** `--json`. */
  json: boolean;
}

/** Runs `mapper capture-novelty FILE`: what it adds to the other captures of its view (read-only). */
export async function runCaptureNovelty(opts: NoveltyOptions, io: Io): Promise<number> {
  const dir = corpusDir(opts.dir, io);
  const corpus = await loadCorpus(dir, io);
  const engine = await loadEngine();
  const { captures, unreadable } = await readCaptures(dir.path, { files: [opts.file], cwd: io.cwd });
  if (unreadable.length > 0) {
    throw new DataError(`cannot read capture "${escapeControls(opts.file)}": ${unreadable[0]!.reason}`, {
      hint: "pass a .snap.tree.json written by 'mapper capture'",
    });
  }
  const target = captures[0]!;
  const r = rematch(target.tree, corpus.wire, engine);
  const view = r.recordedView ?? r.view;
  const abs = resolve(io.cwd, opts.file);
  const others = view === null
    ? []
    : (await viewSet(dir.path, await viewDirName(view, corpus.model.views.map((v) => v.name)), corpus, engine))
      .filter((x) => resolve(x.stored.path) !== abs);
  const adds = novelty(r, others.map((x) => x.r));
  const n = others.length;
  const lines = [
    `${escapeControls(opts.file)} — view ${escapeControls(view ?? "(none)")}${
      r.stale ? ` (stale: its URL is ${escapeControls(r.view ?? "no view")} now)` : ""
    } — against ${n} other ${n === 1 ? "capture" : "captures"}`,
  ];
  if (adds.components.length === 0 && adds.slots.length === 0) lines.push("adds nothing");
  for (const c of adds.components) lines.push(`+ component ${escapeControls(c)}`);
  for (const s of adds.slots) lines.push(`+ orphan ${escapeControls(s)}`);
  await writeResult(io, opts, lines.join("\n") + "\n", {
    file: opts.file,
    view,
    stale: r.stale,
    others: n,
    adds,
  });
  return EXIT_OK;
}

/** Options of `mapper capture-prune`. */
export interface PruneOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** The view whose captures to prune (absent with `--all`). */
  view?: string | undefined;
  /** `--all`: every view. */
  all: boolean;
  /** `--dry-run`: say what would go, remove nothing. */
  dryRun: boolean;
  /** `--json`. */
  json: boolean;
}

/**
 * The captures of a set the others cover, oldest first, never the last: each one whose components and orphan slots
 * the rest (not yet dropped) already have.
 */
export function prunable<T extends { r: Rematched }>(set: readonly T[]): T[] {
  const kept = [...set];
  const dropped: T[] = [];
  for (const c of set) {
    if (kept.length <= 1) break;
    const rest = kept.filter((k) => k !== c);
    const adds = novelty(c.r, rest.map((k) => k.r));
    if (adds.components.length === 0 && adds.slots.length === 0) {
      dropped.push(c);
      kept.splice(kept.indexOf(c), 1);
    }
  }
  return dropped;
}

/** Runs `mapper capture-prune VIEW|--all [--dry-run]`. */
export async function runCapturePrune(opts: PruneOptions, io: Io): Promise<number> {
  if (opts.all === (opts.view !== undefined)) {
    throw new UsageError(opts.all ? "--all conflicts with a view name" : "name a view or pass --all", {
      hint: "mapper capture-prune Catalog, or mapper capture-prune --all",
    });
  }
  const dir = corpusDir(opts.dir, io);
  const corpus = await loadCorpus(dir, io);
  const engine = await loadEngine();
  const names = corpus.model.views.map((v) => v.name);
  if (opts.view !== undefined && !names.includes(opts.view)) {
    throw new UsageError(`no view "${escapeControls(opts.view)}" in the corpus`, {
      hint: `name one of: ${names.map((n) => escapeControls(n)).join(", ") || "(no views)"}`,
    });
  }
  const views = opts.view !== undefined ? [opts.view] : names;
  const out: Array<{ view: string; kept: string[]; pruned: string[] }> = [];
  const lines: string[] = [];
  for (const view of views) {
    const set = await viewSet(dir.path, await viewDirName(view, names), corpus, engine);
    if (set.length === 0) continue;
    const drop = prunable(set);
    if (!opts.dryRun) { for (const d of drop) await removeCapture(d.stored); }
    const show = (x: { stored: StoredCapture }) => x.stored.shown.slice(0, -".snap.tree.json".length);
    out.push({ view, kept: set.filter((x) => !drop.includes(x)).map(show), pruned: drop.map(show) });
    const verb = opts.dryRun ? "would prune" : "pruned";
    lines.push(
      `${escapeControls(view)}: ${verb} ${drop.length} of ${set.length}${
        drop.length ? ` (${drop.map((d) => escapeControls(d.stored.stamp)).join(", ")})` : ""
      }`,
    );
  }
  if (lines.length === 0) lines.push(`no captures under ${relativeShown(io, dir.path)}/${SNAPSHOTS_DIR}/`);
  await writeResult(io, opts, lines.join("\n") + "\n", { dryRun: opts.dryRun, views: out });
  return EXIT_OK;
}

function relativeShown(io: Io, path: string): string {
  const rel = relative(io.cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
