/**
 * The map checked against its captures, without a browser: `mapper coverage`, `report`, `multi-coverage`. Every
 * capture (`.mapper/snapshots/**\/*.snap.tree.json`, or the files given) is re-matched at its recorded URL with the
 * current corpus (`captures.ts`) and grouped by the view recorded in it; a capture whose URL now resolves to another
 * view is **stale**: listed, and left out of every union.
 *
 * - `coverage`: per capture its tiers; per view the components that matched nothing (`[Dead]`: *absent* — even the
 *   last compound matches nothing; *broken scope* — that compound matches, the whole selector does not; *shadowed* —
 *   the selector matches but an earlier component claims those elements; *unknown* — a capture cannot answer it),
 *   `[Presence]` (in how many captures each component appears), `[Annotation gaps]` (named headings and regions no
 *   component covers; advisory). `--trace` adds the orphan clusters. Exit 1 on an orphan, a capture without an
 *   interactive node, or an unreadable capture.
 * - `report`: one row per view of the corpus (also those without `url:` or captures). Exit 1 on orphans, dead
 *   components, missing captures.
 * - `multi-coverage`: components × views (cell: most elements claimed in one capture of the view), then what to
 *   promote to a global, unify, or de-duplicate. Exit 0.
 *
 * @module
 */
import { EXIT_FAILURE, EXIT_OK, NotFoundError } from "../errors.ts";
import type { Io } from "../io.ts";
import { corpusDir, loadCorpus, type LoadedCorpus, loadEngine, type OfflineElement } from "../offline/mod.ts";
import { writeResult } from "../see/output.ts";
import { escapeControls } from "../terminal.ts";
import { readCaptures, rematch, type Rematched, resolveAt, type UnreadableCapture } from "./captures.ts";
import { coverageText, pct } from "./capture.ts";
import { describeElement, textOf } from "./page.ts";
import { propertyValue } from "../../assets/extension/resolver.js";

/** Options every offline coverage command shares. */
export interface CoverageOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** Capture files (default: every one under `snapshots/`). */
  files?: readonly string[] | undefined;
  /** `--include-hidden`. */
  includeHidden?: boolean | undefined;
  /** `--trace`: the orphan clusters. */
  trace?: boolean | undefined;
  /** `--json`. */
  json: boolean;
}

/** What the commands keep of a capture's re-match: the tree itself is dropped once it is summarized. */
interface Summary {
  recordedView: string | null;
  view: string | null;
  stale: boolean;
  claimed: Map<string, number>;
  interactive: number;
  t1: number;
  t2: number;
  t3: number;
  unknown: Rematched["unknown"];
  /** Per component of the view that claimed nothing here: what its selector and its last compounds match. */
  misses: Map<string, { selector: number; leaf: number }>;
  /** Visible interactive elements inside each component (T2), by component. */
  t2By: Map<string, number>;
  /** `coverage` only: the orphans, the annotation gaps, and with `--trace` the clusters. */
  orphans: Array<{ id: number | string; role: string; name: string; element: string }>;
  gaps: string[];
  clusters: Array<{ line: string; json: Record<string, unknown> }>;
}

/** A capture, summarized. */
interface Entry {
  stored: { shown: string; stamp: string };
  /** The URL it was captured at. */
  url: string;
  r: Summary;
  /** The view it belongs to: the recorded one, else the one its URL resolves to now. */
  group: string;
}

/** What a command needs beyond the tiers and claims. */
interface Needs {
  /** `coverage`: orphans, annotation gaps, clusters with `--trace`. */
  coverage?: boolean;
  /** `report`: the properties no capture gave a value. */
  properties?: EmptyTracker;
}

/** Counts a selector's matches on a re-matched capture; 0 when it cannot be answered. */
function countOn(r: Rematched, selector: string): number {
  try {
    return r.page.query(selector).length;
  } catch {
    return 0;
  }
}

/** Summarizes one re-matched capture (see {@linkcode Summary}). */
function summarize(r: Rematched, opts: CoverageOptions, needs: Needs): Summary {
  const misses = new Map<string, { selector: number; leaf: number }>();
  for (const c of r.components) {
    if ((r.claimed.get(c.name) ?? 0) > 0) continue;
    const leaf = lastCompounds(c.ownSelector ?? c.selector);
    const selector = countOn(r, c.selector);
    misses.set(c.name, { selector, leaf: leaf === c.selector || selector > 0 ? selector : countOn(r, leaf) });
  }
  const coverage = needs.coverage === true && !r.stale;
  return {
    recordedView: r.recordedView,
    view: r.view,
    stale: r.stale,
    claimed: r.claimed,
    interactive: r.interactive,
    t1: r.t1,
    t2: r.t2,
    t3: r.orphans.length,
    unknown: r.unknown,
    misses,
    t2By: r.t2By,
    orphans: needs.coverage
      ? r.orphans.map((o) => ({ id: o.node.id, role: o.node.role, name: o.node.name, element: describeElement(o) }))
      : [],
    gaps: coverage ? annotationGaps(r) : [],
    clusters: coverage && opts.trace ? clustersOf(r) : [],
  };
}

/** Reads, re-matches and summarizes the captures, one at a time; the corpus comes along for the commands' checks. */
async function gather(opts: CoverageOptions, io: Io, needs: Needs = {}): Promise<{
  entries: Entry[];
  unreadable: UnreadableCapture[];
  corpus: LoadedCorpus;
}> {
  const dir = corpusDir(opts.dir, io);
  const corpus = await loadCorpus(dir, io);
  const engine = await loadEngine();
  const files = opts.files && opts.files.length > 0 ? { files: opts.files, cwd: io.cwd } : {};
  const { captures: entries, unreadable } = await readCaptures(dir.path, files, (stored): Entry => {
    const r = rematch(stored.tree, corpus.wire, engine, opts.includeHidden === true);
    const group = r.recordedView ?? r.view ?? "(no view)";
    if (needs.properties && !r.stale) needs.properties.add(r, group);
    return {
      stored: { shown: stored.shown, stamp: stored.stamp },
      url: stored.tree.tree.url,
      r: summarize(r, opts, needs),
      group,
    };
  });
  return { entries, unreadable, corpus };
}

/** Entries by group, in first-seen order. */
function byView(entries: readonly Entry[]): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>();
  for (const e of entries) out.set(e.group, [...(out.get(e.group) ?? []), e]);
  return out;
}

/**
 * The last compound of each alternative of a selector (`footer nav > a.x` → `a.x`): what an element itself must be,
 * whatever its ancestors. Brackets, parentheses and quotes are skipped over.
 */
export function lastCompounds(selector: string): string {
  const alternatives: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  let altStart = 0;
  const close = (end: number) => alternatives.push(selector.slice(start, end).trim());
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    else if (depth === 0 && c === ",") {
      close(i);
      start = altStart = i + 1;
    } else if (depth === 0 && (c === ">" || c === "+" || c === "~" || /\s/.test(c))) {
      // A combinator: what follows is the next compound (spaces around it are skipped by trim).
      if (selector.slice(altStart, i).trim() !== "") start = i + 1;
    }
  }
  close(selector.length);
  return alternatives.filter((a) => a !== "").join(", ");
}

/** Why a component claimed nothing in a set of captures. */
type DeadKind = "absent" | "broken scope" | "shadowed" | "unknown";

/** The view's own components that claimed nothing in any of its captures, each with why. */
function deadIn(
  set: readonly Entry[],
  view: string,
  wire: LoadedCorpus["wire"],
): Array<{ component: string; kind: DeadKind; why: string }> {
  const first = set[0];
  if (!first) return [];
  const components = resolveAt(wire, first.url).components.filter((c) => c.view === view);
  const out: Array<{ component: string; kind: DeadKind; why: string }> = [];
  for (const c of components) {
    if (set.some((e) => (e.r.claimed.get(c.name) ?? 0) > 0)) continue;
    let kind: DeadKind = "absent";
    let why = "";
    const leaf = lastCompounds(c.ownSelector ?? c.selector);
    for (const e of set) {
      const unknown = e.r.unknown.find((u) => u.component === c.name);
      if (unknown) {
        kind = "unknown";
        why = unknown.reason;
        break;
      }
      const miss = e.r.misses.get(c.name) ?? { selector: 0, leaf: 0 };
      if (miss.selector > 0) {
        kind = "shadowed";
        why = `${c.selector} matches ${miss.selector}, all claimed by components declared before it`;
      } else if (kind !== "shadowed" && leaf !== c.selector && miss.leaf > 0) {
        kind = "broken scope";
        why = `${leaf} matches ${miss.leaf}, ${c.selector} none`;
      }
    }
    out.push({ component: c.name, kind, why: why || `${leaf} matches nothing` });
  }
  return out;
}

/** A property no capture could give a value to: always empty, or unknown where a capture cannot tell. */
interface EmptyProperty {
  component: string;
  property: string;
  extract: string;
  /** In how many captures of the set the component matched (every one of them gave no value). */
  captures: number;
  /** Set when some capture cannot tell (the value may be there on the page): why. */
  unknown?: string;
}

/**
 * The declared properties that had no value on any element their component claimed, in any capture of a set where
 * it claimed one (components that claimed nothing are dead, not listed here): a view's own components over its
 * captures, the globals over every capture. Fed one re-matched capture at a time ({@linkcode EmptyTracker.add});
 * extracted by the resolver's one extraction over the capture (`offline/tree_dom.ts`), only until a value shows up.
 * A property some capture cannot evaluate (a selector it cannot answer, text it does not record, `inner_text` that
 * depends on style) is listed as unknown, never as empty. `exists:` properties are left out: their empty value is
 * the answer "no", as in the snapshot.
 */
class EmptyTracker {
  readonly #found = new Map<string, EmptyProperty & { scope: string; order: number; seen: boolean }>();

  /** Extracts on one capture of view `group` (not stale). */
  add(r: Rematched, group: string): void {
    // Only the components with a property still to learn about have their elements gathered: once every property
    // of a component has shown a value, its elements in later captures are never looked at.
    const open = r.components.map((c) => {
      const scope = c.view === null ? GLOBALS : group;
      return c.properties.some((p) =>
        !p.extract.trim().startsWith("exists:") && this.#found.get(keyOf(scope, c.name, p.name))?.seen !== true
      );
    });
    const elements = new Map<number, OfflineElement[]>();
    r.page.owner.forEach((i, el) => {
      if (!open[i] || el.node.visible === false) return;
      const list = elements.get(i);
      if (list) list.push(el);
      else elements.set(i, [el]);
    });
    if (elements.size === 0) return;
    const byName = new Map(r.components.map((c) => [c.name, c]));
    const dom = r.page.engine.claimDom(r.page.doc);
    for (const [i, els] of elements) {
      const c = r.components[i]!;
      const scope = c.view === null ? GLOBALS : group;
      c.properties.forEach((p, n) => {
        if (p.extract.trim().startsWith("exists:")) return;
        const key = keyOf(scope, c.name, p.name);
        let f = this.#found.get(key);
        if (f === undefined) {
          f = {
            scope,
            order: i * 1000 + n,
            component: c.name,
            property: p.name,
            extract: p.extract,
            captures: 0,
            seen: false,
          };
          this.#found.set(key, f);
        }
        if (f.seen) return;
        f.captures++;
        for (const el of els) {
          dom.takeDoubt();
          if (propertyValue(el, p, byName, dom) !== "") {
            f.seen = true;
            return;
          }
          const doubt = dom.takeDoubt();
          if (doubt !== undefined) f.unknown ??= doubt;
        }
      });
    }
  }

  /** The properties of `scope` (a view's name, or {@linkcode GLOBALS}) never given a value, in declaration order. */
  of(scope: string): EmptyProperty[] {
    return [...this.#found.values()].filter((f) => f.scope === scope && !f.seen).sort((a, b) => a.order - b.order)
      .map(({ scope: _s, order: _o, seen: _seen, ...f }) => f);
  }
}

/** The key of a property of a component in a scope. */
function keyOf(scope: string, component: string, property: string): string {
  return `${scope}\u0000${component}\u0000${property}`;
}

/** The scope of global components' properties in the report. */
const GLOBALS = "(globals)";

/** `View > Component > property (extract: …)` and what was found, for the report. */
function emptyLine(view: string, p: EmptyProperty): string {
  const where = `${escapeControls(view)} > ${escapeControls(p.component)} > ${escapeControls(p.property)}`;
  const extract = `(extract: ${escapeControls(p.extract)})`;
  if (p.unknown !== undefined) {
    return `cannot be judged offline: ${where} ${extract}: ${escapeControls(p.unknown)}`;
  }
  const n = p.captures === 1 ? "the 1 capture" : `all ${p.captures} captures`;
  return `always empty: ${where} ${extract} in ${n} where ${escapeControls(p.component)} matched`;
}

/** Named headings and regions no component covers: content a map reader would want named (advisory). */
function annotationGaps(r: Rematched): string[] {
  const out = new Map<string, number>();
  for (const el of r.page.doc.elements) {
    const role = el.node.role;
    if (el.node.visible !== true || el.node.name === "") continue;
    if (role !== "heading" && role !== "region" && role !== "img" && role !== "table") continue;
    if (r.page.ownership(el).tier !== 3) continue;
    const key = `${role} "${el.node.name.slice(0, 40)}"`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return [...out].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k));
}

/** The clusters of a capture's orphans: as lines (`2× button "1", "2"  in x-rating (shadow)  button.star`) and JSON. */
function clustersOf(r: Rematched): Summary["clusters"] {
  return r.clusters.map((c) => {
    const names = [...new Set(c.nodes.map((n) => n.node.name || textOf(n, 30)))].slice(0, 3)
      .map((n) => JSON.stringify(n)).join(", ");
    const where = c.ancestorHook ? `in ${c.ancestorHook}${c.boundary ? ` (${c.boundary})` : ""}` : "in the page";
    return {
      line: `  ${c.nodes.length}× ${c.role} ${escapeControls(names)}  ${escapeControls(where)}  ${
        escapeControls(describeElement(c.nodes[0]!))
      }`,
      json: {
        count: c.nodes.length,
        role: c.role,
        ancestor: c.ancestorHook,
        boundary: c.boundary,
        shape: c.shape,
        ids: c.nodes.map((n) => n.node.id),
      },
    };
  });
}

/** Runs `mapper coverage [FILES…]`. */
export async function runCoverage(opts: CoverageOptions, io: Io): Promise<number> {
  const { entries, unreadable, corpus } = await gather(opts, io, { coverage: true });
  if (entries.length === 0 && unreadable.length === 0) {
    throw new NotFoundError("no captures to check", {
      hint: "capture pages first: 'mapper capture' (the current page) or 'mapper capture --all'",
    });
  }
  const lines: string[] = [];
  const json: Record<string, unknown>[] = [];
  let failed = unreadable.length > 0;
  for (const e of entries) {
    const t3 = e.r.t3;
    const c = { interactive: e.r.interactive, t1: e.r.t1, t2: e.r.t2, t3 };
    if (e.r.stale) {
      lines.push(
        `[Coverage] ${escapeControls(e.stored.shown)} — stale: captured as ${
          escapeControls(e.r.recordedView ?? "")
        }, ` +
          `its URL is ${escapeControls(e.r.view ?? "no view")} now; left out`,
      );
    } else {
      lines.push(`[Coverage] ${escapeControls(e.stored.shown)} — ${escapeControls(e.group)} — ${coverageText(c)}`);
      if (c.interactive === 0) lines.push("  ∅ no interactive node");
      if (t3 > 0 || c.interactive === 0) failed = true;
      if (opts.trace && t3 > 0) lines.push(...e.r.clusters.map((cl) => cl.line));
    }
    json.push({
      file: e.stored.shown,
      view: e.group,
      stale: e.r.stale,
      ...c,
      claimed: Object.fromEntries(e.r.claimed),
      orphans: e.r.orphans,
      ...(opts.trace ? { clusters: e.r.clusters.map((cl) => cl.json) } : {}),
    });
  }
  for (const u of unreadable) {
    lines.push(`[Coverage] ${escapeControls(u.shown)} — unreadable: ${escapeControls(u.reason)}`);
  }
  const views: Record<string, unknown>[] = [];
  for (const [view, all] of byView(entries)) {
    const set = all.filter((e) => !e.r.stale);
    if (set.length === 0) continue;
    const dead = deadIn(set, view, corpus.wire);
    const presence = presenceOf(set, corpus.wire);
    const gaps = [...new Set(set.flatMap((e) => e.r.gaps))];
    lines.push("", `[View: ${escapeControls(view)}] ${set.length} ${set.length === 1 ? "capture" : "captures"}`);
    if (dead.length > 0) {
      lines.push("[Dead]");
      for (const d of dead) lines.push(`  ${escapeControls(d.component)}  ${d.kind}: ${escapeControls(d.why)}`);
    }
    lines.push("[Presence]");
    for (const p of presence) {
      lines.push(`  ${escapeControls(p.component)}  ${p.present}/${p.of}${p.last ? `  last ${p.last}` : ""}`);
    }
    if (gaps.length > 0) {
      lines.push("[Annotation gaps] (advisory)");
      for (const g of gaps.slice(0, 10)) lines.push(`  ${escapeControls(g)}`);
      if (gaps.length > 10) lines.push(`  … ${gaps.length - 10} more`);
    }
    views.push({ view, captures: set.length, dead, presence, gaps });
  }
  await writeResult(io, opts, lines.join("\n") + "\n", {
    captures: json,
    views,
    unreadable,
  });
  return failed ? EXIT_FAILURE : EXIT_OK;
}

/** Per component active in the set, in how many captures it claims an element, and the last such stamp. */
function presenceOf(
  set: readonly Entry[],
  wire: LoadedCorpus["wire"],
): Array<{ component: string; present: number; of: number; last: string | null }> {
  const names: string[] = [];
  for (const e of set) {
    for (const c of resolveAt(wire, e.url).components) if (!names.includes(c.name)) names.push(c.name);
  }
  return names.map((component) => {
    const having = set.filter((e) => (e.r.claimed.get(component) ?? 0) > 0);
    return { component, present: having.length, of: set.length, last: having.at(-1)?.stored.stamp ?? null };
  });
}

/** Options of `mapper report`. */
export interface ReportOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** `--json`. */
  json: boolean;
}

/** One row of the report. */
interface ReportRow {
  view: string;
  route: string;
  url: boolean;
  captures: number | null;
  last: string | null;
  interactive: number;
  t1: number;
  t2: number;
  t3: number;
  dead: number;
  largestT2: { component: string; count: number } | null;
  /** The view's own components' properties with no value in any capture (or that a capture cannot judge). */
  emptyProperties: EmptyProperty[];
  status: "ok" | "missing" | "no url" | "attention";
}

/** `20260607T193000Z` → `2026-06-07 19:30`. */
function shownStamp(stamp: string | null): string {
  const m = stamp ? /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)/.exec(stamp) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}` : "-";
}

/** Runs `mapper report`. */
export async function runReport(opts: ReportOptions, io: Io): Promise<number> {
  const empty = new EmptyTracker();
  const { entries, unreadable, corpus } = await gather({ ...opts }, io, { properties: empty });
  const views = corpus.model.views;
  if (views.length === 0) {
    throw new NotFoundError("the corpus declares no views", {
      hint: "add views: [{name: Catalog, route: /shop, url: https://shop.test/shop}] to a .mapper/*.yaml file",
    });
  }
  const groups = byView(entries);
  const rows: ReportRow[] = views.map((v) => {
    const set = (groups.get(v.name) ?? []).filter((e) => !e.r.stale);
    const sum = (f: (e: Entry) => number) => set.reduce((n, e) => n + f(e), 0);
    const latest = set.at(-1);
    const largest = [...(latest?.r.t2By ?? [])].sort((a, b) => b[1] - a[1])[0];
    const row: ReportRow = {
      view: v.name,
      route: v.route ?? "",
      url: v.url !== undefined,
      captures: set.length,
      last: latest?.stored.stamp ?? null,
      interactive: sum((e) => e.r.interactive),
      t1: sum((e) => e.r.t1),
      t2: sum((e) => e.r.t2),
      t3: sum((e) => e.r.t3),
      dead: set.length ? deadIn(set, v.name, corpus.wire).length : 0,
      largestT2: largest ? { component: largest[0], count: largest[1] } : null,
      emptyProperties: empty.of(v.name),
      status: "ok",
    };
    row.status = set.length === 0
      ? (row.url ? "missing" : "no url")
      : row.t3 > 0 || row.dead > 0 || row.interactive === 0
      ? "attention"
      : "ok";
    return row;
  });
  const table: string[][] = [["View", "Route", "url", "Caps", "Last", "T1", "T2", "T3", "Dead", "Largest T2"]];
  for (const r of rows) {
    const has = (r.captures ?? 0) > 0;
    table.push([
      r.view,
      r.route,
      r.url ? "✓" : "-",
      r.status === "no url" && !has ? "-" : String(r.captures),
      shownStamp(r.last),
      has ? pct(r.t1, r.interactive) : "",
      has ? pct(r.t2, r.interactive) : "",
      has ? String(r.t3) : "",
      has ? (r.dead ? String(r.dead) : "-") : "",
      has
        ? (r.largestT2 ? `${r.largestT2.component} (${r.largestT2.count})` : "-")
        : r.status === "missing"
        ? "missing: mapper capture --all"
        : "no url:",
    ]);
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => [...row[i]!].length)));
  const lines = table.map((row) =>
    " " + row.map((cell, i) => escapeControls(cell).padEnd(widths[i]!)).join("  ").trimEnd()
  );
  const ok = rows.filter((r) => r.status === "ok").length;
  const missing = rows.filter((r) => r.status === "missing").length;
  const noUrl = rows.filter((r) => r.status === "no url").length;
  const withCaps = rows.filter((r) => (r.captures ?? 0) > 0 && r.interactive > 0);
  const avg = withCaps.length
    ? Math.round(withCaps.reduce((n, r) => n + (100 * r.t1) / r.interactive, 0) / withCaps.length)
    : null;
  lines.push(
    ` ${ok}/${rows.length} views ✓ · ${missing} missing · ${noUrl} without url:${
      avg === null ? "" : ` · avg T1 ${avg}%`
    }`,
  );
  for (const r of rows) lines.push(...r.emptyProperties.map((p) => emptyLine(r.view, p)));
  const globals = empty.of(GLOBALS);
  lines.push(...globals.map((p) => emptyLine(GLOBALS, p)));
  const stale = entries.filter((e) => e.r.stale);
  for (const e of stale) {
    lines.push(
      `stale: ${escapeControls(e.stored.shown)} (captured as ${escapeControls(e.r.recordedView ?? "")}, now ${
        escapeControls(e.r.view ?? "no view")
      })`,
    );
  }
  for (const u of unreadable) lines.push(`unreadable: ${escapeControls(u.shown)}: ${escapeControls(u.reason)}`);
  await writeResult(io, opts, lines.join("\n") + "\n", {
    views: rows,
    globals: { emptyProperties: globals },
    stale: stale.map((e) => ({ file: e.stored.shown, recorded: e.r.recordedView, now: e.r.view })),
    unreadable,
  });
  return rows.some((r) => r.status === "missing" || r.status === "attention") || unreadable.length > 0
    ? EXIT_FAILURE
    : EXIT_OK;
}

/** Runs `mapper multi-coverage [FILES…]`. */
export async function runMultiCoverage(opts: CoverageOptions, io: Io): Promise<number> {
  const { entries, corpus } = await gather(opts, io);
  const stale = entries.filter((e) => e.r.stale);
  const sets = [...byView(entries.filter((e) => !e.r.stale))];
  const globals = new Set(corpus.wire.globals?.map((c) => c.name) ?? []);
  const rows = new Map<string, Map<string, number>>();
  for (const [view, set] of sets) {
    for (const e of set) {
      for (const [c, n] of e.r.claimed) {
        const row = rows.get(c) ?? new Map<string, number>();
        row.set(view, Math.max(row.get(view) ?? 0, n));
        rows.set(c, row);
      }
    }
  }
  const columns = sets.map(([v]) => v);
  const table: string[][] = [["Component", ...columns]];
  for (const [c, row] of rows) {
    table.push([globals.has(c) ? `${c} g` : c, ...columns.map((v) => (row.has(v) ? String(row.get(v)) : "·"))]);
  }
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => [...r[i]!].length)));
  const lines = table.map((r) =>
    " " + r.map((cell, i) => escapeControls(cell).padEnd(widths[i]!)).join("  ").trimEnd()
  );
  // Declarations across views: same name and selector → promote; same name, other selectors → unify or keep
  // scoped; other names, same selector → duplicate.
  const decl: Array<{ view: string; name: string; selector: string }> = [];
  for (const v of corpus.wire.views) {
    const walk = (cs: ReadonlyArray<{ name: string; selector: string; children?: unknown[] }>) => {
      for (const c of cs) {
        decl.push({ view: v.name, name: c.name, selector: c.selector });
        walk((c.children ?? []) as typeof cs);
      }
    };
    walk(v.components as ReadonlyArray<{ name: string; selector: string; children?: unknown[] }>);
  }
  const advice: Array<{ kind: string; name: string; selector?: string; views: string[] }> = [];
  const byName = new Map<string, typeof decl>();
  for (const d of decl) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  for (const [name, ds] of byName) {
    const views = [...new Set(ds.map((d) => d.view))];
    if (views.length < 2) continue;
    const selectors = new Set(ds.map((d) => d.selector));
    if (selectors.size === 1) advice.push({ kind: "promote", name, selector: ds[0]!.selector, views });
    else advice.push({ kind: "unify", name, views });
  }
  const bySelector = new Map<string, typeof decl>();
  for (const d of decl) bySelector.set(d.selector, [...(bySelector.get(d.selector) ?? []), d]);
  for (const [selector, ds] of bySelector) {
    const names = [...new Set(ds.map((d) => d.name))];
    if (names.length > 1) {
      advice.push({
        kind: "duplicate",
        name: names.join(", "),
        selector,
        views: [...new Set(ds.map((d) => d.view))],
      });
    }
  }
  if (advice.length > 0) lines.push("");
  for (const a of advice) {
    const v = a.views.map((x) => escapeControls(x)).join(", ");
    if (a.kind === "promote") {
      lines.push(
        `promote ${escapeControls(a.name)} (${escapeControls(a.selector!)}) to a global: declared alike in ${v}`,
      );
    } else if (a.kind === "unify") {
      lines.push(`unify ${escapeControls(a.name)}: different selectors in ${v} (or keep them scoped)`);
    } else lines.push(`duplicate: ${escapeControls(a.name)} share ${escapeControls(a.selector!)} (${v})`);
  }
  for (const e of stale) {
    lines.push(
      `⚠ stale, left out: ${escapeControls(e.stored.shown)} (captured as ${
        escapeControls(e.r.recordedView ?? "")
      }, now ${escapeControls(e.r.view ?? "no view")})`,
    );
  }
  const matrix = Object.fromEntries([...rows].map(([c, row]) => [c, Object.fromEntries(row)]));
  await writeResult(io, opts, lines.join("\n") + "\n", {
    views: columns,
    globals: [...globals],
    matrix,
    advice,
    stale: stale.map((e) => e.stored.shown),
  });
  return EXIT_OK;
}
