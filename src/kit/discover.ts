/**
 * `mapper discover [--all]`: where the map could go next. The links of the current page (`a[href]`, `area[href]` in
 * every root: the document, open shadow roots, same-origin frames) — with `--all`, of every capture too — on the
 * page's origin (scheme, host and port), query and fragment dropped, folded into URL patterns: a segment of digits,
 * a UUID, hex of 8 or more, or a slug with a digit becomes `:id`; three or more values at one position under one
 * prefix (never the first segment) fold into `:id` unless a view's route names that value literally. Each pattern is marked:
 *
 * - `✓` mapped: a view's route (not a catch-all) matches it;
 * - `~` only a catch-all (`**`) route reaches it — warned about: such a route swallows structurally different pages;
 * - `○` surveyed: no view, but a capture was taken there;
 * - `?` unseen.
 *
 * @module
 */
import { matchViews, normalizeCorpus, parseRoute } from "../../assets/extension/resolver.js";
import type { WireCorpus } from "../corpus/mod.ts";
import { DataError, EXIT_OK } from "../errors.ts";
import type { Io } from "../io.ts";
import { type CapturedTree, corpusDir, isFrame, isNode, isShadow, loadCorpus, type TreeChild } from "../offline/mod.ts";
import type { SnapshotPayload } from "../see/page_api.ts";
import { pageCall } from "../see/client.ts";
import { writeResult } from "../see/output.ts";
import { escapeControls } from "../terminal.ts";
import { readCaptures } from "./captures.ts";

/** A link found on a page. */
export interface FoundLink {
  /** Absolute URL. */
  url: string;
  /** Whether the element was visible. */
  visible: boolean;
}

/** The links of a captured tree (every root), resolved against the page URL (a frame's against its own). */
export function linksOf(tree: CapturedTree["tree"]): FoundLink[] {
  const out: FoundLink[] = [];
  const walk = (children: readonly TreeChild[], base: string) => {
    for (const c of children) {
      if (typeof c === "string") continue;
      if (isShadow(c)) walk(c.children, base);
      else if (isFrame(c)) walk(c.children, c.url || base);
      else if (isNode(c)) {
        const href = c.attrs.href;
        if ((c.tag === "a" || c.tag === "area") && href !== undefined) {
          try {
            out.push({ url: new URL(href, base).href, visible: c.visible === true });
          } catch {
            // not a URL: nothing to map
          }
        }
        walk(c.children, base);
      }
    }
  };
  walk([tree.root], tree.url);
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path segment is an identifier: digits, a UUID, hex ≥ 8, a slug with a digit. */
export function isIdSegment(s: string): boolean {
  return /^\d+$/.test(s) || UUID.test(s) || /^[0-9a-f]{8,}$/i.test(s) ||
    (/^[\p{L}\p{N}_.~-]+$/u.test(s) && /\d/.test(s) && /[-_]/.test(s));
}

/** One pattern of links. */
export interface LinkPattern {
  /** `/products/:id`. */
  pattern: string;
  /** Links folded into it. */
  links: number;
  /** A real URL of it (for route matching). */
  sample: string;
  /** Every link to it was hidden. */
  hidden: boolean;
  /** `mapped`, `catch-all`, `surveyed`, `unseen`. */
  status: "mapped" | "catch-all" | "surveyed" | "unseen";
  /** The view that maps it (also for a catch-all), `null` when none. */
  view: string | null;
  /** The route of that view. */
  route: string | null;
}

/** Literal route segments by position: what a route names literally is never folded away. */
function literalSegments(wire: WireCorpus | undefined): Array<Set<string>> {
  const out: Array<Set<string>> = [];
  for (const v of wire?.views ?? []) {
    if (!v.route) continue;
    parseRoute(v.route).forEach((seg, i) => {
      if (seg.kind === "literal") (out[i] ??= new Set()).add(seg.text);
    });
  }
  return out;
}

/**
 * Folds same-origin links into patterns and marks each (see the module documentation). `captured`: URLs captures
 * were taken at.
 */
export function foldLinks(
  links: readonly FoundLink[],
  origin: string,
  wire: WireCorpus | undefined,
  captured: readonly string[] = [],
): LinkPattern[] {
  const literal = literalSegments(wire);
  type Item = { segs: string[]; url: string; visible: boolean };
  const items: Item[] = [];
  for (const l of links) {
    const u = new URL(l.url);
    if (u.origin !== origin) continue;
    const segs = u.pathname.split("/").filter((s) => s !== "").map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    items.push({
      segs: segs.map((s, i) => (isIdSegment(s) && !literal[i]?.has(s) ? ":id" : s)),
      url: u.origin + u.pathname,
      visible: l.visible,
    });
  }
  // ≥ 3 distinct values at one position under one prefix (and of one length) fold into `:id`.
  const depth = Math.max(0, ...items.map((i) => i.segs.length));
  // Never the first segment: a site's top-level sections are not instances of one thing.
  for (let pos = 1; pos < depth; pos++) {
    const groups = new Map<string, Set<string>>();
    for (const it of items) {
      if (it.segs.length <= pos) continue;
      const key = `${it.segs.length}\u0000${it.segs.slice(0, pos).join("/")}`;
      (groups.get(key) ?? groups.set(key, new Set()).get(key)!).add(it.segs[pos]!);
    }
    for (const it of items) {
      if (it.segs.length <= pos) continue;
      const values = groups.get(`${it.segs.length}\u0000${it.segs.slice(0, pos).join("/")}`)!;
      const value = it.segs[pos]!;
      if (values.size >= 3 && value !== ":id" && !literal[pos]?.has(value)) it.segs[pos] = ":id";
    }
  }
  const corpus = wire ? normalizeCorpus(wire) : null;
  const byPattern = new Map<string, LinkPattern>();
  for (const it of items) {
    const pattern = "/" + it.segs.join("/");
    let p = byPattern.get(pattern);
    if (!p) {
      const best = corpus ? matchViews(corpus.views, it.url)[0] : undefined;
      const route = best?.view.route ?? null;
      const catchAll = route !== null && parseRoute(route).some((s) => s.kind === "globstar");
      const re = new RegExp(
        "^" + it.segs.map((s) => (s === ":id" ? "/[^/]+" : "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("") +
          "/?$",
      );
      const seen = captured.some((c) => {
        try {
          const u = new URL(c);
          return u.origin === origin && re.test(decodeURIComponent(u.pathname));
        } catch {
          return false;
        }
      });
      p = {
        pattern,
        links: 0,
        sample: it.url,
        hidden: true,
        status: best && !catchAll ? "mapped" : best ? "catch-all" : seen ? "surveyed" : "unseen",
        view: best?.view.name ?? null,
        route,
      };
      byPattern.set(pattern, p);
    }
    p.links++;
    if (it.visible) p.hidden = false;
  }
  return [...byPattern.values()].sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
}

const MARK = { mapped: "✓", "catch-all": "~", surveyed: "○", unseen: "?" } as const;

/** The text of `discover`. */
export function formatDiscover(patterns: readonly LinkPattern[]): string {
  const width = Math.max(0, ...patterns.map((p) => [...p.pattern].length));
  const lines = patterns.map((p) => {
    const n = `${p.links} ${p.links === 1 ? "link" : "links"}${p.hidden ? " (hidden)" : ""}`;
    const what = p.status === "mapped"
      ? `${p.view}`
      : p.status === "catch-all"
      ? `only catch-all ${p.view} (${p.route})`
      : p.status === "surveyed"
      ? "surveyed (captured, no view)"
      : "unseen";
    return `${MARK[p.status]}  ${escapeControls(p.pattern.padEnd(width))}  ${escapeControls(what)} · ${n}`;
  });
  if (patterns.length === 0) lines.push("no same-origin links");
  const wide = patterns.filter((p) => p.status === "catch-all").length;
  if (wide > 0) {
    lines.push(
      `⚠ ${wide} ${wide === 1 ? "pattern is" : "patterns are"} mapped only by a catch-all route; give ${
        wide === 1 ? "it" : "them"
      } a view of its own (a catch-all swallows structurally different pages)`,
    );
  }
  return lines.join("\n") + "\n";
}

/** Options of `mapper discover`. */
export interface DiscoverOptions {
  /** `--dir`. */
  dir?: string | undefined;
  /** `--tab`. */
  tab?: string | undefined;
  /** `--all`: the links of every capture too. */
  all: boolean;
  /** `--json`. */
  json: boolean;
}

/** Runs `mapper discover`. */
export async function runDiscover(opts: DiscoverOptions, io: Io): Promise<number> {
  const dir = corpusDir(opts.dir, io);
  const corpus = await loadCorpus(dir, io);
  const payload = await pageCall<SnapshotPayload>(opts.dir, io, "snapshot", { tab: opts.tab, tree: true }, 90_000);
  const tree = payload.tree;
  if (tree === undefined) {
    throw new DataError("the browser session answered no tree (it runs an older mapper)", {
      hint: "restart it: 'mapper browser stop', then 'mapper browser start'",
    });
  }
  const links = linksOf(tree);
  const { captures } = await readCaptures(dir.path);
  if (opts.all) { for (const c of captures) links.push(...linksOf(c.tree.tree)); }
  const origin = new URL(tree.url).origin;
  const patterns = foldLinks(links, origin, corpus.wire, captures.map((c) => c.tree.tree.url));
  await writeResult(io, opts, formatDiscover(patterns), { url: tree.url, origin, patterns });
  return EXIT_OK;
}
